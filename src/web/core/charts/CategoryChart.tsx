/**
 * A chart of categories with counts, the one every analysis page uses: a pie for a few categories, a
 * sorted horizontal bar chart for more (chart-kind.ts). Labels carry the number and are never cut
 * through it. ECharts is imported modularly (SVG renderer) and only where this component loads: load it
 * with React.lazy.
 */
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { chartKindOf, shortLabel, sortedForBars, type Category, type ChartKind } from './chart-kind';

echarts.use([PieChart, BarChart, TooltipComponent, GridComponent, SVGRenderer]);

/** Longest category name shown beside a bar; the full name is in the tooltip. */
const BAR_LABEL_CHARS = 12;
const BAR_HEIGHT = 26;

export interface CategoryChartProps<T extends Category> {
  categories: T[];
  /** What the number counts (人). */
  unit?: string;
  /** A click on a slice or bar. */
  onPick?: (category: T) => void;
  /** The chart asked for (a report's definition); default: by the number of categories. */
  kind?: ChartKind;
}

function pieOption<T extends Category>(categories: T[], unit: string): echarts.EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: `{b}：{c}${unit}（{d}%）` },
    series: [
      {
        type: 'pie',
        radius: ['26%', '46%'],
        center: ['50%', '50%'],
        avoidLabelOverlap: true,
        data: categories.map((c) => ({ name: c.label, value: c.count, category: c })),
        // Name and number on their own lines, held inside the chart's edges so nothing is cut off.
        label: { formatter: `{b}\n{c}${unit}（{d}%）`, alignTo: 'edge', edgeDistance: 6, overflow: 'none', lineHeight: 15 },
        labelLine: { length: 6, length2: 0 },
        labelLayout: { hideOverlap: false, moveOverlap: 'shiftY' },
      },
    ],
  };
}

function barOption<T extends Category>(categories: T[], unit: string): echarts.EChartsCoreOption {
  // Largest at the top: the category axis runs bottom-up.
  const rows = sortedForBars(categories).reverse();
  return {
    tooltip: { trigger: 'item', formatter: `{b}：{c}${unit}` },
    grid: { left: 8, right: 56, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', show: false },
    yAxis: {
      type: 'category',
      data: rows.map((c) => c.label),
      axisTick: { show: false },
      axisLabel: { formatter: (label: string) => shortLabel(label, BAR_LABEL_CHARS) },
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: 16,
        data: rows.map((c) => ({ value: c.count, category: c })),
        label: { show: true, position: 'right', formatter: `{c}${unit}` },
      },
    ],
  };
}

export default function CategoryChart<T extends Category>({ categories, unit = '人', onPick, kind: asked }: CategoryChartProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const kind = asked ?? chartKindOf(categories);
  const height = kind === 'pie' ? 300 : Math.max(160, categories.length * BAR_HEIGHT + 24);
  useEffect(() => {
    const chart = echarts.init(ref.current!, undefined, { renderer: 'svg' });
    chart.setOption(kind === 'pie' ? pieOption(categories, unit) : barOption(categories, unit));
    chart.on('click', (params) => pick.current?.((params.data as { category: T }).category));
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [categories, kind, unit]);
  return <div ref={ref} style={{ height }} className="category-chart" data-chart={kind} />;
}

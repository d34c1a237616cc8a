/**
 * The charts of 大数据展示 on a dark screen: bars by committee, a pie, a funnel and monthly columns.
 * ECharts imported modularly, only with this page.
 */
import { BarChart, FunnelChart, PieChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, PieChart, FunnelChart, GridComponent, TooltipComponent, SVGRenderer]);

export interface Datum {
  label: string;
  value: number;
}

const TEXT = '#cfe3ff';
const COLORS = ['#ff6b6b', '#ffd166', '#4cc9f0', '#80ed99', '#b197fc', '#f4a261', '#2ec4b6', '#e76f51'];

function option(kind: 'bars' | 'pie' | 'funnel' | 'columns', data: Datum[], unit: string): echarts.EChartsCoreOption {
  const tooltip = { trigger: 'item', formatter: `{b}：{c}${unit}` };
  if (kind === 'pie') {
    return { tooltip, color: COLORS, series: [{ type: 'pie', radius: ['32%', '56%'], data: data.map((d) => ({ name: d.label, value: d.value })), label: { color: TEXT, formatter: `{b}\n{c}${unit}（{d}%）`, overflow: 'none' } }] };
  }
  if (kind === 'funnel') {
    return {
      tooltip,
      color: COLORS,
      series: [{ type: 'funnel', sort: 'none', left: '6%', width: '88%', top: 4, bottom: 4, gap: 2, minSize: '20%', data: data.map((d) => ({ name: d.label, value: d.value })), label: { position: 'inside', color: '#10233f', formatter: `{b} {c}${unit}` } }],
    };
  }
  if (kind === 'columns') {
    return {
      tooltip,
      grid: { left: 8, right: 8, top: 24, bottom: 4, containLabel: true },
      xAxis: { type: 'category', data: data.map((d) => d.label), axisLabel: { color: TEXT, interval: 0, fontSize: 11, width: 70, overflow: 'break' } },
      yAxis: { type: 'value', axisLabel: { color: TEXT }, splitLine: { lineStyle: { color: 'rgba(255,255,255,0.08)' } } },
      series: [{ type: 'bar', data: data.map((d) => d.value), itemStyle: { color: '#4cc9f0' }, barMaxWidth: 22, label: { show: true, position: 'top', color: TEXT } }],
    };
  }
  const rows = [...data].sort((a, b) => a.value - b.value);
  return {
    tooltip,
    grid: { left: 8, right: 48, top: 4, bottom: 4, containLabel: true },
    xAxis: { type: 'value', show: false },
    yAxis: { type: 'category', data: rows.map((d) => d.label), axisLabel: { color: TEXT, width: 150, overflow: 'truncate' }, axisTick: { show: false } },
    series: [{ type: 'bar', data: rows.map((d) => d.value), barMaxWidth: 14, itemStyle: { color: '#ffd166' }, label: { show: true, position: 'right', color: TEXT } }],
  };
}

export default function BigChart({ kind, data, unit = '' }: { kind: 'bars' | 'pie' | 'funnel' | 'columns'; data: Datum[]; unit?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = echarts.init(ref.current!, undefined, { renderer: 'svg' });
    chart.setOption(option(kind, data, unit));
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(ref.current!);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [kind, data, unit]);
  return <div ref={ref} style={{ width: '100%', height: '100%' }} />;
}

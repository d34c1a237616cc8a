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

/** The width one column's axis label may take: the plot's width (less the value axis) shared by the columns. */
const columnWidth = (chartWidth: number, columns: number) => Math.max(28, Math.floor((chartWidth - 56) / Math.max(columns, 1)) - 4);
const COLORS = ['#ff6b6b', '#ffd166', '#4cc9f0', '#80ed99', '#b197fc', '#f4a261', '#2ec4b6', '#e76f51'];

function option(kind: 'bars' | 'pie' | 'funnel' | 'columns', data: Datum[], unit: string, width: number): echarts.EChartsCoreOption {
  const tooltip = { trigger: 'item', formatter: `{b}：{c}${unit}` };
  if (kind === 'pie') {
    // Each share as counted (184 of 600 is 30.67 %), not ECharts' {d}, which rounds the shares to add up to 100.
    const total = data.reduce((t, d) => t + d.value, 0);
    const share = (v: number) => (total ? `${((v / total) * 100).toFixed(2)}%` : '—');
    return {
      tooltip: { trigger: 'item', formatter: (p: { name: string; value: number }) => `${p.name}：${p.value.toLocaleString('zh-CN')}${unit}（${share(p.value)}）` },
      color: COLORS,
      series: [{
        type: 'pie', radius: ['28%', '48%'], data: data.map((d) => ({ name: d.label, value: d.value })),
        // Labels kept inside the panel: aligned to its edges, wrapped within the room left beside the ring.
        label: { color: TEXT, alignTo: 'edge', edgeDistance: 6, lineHeight: 16, formatter: (p: { name: string; value: number }) => `${p.name}\n${share(p.value)}\n${p.value.toLocaleString('zh-CN')}${unit}` },
        labelLine: { length: 8, length2: 0, maxSurfaceAngle: 80 },
      }],
    };
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
      // Every category named, each label wrapped within its own column's width (no overlap at 1440 or 1920).
      xAxis: { type: 'category', data: data.map((d) => d.label), axisLabel: { color: TEXT, interval: 0, fontSize: 11, width: columnWidth(width, data.length), overflow: 'break' } },
      yAxis: { type: 'value', axisLabel: { color: TEXT }, splitLine: { lineStyle: { color: 'rgba(255,255,255,0.08)' } } },
      // A value over each column where there is room for it (at 1920 for twelve months); else in the tooltip.
      series: [{ type: 'bar', data: data.map((d) => d.value), itemStyle: { color: '#4cc9f0' }, barMaxWidth: 22, label: { show: columnWidth(width, data.length) >= 32, position: 'top', color: TEXT, fontSize: 11 }, labelLayout: { hideOverlap: true } }],
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
    chart.setOption(option(kind, data, unit, chart.getWidth()));
    const resize = new ResizeObserver(() => {
      chart.resize();
      chart.setOption(option(kind, data, unit, chart.getWidth()));
    });
    resize.observe(ref.current!);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [kind, data, unit]);
  return <div ref={ref} style={{ width: '100%', height: '100%' }} />;
}

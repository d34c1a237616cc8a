import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface BarSeries {
  name: string;
  values: number[];
}

/** Grouped bars per month (1月 … 12月). ECharts is imported modularly and only on this page. */
export default function MonthBarChart({ months, series }: { months: string[]; series: BarSeries[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 40, right: 16, top: 16, bottom: 48 },
      xAxis: { type: 'category', data: months.map((m) => `${Number(m.slice(5))}月`) },
      yAxis: { type: 'value', minInterval: 1 },
      series: series.map((s) => ({ type: 'bar', name: s.name, data: s.values })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [months, series]);
  return <div ref={ref} style={{ height: 320 }} className="month-bar-chart" />;
}

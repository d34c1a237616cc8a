import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { MonthFigures } from '../../../shared/dues/api';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** Monthly collection: due and paid (bars, yuan) and the rate of payment (line, %). Loaded with the report page only. */
export default function MonthlyChart({ months }: { months: MonthFigures[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { data: ['应交', '实交', '缴纳率'], bottom: 0 },
      grid: { left: 60, right: 50, top: 30, bottom: 50 },
      xAxis: { type: 'category', data: months.map((m) => m.title.replace(/党费$/, '')) },
      yAxis: [
        { type: 'value', name: '元' },
        { type: 'value', name: '%', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      ],
      series: [
        { name: '应交', type: 'bar', data: months.map((m) => Number(m.due)), itemStyle: { color: '#d9d9d9' } },
        { name: '实交', type: 'bar', data: months.map((m) => Number(m.paid)), itemStyle: { color: '#c0392b' } },
        { name: '缴纳率', type: 'line', yAxisIndex: 1, data: months.map((m) => Number((m.rate * 100).toFixed(1))), itemStyle: { color: '#d4a017' } },
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [months]);
  return <div ref={ref} className="dues-chart" style={{ height: 320 }} />;
}

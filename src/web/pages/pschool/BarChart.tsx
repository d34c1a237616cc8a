import { BarChart as EBar } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([EBar, GridComponent, TooltipComponent, CanvasRenderer]);

/** Horizontal bars of option counts (ECharts, imported modularly, only with the results page). */
export default function BarChart({ bars }: { bars: { label: string; value: number }[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption({
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', inverse: true, data: bars.map((b) => b.label), axisLabel: { width: 140, overflow: 'truncate' } },
      series: [{ type: 'bar', data: bars.map((b) => b.value), itemStyle: { color: '#c0392b' }, label: { show: true, position: 'right' } }],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [bars]);
  return <div ref={ref} style={{ height: Math.max(120, bars.length * 36 + 24) }} />;
}

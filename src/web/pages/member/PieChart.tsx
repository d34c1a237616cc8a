import { PieChart as EPie } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Slice } from './analysis-filters';

echarts.use([EPie, TooltipComponent, LegendComponent, CanvasRenderer]);

/** A pie of slices; clicking a slice reports it. ECharts is imported modularly and only on this page. */
export default function PieChart({ slices, onPick }: { slices: Slice[]; onPick: (slice: Slice) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption({
      tooltip: { trigger: 'item', formatter: '{b}：{c}人（{d}%）' },
      legend: { type: 'scroll', bottom: 0 },
      series: [{ type: 'pie', radius: ['35%', '65%'], center: ['50%', '45%'], data: slices.map((s) => ({ name: s.label, value: s.count, slice: s })), label: { formatter: '{b}\n{d}%' } }],
    });
    chart.on('click', (params) => pick.current((params.data as { slice: Slice }).slice));
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [slices]);
  return <div ref={ref} style={{ height: 280 }} className="pie-chart" />;
}

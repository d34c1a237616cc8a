import { FunnelChart as EFunnel } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Funnel } from './api';

echarts.use([EFunnel, TooltipComponent, CanvasRenderer]);

const COLORS = ['#91caff', '#69b1ff', '#4096ff', '#1677ff', '#c41d7f'];

/**
 * The development funnel of an organisation: applications in each stage, from 入党申请人 to 正式党员
 * (ECharts, imported modularly, only on this page). Clicking a stage reports it.
 */
export default function FunnelChart({ funnel, onPick }: { funnel: Funnel; onPick: (stage: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption({
      tooltip: { trigger: 'item', formatter: '{b}：{c}人' },
      series: [
        {
          type: 'funnel',
          sort: 'none',
          left: '8%',
          width: '84%',
          top: 8,
          bottom: 8,
          minSize: '18%',
          gap: 2,
          label: { show: true, position: 'inside', formatter: '{b}  {c}人', color: '#fff' },
          data: funnel.stages.map((s, i) => ({ name: s.title, value: s.count, stage: s.value, itemStyle: { color: COLORS[i] } })),
        },
      ],
    });
    chart.on('click', (params) => pick.current((params.data as { stage: string }).stage));
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [funnel]);
  return <div ref={ref} className="dev-funnel" data-total={funnel.total} />;
}

import { FunnelChart as EFunnel } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Funnel } from './api';

echarts.use([EFunnel, TooltipComponent, CanvasRenderer]);

const COLORS = ['#91caff', '#69b1ff', '#4096ff', '#1677ff', '#c41d7f'];

/**
 * The development funnel of an organisation: applications in progress that reached each stage, from
 * 入党申请人 to 正式党员 (ECharts, imported modularly, only on this page). Clicking a stage reports it.
 */
export default function FunnelChart({ funnel, onPick }: { funnel: Funnel; onPick: (stage: string, reached: boolean) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const chart = echarts.init(ref.current!);
    chart.setOption({
      tooltip: { trigger: 'item', formatter: '已到{b}阶段及以后：{c}人' },
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
          // Cumulative (at the stage or beyond), so the funnel never widens; a click lists exactly those.
          data: funnel.stages.map((s, i) => ({ name: s.title, value: s.reached, stage: s.value, itemStyle: { color: COLORS[i] } })),
        },
      ],
    });
    chart.on('click', (params) => pick.current((params.data as { stage: string }).stage, true));
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [funnel]);
  return <div ref={ref} className="dev-funnel" data-total={funnel.total} />;
}

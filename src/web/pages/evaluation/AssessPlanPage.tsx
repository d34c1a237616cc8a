/**
 * 考核方案: the plans (module assess-plan, with their indicators and the scores of the level above) below
 * a plan's results — each scored branch's weighted total (Σ score / full marks × weight) and its rank
 * (`GET /api/evaluation/assess/{id}/results`).
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { IN_PLACE, moduleApi } from '../../renderer/api';
import ModulePage from '../../renderer/ModulePage';
import { evaluationApi, type AssessResult } from './api';

export default function AssessPlanPage({ title }: { title?: string }) {
  const [chosen, setChosen] = useState<number>();
  const plans = useQuery({
    queryKey: ['module', 'assess-plan', 'list', 'results-choice'],
    queryFn: () => moduleApi.list('assess-plan', {}, { page: 0, size: 100, sort: 'year,desc' }, IN_PLACE),
  });
  const options = (plans.data?.content ?? []).map((p) => ({ value: p.id, label: `${p.year ?? ''}年 ${String(p.title ?? '')}` }));
  const planId = chosen ?? options[0]?.value;
  const results = useQuery({ queryKey: ['module', 'assess-plan', 'results', planId], queryFn: () => evaluationApi.assessResults(planId!), enabled: planId !== undefined });
  const header = (
    <Card size="small" className="rt-card evaluation-assess-results" title="考核结果与排名（得分÷满分×权重，由上级党组织评分）">
      <Space wrap style={{ marginBottom: 12 }}>
        <span>考核方案</span>
        <Select value={planId} onChange={setChosen} options={options} loading={plans.isLoading} style={{ width: 360 }} aria-label="考核方案" placeholder="暂无考核方案" />
      </Space>
      <Table<AssessResult>
        size="small"
        rowKey="orgId"
        loading={results.isFetching}
        dataSource={planId === undefined ? [] : (results.data?.content ?? [])}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="该方案尚无评分" /> }}
        columns={[
          { title: '排名', dataIndex: 'rank', width: 70 },
          { title: '党组织', dataIndex: 'orgName', ellipsis: true },
          { title: '已评指标', dataIndex: 'indicators', width: 100 },
          { title: '加权得分', dataIndex: 'total', width: 100, render: (v: number) => <strong>{v}</strong> },
        ]}
      />
    </Card>
  );
  return <ModulePage moduleId="assess-plan" title={title} header={header} />;
}

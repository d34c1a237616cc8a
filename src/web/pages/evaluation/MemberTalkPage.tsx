/**
 * 谈心谈话: the talks (module member-talk) below the year's coverage per branch — 支部委员会成员与每名党员每年至少
 * 谈心谈话一次，书记与每名支委每年至少一次 (支部工作条例 第十六条) — with the members nobody talked to.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Progress, Table, Tag } from 'antd';
import { useState } from 'react';
import ModulePage from '../../renderer/ModulePage';
import { ScopeYearBar } from './ScopeYearBar';
import { evaluationApi, type TalkCoverage } from './api';

export default function MemberTalkPage({ title }: { title?: string }) {
  const [orgId, setOrgId] = useState<number>();
  const [year, setYear] = useState(new Date().getFullYear());
  const coverage = useQuery({ queryKey: ['module', 'member-talk', 'coverage', orgId, year], queryFn: () => evaluationApi.coverage(orgId, year) });
  const names = (list: { name: string }[]) => (list.length ? list.map((m) => m.name).join('、') : '—');
  const header = (
    <Card size="small" className="rt-card evaluation-coverage" title="谈心谈话覆盖情况（支委与每名党员、书记与每名支委每年至少一次）">
      <ScopeYearBar orgId={orgId} onOrg={setOrgId} year={year} onYear={setYear} />
      <Table<TalkCoverage>
        size="small"
        rowKey="orgId"
        loading={coverage.isLoading}
        dataSource={coverage.data?.branches ?? []}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description="范围内没有党支部" /> }}
        columns={[
          { title: '党支部', dataIndex: 'orgName', width: 220, ellipsis: true },
          { title: '应谈', dataIndex: 'required', width: 70 },
          { title: '已谈', dataIndex: 'covered', width: 70 },
          { title: '覆盖率', dataIndex: 'rate', width: 160, render: (v: number) => <Progress percent={v} size="small" status={v >= 100 ? 'success' : 'active'} /> },
          { title: '尚无人谈话的党员', dataIndex: 'uncovered', render: (v: TalkCoverage['uncovered']) => (v.length ? <span className="talk-uncovered">{names(v)}</span> : <Tag color="green">已全覆盖</Tag>) },
          { title: '书记尚未谈话的支委', dataIndex: 'committeeMissed', width: 200, render: names },
        ]}
      />
    </Card>
  );
  return <ModulePage moduleId="member-talk" title={title} header={header} />;
}

/**
 * 党员帮扶: the assistance cases (module member-assist, with its approval by the level above) below the
 * year's totals per branch — cases, the amounts approved and paid (`GET /api/evaluation/assist/totals`).
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Table } from 'antd';
import { useState } from 'react';
import ModulePage from '../../renderer/ModulePage';
import { ScopeYearBar } from './ScopeYearBar';
import { evaluationApi, type AssistTotal } from './api';

/** The sum of amounts given in yuan with two decimals, counted in cents (no floating-point drift). */
const sumYuan = (rows: AssistTotal[], field: 'approved' | 'paid') => (rows.reduce((s, r) => s + Math.round(Number(r[field]) * 100), 0) / 100).toFixed(2);

export default function MemberAssistPage({ title }: { title?: string }) {
  const [orgId, setOrgId] = useState<number>();
  const [year, setYear] = useState(new Date().getFullYear());
  const totals = useQuery({ queryKey: ['module', 'member-assist', 'totals', orgId, year], queryFn: () => evaluationApi.assistTotals(orgId, year) });
  const rows = totals.data?.content ?? [];
  const header = (
    <Card size="small" className="rt-card evaluation-assist-totals" title="年度帮扶情况（按党支部，按申请日期计入年度）">
      <ScopeYearBar orgId={orgId} onOrg={setOrgId} year={year} onYear={setYear} />
      <Table<AssistTotal>
        size="small"
        rowKey="orgId"
        loading={totals.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 5, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="本年度没有帮扶申请" /> }}
        columns={[
          { title: '党支部', dataIndex: 'orgName', width: 240, ellipsis: true },
          { title: '申请件数', dataIndex: 'cases', width: 90 },
          { title: '批准金额（元）', dataIndex: 'approved', width: 130 },
          { title: '已发放件数', dataIndex: 'paidCases', width: 100 },
          { title: '已发放金额（元）', dataIndex: 'paid', width: 140 },
        ]}
        summary={() =>
          rows.length > 1 ? (
            <Table.Summary.Row className="assist-totals-sum">
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1}>{rows.reduce((s, r) => s + r.cases, 0)}</Table.Summary.Cell>
              <Table.Summary.Cell index={2}>{sumYuan(rows, 'approved')}</Table.Summary.Cell>
              <Table.Summary.Cell index={3}>{rows.reduce((s, r) => s + r.paidCases, 0)}</Table.Summary.Cell>
              <Table.Summary.Cell index={4}>{sumYuan(rows, 'paid')}</Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
    </Card>
  );
  return <ModulePage moduleId="member-assist" title={title} header={header} />;
}

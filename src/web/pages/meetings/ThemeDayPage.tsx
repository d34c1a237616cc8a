/**
 * 主题党日 (menu `core:meetings-theme-day`): the plans the school and the committees publish, each with
 * the share of branches under it that held it (a plan opens its branches, done or not); the branches'
 * 主题党日 records with their monthly compliance; the plans themselves (the `meeting-theme-plan` module).
 */
import { useQuery } from '@tanstack/react-query';
import { Drawer, Empty, InputNumber, Progress, Space, Spin, Table, Tabs, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { themePlanApi, type PlanCompletion } from './api';
import { MeetingsPage } from './MeetingsPage';

const ModulePage = lazy(() => import('../../renderer/ModulePage'));

function PlanBranches({ id }: { id: number }) {
  const one = useQuery({ queryKey: ['module', 'meeting', 'plan', id], queryFn: () => themePlanApi.one(id) });
  if (one.isLoading) return <Spin />;
  return (
    <Table
      size="small"
      rowKey="orgId"
      dataSource={one.data?.branches ?? []}
      pagination={{ pageSize: 20, showSizeChanger: false }}
      columns={[
        { title: '党支部', dataIndex: 'orgName' },
        { title: '开展情况', dataIndex: 'held', width: 110, render: (n: number) => (n ? <Tag color="success">已开展</Tag> : <Tag color="error">未开展</Tag>) },
        { title: '开展日期', dataIndex: 'lastDate', width: 120 },
      ]}
    />
  );
}

function PlanCompletionTab() {
  const [year, setYear] = useState(() => new Date().getFullYear());
  const [open, setOpen] = useState<PlanCompletion>();
  const plans = useQuery({ queryKey: ['module', 'meeting', 'plans', year], queryFn: () => themePlanApi.year(year) });
  return (
    <div className="rt-card">
      <Space style={{ marginBottom: 12 }}>
        <InputNumber aria-label="年度" value={year} min={2000} max={2100} onChange={(v) => v && setYear(v)} suffix="年" style={{ width: 110 }} />
      </Space>
      {plans.isLoading ? (
        <Spin />
      ) : !plans.data?.plans.length ? (
        <Empty description="本年度暂无主题党日计划" />
      ) : (
        <Table<PlanCompletion>
          size="small"
          rowKey={(p) => p.plan.id}
          dataSource={plans.data.plans}
          scroll={{ x: 560 }}
          pagination={false}
          onRow={(p) => ({ onClick: () => setOpen(p), style: { cursor: 'pointer' } })}
          columns={[
            { title: '月份', width: 90, render: (_: unknown, p) => p.plan.month },
            { title: '主题', render: (_: unknown, p) => p.plan.topic },
            { title: '发布组织', width: 180, render: (_: unknown, p) => p.plan.orgIdName },
            { title: '完成情况', width: 200, render: (_: unknown, p) => <Progress percent={Math.round(p.rate * 100)} size="small" format={() => `${p.done}/${p.total}`} /> },
          ]}
        />
      )}
      <Drawer open={!!open} onClose={() => setOpen(undefined)} title={open ? `${open.plan.month} ${open.plan.topic}` : ''} size={640} destroyOnHidden>
        {open && <PlanBranches id={open.plan.id} />}
      </Drawer>
    </div>
  );
}

export default function ThemeDayPage({ title }: { title?: string }) {
  return (
    <Tabs
      className="rt-page"
      destroyOnHidden
      items={[
        { key: 'records', label: '主题党日记录', children: <MeetingsPage title={title} types={['主题党日']} /> },
        { key: 'completion', label: '计划完成情况', children: <PlanCompletionTab /> },
        { key: 'plans', label: '主题党日计划', children: <Suspense><ModulePage moduleId="meeting-theme-plan" title="主题党日计划" /></Suspense> },
      ]}
    />
  );
}

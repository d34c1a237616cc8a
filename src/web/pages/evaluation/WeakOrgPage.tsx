/**
 * 软弱涣散党组织整顿: the year's candidates computed by the school's rules (secretary post vacant, 三会一课
 * below the threshold over consecutive quarters, last place in an assessment) with their reasons, each listed
 * for rectification in one click, above the rectification records (module org-weak and its workflow).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, InputNumber, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { Permission } from '../../core/Permission';
import ModulePage from '../../renderer/ModulePage';
import { weakApi, type WeakCandidate } from './api';

export default function WeakOrgPage({ title }: { title?: string }) {
  const [year, setYear] = useState(new Date().getFullYear());
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const candidates = useQuery({ queryKey: ['module', 'org-weak', 'candidates', year], queryFn: () => weakApi.candidates(year) });
  const listIt = useMutation({
    mutationFn: (c: WeakCandidate) => weakApi.list(c, year),
    onSuccess: () => {
      message.success('已列入整顿，待上级党组织认定');
      void queryClient.invalidateQueries({ queryKey: ['module', 'org-weak'] });
    },
  });
  const header = (
    <Card size="small" className="rt-card evaluation-weak" title="软弱涣散候选党组织（按学校设定的规则计算）">
      <Space wrap style={{ marginBottom: 12 }}>
        <span>年度</span>
        <InputNumber value={year} min={2000} max={2100} onChange={(v) => v && setYear(v)} aria-label="年度" />
      </Space>
      <Table<WeakCandidate>
        size="small"
        rowKey="orgId"
        loading={candidates.isLoading}
        dataSource={candidates.data?.content ?? []}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description="没有符合规则的候选党组织" /> }}
        columns={[
          { title: '党组织', dataIndex: 'orgName', width: 240, ellipsis: true },
          {
            title: '原因',
            dataIndex: 'reasons',
            render: (reasons: WeakCandidate['reasons']) => (
              <Space direction="vertical" size={2}>
                {reasons.map((r) => (
                  <span key={r.detail}>
                    <Tag color="orange">{r.reason}</Tag>
                    {r.detail}
                  </span>
                ))}
              </Space>
            ),
          },
          {
            title: '整顿',
            width: 140,
            render: (_, c) =>
              c.recordId ? (
                <Tag color="blue">已列入</Tag>
              ) : (
                <Permission roles={['org-weak:add']}>
                  <Button size="small" loading={listIt.isPending && listIt.variables?.orgId === c.orgId} onClick={() => listIt.mutate(c)} className="weak-list">
                    列入整顿
                  </Button>
                </Permission>
              ),
          },
        ]}
      />
    </Card>
  );
  return <ModulePage moduleId="org-weak" title={title} header={header} />;
}

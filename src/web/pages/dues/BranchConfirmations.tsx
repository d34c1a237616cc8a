/** 支部确认: each branch's standards of a year, and the branch secretary's confirmation of the list. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import type { BranchStandards } from '../../../shared/dues/api';
import { Permission } from '../../core/Permission';
import { useConfirmRun } from '../../core/useConfirmRun';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { duesApi, timeText } from './api';
import { yearOptions } from './years';

export function BranchConfirmations() {
  const [year, setYear] = useState(new Date().getFullYear());
  const [orgId, setOrgId] = useState<number>();
  const queryClient = useQueryClient();
  const confirmRun = useConfirmRun();
  const key = ['dues', 'branches', year, orgId];
  const list = useQuery({ queryKey: key, queryFn: () => duesApi.branches(year, orgId) });
  const confirm = (b: BranchStandards) =>
    confirmRun({
      title: '确认党费标准',
      content: `确认${b.orgName}${year}年度的党费标准：${b.withStandard}名党员，每月合计${b.monthly}元。确认后如有修改，需要重新确认。`,
      okText: '确认',
      run: () => duesApi.confirm(b.orgId, year),
      success: '已确认',
      after: () => void queryClient.invalidateQueries({ queryKey: ['dues', 'branches'] }),
    });

  return (
    <div className="dues-branches">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select value={year} onChange={setYear} options={yearOptions()} style={{ width: 100 }} aria-label="确认年度" />
        <OrgTreeSelect value={orgId} onChange={setOrgId} />
      </Space>
      <Table<BranchStandards>
        rowKey="orgId"
        size="small"
        loading={list.isLoading}
        dataSource={list.data}
        pagination={{ pageSize: 20, showTotal: (t) => `共 ${t} 个党组织` }}
        columns={[
          { title: '党组织', dataIndex: 'orgName', ellipsis: true },
          { title: '党员数', dataIndex: 'members', width: 80, align: 'right' },
          { title: '已有标准', dataIndex: 'withStandard', width: 90, align: 'right', render: (v: number, b) => (v < b.members ? <Tag color="warning">{v}</Tag> : v) },
          { title: '每月合计（元）', dataIndex: 'monthly', width: 130, align: 'right' },
          {
            title: '确认情况',
            key: 'confirmed',
            width: 260,
            render: (_, b) =>
              !b.confirmed ? <Tag>未确认</Tag> : b.stale ? <Tag color="orange">已变更，需重新确认</Tag> : <Tag color="success">{`${b.confirmed.by} 于 ${timeText(b.confirmed.at)} 确认`}</Tag>,
          },
          {
            title: '操作',
            key: 'actions',
            width: 90,
            render: (_, b) => (
              <Permission roles={['dues:confirm']}>
                <Button size="small" type="link" disabled={!b.withStandard || (!!b.confirmed && !b.stale)} onClick={() => confirm(b)}>
                  确认
                </Button>
              </Permission>
            ),
          },
        ]}
      />
    </div>
  );
}

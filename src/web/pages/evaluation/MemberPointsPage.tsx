/**
 * 党员积分: the ranking of a branch computed from the records other modules keep (meetings attended, party
 * school hours, dues paid on time) plus approved manual items, above the manual items (module member-points);
 * 积分项目设置 opens the school's items (module member-points-item); 明细 opens a member's points of the year.
 */
import { SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Empty, Table } from 'antd';
import { useState } from 'react';
import { Permission } from '../../core/Permission';
import ModulePage from '../../renderer/ModulePage';
import { ScopeYearBar } from './ScopeYearBar';
import { evaluationApi, type PointsRow } from './api';
import { PointsHistory } from './PointsHistory';

export default function MemberPointsPage({ title }: { title?: string }) {
  const [orgId, setOrgId] = useState<number>();
  const [year, setYear] = useState(new Date().getFullYear());
  const [items, setItems] = useState(false);
  const [member, setMember] = useState<PointsRow>();
  const ranking = useQuery({ queryKey: ['module', 'member-points', 'ranking', orgId, year], queryFn: () => evaluationApi.ranking(orgId, year) });
  const header = (
    <Card
      size="small"
      className="rt-card evaluation-ranking"
      title="积分排名（会议出勤、党校学时、按时交纳党费自动计算，手工项目经审核后计入）"
      extra={
        <Permission roles={['member-points:settings']}>
          <Button icon={<SettingOutlined />} onClick={() => setItems(true)}>
            积分项目设置
          </Button>
        </Permission>
      }
    >
      <ScopeYearBar orgLabel="党支部" orgId={orgId} onOrg={setOrgId} year={year} onYear={setYear} />
      <Table<PointsRow>
        size="small"
        rowKey="memberId"
        loading={ranking.isLoading}
        dataSource={ranking.data?.content ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="暂无积分" /> }}
        columns={[
          { title: '排名', dataIndex: 'rank', width: 70 },
          { title: '姓名', dataIndex: 'name', width: 120 },
          { title: '组织生活', dataIndex: 'meeting', width: 100 },
          { title: '党校学习', dataIndex: 'study', width: 100 },
          { title: '按时交纳党费', dataIndex: 'dues', width: 120 },
          { title: '其他（手工）', dataIndex: 'manual', width: 110 },
          { title: '总分', dataIndex: 'total', width: 90, render: (v: number) => <strong>{v}</strong> },
          {
            title: '操作',
            key: 'history',
            width: 80,
            render: (_: unknown, r: PointsRow) => (
              <Button type="link" size="small" onClick={() => setMember(r)} aria-label={`${r.name}的积分明细`}>
                明细
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
  return (
    <>
      <ModulePage moduleId="member-points" title={title} header={header} />
      <Drawer open={!!member} onClose={() => setMember(undefined)} size={720} title={member ? `${member.name}的积分明细（${year}年）` : ''} destroyOnHidden>
        {member && <PointsHistory memberId={member.memberId} year={year} />}
      </Drawer>
      <Drawer open={items} onClose={() => setItems(false)} size={900} title="积分项目设置" destroyOnHidden>
        <ModulePage moduleId="member-points-item" title="积分项目" />
      </Drawer>
    </>
  );
}

/**
 * One member's points of a year (`GET /api/evaluation/points/history`): the total by source (meetings
 * attended, party-school hours, dues paid on time, manual items) and the manual records with their state.
 */
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Empty, Skeleton, Table } from 'antd';
import { useModuleMeta } from '../../renderer/api';
import { StateTag } from '../../renderer/workflow/StateTag';
import { evaluationApi, type PointsHistory as History } from './api';

export function PointsHistory({ memberId, year }: { memberId: number; year: number }) {
  const history = useQuery({ queryKey: ['module', 'member-points', 'history', memberId, year], queryFn: () => evaluationApi.history(memberId, year) });
  const workflow = useModuleMeta('member-points', true).data?.schema['x-workflow'];
  if (history.isLoading) return <Skeleton active />;
  const data = history.data;
  if (!data) return <Empty description="积分明细加载失败" />;
  const p = data.points;
  return (
    <div className="points-history">
      <Descriptions
        bordered
        size="small"
        column={2}
        items={[
          { key: 'meeting', label: '组织生活', children: p?.meeting ?? 0 },
          { key: 'study', label: '党校学习', children: p?.study ?? 0 },
          { key: 'dues', label: '按时交纳党费', children: p?.dues ?? 0 },
          { key: 'manual', label: '其他（手工）', children: p?.manual ?? 0 },
          { key: 'total', label: `${data.year}年总分`, span: 2, children: <strong className="points-history-total">{p?.total ?? 0}</strong> },
        ]}
      />
      <Table<History['manual'][number]>
        size="small"
        rowKey="id"
        style={{ marginTop: 12 }}
        dataSource={data.manual}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="本年度没有手工积分记录" /> }}
        columns={[
          { title: '日期', dataIndex: 'date', width: 110 },
          { title: '积分项目', dataIndex: 'itemName', width: 160, ellipsis: true },
          { title: '分值', dataIndex: 'score', width: 80 },
          { title: '事由', dataIndex: 'reason', ellipsis: true },
          { title: '状态', dataIndex: 'state', width: 100, render: (v: number) => (workflow ? <StateTag workflow={workflow} state={v} /> : v) },
        ]}
      />
    </div>
  );
}

/** A batch's dashboard: its figures, progress per organisation with reports, members, adjustments and log. */
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Space, Table, Tabs, Tag, Timeline } from 'antd';
import { BatchState, BatchStateLabel } from '../../../shared/constants';
import type { AdjustmentView } from '../../../shared/dues/api';
import { Permission } from '../../core/Permission';
import { useConfirmRun } from '../../core/useConfirmRun';
import { duesApi, duesKeys, monthText, percent, timeText } from './api';
import { BatchItems } from './BatchItems';
import { STATE_COLORS } from './BatchPage';
import { ProgressTable } from './ProgressTable';

function Adjustments({ batchId, started, onChanged }: { batchId: number; started: boolean; onChanged: () => void }) {
  const confirmRun = useConfirmRun();
  const list = useQuery({ queryKey: ['dues', 'adjustments', batchId], queryFn: () => duesApi.adjustments(batchId) });
  return (
    <Table<AdjustmentView>
      rowKey="id"
      size="small"
      loading={list.isLoading}
      dataSource={list.data}
      pagination={{ pageSize: 20 }}
      columns={[
        { title: '党员', dataIndex: 'memberName', width: 100 },
        { title: '类别', dataIndex: 'kindLabel', width: 70 },
        { title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right' },
        { title: '原因', dataIndex: 'reason', ellipsis: true },
        { title: '登记人', dataIndex: 'createdBy', width: 100 },
        { title: '时间', dataIndex: 'createdAt', width: 140, render: (t: string) => timeText(t) },
        {
          title: '操作',
          key: 'actions',
          width: 70,
          render: (_, a) =>
            started && (
              <Permission roles={['dues-batch:adjust']}>
                <a onClick={() => confirmRun({ content: `撤销对${a.memberName}的${a.kindLabel}（${a.amount}元）？`, run: () => duesApi.removeAdjustment(a.id), after: () => (void list.refetch(), onChanged()) })}>撤销</a>
              </Permission>
            ),
        },
      ]}
    />
  );
}

export default function BatchDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const batch = useQuery({ queryKey: duesKeys.batch(id), queryFn: () => duesApi.batch(id) });
  const progress = useQuery({ queryKey: [...duesKeys.batch(id), 'progress'], queryFn: () => duesApi.progress(id) });
  const log = useQuery({ queryKey: [...duesKeys.batch(id), 'log'], queryFn: () => duesApi.log(id) });
  const b = batch.data;
  const started = b?.state === BatchState.STARTED;
  const changed = () => void queryClient.invalidateQueries({ queryKey: duesKeys.all });

  return (
    <Drawer open width={1180} title={b ? `${b.title}` : '收费批次'} onClose={onClose} mask={{ closable: false }} keyboard={false} className="dues-batch-detail"
      extra={b && <Tag color={STATE_COLORS[b.state]}>{BatchStateLabel[b.state]}</Tag>}>
      {b && (
        <Descriptions size="small" column={4} style={{ marginBottom: 12 }}
          items={[
            { key: 'months', label: '月份', children: b.months.map(monthText).join('、') },
            { key: 'members', label: '应缴/已缴', children: `${b.members} / ${b.paidMembers} 人` },
            { key: 'money', label: '应交/实交', children: `${b.due} / ${b.paid} 元` },
            { key: 'rate', label: '缴纳率', children: percent(b.rate) },
          ]}
        />
      )}
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'progress',
            label: '收缴进度',
            children: (
              <>
                <Space style={{ marginBottom: 8 }}>
                  <Permission roles={['dues-report:export', 'dues-batch:list']}>
                    <Button icon={<DownloadOutlined />} onClick={() => b && void duesApi.exportProgress(id, b.title)}>
                      导出收缴情况
                    </Button>
                  </Permission>
                </Space>
                <ProgressTable batchId={id} nodes={progress.data} loading={progress.isLoading} started={started} onReported={changed} />
              </>
            ),
          },
          { key: 'items', label: '党员明细', children: <BatchItems batchId={id} started={started} onChanged={changed} /> },
          { key: 'adjustments', label: '调整与补缴', children: <Adjustments batchId={id} started={started} onChanged={changed} /> },
          {
            key: 'log',
            label: '操作记录',
            children: (
              <Timeline
                items={(log.data ?? []).map((l) => ({
                  key: l.id,
                  content: (
                    <div className="dues-log">
                      <b>{l.title}</b> {l.orgName ? `· ${l.orgName} ` : ''}· {l.actor} · {timeText(l.at)}
                      {l.comment && <div className="dues-log-comment">{l.comment}</div>}
                      {l.warnings.map((w) => <div key={w} className="dues-log-comment">{w}</div>)}
                    </div>
                  ),
                }))}
              />
            ),
          },
        ]}
      />
    </Drawer>
  );
}

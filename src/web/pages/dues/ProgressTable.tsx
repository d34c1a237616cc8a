/**
 * A batch's progress as a tree (school → committees → branches): members, paid, deferred, money, rate,
 * and each branch's and committee's report — with the 上报 button where the engine would let the caller
 * take the step for that organisation (`canReport`).
 */
import { Input, Progress, Table, Tag } from 'antd';
import { useRef } from 'react';
import type { ProgressNode } from '../../../shared/dues/api';
import { useConfirmRun } from '../../core/useConfirmRun';
import { duesApi, percent, timeText } from './api';
import { useExpanded } from './useExpanded';

const LEVEL_LABEL: Record<ProgressNode['level'], string> = { school: '校党委', committee: '二级党组织', branch: '党支部', other: '' };

export function ProgressTable({ batchId, nodes, loading, started, onReported }: { batchId: number; nodes: ProgressNode[] | undefined; loading: boolean; started: boolean; onReported: () => void }) {
  const confirmRun = useConfirmRun();
  const comment = useRef('');
  const expandable = useExpanded(nodes);
  const report = (n: ProgressNode) => {
    comment.current = '';
    confirmRun({
      title: `上报：${n.name}`,
      content: (
        <div>
          <p>{`应缴${n.members}人，已缴${n.paidMembers}人，缓交${n.deferred}人；应交${n.due}元，实交${n.paid}元。`}</p>
          <p>{n.level === 'branch' ? '上报后将报送所在二级党组织，本支部的缓交登记不能再修改。' : '上报后报送校党委，全部二级党组织上报后本批次可以关闭。'}</p>
          <Input.TextArea placeholder="说明（可不填）" maxLength={200} rows={2} onChange={(e) => (comment.current = e.target.value)} />
        </div>
      ),
      okText: '上报',
      run: () => duesApi.report(batchId, n.orgId, comment.current),
      success: '上报成功',
      after: onReported,
    });
  };
  return (
    <Table<ProgressNode>
      rowKey="orgId"
      size="small"
      className="dues-progress"
      loading={loading}
      dataSource={nodes}
      pagination={false}
      expandable={expandable}
      scroll={{ x: 1100 }}
      columns={[
        { title: '党组织', dataIndex: 'name', width: 300, render: (name: string, n) => <span data-org={n.orgId}>{name}{LEVEL_LABEL[n.level] && <Tag className="dues-level">{LEVEL_LABEL[n.level]}</Tag>}</span> },
        { title: '应缴', dataIndex: 'members', width: 70, align: 'right' },
        { title: '已缴', dataIndex: 'paidMembers', width: 70, align: 'right' },
        { title: '未缴', dataIndex: 'unpaidMembers', width: 70, align: 'right' },
        { title: '缓交', dataIndex: 'deferred', width: 70, align: 'right' },
        { title: '应交（元）', dataIndex: 'due', width: 110, align: 'right' },
        { title: '实交（元）', dataIndex: 'paid', width: 110, align: 'right' },
        { title: '缴纳率', dataIndex: 'rate', width: 140, render: (r: number) => <Progress percent={Number((r * 100).toFixed(1))} size="small" format={() => percent(r)} /> },
        {
          title: '上报',
          key: 'report',
          width: 190,
          render: (_, n) => {
            if (n.level !== 'branch' && n.level !== 'committee') return null;
            if (n.report) return <Tag color="success">{`${n.report.reportedBy} ${timeText(n.report.reportedAt)} 已上报`}</Tag>;
            if (!started) return <Tag>未上报</Tag>;
            return n.canReport ? (
              <a className="dues-report-link" onClick={() => report(n)}>
                上报
              </a>
            ) : (
              <Tag>未上报</Tag>
            );
          },
        },
      ]}
    />
  );
}

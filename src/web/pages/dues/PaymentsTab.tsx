/** 缴费记录: the payments and reversals of the caller's organisations, newest first; print, reverse. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Input, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import type { Receipt } from '../../../shared/dues/api';
import { Permission } from '../../core/Permission';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { duesApi, duesKeys, timeText } from './api';
import { ReceiptsModal } from './Receipt';

function ReverseDialog({ receipt, onClose }: { receipt: Receipt; onClose: (done?: Receipt) => void }) {
  const { message } = App.useApp();
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const reversal = await duesApi.reverse(receipt.id, reason);
      message.success(`已冲正，冲正凭证号 ${reversal.receiptNo}`);
      onClose(reversal);
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={`冲正收据 ${receipt.receiptNo}`} okText="冲正" okButtonProps={{ danger: true }} cancelText="取消" confirmLoading={saving} onOk={() => void save()} onCancel={() => onClose()} mask={{ closable: false }} keyboard={false}>
      <p>{`${receipt.memberName}：${receipt.lines.map((l) => l.monthsLabel).join('、')}，${receipt.amount}元。冲正后这些月份恢复为未缴，原收据保留并注明已冲正。`}</p>
      <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} placeholder="冲正原因（必填）" maxLength={200} rows={3} aria-label="冲正原因" />
    </Modal>
  );
}

export function PaymentsTab() {
  const queryClient = useQueryClient();
  const [orgId, setOrgId] = useState<number>();
  const [page, setPage] = useState(0);
  const [printing, setPrinting] = useState<Receipt[]>();
  const [reversing, setReversing] = useState<Receipt>();
  const list = useQuery({ queryKey: ['dues', 'payments', orgId, page], queryFn: () => duesApi.payments({ orgId, page, size: 20 }) });
  return (
    <div className="dues-payments">
      <Space style={{ marginBottom: 12 }}>
        <OrgTreeSelect value={orgId} onChange={(v) => (setOrgId(v), setPage(0))} />
      </Space>
      <Table<Receipt>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.content}
        scroll={{ x: 1100 }}
        pagination={{ current: page + 1, pageSize: 20, total: list.data?.totalElements, showSizeChanger: false, showTotal: (t) => `共 ${t} 笔`, onChange: (p) => setPage(p - 1) }}
        columns={[
          { title: '收据号', dataIndex: 'receiptNo', width: 160 },
          { title: '党员', dataIndex: 'memberName', width: 90 },
          { title: '党支部', dataIndex: 'orgName', width: 180, ellipsis: true },
          { title: '所属月份', key: 'months', width: 200, ellipsis: true, render: (_, r) => r.lines.map((l) => l.monthsLabel).join('、') },
          { title: '金额（元）', dataIndex: 'amount', width: 100, align: 'right', render: (a: string, r) => (r.large ? <Space size={4}>{a}<Tag color="red">上缴中央</Tag></Space> : a) },
          { title: '方式', dataIndex: 'methodLabel', width: 80 },
          { title: '交款人', dataIndex: 'payer', width: 90 },
          { title: '收款人', dataIndex: 'collector', width: 140, ellipsis: true },
          { title: '时间', dataIndex: 'createdAt', width: 140, render: (t: string) => timeText(t) },
          { title: '类型', key: 'kind', width: 90, render: (_, r) => (r.kind === 2 ? <Tag color="orange">冲正</Tag> : r.reversedBy ? <Tag>已冲正</Tag> : <Tag color="success">缴费</Tag>) },
          {
            title: '操作',
            key: 'actions',
            width: 110,
            fixed: 'right',
            render: (_, r) => (
              <Space size={8}>
                <a onClick={() => setPrinting([r])}>收据</a>
                {r.reversible && (
                  <Permission roles={['dues-onsite:reverse']}>
                    <a className="dues-danger" onClick={() => setReversing(r)}>
                      冲正
                    </a>
                  </Permission>
                )}
              </Space>
            ),
          },
        ]}
      />
      {printing && <ReceiptsModal receipts={printing} onClose={() => setPrinting(undefined)} />}
      {reversing && (
        <ReverseDialog
          receipt={reversing}
          onClose={(done) => {
            setReversing(undefined);
            if (done) void queryClient.invalidateQueries({ queryKey: duesKeys.all });
          }}
        />
      )}
    </div>
  );
}

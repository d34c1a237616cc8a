/** 党员明细: a batch's members with what they owe and paid; deferrals (缓交) and corrections (调整) of the unpaid. */
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Radio, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { DeferralKindLabel, type ItemView } from '../../../shared/dues/api';
import { Permission } from '../../core/Permission';
import { useConfirmRun } from '../../core/useConfirmRun';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { duesApi, timeText } from './api';

const STATUS_OPTIONS = [
  { value: '', label: '全部' },
  { value: 'paid', label: '已缴' },
  { value: 'unpaid', label: '未缴' },
  { value: 'open', label: '未缴且未登记缓交' },
  { value: 'deferred', label: '缓交' },
];
const STATUS_COLOR: Record<string, string> = { paid: 'success', unpaid: 'error', deferred: 'warning', settled: 'processing' };

function DeferDialog({ batchId, items, onClose }: { batchId: number; items: ItemView[]; onClose: (done: boolean) => void }) {
  const { message } = App.useApp();
  const [kind, setKind] = useState('approved');
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      message.success((await duesApi.defer(batchId, items.map((i) => i.id), kind, reason)).message);
      onClose(true);
    } catch {
      // Shown by the request layer.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={`登记缓交（${items.length}人）`} okText="登记" cancelText="取消" confirmLoading={saving} onOk={() => void save()} onCancel={() => onClose(false)} mask={{ closable: false }} keyboard={false}>
      <Form layout="vertical">
        <Form.Item label="党员">{items.map((i) => i.memberName).join('、')}</Form.Item>
        <Form.Item label="类别" extra="经批准缓交和生活困难属于正当理由；无正当理由的，连续6个月不交纳党费将列入自行脱党处理名单">
          <Radio.Group value={kind} onChange={(e) => setKind(e.target.value)} options={Object.entries(DeferralKindLabel).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
        <Form.Item label="原因" required>
          <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} rows={3} aria-label="缓交原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function AdjustDialog({ batchId, item, onClose }: { batchId: number; item: ItemView; onClose: (done: boolean) => void }) {
  const { message } = App.useApp();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const save = async () => {
    try {
      await duesApi.adjust(batchId, item.memberId, amount, reason);
      message.success('已调整');
      onClose(true);
    } catch {
      // Shown by the request layer.
    }
  };
  return (
    <Modal open title={`调整应交金额：${item.memberName}`} okText="调整" cancelText="取消" onOk={() => void save()} onCancel={() => onClose(false)} mask={{ closable: false }} keyboard={false}>
      <Form layout="vertical">
        <Form.Item label="当前应交">{item.due} 元</Form.Item>
        <Form.Item label="调整金额（元）" extra="多收的更正填负数，如 -5.00；已关闭批次的更正计入本批次">
          <Input value={amount} onChange={(e) => setAmount(e.target.value)} aria-label="调整金额" />
        </Form.Item>
        <Form.Item label="原因" required>
          <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} rows={2} aria-label="调整原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function BatchItems({ batchId, started, onChanged }: { batchId: number; started: boolean; onChanged: () => void }) {
  const confirmRun = useConfirmRun();
  const [filter, setFilter] = useState<{ orgId?: number; status: string; name: string }>({ status: '', name: '' });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [selected, setSelected] = useState<ItemView[]>([]);
  const [deferring, setDeferring] = useState(false);
  const [adjusting, setAdjusting] = useState<ItemView>();
  const list = useQuery({ queryKey: ['dues', 'items', batchId, filter, page, size], queryFn: () => duesApi.items(batchId, { ...filter, status: filter.status || undefined, page, size }) });
  const refresh = () => {
    setSelected([]);
    void list.refetch();
    onChanged();
  };
  const unpaid = selected.filter((i) => i.status !== 'paid');
  const undefer = () =>
    confirmRun({ content: `撤销${selected.length}名党员的缓交登记？`, run: () => duesApi.undefer(batchId, selected.map((i) => i.id)), after: refresh });

  return (
    <div className="dues-items">
      <Space wrap style={{ marginBottom: 12 }}>
        <OrgTreeSelect value={filter.orgId} onChange={(orgId) => (setFilter({ ...filter, orgId }), setPage(0))} width={260} />
        <Select value={filter.status} onChange={(status) => (setFilter({ ...filter, status }), setPage(0))} options={STATUS_OPTIONS} style={{ width: 170 }} aria-label="缴费状态" />
        <Input.Search allowClear placeholder="按姓名查找" style={{ width: 180 }} onSearch={(name) => (setFilter({ ...filter, name: name.trim() }), setPage(0))} />
        {started && (
          <Permission roles={['dues-batch:defer']}>
            <Button disabled={!unpaid.length || unpaid.length !== selected.length} onClick={() => setDeferring(true)}>
              登记缓交{selected.length ? `（${selected.length}）` : ''}
            </Button>
            <Button disabled={!selected.length || selected.some((i) => !i.deferral)} onClick={undefer}>
              撤销缓交
            </Button>
          </Permission>
        )}
      </Space>
      <Table<ItemView>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.content}
        rowSelection={started ? { selectedRowKeys: selected.map((i) => i.id), onChange: (_k, rows) => setSelected(rows), getCheckboxProps: (i) => ({ disabled: i.status === 'paid' }) } : undefined}
        scroll={{ x: 1100 }}
        pagination={{ current: page + 1, pageSize: size, total: list.data?.totalElements, showSizeChanger: true, showTotal: (t) => `共 ${t} 人`, onChange: (p, s) => (setPage(p - 1), setSize(s)) }}
        columns={[
          { title: '姓名', dataIndex: 'memberName', width: 90, fixed: 'left' },
          { title: '党支部', dataIndex: 'orgName', width: 200, ellipsis: true },
          { title: '类别', dataIndex: 'categoryLabel', width: 100 },
          { title: '基数（元）', dataIndex: 'base', width: 100, align: 'right', render: (v: string | null) => v ?? '—' },
          { title: '比例', dataIndex: 'rate', width: 70 },
          { title: '调整', dataIndex: 'adjust', width: 80, align: 'right', render: (v: string) => (v === '0.00' ? '' : v) },
          { title: '应交（元）', dataIndex: 'due', width: 100, align: 'right' },
          { title: '实交（元）', dataIndex: 'paid', width: 100, align: 'right' },
          { title: '状态', dataIndex: 'statusLabel', width: 80, render: (l: string, i) => <Tag color={STATUS_COLOR[i.status]}>{l}</Tag> },
          { title: '缴费时间', dataIndex: 'paidAt', width: 140, render: (t: string | null) => timeText(t) },
          { title: '收据号', dataIndex: 'receiptNo', width: 160 },
          { title: '缓交', key: 'deferral', width: 200, ellipsis: true, render: (_, i) => (i.deferral ? `${i.deferral.kindLabel}：${i.deferral.reason}` : '') },
          {
            title: '操作',
            key: 'actions',
            width: 70,
            fixed: 'right',
            render: (_, i) =>
              started && i.status !== 'paid' ? (
                <Permission roles={['dues-batch:adjust']}>
                  <a onClick={() => setAdjusting(i)}>调整</a>
                </Permission>
              ) : null,
          },
        ]}
      />
      {deferring && <DeferDialog batchId={batchId} items={unpaid} onClose={(done) => (setDeferring(false), done && refresh())} />}
      {adjusting && <AdjustDialog batchId={batchId} item={adjusting} onClose={(done) => (setAdjusting(undefined), done && refresh())} />}
    </div>
  );
}

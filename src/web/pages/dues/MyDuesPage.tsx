/**
 * 我的党费: what a member owes and has paid — the standard and how it is worked out, the months with
 * their state, receipts — and online payment through the provider the school chose (the simulator in
 * the demo; off unless chosen), which marks the months paid through the same path as cash. Deferred
 * months are paid back with the current one.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, Empty, Grid, Input, Modal, Result, Row, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import type { MemberItem, OrderView, Receipt } from '../../../shared/dues/api';
import { formatCents, parseYuan } from '../../../shared/dues/money';
import { duesApi, monthText, timeText } from './api';
import { PaidUpToLabel } from './PaidUpTo';
import { MyDuesCards } from './MyDuesCards';
import { ReceiptsModal } from './Receipt';
import './dues.css';

const STATUS_COLOR: Record<string, string> = { paid: 'success', unpaid: 'error', deferred: 'warning', settled: 'processing' };

/** The order's voluntary extra: its amount beyond the months it pays. */
const extraOf = (order: OrderView, items: MemberItem[]) =>
  (parseYuan(order.amount) ?? 0) - items.filter((i) => order.itemIds.includes(i.id)).reduce((s, i) => s + (parseYuan(i.due) ?? 0), 0);

/** The simulated payment page: stands in for the bank's, and tells the server the outcome as a gateway would. */
function SimulatorDialog({ order, items, onClose }: { order: OrderView; items: MemberItem[]; onClose: (done: OrderView | undefined) => void }) {
  const [current, setCurrent] = useState(order);
  const [busy, setBusy] = useState(false);
  const finish = async (result: 'success' | 'fail') => {
    setBusy(true);
    try {
      setCurrent(await duesApi.simulate(order.id, result));
    } catch {
      // Shown by the request layer.
    } finally {
      setBusy(false);
    }
  };
  const done = current.status !== 1;
  return (
    <Modal open width={460} title={current.provider.name} footer={null} onCancel={() => onClose(done ? current : undefined)} mask={{ closable: false }} keyboard={false} className="dues-simulator">
      {!done ? (
        <Space orientation="vertical" style={{ width: '100%' }} size={16}>
          <Alert type="info" showIcon title="这是模拟支付页面，不会产生真实扣款。" />
          <ul className="dues-sim-lines" aria-label="本次缴纳">
            {items.filter((i) => current.itemIds.includes(i.id)).map((i) => (
              <li key={i.id}>
                <span>{`${i.backPay ? '补缴' : ''}${i.months.map(monthText).join('、')}`}</span>
                <span>{i.due} 元</span>
              </li>
            ))}
            {extraOf(current, items) > 0 && (
              <li>
                <span>自愿多交</span>
                <span>{formatCents(extraOf(current, items))} 元</span>
              </li>
            )}
          </ul>
          <div className="dues-sim-amount">¥{current.amount}</div>
          <Space>
            <Button type="primary" loading={busy} onClick={() => void finish('success')}>
              确认支付
            </Button>
            <Button disabled={busy} onClick={() => void finish('fail')}>
              取消支付
            </Button>
          </Space>
        </Space>
      ) : current.status === 2 ? (
        <Result status="success" title="支付成功" subTitle={`收据号 ${current.receipt?.receiptNo ?? ''}`} extra={<Button type="primary" onClick={() => onClose(current)}>完成</Button>} />
      ) : (
        <Result status="warning" title="订单已关闭" subTitle={current.message} extra={<Button onClick={() => onClose(current)}>关闭</Button>} />
      )}
    </Modal>
  );
}

export default function MyDuesPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const my = useQuery({ queryKey: ['dues', 'my'], queryFn: () => duesApi.my() });
  const [selected, setSelected] = useState<number[]>([]);
  const [extra, setExtra] = useState('');
  const [order, setOrder] = useState<OrderView>();
  const [printing, setPrinting] = useState<Receipt[]>();
  // Below md (768 px) the months are cards: a table would hide 收据 and wrap the batch names (issue 33.15).
  const narrow = !Grid.useBreakpoint().md;
  const d = my.data;
  if (my.isLoading) return <div className="page-container" />;
  if (!d?.member) {
    return (
      <div className="page-container dues-page">
        <Empty description="您的账号未关联党员信息，请联系党支部管理员" />
      </div>
    );
  }
  const payable = d.items.filter((i) => i.canPay);
  const total = d.items.filter((i) => selected.includes(i.id)).reduce((s, i) => s + (parseYuan(i.due) ?? 0), 0) + (parseYuan(extra || '0') ?? 0);
  // Closed months unpaid that cannot be paid back now: no open month to pay them with, or not allowed.
  const waiting = d.items.filter((i) => i.state === 4 && (i.status === 'unpaid' || i.status === 'deferred') && !i.canPay);
  // A closed month is paid back with a started one (the server books it there).
  const onlyBack = !d.items.some((i) => selected.includes(i.id) && !i.backPay);
  const pay = async () => {
    try {
      const created = await duesApi.order(selected, extra || undefined);
      // A real gateway's page pays it (its signed notification completes the order); the simulator pays here.
      if (created.payUrl) window.location.assign(created.payUrl);
      else setOrder(created);
    } catch {
      // Shown by the request layer.
    }
  };

  return (
    <div className="page-container dues-page dues-my">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card size="small" title={`${d.member.name} · ${d.member.orgName}`}>
            {d.standard ? (
              <Descriptions size="small" column={2}
                items={[
                  { key: 'category', label: '缴纳类别', children: d.standard.categoryLabel },
                  { key: 'base', label: '党费基数', children: d.standard.base ? `${d.standard.base} 元` : '—' },
                  { key: 'rate', label: '比例', children: d.standard.rate },
                  { key: 'amount', label: `${d.standard.year}年每月应交`, children: <b className="dues-my-amount">{d.standard.amount} 元</b> },
                  { key: 'rule', label: '适用规定', span: 2, children: d.standard.rule },
                  { key: 'formula', label: '基数公式', span: 2, children: d.formulaText },
                ]}
              />
            ) : (
              <Alert type="warning" showIcon title="本年度的党费标准尚未设定，请联系党支部。" />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title="缴纳情况">
            <Descriptions size="small" column={1}
              items={[
                { key: 'upto', label: <PaidUpToLabel />, children: d.status?.paidUpTo ? monthText(d.status.paidUpTo) : '—' },
                { key: 'unpaid', label: '未缴月份', children: d.status?.unpaidMonths.length ? d.status.unpaidMonths.map(monthText).join('、') : <Tag color="success">无</Tag> },
                { key: 'owed', label: '未缴金额', children: `${d.status?.owed ?? '0.00'} 元` },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="我的党费" style={{ marginTop: 16 }}>
        {narrow ? (
          <MyDuesCards items={d.items} receipts={d.receipts} selected={selected} onSelect={setSelected} onReceipt={(r) => setPrinting([r])} statusColor={STATUS_COLOR} />
        ) : (
        <Table<MemberItem>
          rowKey="id"
          size="small"
          dataSource={d.items}
          pagination={{ pageSize: 12 }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), getCheckboxProps: (i) => ({ disabled: !i.canPay }) }}
          columns={[
            { title: '批次', dataIndex: 'title' },
            { title: '应交（元）', dataIndex: 'due', width: 110, align: 'right' },
            { title: '实交（元）', dataIndex: 'paid', width: 110, align: 'right' },
            {
              title: '状态',
              dataIndex: 'statusLabel',
              width: 130,
              render: (l: string, i) => (
                <Space size={4}>
                  <Tag color={STATUS_COLOR[i.status]}>{l}</Tag>
                  {i.backPay && <Tag color="blue">可补缴</Tag>}
                </Space>
              ),
            },
            { title: '缴费时间', dataIndex: 'paidAt', width: 150, render: (t: string | null) => timeText(t) },
            {
              title: '收据',
              key: 'receipt',
              width: 170,
              render: (_, i) => {
                const receipt = d.receipts.find((r) => r.id === i.paymentId);
                return receipt ? <a onClick={() => setPrinting([receipt])}>{receipt.receiptNo}</a> : null;
              },
            },
          ]}
        />
        )}
        {payable.length > 0 && !d.online.provider && <Alert type="info" showIcon style={{ marginTop: 12 }} title="本校未开通在线缴纳党费，请到党支部现场缴纳。" />}
        {waiting.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            title={`往月未缴：${waiting.flatMap((i) => i.months).map(monthText).join('、')}。补缴须随进行中批次的党费一起缴纳（本期已缴的，请在下一期开始后补缴）；超过6个月且不是经批准或因生活困难缓交的月份，请联系党支部处理。`}
          />
        )}
        {payable.some((i) => i.backPay) && d.online.provider && (
          <Alert type="info" showIcon style={{ marginTop: 12 }} title="往月未缴（含缓交）的党费可随本月党费一起补缴：请同时勾选本月。" />
        )}
        {payable.length > 0 && d.online.provider && (
          <div className="dues-pay-bar">
            <Space wrap>
              <span>自愿多交（元）</span>
              <Input value={extra} onChange={(e) => setExtra(e.target.value)} placeholder="0.00" style={{ width: 120 }} aria-label="自愿多交" />
              <span className="dues-total">{`已选 ${selected.length} 个月，合计 ¥${formatCents(total)}`}</span>
              <Button type="primary" disabled={onlyBack} onClick={() => void pay()}>
                在线缴纳
              </Button>
            </Space>
          </div>
        )}
      </Card>
      {order && (
        <SimulatorDialog
          order={order}
          items={d.items}
          onClose={(done) => {
            setOrder(undefined);
            if (done?.status === 2) message.success('缴费成功');
            setSelected([]);
            setExtra('');
            void queryClient.invalidateQueries({ queryKey: ['dues'] });
          }}
        />
      )}
      {printing && <ReceiptsModal receipts={printing} onClose={() => setPrinting(undefined)} />}
    </div>
  );
}

/**
 * 现场缴费: a branch's administrator records cash or transfer payments for several members and months
 * at once (one receipt per member, printed, after a confirmation listing members, months and total), pays
 * back closed months (six back, those deferred for a proper reason at any time), and reverses a
 * payment with a reason — a new entry, never an edit.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Input, Radio, Space, Table, Tabs, Tag } from 'antd';
import { useMemo, useState } from 'react';
import type { OnsiteMember, Receipt } from '../../../shared/dues/api';
import { formatCents, parseYuan } from '../../../shared/dues/money';
import { Permission } from '../../core/Permission';
import { OrgTreeSelect } from '../member/OrgTreeSelect';
import { duesApi, duesKeys, monthText } from './api';
import { PaymentsTab } from './PaymentsTab';
import { PaidUpToLabel } from './PaidUpTo';
import { ReceiptsModal } from './Receipt';
import { WaiverDialog } from './WaiverDialog';
import './dues.css';

interface Choice {
  items: number[];
  back: number[];
  extra: string;
}

function PayTab() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [orgId, setOrgId] = useState<number>();
  const [name, setName] = useState('');
  const [page, setPage] = useState(0);
  const [choices, setChoices] = useState<Map<number, Choice>>(new Map());
  const [method, setMethod] = useState('cash');
  const [payer, setPayer] = useState('');
  const [paying, setPaying] = useState(false);
  const [receipts, setReceipts] = useState<Receipt[]>();
  const [waiving, setWaiving] = useState<OnsiteMember>();
  const list = useQuery({ queryKey: ['dues', 'onsite', orgId, name, page], queryFn: () => duesApi.onsiteMembers({ orgId, name: name || undefined, page, size: 20 }) });
  const members = useMemo(() => new Map((list.data?.content ?? []).map((m) => [m.memberId, m])), [list.data]);

  const choose = (m: OnsiteMember, choice: Choice | undefined) => {
    const next = new Map(choices);
    if (!choice || (!choice.items.length && !choice.back.length)) next.delete(m.memberId);
    else next.set(m.memberId, choice);
    setChoices(next);
  };
  const dueOf = (m: OnsiteMember | undefined, c: Choice) =>
    [...(m?.open ?? []), ...(m?.backPay ?? [])].filter((o) => c.items.includes(o.itemId) || c.back.includes(o.itemId)).reduce((s, o) => s + (parseYuan(o.due) ?? 0), 0) + (parseYuan(c.extra || '0') ?? 0);
  const total = [...choices].reduce((s, [id, c]) => s + dueOf(members.get(id), c), 0);

  /** Money commits on a second click: the members, months and total are shown first (issue 33.12). */
  const confirmPay = () => {
    const rows = [...choices].map(([id, c]) => {
      const m = members.get(id);
      const months = [
        ...(m?.open ?? []).filter((o) => c.items.includes(o.itemId)).map((o) => `${o.months.map(monthText).join('、')}（${o.due}元）`),
        ...(m?.backPay ?? []).filter((o) => c.back.includes(o.itemId)).map((o) => `补缴${o.months.map(monthText).join('、')}（${o.due}元）`),
        ...(parseYuan(c.extra || '0') ? [`自愿多交（${formatCents(parseYuan(c.extra) ?? 0)}元）`] : []),
      ];
      return { id, name: m?.name ?? String(id), months, amount: formatCents(dueOf(m, c)) };
    });
    modal.confirm({
      title: '确认缴费',
      width: 600,
      okText: '确认缴费',
      cancelText: '返回修改',
      content: (
        <div className="dues-confirm">
          <p>{`${method === 'cash' ? '现金' : '转账'}缴纳${payer ? `，交款人：${payer}` : ''}。提交后为每名党员各开一张收据。`}</p>
          <table className="dues-confirm-table">
            <thead>
              <tr>
                <th>党员</th>
                <th>缴纳月份</th>
                <th className="amount">金额（元）</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td>{r.months.map((t) => <div key={t}>{t}</div>)}</td>
                  <td className="amount">{r.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="dues-total">{`共 ${rows.length} 人，合计 ¥${formatCents(total)}`}</p>
        </div>
      ),
      onOk: () => pay(),
    });
  };

  const pay = async () => {
    setPaying(true);
    try {
      const entries = [...choices].map(([memberId, c]) => ({ memberId, itemIds: c.items, backPayItemIds: c.back, extra: c.extra || undefined }));
      const answer = await duesApi.pay({ method, payer: payer || undefined, entries });
      message.success(`已缴费：${answer.length}人，共${formatCents(answer.reduce((s, r) => s + (parseYuan(r.amount) ?? 0), 0))}元`);
      setChoices(new Map());
      setReceipts(answer);
      void queryClient.invalidateQueries({ queryKey: duesKeys.all });
    } catch {
      // Shown by the request layer.
    } finally {
      setPaying(false);
    }
  };

  return (
    <div className="dues-onsite">
      <Space wrap style={{ marginBottom: 12 }}>
        <OrgTreeSelect value={orgId} onChange={(v) => (setOrgId(v), setPage(0))} />
        <Input.Search allowClear placeholder="按姓名查找" style={{ width: 200 }} onSearch={(v) => (setName(v.trim()), setPage(0))} />
      </Space>
      <Table<OnsiteMember>
        rowKey="memberId"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.content}
        pagination={{ current: page + 1, pageSize: 20, total: list.data?.totalElements, showSizeChanger: false, showTotal: (t) => `共 ${t} 人`, onChange: (p) => setPage(p - 1) }}
        rowSelection={{
          selectedRowKeys: [...choices.keys()],
          getCheckboxProps: (m) => ({ disabled: !m.open.length }),
          onSelect: (m, selected) => choose(m, selected ? { items: m.open.map((o) => o.itemId), back: [], extra: '' } : undefined),
          onSelectAll: (selected, _rows, changed) => {
            const next = new Map(choices);
            for (const m of changed) {
              if (selected && m.open.length) next.set(m.memberId, { items: m.open.map((o) => o.itemId), back: [], extra: '' });
              else next.delete(m.memberId);
            }
            setChoices(next);
          },
        }}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 90 },
          { title: '党支部', dataIndex: 'orgName', width: 200, ellipsis: true },
          { title: <PaidUpToLabel />, dataIndex: 'paidUpTo', width: 120, render: (m: string | null) => (m ? monthText(m) : '—') },
          {
            title: '待缴月份',
            key: 'open',
            render: (_, m) => {
              const c = choices.get(m.memberId) ?? { items: [], back: [], extra: '' };
              const overdue = m.overdue.length > 0 && (
                <Space size={4} wrap>
                  <Tag color="red">{`超过6个月未缴：${m.overdue.flatMap((o) => o.months).map(monthText).join('、')}`}</Tag>
                  <Permission roles={['dues-batch:adjust']}>
                    <a onClick={() => setWaiving(m)}>登记免交</a>
                  </Permission>
                </Space>
              );
              if (!m.open.length && !m.backPay.length) return overdue || <Tag color="success">已缴清</Tag>;
              return (
                <Space orientation="vertical" size={2}>
                  {overdue}
                  <Checkbox.Group value={c.items} onChange={(v) => choose(m, { ...c, items: v as number[] })}
                    options={m.open.map((o) => ({ value: o.itemId, label: `${o.months.map(monthText).join('、')} ${o.due}元${o.deferred ? '（缓交）' : ''}` }))} />
                  {m.backPay.length > 0 && (
                    <Checkbox.Group value={c.back} onChange={(v) => choose(m, { ...c, back: v as number[], items: c.items.length ? c.items : m.open.map((o) => o.itemId) })}
                      options={m.backPay.map((o) => ({ value: o.itemId, label: `补缴${o.months.map(monthText).join('、')} ${o.due}元${o.deferred ? '（缓交）' : ''}` }))} />
                  )}
                </Space>
              );
            },
          },
          {
            title: '自愿多交（元）',
            key: 'extra',
            width: 130,
            render: (_, m) => {
              const c = choices.get(m.memberId);
              return <Input size="small" disabled={!c} value={c?.extra ?? ''} placeholder="0.00" onChange={(e) => c && choose(m, { ...c, extra: e.target.value })} aria-label={`${m.name}自愿多交`} />;
            },
          },
        ]}
      />
      <div className="dues-pay-bar">
        <Space wrap>
          <span>缴纳方式</span>
          <Radio.Group value={method} onChange={(e) => setMethod(e.target.value)} options={[{ value: 'cash', label: '现金' }, { value: 'transfer', label: '转账' }]} />
          <Input value={payer} onChange={(e) => setPayer(e.target.value)} placeholder="交款人（默认为党员本人）" style={{ width: 200 }} maxLength={30} />
          <span className="dues-total">{`已选 ${choices.size} 人，合计 ¥${formatCents(total)}`}</span>
          {total >= 100_000 && <Tag color="red">含一次交纳1000元以上，全部上缴中央</Tag>}
          <Permission roles={['dues-onsite:pay']}>
            <Button type="primary" disabled={!choices.size} loading={paying} onClick={confirmPay}>
              确认缴费
            </Button>
          </Permission>
        </Space>
      </div>
      {receipts && <ReceiptsModal receipts={receipts} onClose={() => setReceipts(undefined)} />}
      {waiving && (
        <WaiverDialog
          member={waiving}
          onClose={(done) => {
            setWaiving(undefined);
            if (done) void queryClient.invalidateQueries({ queryKey: duesKeys.all });
          }}
        />
      )}
    </div>
  );
}

export default function OnsitePage() {
  return (
    <div className="page-container dues-page">
      <Tabs destroyOnHidden items={[{ key: 'pay', label: '缴费登记', children: <PayTab /> }, { key: 'payments', label: '缴费记录', children: <PaymentsTab /> }]} />
    </div>
  );
}

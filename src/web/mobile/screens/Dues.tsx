/**
 * 我的党费: what is due and paid, and online payment of the payable months (GET/POST /api/dues/my…). Where the
 * school chose the simulator (the demo) its confirmation stands in for the bank's page; with no provider, no button.
 */
import { useState } from 'react';
import type { MyDues, OrderView } from '../../../shared/dues/api';
import { get, post } from '../api';
import { Section } from '../ui';
import { useLoad } from '../useLoad';

const monthText = (m: string) => `${m.slice(0, 4)}年${Number(m.slice(5, 7))}月`;

export function Dues() {
  const my = useLoad(() => get<MyDues>('/api/dues/my'));
  const [order, setOrder] = useState<OrderView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const d = my.data;
  const payable = d?.items.filter((i) => i.canPay) ?? [];
  const run = async (step: () => Promise<OrderView>) => {
    setBusy(true);
    setError('');
    try {
      setOrder(await step());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  // Closed months are paid back only with a started one (the server books them there).
  const onlyBack = !payable.some((i) => !i.backPay);
  const pay = () =>
    run(async () => {
      const created = await post<OrderView>('/api/dues/my/orders', { itemIds: payable.map((i) => i.id) });
      // A real gateway's page pays it; the simulator's confirmation is shown here.
      if (created.payUrl) window.location.assign(created.payUrl);
      return created;
    });
  const confirm = (result: 'success' | 'fail') =>
    run(async () => {
      const done = await post<OrderView>(`/api/dues/pay/simulator/${order!.id}`, { result });
      my.reload();
      return done;
    });
  return (
    <>
      <Section title="我的党费" loading={my.loading} error={my.error || error}>
        {d && !d.member ? (
          <p className="m-note">您还没有党员档案，无需缴纳党费</p>
        ) : (
          d && (
            <div className="m-card">
              <div className="m-kv"><span>所在组织</span><span>{d.member?.orgName}</span></div>
              <div className="m-kv"><span>每月标准</span><span>{d.standard ? `${d.standard.amount} 元` : '未核定'}</span></div>
              <div className="m-kv"><span>已缴至</span><span>{d.status?.paidUpTo ? monthText(d.status.paidUpTo) : '—'}</span></div>
              <div className="m-kv"><span>欠缴</span><span className={d.status?.hasUnpaid ? 'm-warn' : ''}>{d.status?.hasUnpaid ? `${d.status.owed} 元（${d.status.unpaidMonths.length}个月）` : '无'}</span></div>
            </div>
          )
        )}
      </Section>
      {d?.member && (
        <Section title="待缴" empty={payable.length === 0}>
          <ul className="m-list" aria-label="待缴月份">
            {payable.map((i) => (
              <li key={i.id} className="m-item">
                <div className="m-item-main">
                  <div className="m-item-title">{`${i.backPay ? '补缴 ' : ''}${i.months.map(monthText).join('、')}`}</div>
                </div>
                <span className="m-amount">{i.due} 元</span>
              </li>
            ))}
          </ul>
          {order?.status === 1 ? (
            <div className="m-card" aria-label={order.provider.name}>
              <p className="m-note">{order.provider.name}：这是模拟支付页面，不会产生真实扣款。</p>
              <div className="m-total">¥{order.amount}</div>
              <button type="button" className="m-btn m-btn-primary m-block" disabled={busy} onClick={() => void confirm('success')}>确认支付</button>
              <button type="button" className="m-btn m-block" disabled={busy} onClick={() => void confirm('fail')}>取消支付</button>
            </div>
          ) : d.online.provider ? (
            <button type="button" className="m-btn m-btn-primary m-block" disabled={busy || onlyBack} onClick={() => void pay()}>
              在线缴纳 {payable.length} 项
            </button>
          ) : (
            <p className="m-note">本校未开通在线缴费，请向支部缴纳</p>
          )}
        </Section>
      )}
      {order && order.status !== 1 && (
        <p className="m-note" role="status">{order.status === 2 ? `支付成功，收据号 ${order.receipt?.receiptNo ?? ''}` : `订单已关闭：${order.message}`}</p>
      )}
      {d?.member && (
        <Section title="缴费收据" empty={d.receipts.length === 0}>
          <ul className="m-list" aria-label="缴费收据">
            {d.receipts.map((r) => (
              <li key={r.id} className="m-item">
                <div className="m-item-main">
                  <div className="m-item-title">{r.receiptNo}</div>
                  <div className="m-item-meta">{r.kindLabel} · {r.methodLabel}</div>
                </div>
                <span className="m-amount">{r.amount} 元</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}

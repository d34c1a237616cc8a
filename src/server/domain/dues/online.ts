/**
 * Online payment by members (在线缴纳). A payment provider (a bank or a payment gateway) is pluggable:
 * an order is created with it, the member pays there, and the provider's notification completes the
 * order through the same path as cash (payments.ts, method `online`). The built-in provider is a
 * simulator: no real gateway, the member confirms on a simulated payment page.
 */
import { sql } from 'kysely';
import { BatchState } from '../../../shared/constants.js';
import { formatCents, parseYuan } from '../../../shared/dues/money.js';
import { HttpError } from '../../errors.js';
import type { Dues } from './context.js';
import { recordPayments, receipts } from './payments.js';
import type { OrderView } from '../../../shared/dues/api.js';

export interface PaymentProvider {
  id: string;
  name: string;
  /** Starts a payment with the provider: its reference, and where the member pays (null: the built-in simulator page). */
  createOrder(order: { id: number; amountCents: number; subject: string }): Promise<{ providerRef: string; payUrl: string | null }>;
}

/** The simulator: accepts every order; the member's confirmation on the simulated page stands for the gateway's notification. */
export const simulatorProvider: PaymentProvider = {
  id: 'simulator',
  name: '模拟支付（演示）',
  createOrder: async (order) => ({ providerRef: `SIM${String(order.id).padStart(10, '0')}`, payUrl: null }),
};

let active: PaymentProvider = simulatorProvider;

/** Replaces the payment provider (a deployment with a real gateway registers its own at start). */
export function usePaymentProvider(provider: PaymentProvider): void {
  active = provider;
}

export function paymentProvider(): PaymentProvider {
  return active;
}

export const OrderStatus = { PENDING: 1, PAID: 2, FAILED: 3 } as const;
export const OrderStatusLabel: Record<number, string> = { 1: '待支付', 2: '已支付', 3: '已关闭' };

async function orderView(dues: Dues, id: number, payUrl: string | null = null): Promise<OrderView> {
  const o = await dues.db.selectFrom('dues_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return {
    id: o.id,
    memberId: o.member_id,
    itemIds: o.item_ids,
    amount: formatCents(o.amount_cents),
    provider: { id: o.provider, name: o.provider === active.id ? active.name : o.provider },
    payUrl,
    status: o.status,
    statusLabel: OrderStatusLabel[o.status],
    message: o.message,
    receipt: o.payment_id ? (await receipts(dues, [o.payment_id]))[0] : null,
  };
}

/** A member's order for their own unpaid months of started batches (and an optional voluntary extra). */
export async function createOrder(dues: Dues, userId: number, memberId: number, body: { itemIds?: unknown; extra?: unknown }): Promise<OrderView> {
  const itemIds = Array.isArray(body.itemIds) ? [...new Set(body.itemIds.map(Number))] : [];
  if (!itemIds.length || itemIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw new HttpError(400, '请选择要缴纳的月份');
  const extra = body.extra === undefined || body.extra === null || body.extra === '' ? 0 : parseYuan(String(body.extra));
  if (extra === undefined) throw new HttpError(400, '自愿多交的金额须为金额（元），最多两位小数');
  const items = (await sql<{ id: number; memberId: number; due: number; paymentId: number | null; state: number; title: string }>`
    SELECT i.id, i.member_id AS "memberId", i.due_cents AS due, i.payment_id AS "paymentId", b.state, b.title FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
    WHERE i.id = ANY(${itemIds}::int[]) AND b.school = ${dues.school}`.execute(dues.db)).rows;
  if (items.length !== itemIds.length || items.some((i) => i.memberId !== memberId)) throw new HttpError(404, '所选月份不存在');
  const closed = items.find((i) => i.state !== BatchState.STARTED);
  if (closed) throw new HttpError(409, `${closed.title}不在收缴期内，不能在线缴纳`);
  const paid = items.find((i) => i.paymentId !== null);
  if (paid) throw new HttpError(409, `${paid.title}已缴纳`);
  const amount = items.reduce((s, i) => s + i.due, 0) + extra;
  const provider = active;
  const { id } = await dues.db.insertInto('dues_order').values({ member_id: memberId, user_id: userId, item_ids: JSON.stringify(itemIds), extra_cents: extra, amount_cents: amount, provider: provider.id }).returning('id').executeTakeFirstOrThrow();
  const started = await provider.createOrder({ id, amountCents: amount, subject: items.map((i) => i.title).join('、') });
  await dues.db.updateTable('dues_order').set({ provider_ref: started.providerRef }).where('id', '=', id).execute();
  return orderView(dues, id, started.payUrl);
}

/** A member's own order (404 for anyone else's). */
export async function ownOrder(dues: Dues, userId: number, orderId: number): Promise<OrderView> {
  const o = await dues.db.selectFrom('dues_order').select(['id', 'user_id']).where('id', '=', orderId).executeTakeFirst();
  if (!o || o.user_id !== userId) throw new HttpError(404, '订单不存在');
  return orderView(dues, orderId);
}

/**
 * The provider's notification: success records the payment (method online) through the cash path;
 * a repeated notification answers the same receipt; a month paid meanwhile (cash at the branch)
 * closes the order with the reason (the provider refunds).
 */
export async function completeOrder(dues: Dues, orderId: number, outcome: 'success' | 'fail'): Promise<OrderView> {
  try {
    await dues.db.transaction().execute(async (trx) => {
      const o = (await sql<{ id: number; status: number; memberId: number; itemIds: number[]; extra: number; name: string }>`
        SELECT o.id, o.status, o.member_id AS "memberId", o.item_ids AS "itemIds", o.extra_cents AS extra, m.name
        FROM dues_order o JOIN m_member m ON m.id = o.member_id WHERE o.id = ${orderId} FOR UPDATE OF o`.execute(trx)).rows[0];
      if (!o) throw new HttpError(404, '订单不存在');
      if (o.status !== OrderStatus.PENDING) return;
      if (outcome === 'fail') {
        await trx.updateTable('dues_order').set({ status: OrderStatus.FAILED, message: '支付未完成，订单已关闭', finished_at: new Date() }).where('id', '=', orderId).execute();
        return;
      }
      const entry = { memberId: o.memberId, itemIds: o.itemIds, extra: o.extra ? formatCents(o.extra) : undefined };
      const [paymentId] = await recordPayments(trx, dues, { method: 'online', payer: o.name, entries: [entry], orderId }, { actor: { id: null, name: `在线支付（${active.name}）` }, scope: 'all' });
      await trx.updateTable('dues_order').set({ status: OrderStatus.PAID, payment_id: paymentId, finished_at: new Date() }).where('id', '=', orderId).execute();
    });
  } catch (error) {
    // Nothing of the payment was written (its transaction rolled back); the order closes with the reason.
    if (!(error instanceof HttpError) || error.statusCode !== 409) throw error;
    await dues.db
      .updateTable('dues_order')
      .set({ status: OrderStatus.FAILED, message: `${error.message}，订单已关闭（款项原路退回）`, finished_at: new Date() })
      .where('id', '=', orderId)
      .where('status', '=', OrderStatus.PENDING)
      .execute();
  }
  return orderView(dues, orderId);
}

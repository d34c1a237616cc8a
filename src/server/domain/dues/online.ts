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
import { onlineSettings } from './settings.js';
import { memberItems } from './items.js';
import { recordPayments, receipts } from './payments.js';
import type { OnlinePayment, OrderView } from '../../../shared/dues/api.js';

/** What a provider's notification says once its signature is verified. */
export interface PaymentNotice {
  orderId: number;
  /** The provider's reference of the order (checked against the one it answered at creation). */
  providerRef: string;
  amountCents: number;
  outcome: 'success' | 'fail';
}

export interface PaymentProvider {
  id: string;
  name: string;
  /** Starts a payment with the provider: its reference, and where the member pays (null: the built-in simulator page). */
  createOrder(order: { id: number; amountCents: number; subject: string }): Promise<{ providerRef: string; payUrl: string | null }>;
  /**
   * Reads the provider's notification (POST /api/dues/pay/notify/{provider id}, public): the notice when its
   * signature verifies, null for anything forged, unsigned or malformed. The simulator has none.
   */
  verifyNotification?(request: { headers: Record<string, string | string[] | undefined>; body: unknown }): PaymentNotice | null | Promise<PaymentNotice | null>;
}

/** The simulator: accepts every order; the member's confirmation on the simulated page stands for the notification. */
export const simulatorProvider: PaymentProvider = {
  id: 'simulator',
  name: '演示用模拟支付',
  createOrder: async (order) => ({ providerRef: `SIM${String(order.id).padStart(10, '0')}`, payUrl: null }),
};

const providers = new Map<string, PaymentProvider>([[simulatorProvider.id, simulatorProvider]]);

/** Makes a provider available (a deployment with a real gateway registers its own at start); a school chooses it in its settings. */
export function registerPaymentProvider(provider: PaymentProvider): void {
  providers.set(provider.id, provider);
}

export function registeredProviders(): PaymentProvider[] {
  return [...providers.values()];
}

export function providerById(id: string | null | undefined): PaymentProvider | null {
  return (id && providers.get(id)) || null;
}

/** Online payment as the school set it, for its pages. */
export async function onlinePayment(dues: Dues): Promise<OnlinePayment> {
  const { maxCents } = await onlineSettings(dues.services.database.db, dues.school);
  const chosen = await activeProvider(dues);
  return { provider: chosen?.id ?? null, providerName: chosen?.name ?? '', maxAmount: formatCents(maxCents), providers: offeredProviders(dues.services.appConfig.demoData).map((p) => ({ id: p.id, name: p.name })) };
}

/** The provider the school chose (dues settings), null while online payment is off (the default). */
export async function activeProvider(dues: Dues): Promise<PaymentProvider | null> {
  const provider = providerById((await onlineSettings(dues.services.database.db, dues.school)).provider);
  // The simulator takes no money: only a demo (DEMO_DATA) may pay with it (issue 38.16).
  return provider === simulatorProvider && !dues.services.appConfig.demoData ? null : provider;
}

/** The providers an administrator may choose here: the simulator only in a demo. */
export function offeredProviders(demo: boolean): PaymentProvider[] {
  return registeredProviders().filter((p) => demo || p !== simulatorProvider);
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
    provider: { id: o.provider, name: providerById(o.provider)?.name ?? o.provider },
    payUrl,
    status: o.status,
    statusLabel: OrderStatusLabel[o.status],
    message: o.message,
    receipt: o.payment_id ? (await receipts(dues, [o.payment_id]))[0] : null,
  };
}

/** A member's order for their own unpaid months of started batches (and an optional voluntary extra). */
export async function createOrder(dues: Dues, userId: number, memberId: number, body: { itemIds?: unknown; extra?: unknown }): Promise<OrderView> {
  const provider = await activeProvider(dues);
  if (!provider) throw new HttpError(409, '本校未开通在线缴纳党费，请到党支部现场缴纳');
  const itemIds = Array.isArray(body.itemIds) ? [...new Set(body.itemIds.map(Number))] : [];
  if (!itemIds.length || itemIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw new HttpError(400, '请选择要缴纳的月份');
  const extra = body.extra === undefined || body.extra === null || body.extra === '' ? 0 : parseYuan(String(body.extra));
  if (extra === undefined) throw new HttpError(400, '自愿多交的金额须为金额（元），最多两位小数');
  // The member's page offers the months it may pay (memberItems: canPay); closed ones are paid back with a started one.
  const payable = new Map((await memberItems(dues, memberId)).map((i) => [i.id, i]));
  const items = itemIds.map((id) => payable.get(id));
  if (items.some((i) => !i)) throw new HttpError(404, '所选月份不存在');
  const refused = items.find((i) => !i!.canPay);
  if (refused) throw new HttpError(409, refused.paymentId !== null || refused.status === 'settled' ? `${refused.title}已缴纳` : `${refused.title}不在收缴期内，不能在线缴纳`);
  if (items.every((i) => i!.backPay)) throw new HttpError(400, '补缴须与一个进行中批次的党费一起缴纳');
  const amount = items.reduce((s, i) => s + parseYuan(i!.due)!, 0) + extra;
  const { maxCents } = await onlineSettings(dues.services.database.db, dues.school);
  if (amount > maxCents) throw new HttpError(400, `单笔在线缴纳不能超过${formatCents(maxCents)}元，请分次缴纳或到党支部现场缴纳`);
  const { id } = await dues.db.insertInto('dues_order').values({ member_id: memberId, user_id: userId, item_ids: JSON.stringify(itemIds), extra_cents: extra, amount_cents: amount, provider: provider.id }).returning('id').executeTakeFirstOrThrow();
  const started = await provider.createOrder({ id, amountCents: amount, subject: items.map((i) => i!.title).join('、') });
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
  let providerName = '';
  try {
    await dues.db.transaction().execute(async (trx) => {
      const o = (await sql<{ id: number; status: number; memberId: number; itemIds: number[]; extra: number; name: string; provider: string }>`
        SELECT o.id, o.status, o.member_id AS "memberId", o.item_ids AS "itemIds", o.extra_cents AS extra, m.name, o.provider
        FROM dues_order o JOIN m_member m ON m.id = o.member_id WHERE o.id = ${orderId} FOR UPDATE OF o`.execute(trx)).rows[0];
      if (!o) throw new HttpError(404, '订单不存在');
      providerName = providerById(o.provider)?.name ?? o.provider;
      if (o.status !== OrderStatus.PENDING) return;
      if (outcome === 'fail') {
        await trx.updateTable('dues_order').set({ status: OrderStatus.FAILED, message: '支付未完成，订单已关闭', finished_at: new Date() }).where('id', '=', orderId).execute();
        return;
      }
      // Months of closed batches in the order are paid back (补缴) with its started ones.
      const closed = new Set((await sql<{ id: number }>`SELECT i.id FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
        WHERE i.id = ANY(${o.itemIds}::int[]) AND b.state = ${BatchState.CLOSED}`.execute(trx)).rows.map((r) => r.id));
      const entry = { memberId: o.memberId, itemIds: o.itemIds.filter((id) => !closed.has(id)), backPayItemIds: o.itemIds.filter((id) => closed.has(id)), extra: o.extra ? formatCents(o.extra) : undefined };
      const [paymentId] = await recordPayments(trx, dues, { method: 'online', payer: o.name, entries: [entry], orderId }, { actor: { id: null, name: `在线支付（${providerName}）` }, scope: 'all' });
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

/**
 * A provider's notification (public route): refused unless its signature verifies, it names an order of
 * this provider with the reference the provider gave, for the order's amount. A repeated notification
 * answers the order as it is (completeOrder records a payment once).
 */
export async function notifyOrder(dues: Dues, providerId: string, request: { headers: Record<string, string | string[] | undefined>; body: unknown }): Promise<OrderView> {
  const provider = providerById(providerId);
  if (!provider?.verifyNotification) throw new HttpError(404, '支付渠道不存在');
  const notice = await provider.verifyNotification(request);
  if (!notice) throw new HttpError(401, '支付通知的签名无效');
  const o = await dues.db.selectFrom('dues_order').select(['provider', 'provider_ref', 'amount_cents']).where('id', '=', notice.orderId).executeTakeFirst();
  if (!o || o.provider !== provider.id || o.provider_ref !== notice.providerRef) throw new HttpError(404, '订单不存在');
  if (o.amount_cents !== notice.amountCents) throw new HttpError(400, '支付金额与订单金额不符');
  return completeOrder(dues, notice.orderId, notice.outcome);
}

/**
 * Payments (缴费) are append-only entries: a payment covers one member's batch items (its lines); a
 * reversal (冲正) is a new entry with negative lines pointing at the payment it undoes; nothing is ever
 * edited or deleted (a trigger refuses it). dues_item.payment_id follows the entries in the same
 * transaction and is the lock that lets exactly one payment cover a member's month: concurrent payments
 * of the same month race on `UPDATE ... WHERE payment_id IS NULL`, one wins and the others answer 409.
 * Cash, transfer and online payments all take this path.
 */
import { sql } from 'kysely';
import { BatchState } from '../../../shared/constants.js';
import { formatCents, parseYuan } from '../../../shared/dues/money.js';
import { isLargePayment, monthLabel, monthsOf } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { addArrear } from './adjustments.js';
import { logBatch, wrongState } from './batches.js';
import { inScope, scopeSql, type DuesCore } from './context.js';
import type { DuesActor, DuesDb, PaymentMethod } from './tables.js';
import { PaymentMethodLabel, type Receipt, type ReceiptLine } from '../../../shared/dues/api.js';

export { PaymentMethodLabel };
const METHODS = Object.keys(PaymentMethodLabel) as PaymentMethod[];

export interface PaymentEntry {
  memberId: number;
  /** Items of started batches to pay. */
  itemIds: number[];
  /** Unpaid items of closed batches to pay back (补缴) with them, at most six months back. */
  backPayItemIds?: number[];
  /** Paid voluntarily on top of the standard (yuan text). */
  extra?: string;
}

export interface PaymentInput {
  method: PaymentMethod;
  payer?: string;
  entries: PaymentEntry[];
  orderId?: number;
}

/** Who records it and which organisations they may touch ('all' for a member paying their own dues online). */
export interface Recorder {
  actor: DuesActor;
  scope: number[] | 'all';
}

interface ItemRow {
  id: number;
  memberId: number;
  orgId: number;
  batchId: number;
  due: number;
  paymentId: number | null;
  name: string;
}

interface BatchLock {
  id: number;
  state: number;
  title: string;
  firstMonth: string;
  months: number;
}

const ids = (v: unknown): number[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => !Number.isSafeInteger(x) || x <= 0)) throw new HttpError(400, '缴费月份的格式不正确');
  return [...new Set(v as number[])];
};

/** Reads and checks the shape of a payment request (the rules are checked against the data later). */
export function readPaymentInput(body: unknown): PaymentInput {
  const b = (body ?? {}) as Record<string, unknown>;
  if (!METHODS.includes(b.method as PaymentMethod) || b.method === 'online') throw new HttpError(400, '请选择缴费方式（现金或转账）', { errors: [{ field: 'method', message: '缴费方式只能是现金或转账' }] });
  const payer = typeof b.payer === 'string' ? b.payer.trim().slice(0, 30) : '';
  if (!Array.isArray(b.entries) || !b.entries.length) throw new HttpError(400, '请选择缴费的党员和月份');
  if (b.entries.length > 200) throw new HttpError(400, '一次最多为200名党员缴费');
  const entries = b.entries.map((e: Record<string, unknown>) => {
    const memberId = Number(e?.memberId);
    if (!Number.isSafeInteger(memberId) || memberId <= 0) throw new HttpError(400, '缴费的党员不正确');
    const extra = e.extra === undefined || e.extra === null || e.extra === '' ? undefined : String(e.extra);
    return { memberId, itemIds: ids(e.itemIds), backPayItemIds: ids(e.backPayItemIds), extra };
  });
  const members = new Set(entries.map((e) => e.memberId));
  if (members.size !== entries.length) throw new HttpError(400, '同一党员只能出现一次（一次缴费开一张收据）');
  return { method: b.method as PaymentMethod, payer, entries };
}

/** Locks the batches (FOR SHARE: closing waits for this payment, and it for a close) and answers their state now. */
async function lockBatches(trx: DuesDb, dues: DuesCore, batchIds: number[]): Promise<Map<number, BatchLock>> {
  const rows = await sql<BatchLock>`SELECT id, state, title, first_month AS "firstMonth", months FROM dues_batch
    WHERE id = ANY(${batchIds}::int[]) AND school = ${dues.school} ORDER BY id FOR SHARE`.execute(trx);
  return new Map(rows.rows.map((r) => [r.id, r]));
}

async function itemRows(trx: DuesDb, itemIds: number[]): Promise<Map<number, ItemRow>> {
  if (!itemIds.length) return new Map();
  const rows = await sql<ItemRow>`SELECT i.id, i.member_id AS "memberId", i.org_id AS "orgId", i.batch_id AS "batchId", i.due_cents AS due, i.payment_id AS "paymentId", m.name
    FROM dues_item i JOIN m_member m ON m.id = i.member_id WHERE i.id = ANY(${itemIds}::int[])`.execute(trx);
  return new Map(rows.rows.map((r) => [r.id, r]));
}

/**
 * Records payments inside `trx`, one per entry (one receipt each), all or nothing. Answers the new
 * payment ids in the order of the entries.
 */
export async function recordPayments(trx: DuesDb, dues: DuesCore, input: PaymentInput, by: Recorder): Promise<number[]> {
  const allIds = input.entries.flatMap((e) => [...e.itemIds, ...(e.backPayItemIds ?? [])]);
  const items = await itemRows(trx, allIds);
  if (items.size !== new Set(allIds).size) throw new HttpError(404, '所选缴费月份不存在，请刷新后重试');
  const batches = await lockBatches(trx, dues, [...new Set([...items.values()].map((i) => i.batchId))]);
  const paymentIds: number[] = [];
  for (const entry of input.entries) {
    const own = entry.itemIds.map((id) => items.get(id)!);
    const back = (entry.backPayItemIds ?? []).map((id) => items.get(id)!);
    const foreign = [...own, ...back].find((i) => i.memberId !== entry.memberId);
    if (foreign) throw new HttpError(400, `所选月份不属于党员“${foreign.name}”`);
    if (!own.length) throw new HttpError(400, back.length ? '补缴须与一个进行中批次的党费一起缴纳' : '请选择缴费月份');
    for (const item of own) {
      const batch = batches.get(item.batchId);
      if (!batch) throw new HttpError(404, '所选缴费月份不存在，请刷新后重试');
      if (batch.state !== BatchState.STARTED) throw wrongState(batch.title, batch.state, '缴费');
      if (!inScope(by.scope, item.orgId)) throw new HttpError(403, `党员“${item.name}”不在您的管理范围内`);
    }
    // Back payments go onto the member's latest started month (the adjustment), paid with it now.
    const target = own.reduce((a, b) => (batches.get(a.batchId)!.firstMonth >= batches.get(b.batchId)!.firstMonth ? a : b));
    const targetBatch = batches.get(target.batchId)!;
    for (const source of back) {
      if (!inScope(by.scope, source.orgId) && !inScope(by.scope, target.orgId)) throw new HttpError(403, `党员“${source.name}”不在您的管理范围内`);
      await addArrear(trx, source.id, { itemId: target.id, memberId: entry.memberId, batchId: target.batchId, firstMonth: targetBatch.firstMonth }, by.actor);
    }
    const current = back.length ? await itemRows(trx, entry.itemIds) : items;
    const extra = entry.extra === undefined ? 0 : parseYuan(entry.extra);
    if (extra === undefined) throw new HttpError(400, '自愿多交的金额须为金额（元），最多两位小数');
    const lines = own.map((i) => ({ item: i, batch: batches.get(i.batchId)!, due: current.get(i.id)!.due, amount: current.get(i.id)!.due + (i.id === target.id ? extra : 0) }));
    const total = lines.reduce((s, l) => s + l.amount, 0);
    const name = own[0].name;
    const { id } = await trx
      .insertInto('dues_payment')
      .values({
        school: dues.school,
        receipt_no: sql<string>`'DF' || to_char(now(), 'YYYYMM') || lpad(nextval('dues_receipt_seq')::text, 7, '0')`,
        kind: 1,
        member_id: entry.memberId,
        org_id: target.orgId,
        method: input.method,
        amount_cents: total,
        large: isLargePayment(total),
        payer: input.payer || name,
        collector_id: by.actor.id,
        collector: by.actor.name,
        order_id: input.orderId ?? null,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const line of lines) {
      const taken = await sql`UPDATE dues_item SET payment_id = ${id}, paid_cents = ${line.amount}, paid_at = now()
        WHERE id = ${line.item.id} AND payment_id IS NULL AND due_cents = ${line.due}`.execute(trx);
      if (Number(taken.numAffectedRows) !== 1) throw new HttpError(409, `党员“${name}”${line.batch.title}已缴纳，请勿重复缴费`);
    }
    await trx.insertInto('dues_payment_line').values(lines.map((l) => ({ payment_id: id, item_id: l.item.id, batch_id: l.item.batchId, org_id: l.item.orgId, amount_cents: l.amount, due_cents: l.due }))).execute();
    paymentIds.push(id);
  }
  return paymentIds;
}

/** 现场缴费: cash or transfer for several members at once, in one transaction; answers the receipts. */
export async function payOnSite(dues: DuesCore, by: Recorder, body: unknown): Promise<Receipt[]> {
  const input = readPaymentInput(body);
  const ids = await dues.db.transaction().execute((trx) => recordPayments(trx, dues, input, by));
  return receipts(dues, ids);
}

/** 冲正: undoes a payment with a new entry, while its batches are started. */
export async function reversePayment(dues: DuesCore, by: Recorder, paymentId: number, reasonInput: unknown): Promise<Receipt> {
  const reason = typeof reasonInput === 'string' ? reasonInput.trim() : '';
  if (!reason || reason.length > 200) throw new HttpError(400, '请填写冲正原因（200字以内）', { errors: [{ field: 'reason', message: '请填写冲正原因' }] });
  const id = await dues.db.transaction().execute(async (trx) => {
    const payment = await trx.selectFrom('dues_payment').selectAll().where('id', '=', paymentId).where('school', '=', dues.school).executeTakeFirst();
    if (!payment) throw new HttpError(404, '缴费记录不存在');
    if (payment.kind !== 1) throw new HttpError(400, '冲正记录不能再冲正');
    if (!inScope(by.scope, payment.org_id)) throw new HttpError(403, '该缴费记录不在您的管理范围内');
    const lines = await trx.selectFrom('dues_payment_line').selectAll().where('payment_id', '=', paymentId).execute();
    const batches = await lockBatches(trx, dues, [...new Set(lines.map((l) => l.batch_id))]);
    for (const b of batches.values()) if (b.state !== BatchState.STARTED) throw wrongState(b.title, b.state, '冲正');
    let reversal: number;
    try {
      reversal = (
        await trx
          .insertInto('dues_payment')
          .values({
            school: dues.school,
            receipt_no: sql<string>`'CZ' || to_char(now(), 'YYYYMM') || lpad(nextval('dues_receipt_seq')::text, 7, '0')`,
            kind: 2,
            reverses_id: paymentId,
            member_id: payment.member_id,
            org_id: payment.org_id,
            method: payment.method,
            amount_cents: -payment.amount_cents,
            large: false,
            payer: payment.payer,
            collector_id: by.actor.id,
            collector: by.actor.name,
            reason,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new HttpError(409, `收据${payment.receipt_no}已冲正`);
      throw error;
    }
    for (const l of lines) {
      const freed = await sql`UPDATE dues_item SET payment_id = NULL, paid_cents = paid_cents - ${l.amount_cents}, paid_at = NULL
        WHERE id = ${l.item_id} AND payment_id = ${paymentId}`.execute(trx);
      if (Number(freed.numAffectedRows) !== 1) throw new HttpError(409, '缴费状态已变化，请刷新后重试');
    }
    await trx.insertInto('dues_payment_line').values(lines.map((l) => ({ payment_id: reversal, item_id: l.item_id, batch_id: l.batch_id, org_id: l.org_id, amount_cents: -l.amount_cents, due_cents: l.due_cents }))).execute();
    for (const b of batches.values()) await logBatch(trx, b.id, 'reverse', by.actor, { orgId: payment.org_id, comment: `冲正收据${payment.receipt_no}（${formatCents(payment.amount_cents)}元）：${reason}` });
    return reversal;
  });
  return (await receipts(dues, [id]))[0];
}

/**
 * The printed lines of receipts: per paid item its month's own dues (its due less the months paid back
 * onto it), each month paid back, and what was paid beyond the due as 自愿多交 on its own line.
 */
async function receiptEntries(dues: DuesCore, lines: { paymentId: number; itemId: number; firstMonth: string; months: number; due: number; amount: number }[], sign: Map<number, number>) {
  const itemIds = [...new Set(lines.map((l) => l.itemId))];
  const arrears = itemIds.length
    ? (await sql<{ itemId: number; cents: number; firstMonth: string; months: number }>`
        SELECT a.item_id AS "itemId", a.amount_cents AS cents, b.first_month AS "firstMonth", b.months FROM dues_adjustment a
        JOIN dues_item s ON s.id = a.source_item_id JOIN dues_batch b ON b.id = s.batch_id
        WHERE a.kind = 'arrear' AND a.item_id = ANY(${itemIds}::int[]) ORDER BY b.first_month`.execute(dues.db)).rows
    : [];
  const out = new Map<number, { label: string; amount: string }[]>();
  for (const l of lines) {
    const k = sign.get(l.paymentId) ?? 1;
    const back = arrears.filter((a) => a.itemId === l.itemId);
    const list = out.get(l.paymentId) ?? [];
    list.push({ label: monthsOf(l.firstMonth, l.months).map(monthLabel).join('、'), amount: formatCents(k * (l.due - back.reduce((s, a) => s + a.cents, 0))) });
    for (const a of back) list.push({ label: `补缴${monthsOf(a.firstMonth, a.months).map(monthLabel).join('、')}`, amount: formatCents(k * a.cents) });
    const extra = k * l.amount - l.due;
    if (extra) list.push({ label: '自愿多交', amount: formatCents(k * extra) });
    out.set(l.paymentId, list);
  }
  return out;
}

/** Receipts of these payments, in this order. */
export async function receipts(dues: DuesCore, paymentIds: number[]): Promise<Receipt[]> {
  if (!paymentIds.length) return [];
  const rows = await sql<Record<string, unknown> & { id: number }>`
    SELECT p.id, p.receipt_no AS "receiptNo", p.kind, p.member_id AS "memberId", m.name AS "memberName", p.org_id AS "orgId", o.name AS "orgName",
           p.method, p.amount_cents AS amount, p.large, p.payer, p.collector, p.reason, p.created_at AS "createdAt",
           r.id AS "reversesId", r.receipt_no AS "reversesNo", x.id AS "reversedById", x.receipt_no AS "reversedByNo", x.reason AS "reversedReason", x.created_at AS "reversedAt"
    FROM dues_payment p LEFT JOIN m_member m ON m.id = p.member_id LEFT JOIN m_org o ON o.id = p.org_id
    LEFT JOIN dues_payment r ON r.id = p.reverses_id LEFT JOIN dues_payment x ON x.reverses_id = p.id
    WHERE p.id = ANY(${paymentIds}::int[])`.execute(dues.db);
  const lines = await sql<{ paymentId: number; itemId: number; batchId: number; title: string; firstMonth: string; months: number; state: number; due: number; amount: number }>`
    SELECT l.payment_id AS "paymentId", l.item_id AS "itemId", l.batch_id AS "batchId", b.title, b.first_month AS "firstMonth", b.months, b.state, l.due_cents AS due, l.amount_cents AS amount
    FROM dues_payment_line l JOIN dues_batch b ON b.id = l.batch_id WHERE l.payment_id = ANY(${paymentIds}::int[]) ORDER BY b.first_month, l.id`.execute(dues.db);
  const byPayment = new Map<number, ReceiptLine[]>();
  const closed = new Set<number>();
  for (const l of lines.rows) {
    if (l.state !== BatchState.STARTED) closed.add(l.paymentId);
    const months = monthsOf(l.firstMonth, l.months);
    const list = byPayment.get(l.paymentId) ?? [];
    list.push({ itemId: l.itemId, batchId: l.batchId, batchTitle: l.title, months, monthsLabel: months.map(monthLabel).join('、'), due: formatCents(l.due), amount: formatCents(l.amount) });
    byPayment.set(l.paymentId, list);
  }
  const entries = await receiptEntries(dues, lines.rows, new Map(rows.rows.map((r) => [r.id, r.kind === 2 ? -1 : 1])));
  const byId = new Map(rows.rows.map((r) => [r.id, r]));
  return paymentIds.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{
      id,
      receiptNo: r.receiptNo as string,
      kind: r.kind as 1 | 2,
      kindLabel: r.kind === 2 ? '冲正' : '缴费',
      memberId: r.memberId as number,
      memberName: (r.memberName as string) ?? '',
      orgId: r.orgId as number,
      orgName: (r.orgName as string) ?? '',
      method: r.method as PaymentMethod,
      methodLabel: PaymentMethodLabel[r.method as PaymentMethod],
      amount: formatCents(r.amount as number),
      large: r.large as boolean,
      payer: r.payer as string,
      collector: r.collector as string,
      reason: r.reason as string,
      createdAt: new Date(r.createdAt as string).toISOString(),
      lines: byPayment.get(id) ?? [],
      entries: entries.get(id) ?? [],
      reverses: r.reversesId ? { id: r.reversesId as number, receiptNo: r.reversesNo as string } : null,
      reversedBy: r.reversedById ? { id: r.reversedById as number, receiptNo: r.reversedByNo as string, reason: r.reversedReason as string, createdAt: new Date(r.reversedAt as string).toISOString() } : null,
      reversible: r.kind === 1 && !r.reversedById && !closed.has(id),
    }];
  });
}

/** Payments and reversals of the organisations (newest first), optionally of a member or a batch. */
export async function listPayments(dues: DuesCore, orgIds: number[] | 'all', q: { memberId?: number; batchId?: number; size: number; offset: number }): Promise<{ content: Receipt[]; totalElements: number }> {
  const where = sql`p.school = ${dues.school} AND ${scopeSql(orgIds, 'p.org_id')} AND ${q.memberId ? sql`p.member_id = ${q.memberId}` : sql`true`}
    AND ${q.batchId ? sql`EXISTS (SELECT 1 FROM dues_payment_line l WHERE l.payment_id = p.id AND l.batch_id = ${q.batchId})` : sql`true`}`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_payment p WHERE ${where}`.execute(dues.db)).rows[0].n;
  const ids = (await sql<{ id: number }>`SELECT p.id FROM dues_payment p WHERE ${where} ORDER BY p.id DESC LIMIT ${q.size} OFFSET ${q.offset}`.execute(dues.db)).rows.map((r) => r.id);
  return { content: await receipts(dues, ids), totalElements: total };
}

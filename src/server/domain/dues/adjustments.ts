/**
 * Adjustments: what a member owes in a started batch changes only through them. A closed batch never
 * changes (its figures are final), so a correction of it — and the back payment (补缴) of a month left
 * unpaid when it closed — goes into a later, started batch. Back payment covers at most six months
 * (中组发〔2008〕3号 第十一条), a month deferred for a proper reason any time (backPayAllowed), once per month.
 */
import { sql } from 'kysely';
import { formatCents, parseYuan } from '../../../shared/dues/money.js';
import { addMonths, backPayAllowed, MAX_BACK_PAY_MONTHS, monthLabel } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { logBatch } from './batches.js';
import { JUSTIFIED_DEFERRALS, startedBatch } from './batch-reports.js';
import { inScope, type Caller, type DuesCore } from './context.js';
import type { DuesActor, DuesDb } from './tables.js';
import type { AdjustmentView } from '../../../shared/dues/api.js';

/** Adds `cents` to an unpaid item's due; 409 when it was paid meanwhile. */
async function addToDue(trx: DuesDb, itemId: number, cents: number, who: string): Promise<void> {
  const updated = await sql`UPDATE dues_item SET adjust_cents = adjust_cents + ${cents}, due_cents = due_cents + ${cents}
    WHERE id = ${itemId} AND payment_id IS NULL AND due_cents + ${cents} >= 0`.execute(trx);
  if (Number(updated.numAffectedRows) !== 1) throw new HttpError(409, `${who}的本期党费已缴纳或调整后为负数，不能调整；请计入下一批次`);
}

/** 更正: a correction of what a member owes, in a started batch, before they pay it. */
export async function addCorrection(dues: DuesCore, caller: Caller, batchId: number, body: { memberId?: unknown; amount?: unknown; reason?: unknown }): Promise<number> {
  const memberId = Number(body.memberId);
  const cents = parseYuan(String(body.amount ?? ''), { negative: true });
  const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
  if (!Number.isSafeInteger(memberId) || memberId <= 0) throw new HttpError(400, '请选择党员', { errors: [{ field: 'memberId', message: '请选择党员' }] });
  if (cents === undefined || cents === 0) throw new HttpError(400, '调整金额须为非零金额（元，最多两位小数，可为负数）', { errors: [{ field: 'amount', message: '调整金额须为非零金额' }] });
  if (!reason || reason.length > 200) throw new HttpError(400, '请填写调整原因（200字以内）', { errors: [{ field: 'reason', message: '请填写调整原因' }] });
  return dues.db.transaction().execute(async (trx) => {
    await startedBatch(trx, dues, batchId, '调整');
    const item = (await sql<{ id: number; orgId: number; name: string }>`SELECT i.id, i.org_id AS "orgId", m.name FROM dues_item i JOIN m_member m ON m.id = i.member_id
      WHERE i.batch_id = ${batchId} AND i.member_id = ${memberId}`.execute(trx)).rows[0];
    if (!item) throw new HttpError(404, '该党员不在本批次中');
    if (!inScope(caller.scope, item.orgId)) throw new HttpError(403, `党员“${item.name}”不在您的管理范围内`);
    await addToDue(trx, item.id, cents, `党员“${item.name}”`);
    const { id } = await trx.insertInto('dues_adjustment').values({ item_id: item.id, batch_id: batchId, member_id: memberId, kind: 'correction', amount_cents: cents, reason, created_by: caller.actor.id, created_by_name: caller.actor.name }).returning('id').executeTakeFirstOrThrow();
    await logBatch(trx, batchId, 'adjust', caller.actor, { orgId: item.orgId, comment: `${item.name}：${cents > 0 ? '+' : ''}${formatCents(cents)}元，${reason}` });
    return id;
  });
}

/**
 * 补缴: puts a closed batch's unpaid month of a member onto the member's item of a started batch (the
 * target), inside the caller's transaction (the payment that settles it). Refuses a month more than six
 * months before the target, a month already paid or put on a batch, and a target already paid.
 */
export async function addArrear(trx: DuesDb, sourceItemId: number, target: { itemId: number; memberId: number; batchId: number; firstMonth: string }, actor: DuesActor): Promise<number> {
  const source = (await sql<{ id: number; memberId: number; due: number; paymentId: number | null; state: number; firstMonth: string; months: number; name: string; justified: boolean }>`
    SELECT i.id, i.member_id AS "memberId", i.due_cents AS due, i.payment_id AS "paymentId", b.state, b.first_month AS "firstMonth", b.months, m.name,
           EXISTS (SELECT 1 FROM dues_deferral d WHERE d.item_id = i.id AND d.kind = ANY(${JUSTIFIED_DEFERRALS}::text[])) AS justified
    FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id JOIN m_member m ON m.id = i.member_id WHERE i.id = ${sourceItemId}`.execute(trx)).rows[0];
  if (!source || source.memberId !== target.memberId) throw new HttpError(404, '要补缴的月份不存在');
  const month = monthLabel(source.firstMonth);
  if (source.state !== 4) throw new HttpError(400, `${month}的收费批次尚未关闭，请直接缴纳`);
  if (source.paymentId !== null) throw new HttpError(409, `${source.name}${month}的党费已缴纳`);
  if (!backPayAllowed(addMonths(source.firstMonth, source.months - 1), target.firstMonth, source.justified)) {
    throw new HttpError(400, `${month}距今已超过${MAX_BACK_PAY_MONTHS}个月，且不是经批准或因生活困难缓交的月份；按规定补交一般不超过6个月，请报上级党组织处理`);
  }
  await addToDue(trx, target.itemId, source.due, source.name);
  try {
    const { id } = await trx
      .insertInto('dues_adjustment')
      .values({ item_id: target.itemId, batch_id: target.batchId, member_id: target.memberId, kind: 'arrear', source_item_id: source.id, amount_cents: source.due, reason: `补缴${month}党费`, created_by: actor.id, created_by_name: actor.name })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, `${source.name}${month}的党费已补缴`);
    throw error;
  }
}

/** Removes an adjustment while its item is unpaid and its batch started (a back payment frees its month again). */
export async function removeAdjustment(dues: DuesCore, caller: Caller, adjustmentId: number): Promise<void> {
  await dues.db.transaction().execute(async (trx) => {
    const adj = await trx.selectFrom('dues_adjustment').selectAll().where('id', '=', adjustmentId).executeTakeFirst();
    if (!adj) throw new HttpError(404, '调整记录不存在');
    await startedBatch(trx, dues, adj.batch_id, '撤销调整');
    const item = await trx.selectFrom('dues_item').select(['org_id']).where('id', '=', adj.item_id).executeTakeFirstOrThrow();
    if (!inScope(caller.scope, item.org_id)) throw new HttpError(403, '该党员不在您的管理范围内');
    await addToDue(trx, adj.item_id, -adj.amount_cents, '该党员');
    await trx.deleteFrom('dues_adjustment').where('id', '=', adjustmentId).execute();
    await logBatch(trx, adj.batch_id, 'unadjust', caller.actor, { orgId: item.org_id, comment: `${adj.reason}（${formatCents(adj.amount_cents)}元）` });
  });
}

export async function listAdjustments(dues: DuesCore, caller: Caller, batchId: number): Promise<AdjustmentView[]> {
  const rows = await sql<Omit<AdjustmentView, 'kindLabel' | 'amount' | 'createdAt'> & { cents: number; orgId: number; at: Date }>`
    SELECT a.id, a.batch_id AS "batchId", a.item_id AS "itemId", a.member_id AS "memberId", m.name AS "memberName", a.kind, b.first_month AS "sourceMonth",
           a.amount_cents AS cents, a.reason, a.created_by_name AS "createdBy", a.created_at AS at, i.org_id AS "orgId"
    FROM dues_adjustment a JOIN dues_item i ON i.id = a.item_id JOIN m_member m ON m.id = a.member_id
    LEFT JOIN dues_item s ON s.id = a.source_item_id LEFT JOIN dues_batch b ON b.id = s.batch_id
    WHERE a.batch_id = ${batchId} ORDER BY a.id`.execute(dues.db);
  return rows.rows
    .filter((r) => inScope(caller.scope, r.orgId))
    .map(({ cents, orgId: _orgId, at, ...r }) => ({ ...r, kindLabel: r.kind === 'arrear' ? '补缴' : '更正', amount: formatCents(cents), createdAt: new Date(at).toISOString() }));
}

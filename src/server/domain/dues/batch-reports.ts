/**
 * The deferrals (缓交) that make reporting a started batch possible: a branch reports (the step 上报 of
 * dues-batch, batch-workflow.ts) when each of its members has paid or has a deferral; once it (or its
 * committee) reported, its deferrals are fixed.
 */
import { sql } from 'kysely';
import { BatchState } from '../../../shared/constants.js';
import { HttpError } from '../../errors.js';
import { batchRow, logBatch, wrongState } from './batches.js';
import { inScope, type Caller, type DuesCore } from './context.js';
import { DeferralKindLabel, type DeferralKind } from '../../../shared/dues/api.js';
import type { DuesDb } from './tables.js';
import { hasOwn } from '../../../shared/own.js';

export { DeferralKindLabel };
/** Kinds that are a proper reason (正当理由): such months do not count towards the six of 自行脱党. */
export const JUSTIFIED_DEFERRALS: DeferralKind[] = ['approved', 'hardship'];

/** Items of this batch by id, checked: in the batch, in the caller's scope. */
export async function scopedItems(trx: DuesDb, caller: Caller, batchId: number, itemIds: number[]) {
  if (!Array.isArray(itemIds) || !itemIds.length || itemIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw new HttpError(400, '请选择党员');
  const rows = await sql<{ id: number; orgId: number; paymentId: number | null; name: string }>`
    SELECT i.id, i.org_id AS "orgId", i.payment_id AS "paymentId", m.name FROM dues_item i JOIN m_member m ON m.id = i.member_id
    WHERE i.batch_id = ${batchId} AND i.id = ANY(${itemIds}::int[])`.execute(trx);
  if (rows.rows.length !== new Set(itemIds).size) throw new HttpError(404, '所选党员不在本批次中');
  const outside = rows.rows.find((r) => !inScope(caller.scope, r.orgId));
  if (outside) throw new HttpError(403, `党员“${outside.name}”不在您的管理范围内`);
  return rows.rows;
}

export async function startedBatch(trx: DuesDb, dues: DuesCore, batchId: number, action: string) {
  const batch = await batchRow(trx, dues, batchId);
  await sql`SELECT 1 FROM dues_batch WHERE id = ${batchId} FOR SHARE`.execute(trx);
  if (batch.state !== BatchState.STARTED) throw wrongState(batch.title, batch.state, action);
  return batch;
}

/** Branches (and their committees) that already reported refuse changes to their members' deferrals. */
async function assertNotReported(trx: DuesDb, dues: DuesCore, batchId: number, orgIds: number[]): Promise<void> {
  const reported = new Set((await trx.selectFrom('dues_report').select('org_id').where('batch_id', '=', batchId).execute()).map((r) => r.org_id));
  for (const orgId of new Set(orgIds)) {
    const committee = await dues.levels.committeeOf(orgId);
    if (reported.has(orgId) || reported.has(committee)) throw new HttpError(409, `${await dues.levels.name(reported.has(orgId) ? orgId : committee)}已上报本批次，不能再修改缓交登记`);
  }
}

/** Members per branch: a log entry per branch, so each branch sees only its own (batchLog). */
function countByOrg(items: { orgId: number }[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const i of items) out.set(i.orgId, (out.get(i.orgId) ?? 0) + 1);
  return out;
}

/** 登记缓交: why these members have not paid (a proper reason, or none given after a reminder). */
export async function deferItems(dues: DuesCore, caller: Caller, batchId: number, body: { itemIds?: number[]; kind?: unknown; reason?: unknown }): Promise<number> {
  const kind = body.kind as DeferralKind;
  if (!hasOwn(DeferralKindLabel, kind)) throw new HttpError(400, '请选择缓交类别', { errors: [{ field: 'kind', message: '缓交类别只能是经批准缓交、生活困难或无正当理由' }] });
  const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
  if (!reason || reason.length > 200) throw new HttpError(400, '请填写缓交原因（200字以内）', { errors: [{ field: 'reason', message: '请填写缓交原因（200字以内）' }] });
  return dues.db.transaction().execute(async (trx) => {
    await startedBatch(trx, dues, batchId, '登记缓交');
    const items = await scopedItems(trx, caller, batchId, body.itemIds ?? []);
    const paid = items.find((i) => i.paymentId !== null);
    if (paid) throw new HttpError(409, `党员“${paid.name}”已缴纳本批次党费，无需缓交`);
    await assertNotReported(trx, dues, batchId, items.map((i) => i.orgId));
    const values = items.map((i) => ({ item_id: i.id, batch_id: batchId, org_id: i.orgId, kind, reason, created_by: caller.actor.id, created_by_name: caller.actor.name }));
    await trx
      .insertInto('dues_deferral')
      .values(values)
      .onConflict((oc) => oc.column('item_id').doUpdateSet({ kind, reason, created_by: caller.actor.id, created_by_name: caller.actor.name, created_at: new Date() }))
      .execute();
    for (const [orgId, n] of countByOrg(items)) await logBatch(trx, batchId, 'defer', caller.actor, { orgId, comment: `${n}人：${DeferralKindLabel[kind]}，${reason}` });
    return items.length;
  });
}

/** Withdraws deferrals (before the branch reports). */
export async function undeferItems(dues: DuesCore, caller: Caller, batchId: number, itemIds: number[]): Promise<number> {
  return dues.db.transaction().execute(async (trx) => {
    await startedBatch(trx, dues, batchId, '撤销缓交');
    const items = await scopedItems(trx, caller, batchId, itemIds);
    await assertNotReported(trx, dues, batchId, items.map((i) => i.orgId));
    const deleted = await trx.deleteFrom('dues_deferral').where('item_id', 'in', items.map((i) => i.id)).returning('org_id').execute();
    for (const [orgId, n] of countByOrg(deleted.map((d) => ({ orgId: d.org_id })))) await logBatch(trx, batchId, 'undefer', caller.actor, { orgId, comment: `${n}人` });
    return deleted.length;
  });
}


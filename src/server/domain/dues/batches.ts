/**
 * Fee batches (收费批次) and their states, spec §4: 1 not configured → 2 configured (the standards
 * frozen into a snapshot per member) → 3 started (members see and pay) → 4 closed (nothing changes
 * afterwards; corrections go into a later batch as adjustments). Every change of state is one
 * transaction: `UPDATE ... WHERE state = <expected>` (a second caller racing gets 409), the log entry,
 * and the snapshot or the closing figures.
 */
import { sql } from 'kysely';
import { BatchState, BatchStateLabel } from '../../../shared/constants.js';
import { formatCents } from '../../../shared/dues/money.js';
import { addMonths, isMonth, monthLabel, monthsOf } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { scopeSql, type Caller, type DuesCore } from './context.js';
import { ReportLevel } from './levels.js';
import type { DuesActor, DuesDb } from './tables.js';
import type { BatchView } from '../../../shared/dues/api.js';

type State = (typeof BatchState)[keyof typeof BatchState];

export function batchTitle(firstMonth: string, months: number): string {
  if (months === 3) return `${firstMonth.slice(0, 4)}年第${Math.floor((Number(firstMonth.slice(5, 7)) - 1) / 3) + 1}季度党费`;
  return `${monthLabel(firstMonth)}党费`;
}

export async function logBatch(db: DuesDb, batchId: number, action: string, actor: DuesActor, extra: { from?: number; to?: number; orgId?: number; comment?: string } = {}): Promise<void> {
  await db
    .insertInto('dues_batch_log')
    .values({ batch_id: batchId, action, from_state: extra.from ?? null, to_state: extra.to ?? null, org_id: extra.orgId ?? null, actor_id: actor.id, actor: actor.name, comment: extra.comment ?? '' })
    .execute();
}

const stateName = (s: number) => BatchStateLabel[s as State] ?? String(s);

/** The batch row; 404 when it is not this school's. */
export async function batchRow(db: DuesDb, dues: DuesCore, id: number) {
  const row = await db.selectFrom('dues_batch').selectAll().where('id', '=', id).where('school', '=', dues.school).executeTakeFirst();
  if (!row) throw new HttpError(404, '收费批次不存在');
  return row;
}

/** A refusal because the batch is not in the state an action needs (409: someone else moved it, or it is closed). */
export function wrongState(title: string, state: number, action: string): HttpError {
  if (state === BatchState.CLOSED) return new HttpError(409, `收费批次“${title}”已关闭，不能${action}；更正请计入下一批次的调整`);
  return new HttpError(409, `收费批次“${title}”当前为“${stateName(state)}”，不能${action}`);
}

/** Moves a batch from `from` to `to` inside `trx`: exactly one caller wins a race. */
async function move(trx: DuesDb, dues: DuesCore, id: number, from: State[], to: State, action: string, set: Record<string, unknown> = {}) {
  const row = await batchRow(trx, dues, id);
  if (!from.includes(row.state as State)) throw wrongState(row.title, row.state, action);
  const updated = await trx
    .updateTable('dues_batch')
    .set({ ...set, state: to, version: sql`version + 1` } as never)
    .where('id', '=', id)
    .where('state', '=', row.state)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new HttpError(409, '收费批次已被他人修改，请刷新后重试');
  return row;
}

export interface CreateBatchInput {
  firstMonth?: unknown;
  months?: unknown;
  remark?: unknown;
}

/** A new batch (state 1) for a month or a quarter; a month belongs to at most one batch. */
export async function createBatch(dues: DuesCore, input: CreateBatchInput, actor: DuesActor): Promise<number> {
  const months = input.months === undefined || input.months === null ? 1 : Number(input.months);
  if (!isMonth(input.firstMonth)) throw new HttpError(400, '请选择收费月份', { errors: [{ field: 'firstMonth', message: '收费月份的格式为 YYYY-MM' }] });
  const firstMonth = input.firstMonth;
  if (months !== 1 && months !== 3) throw new HttpError(400, '收费周期只能是按月或按季', { errors: [{ field: 'months', message: '收费周期只能是按月（1）或按季（3）' }] });
  if (months === 3 && (Number(firstMonth.slice(5, 7)) - 1) % 3 !== 0) throw new HttpError(400, '按季收费须从季度的第一个月开始（1、4、7、10月）', { errors: [{ field: 'firstMonth', message: '按季收费须从1、4、7、10月开始' }] });
  const remark = typeof input.remark === 'string' ? input.remark.trim().slice(0, 200) : '';
  const title = batchTitle(firstMonth, months);
  return dues.db.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom('dues_batch_month')
      .innerJoin('dues_batch', 'dues_batch.id', 'dues_batch_month.batch_id')
      .select(['dues_batch.title', 'dues_batch_month.month'])
      .where('dues_batch_month.school', '=', dues.school)
      .where('dues_batch_month.month', 'in', monthsOf(firstMonth, months))
      .executeTakeFirst();
    if (taken) throw new HttpError(409, `${monthLabel(taken.month)}已有收费批次“${taken.title}”`);
    const { id } = await trx.insertInto('dues_batch').values({ school: dues.school, first_month: firstMonth, months, title, remark, created_by: actor.id }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('dues_batch_month').values(monthsOf(firstMonth, months).map((month) => ({ batch_id: id, school: dues.school, month }))).execute();
    await logBatch(trx, id, 'create', actor, { to: BatchState.NOT_CONFIGURED, comment: title });
    return id;
  });
}

/** Members who would be in a batch of these months but have no standard for its year. */
async function membersWithoutStandard(db: DuesDb, year: number, lastDay: string) {
  const where = sql`m.party_status = '1' AND m.org_id IS NOT NULL AND (m.join_date IS NULL OR m.join_date <= ${lastDay}::date)
    AND NOT EXISTS (SELECT 1 FROM m_dues_standard s WHERE s.member_id = m.id AND s.year = ${year})`;
  const count = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member m WHERE ${where}`.execute(db)).rows[0].n;
  const sample = count ? (await sql<{ id: number; name: string; orgName: string | null }>`
    SELECT m.id, m.name, o.name AS "orgName" FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id WHERE ${where} ORDER BY m.org_id, m.id LIMIT 20`.execute(db)).rows : [];
  return { count, sample };
}

const lastDayOf = (month: string) => {
  const next = addMonths(month, 1);
  const d = new Date(`${next}-01T00:00:00Z`);
  d.setUTCDate(0);
  return d.toISOString().slice(0, 10);
};

/**
 * 配置: freezes each member's standard into the batch (member, branch, category, base, rate, due for the
 * batch's months). Members in the batch: status 正常, in a branch, admitted (probationary members
 * included, 中组发〔2008〕3号 第八条) by the batch's last day. Members without a standard for the year
 * stop it (listed), unless `allowMissing` leaves them out knowingly. A configured batch may be
 * configured again until it starts.
 */
export async function configureBatch(dues: DuesCore, id: number, input: { allowMissing?: unknown }, actor: DuesActor): Promise<{ members: number; due: string; missing: number }> {
  return dues.db.transaction().execute(async (trx) => {
    const row = await batchRow(trx, dues, id);
    const year = Number(row.first_month.slice(0, 4));
    const lastDay = lastDayOf(addMonths(row.first_month, row.months - 1));
    const missing = await membersWithoutStandard(trx, year, lastDay);
    if (missing.count && input.allowMissing !== true) {
      const names = missing.sample.slice(0, 5).map((m) => m.name).join('、');
      throw new HttpError(400, `${missing.count}名党员没有${year}年度的党费标准（${names}${missing.count > 5 ? '等' : ''}），请先导入或生成党费标准`, { missing: missing.sample, missingCount: missing.count });
    }
    await move(trx, dues, id, [BatchState.NOT_CONFIGURED, BatchState.CONFIGURED], BatchState.CONFIGURED, '配置', { configured_at: new Date() });
    await trx.deleteFrom('dues_item').where('batch_id', '=', id).execute();
    await sql`
      INSERT INTO dues_item (batch_id, member_id, org_id, category, base_cents, basis_points, standard_cents, due_cents)
      SELECT ${id}, m.id, m.org_id, s.category,
             CASE WHEN s.base IS NULL THEN NULL ELSE round(s.base::numeric * 100)::bigint END,
             CASE WHEN s.rate LIKE '%\\%' THEN round(rtrim(s.rate, '%')::numeric * 100)::int END,
             round(s.amount::numeric * 100)::bigint * ${row.months},
             round(s.amount::numeric * 100)::bigint * ${row.months}
      FROM m_member m JOIN m_dues_standard s ON s.member_id = m.id AND s.year = ${year}
      WHERE m.party_status = '1' AND m.org_id IS NOT NULL AND (m.join_date IS NULL OR m.join_date <= ${lastDay}::date)`.execute(trx);
    const totals = (await sql<{ members: number; due: number }>`SELECT count(*)::int AS members, coalesce(sum(due_cents), 0)::bigint AS due FROM dues_item WHERE batch_id = ${id}`.execute(trx)).rows[0];
    await trx.updateTable('dues_batch').set({ members: totals.members, due_cents: totals.due }).where('id', '=', id).execute();
    await logBatch(trx, id, 'configure', actor, { from: row.state, to: BatchState.CONFIGURED, comment: `${totals.members}名党员，应交${formatCents(totals.due)}元${missing.count ? `；${missing.count}名党员无党费标准，未纳入` : ''}` });
    return { members: totals.members, due: formatCents(totals.due), missing: missing.count };
  });
}

/** 开始收缴: members can see and pay. */
export async function startBatch(dues: DuesCore, id: number, actor: DuesActor): Promise<void> {
  await dues.db.transaction().execute(async (trx) => {
    const row = await move(trx, dues, id, [BatchState.CONFIGURED], BatchState.STARTED, '开始收缴', { started_at: new Date() });
    await logBatch(trx, id, 'start', actor, { from: row.state, to: BatchState.STARTED });
  });
}

/**
 * The figures of a batch per organisation at its closing (dues_batch_org), read by the reports instead of
 * the items: a closed batch never changes. Answers the batch's totals.
 */
async function keepClosedFigures(trx: DuesDb, id: number): Promise<{ paidMembers: number; paid: number }> {
  await sql`INSERT INTO dues_batch_org (batch_id, org_id, members, paid_members, deferred, due_cents, paid_cents)
    SELECT i.batch_id, i.org_id, count(*), count(i.payment_id), count(d.item_id), coalesce(sum(i.due_cents), 0), coalesce(sum(i.paid_cents), 0)
    FROM dues_item i LEFT JOIN dues_deferral d ON d.item_id = i.id AND i.payment_id IS NULL
    WHERE i.batch_id = ${id} GROUP BY i.batch_id, i.org_id`.execute(trx);
  return (await sql<{ paidMembers: number; paid: number }>`
    SELECT coalesce(sum(paid_members), 0)::int AS "paidMembers", coalesce(sum(paid_cents), 0)::bigint AS paid FROM dues_batch_org WHERE batch_id = ${id}`.execute(trx)).rows[0];
}

/**
 * 关闭: when every committee with members in the batch has reported. The figures at closing are kept on
 * the batch; nothing of it changes afterwards (payments, reversals, deferrals and adjustments refuse).
 */
export async function closeBatch(dues: DuesCore, id: number, actor: DuesActor): Promise<void> {
  await dues.db.transaction().execute(async (trx) => {
    const row = await batchRow(trx, dues, id);
    if (row.state !== BatchState.STARTED) throw wrongState(row.title, row.state, '关闭');
    const orgs = (await trx.selectFrom('dues_item').select('org_id').distinct().where('batch_id', '=', id).execute()).map((r) => r.org_id);
    const committees = new Set((await dues.levels.committees(orgs)).values());
    const reported = new Set((await trx.selectFrom('dues_report').select('org_id').where('batch_id', '=', id).where('level', '=', ReportLevel.COMMITTEE).execute()).map((r) => r.org_id));
    const waiting = [...committees].filter((c) => !reported.has(c));
    if (waiting.length) {
      const names = await Promise.all(waiting.slice(0, 5).map((c) => dues.levels.name(c)));
      throw new HttpError(409, `还有${waiting.length}个二级党组织未上报（${names.join('、')}${waiting.length > 5 ? '等' : ''}），全部上报后才能关闭`);
    }
    // The state moves first: its row lock waits for payments under way (they hold the batch FOR SHARE), so
    // the figures below see every one of them, and none can follow.
    await move(trx, dues, id, [BatchState.STARTED], BatchState.CLOSED, '关闭', { closed_at: new Date() });
    const totals = await keepClosedFigures(trx, id);
    await trx.updateTable('dues_batch').set({ paid_members: totals.paidMembers, paid_cents: totals.paid }).where('id', '=', id).execute();
    await logBatch(trx, id, 'close', actor, { from: BatchState.STARTED, to: BatchState.CLOSED, comment: `实交${formatCents(totals.paid)}元` });
  });
}

/** A batch not yet started may be deleted (its snapshot with it); a started one has money in it. */
export async function deleteBatch(dues: DuesCore, id: number): Promise<void> {
  await dues.db.transaction().execute(async (trx) => {
    const row = await batchRow(trx, dues, id);
    if (row.state !== BatchState.NOT_CONFIGURED && row.state !== BatchState.CONFIGURED) throw wrongState(row.title, row.state, '删除');
    const deleted = await trx.deleteFrom('dues_batch').where('id', '=', id).where('state', '=', row.state).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) throw new HttpError(409, '收费批次已被他人修改，请刷新后重试');
  });
}

interface Progress {
  batchId: number;
  members: number;
  paidMembers: number;
  deferred: number;
  due: number;
  paid: number;
}

/** Members, paid members, deferrals and money of batches as the caller's scope sees them. */
async function progressOf(dues: DuesCore, caller: Caller, batchIds: number[]): Promise<Map<number, Progress>> {
  if (!batchIds.length) return new Map();
  const rows = await sql<Progress>`
    SELECT i.batch_id AS "batchId", count(*)::int AS members, count(i.payment_id)::int AS "paidMembers", count(d.item_id)::int AS deferred,
           coalesce(sum(i.due_cents), 0)::bigint AS due, coalesce(sum(i.paid_cents), 0)::bigint AS paid
    FROM dues_item i LEFT JOIN dues_deferral d ON d.item_id = i.id AND i.payment_id IS NULL
    WHERE i.batch_id = ANY(${batchIds}::int[]) AND ${scopeSql(caller.scope, 'i.org_id')}
    GROUP BY i.batch_id`.execute(dues.db);
  return new Map(rows.rows.map((r) => [r.batchId, r]));
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** The school's batches, newest first, with the progress of each as the caller sees it. */
export async function listBatches(dues: DuesCore, caller: Caller, filter: { year?: number; state?: number; id?: number } = {}): Promise<BatchView[]> {
  let q = dues.db.selectFrom('dues_batch').selectAll().where('school', '=', dues.school);
  if (filter.id) q = q.where('id', '=', filter.id);
  if (filter.year) q = q.where('first_month', 'like', `${filter.year}-%`);
  if (filter.state) q = q.where('state', '=', filter.state);
  const rows = await q.orderBy('first_month', 'desc').execute();
  // Closed batches of the whole school read the figures kept at closing; the rest are counted.
  const counted = rows.filter((r) => caller.scope !== 'all' || r.state !== BatchState.CLOSED || r.paid_cents === null).map((r) => r.id);
  const progress = await progressOf(dues, caller, counted);
  const deferred = caller.scope === 'all' ? await progressOfDeferrals(dues, rows.filter((r) => !counted.includes(r.id)).map((r) => r.id)) : new Map<number, number>();
  return rows.map((r) => {
    const p = progress.get(r.id) ?? (counted.includes(r.id) ? { members: 0, paidMembers: 0, deferred: 0, due: 0, paid: 0 } : { members: r.members, paidMembers: r.paid_members ?? 0, deferred: deferred.get(r.id) ?? 0, due: r.due_cents, paid: r.paid_cents ?? 0 });
    return {
      id: r.id,
      title: r.title,
      firstMonth: r.first_month,
      months: monthsOf(r.first_month, r.months),
      state: r.state as State,
      stateLabel: stateName(r.state),
      version: r.version,
      members: p.members,
      paidMembers: p.paidMembers,
      deferred: p.deferred,
      due: formatCents(p.due),
      paid: formatCents(p.paid),
      rate: p.members ? Math.round((p.paidMembers / p.members) * 10_000) / 10_000 : 0,
      remark: r.remark,
      createdAt: iso(r.created_at)!,
      configuredAt: iso(r.configured_at),
      startedAt: iso(r.started_at),
      closedAt: iso(r.closed_at),
    };
  });
}

async function progressOfDeferrals(dues: DuesCore, batchIds: number[]): Promise<Map<number, number>> {
  if (!batchIds.length) return new Map();
  const rows = await dues.db.selectFrom('dues_deferral').select(['batch_id', sql<number>`count(*)::int`.as('n')]).where('batch_id', 'in', batchIds).groupBy('batch_id').execute();
  return new Map(rows.map((r) => [r.batch_id, r.n]));
}

export async function getBatch(dues: DuesCore, caller: Caller, id: number): Promise<BatchView> {
  await batchRow(dues.db, dues, id);
  return (await listBatches(dues, caller, { id }))[0];
}

/**
 * A batch's log as the caller's scope sees it (as the adjustments list does): entries of organisations in
 * scope, and the batch's changes of state without their school-wide figures; entries of other branches
 * (names, amounts, reasons) and entries without an organisation stay with callers who see everything.
 */
export async function batchLog(dues: DuesCore, caller: Caller, id: number) {
  await batchRow(dues.db, dues, id);
  const all = await dues.db.selectFrom('dues_batch_log').selectAll().where('batch_id', '=', id).orderBy('id').execute();
  const scope = caller.scope;
  const rows = scope === 'all' ? all : all.flatMap((r) => (r.org_id !== null ? (scope.includes(r.org_id) ? [r] : []) : r.to_state !== null ? [{ ...r, comment: '' }] : []));
  const names = new Map<number, string>();
  for (const r of rows) if (r.org_id !== null && !names.has(r.org_id)) names.set(r.org_id, await dues.levels.name(r.org_id));
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    fromState: r.from_state,
    toState: r.to_state,
    orgId: r.org_id,
    orgName: r.org_id !== null ? names.get(r.org_id) : null,
    actor: r.actor,
    comment: r.comment,
    at: iso(r.at),
  }));
}

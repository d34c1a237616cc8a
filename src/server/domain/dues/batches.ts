/**
 * Fee batches (收费批次) and their states, spec §4: 1 not configured → 2 configured (the standards
 * frozen into a snapshot per member) → 3 started (members see and pay) → 4 closed (nothing changes
 * afterwards; corrections go into a later batch as adjustments). The batch is the module dues-batch and
 * its states move through the workflow engine (batch-workflow.ts: the steps' guards and effects call the
 * functions here); this file holds the figures, the lists and the batch's log.
 */
import { sql } from 'kysely';
import { BatchState, BatchStateLabel } from '../../../shared/constants.js';
import { formatCents } from '../../../shared/dues/money.js';
import { addMonths, monthLabel, monthsOf } from '../../../shared/dues/rules.js';
import { ownValue } from '../../../shared/own.js';
import { HttpError } from '../../errors.js';
import { writeLog } from '../../runtime/workflow/log.js';
import { scopeSql, type Caller, type DuesCore } from './context.js';
import type { DuesActor, DuesDb } from './tables.js';
import type { BatchView } from '../../../shared/dues/api.js';
import { onRosterSql } from '../member/members.js';

type State = (typeof BatchState)[keyof typeof BatchState];

/** The module of fee batches (schemas/modules/dues-batch.json); its log is workflow_log's. */
export const BATCH_MODULE = 'dues-batch';

export function batchTitle(firstMonth: string, months: number): string {
  if (months === 3) return `${firstMonth.slice(0, 4)}年第${Math.floor((Number(firstMonth.slice(5, 7)) - 1) / 3) + 1}季度党费`;
  return `${monthLabel(firstMonth)}党费`;
}

/** Titles of the batch's log entries that are not steps of its workflow (recorded for an organisation). */
const ENTRY_TITLES: Record<string, string> = { create: '新建批次', defer: '登记缓交', undefer: '撤销缓交', reverse: '冲正', adjust: '调整', unadjust: '撤销调整' };

/**
 * An entry of the batch's log that is not a step (the creation, deferrals, reversals, adjustments): in
 * workflow_log beside the steps, at the organisation it concerns.
 */
export async function logBatch(db: DuesDb, batchId: number, action: string, actor: DuesActor, extra: { orgId?: number; comment?: string; to?: number } = {}): Promise<void> {
  await writeLog(db as never, {
    module: BATCH_MODULE,
    recordId: batchId,
    transition: action,
    transitionTitle: ownValue(ENTRY_TITLES, action) ?? action,
    from: null,
    to: extra.to ?? null,
    result: 'pass',
    level: extra.orgId !== undefined ? 'branch' : 'orgdept',
    actingOrgId: extra.orgId ?? null,
    actorId: actor.id,
    actorName: actor.name,
    comment: extra.comment ?? '',
    values: {},
    valueTexts: [],
    warnings: [],
    ip: null,
  });
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

/** The batch a month or quarter already belongs to (a month belongs to at most one batch of a school). */
export async function batchOfMonths(db: DuesDb, school: string, firstMonth: string, months: number): Promise<{ title: string; month: string } | undefined> {
  return db
    .selectFrom('dues_batch_month')
    .innerJoin('dues_batch', 'dues_batch.id', 'dues_batch_month.batch_id')
    .select(['dues_batch.title', 'dues_batch_month.month'])
    .where('dues_batch_month.school', '=', school)
    .where('dues_batch_month.month', 'in', monthsOf(firstMonth, months))
    .executeTakeFirst();
}

/** Members who would be in a batch of these months but have no standard for its year. */
export async function membersWithoutStandard(db: DuesDb, year: number, lastDay: string) {
  const where = sql`${onRosterSql('m')} AND m.org_id IS NOT NULL AND (m.join_date IS NULL OR m.join_date <= ${lastDay}::date)
    AND NOT EXISTS (SELECT 1 FROM m_dues_standard s WHERE s.member_id = m.id AND s.year = ${year})`;
  const count = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member m WHERE ${where}`.execute(db)).rows[0].n;
  const sample = count ? (await sql<{ id: number; name: string; orgName: string | null }>`
    SELECT m.id, m.name, o.name AS "orgName" FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id WHERE ${where} ORDER BY m.org_id, m.id LIMIT 20`.execute(db)).rows : [];
  return { count, sample };
}

export const lastDayOf = (month: string) => {
  const next = addMonths(month, 1);
  const d = new Date(`${next}-01T00:00:00Z`);
  d.setUTCDate(0);
  return d.toISOString().slice(0, 10);
};

/** The year and the last day of a batch's months: who is in it and which standards apply. */
export function batchPeriod(row: { first_month: string; months: number } | { firstMonth: string; months: number }): { year: number; lastDay: string } {
  const first = 'first_month' in row ? row.first_month : row.firstMonth;
  return { year: Number(first.slice(0, 4)), lastDay: lastDayOf(addMonths(first, row.months - 1)) };
}

/**
 * 配置: freezes each member's standard into the batch (member, branch, category, base, rate, due for the
 * batch's months). Members in the batch: status 正常, in a branch, admitted (probationary members
 * included, 中组发〔2008〕3号 第八条) by the batch's last day, with a standard for the year (the step's
 * guard stops those without one unless left out knowingly). A configured batch may be configured again
 * until it starts. Answers the batch's totals.
 */
export async function snapshotBatch(trx: DuesDb, id: number, row: { first_month: string; months: number }): Promise<{ members: number; due: number }> {
  const { year, lastDay } = batchPeriod(row);
  await trx.deleteFrom('dues_item').where('batch_id', '=', id).execute();
  await sql`
    INSERT INTO dues_item (batch_id, member_id, org_id, category, base_cents, basis_points, standard_cents, due_cents)
    SELECT ${id}, m.id, m.org_id, s.category,
           CASE WHEN s.base IS NULL THEN NULL ELSE round(s.base::numeric * 100)::bigint END,
           CASE WHEN s.rate LIKE '%\\%' THEN round(rtrim(s.rate, '%')::numeric * 100)::int END,
           round(s.amount::numeric * 100)::bigint * ${row.months},
           round(s.amount::numeric * 100)::bigint * ${row.months}
    FROM m_member m JOIN m_dues_standard s ON s.member_id = m.id AND s.year = ${year}
    WHERE ${onRosterSql('m')} AND m.org_id IS NOT NULL AND (m.join_date IS NULL OR m.join_date <= ${lastDay}::date)`.execute(trx);
  return (await sql<{ members: number; due: number }>`SELECT count(*)::int AS members, coalesce(sum(due_cents), 0)::bigint AS due FROM dues_item WHERE batch_id = ${id}`.execute(trx)).rows[0];
}

/**
 * The figures of a batch per organisation at its closing (dues_batch_org), read by the reports instead of
 * the items: a closed batch never changes. Answers the batch's totals.
 */
export async function keepClosedFigures(trx: DuesDb, id: number): Promise<{ paidMembers: number; paid: number }> {
  await sql`INSERT INTO dues_batch_org (batch_id, org_id, members, paid_members, deferred, due_cents, paid_cents)
    SELECT i.batch_id, i.org_id, count(*), count(i.payment_id), count(d.item_id), coalesce(sum(i.due_cents), 0), coalesce(sum(i.paid_cents), 0)
    FROM dues_item i LEFT JOIN dues_deferral d ON d.item_id = i.id AND i.payment_id IS NULL
    WHERE i.batch_id = ${id} GROUP BY i.batch_id, i.org_id`.execute(trx);
  return (await sql<{ paidMembers: number; paid: number }>`
    SELECT coalesce(sum(paid_members), 0)::int AS "paidMembers", coalesce(sum(paid_cents), 0)::bigint AS paid FROM dues_batch_org WHERE batch_id = ${id}`.execute(trx)).rows[0];
}

/** Committees with members in the batch that have not reported it (closing waits for them). */
export async function committeesNotReported(trx: DuesDb, dues: DuesCore, id: number): Promise<number[]> {
  const orgs = (await trx.selectFrom('dues_item').select('org_id').distinct().where('batch_id', '=', id).execute()).map((r) => r.org_id);
  const committees = new Set((await dues.levels.committees(orgs)).values());
  const reported = new Set((await trx.selectFrom('dues_report').select('org_id').where('batch_id', '=', id).where('level', '=', 2).execute()).map((r) => r.org_id));
  return [...committees].filter((c) => !reported.has(c));
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
      remark: r.remark ?? '',
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
 * A batch's log (workflow_log) as the caller's scope sees it (as the adjustments list does): entries of
 * organisations in scope, and the batch's changes of state without their school-wide figures; entries of
 * other branches (names, amounts, reasons) and entries without an organisation stay with callers who see
 * everything.
 */
export async function batchLog(dues: DuesCore, caller: Caller, id: number) {
  await batchRow(dues.db, dues, id);
  const all = await dues.db.selectFrom('workflow_log').selectAll().where('module', '=', BATCH_MODULE).where('record_id', '=', id).orderBy('id').execute();
  const scope = caller.scope;
  const rows = scope === 'all' ? all : all.flatMap((r) => (r.acting_org_id !== null ? (scope.includes(r.acting_org_id) ? [r] : []) : r.to_state !== null ? [{ ...r, comment: '', warnings: [] }] : []));
  const names = new Map<number, string>();
  for (const r of rows) if (r.acting_org_id !== null && !names.has(r.acting_org_id)) names.set(r.acting_org_id, await dues.levels.name(r.acting_org_id));
  return rows.map((r) => ({
    id: r.id,
    action: r.transition,
    title: r.transition_title,
    fromState: r.from_state,
    toState: r.to_state,
    orgId: r.acting_org_id,
    orgName: r.acting_org_id !== null ? names.get(r.acting_org_id) : null,
    actor: r.actor_name,
    comment: r.comment,
    warnings: r.warnings,
    at: iso(r.at),
  }));
}

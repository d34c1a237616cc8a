/**
 * Staffing (编制管理): approved posts per unit and rank (module `staffing`) against the current full-time
 * posts (`cadre-post`). `staffingCheck` answers whether one more appointment fits; the cadre-post hook
 * and the appointment workflow (C's effect) call it, and a post beyond the approved number needs a reason
 * (《党政领导干部选拔任用工作条例》第五十二条). The counts on the staffing rows are kept in the transaction of
 * every post's write.
 */
import { sql, type Kysely } from 'kysely';
import { localToday as todayOf } from '../../../shared/module-schema/computed.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { RULE_STAFFING, staffingFigures } from './rules.js';
import { refreshTeams } from './teams.js';
import { cataloguedSql } from './unit-post.js';

export interface StaffingCheck {
  /** The approved number for the unit and rank; null when none was set (no limit to check). */
  approved: number | null;
  /** Current full-time posts of that unit and rank, the excluded post not counted. */
  occupied: number;
  /** Whether one more post would exceed the approved number. */
  over: boolean;
  /** The warning to show (and to require a reason for) when `over`. */
  message?: string;
}

/** A post that counts against staffing: a full-time 职务 without an end date (or ending later than today). */
const countsSql = (today: string) => sql`kind = '职务' AND coalesce(full_time, true) AND (end_date IS NULL OR end_date > ${today}::date)`;

/**
 * Whether one more full-time post of `rank` in `unitId` exceeds the approved number. `excludePostId`: the
 * post being changed (it does not count twice).
 */
export async function staffingCheck(db: Kysely<DB>, args: { unitId: number; rank: string; excludePostId?: number; today?: string }): Promise<StaffingCheck> {
  const today = args.today ?? todayOf();
  const row = (await sql<{ approved: number }>`SELECT approved FROM m_staffing WHERE unit_id = ${args.unitId} AND rank = ${args.rank}`.execute(db)).rows[0];
  const occupied = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_post WHERE unit_id = ${args.unitId} AND rank = ${args.rank} AND ${countsSql(today)}
      AND id <> ${args.excludePostId ?? 0}`.execute(db)).rows[0].n;
  if (!row || row.approved === null) return { approved: null, occupied, over: false };
  const over = occupied + 1 > row.approved;
  if (!over) return { approved: row.approved, occupied, over };
  const names = (await sql<{ unit: string; rank: string }>`SELECT u.name AS unit, coalesce(d.label, ${args.rank}) AS rank FROM m_unit u
      LEFT JOIN dict_details d ON d.dict_code = 'GB_JBXX_XZJB' AND d.value = ${args.rank} WHERE u.id = ${args.unitId}`.execute(db)).rows[0];
  const message = `${names?.unit ?? '该单位'}${names?.rank ?? ''}核定职数${row.approved}名，已配备${occupied}名，再配备将超出核定职数。${RULE_STAFFING}`;
  return { approved: row.approved, occupied, over, message };
}

/** Recounts the staffing rows (and the teams) of these unit/rank pairs in the caller's transaction. */
export async function refreshStaffing(db: Kysely<DB>, pairs: { unitId: unknown; rank: unknown }[], today = todayOf()): Promise<void> {
  const seen = new Set<string>();
  const units = new Set<number>();
  for (const p of pairs) {
    if (typeof p.unitId !== 'number' || typeof p.rank !== 'string' || seen.has(`${p.unitId}:${p.rank}`)) continue;
    seen.add(`${p.unitId}:${p.rank}`);
    units.add(p.unitId);
    const row = (await sql<{ id: number; approved: number }>`SELECT id, approved FROM m_staffing WHERE unit_id = ${p.unitId} AND rank = ${p.rank}`.execute(db)).rows[0];
    if (!row) continue;
    const n = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_post WHERE unit_id = ${p.unitId} AND rank = ${p.rank} AND ${countsSql(today)}`.execute(db)).rows[0].n;
    const f = staffingFigures(row.approved ?? 0, n);
    await sql`UPDATE m_staffing SET occupied = ${f.occupied}, vacant = ${f.vacant}, excess = ${f.excess}, status = ${f.status} WHERE id = ${row.id}`.execute(db);
  }
  if (units.size) await refreshTeams(db, [...units], today);
}

/** The current counts of a staffing row being written (read-only fields the hook derives). */
registerHook('cadre.staffingRow', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  if (typeof r.unitId !== 'number' || typeof r.rank !== 'string') return;
  const n = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_post WHERE unit_id = ${r.unitId} AND rank = ${r.rank} AND ${countsSql(todayOf())}`.execute(ctx.trx)).rows[0].n;
  const catalogued = (await sql<{ n: number }>`SELECT ${cataloguedSql(r.unitId, r.rank, todayOf())} AS n`.execute(ctx.trx)).rows[0].n;
  Object.assign(ctx.record, staffingFigures(Number(r.approved ?? 0), n), { catalogued });
});

/** A post of the cadre base: dates in order, a 职务 names its unit and rank, and staffing is checked. */
registerHook('cadre.post', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  const errors: { field: string; message: string }[] = [];
  if (typeof r.endDate === 'string' && typeof r.startDate === 'string' && r.endDate < r.startDate) errors.push({ field: 'endDate', message: '免职日期不能早于任职日期' });
  if (typeof r.probationEnd === 'string' && typeof r.startDate === 'string' && r.probationEnd <= r.startDate) errors.push({ field: 'probationEnd', message: '试用期满日期应晚于任职日期' });
  if (r.kind !== '职称') {
    if (typeof r.unitId !== 'number') errors.push({ field: 'unitId', message: '任职单位不能为空' });
    if (typeof r.rank !== 'string' || !r.rank) errors.push({ field: 'rank', message: '职级不能为空' });
  }
  if (errors.length) throw new HttpError(400, errors[0].message, { errors });
  if (r.kind === '职称' || r.fullTime === false || (typeof r.endDate === 'string' && r.endDate <= todayOf())) return;
  const prev = ctx.previous;
  const alreadyCounted = prev && prev.kind !== '职称' && prev.fullTime !== false && !(typeof prev.endDate === 'string' && prev.endDate <= todayOf()) && prev.unitId === r.unitId && prev.rank === r.rank;
  if (alreadyCounted) return;
  const check = await staffingCheck(ctx.trx, { unitId: r.unitId as number, rank: r.rank as string, excludePostId: ctx.id });
  if (check.over && !(typeof r.overReason === 'string' && r.overReason.trim())) {
    throw new HttpError(400, `${check.message}请填写超职数配备理由`, { errors: [{ field: 'overReason', message: check.message! }], rule: RULE_STAFFING });
  }
});

registerHook('cadre.staffingCount', async (ctx) => {
  if (ctx.action === 'delete') return;
  await refreshStaffing(ctx.trx, [ctx.previous ?? {}, { ...ctx.previous, ...ctx.record }].map((r) => ({ unitId: r.unitId, rank: r.rank })));
});

/** Deleting posts frees their places: recounted without them, in the delete's transaction. */
registerHook('cadre.staffingRelease', async (ctx) => {
  if (ctx.action !== 'delete') return;
  const ids = ctx.records.map((r) => r.id as number);
  // The rows are still there while this hook runs: end them now so the recount leaves them out.
  await sql`UPDATE m_cadre_post SET end_date = coalesce(end_date, ${todayOf()}::date - 1) WHERE id = ANY(${ids}::int[])`.execute(ctx.trx);
  await refreshStaffing(ctx.trx, ctx.records.map((r) => ({ unitId: r.unitId, rank: r.rank })));
});

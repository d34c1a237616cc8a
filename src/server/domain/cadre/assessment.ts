/**
 * 干部考核: the share of 优秀 in one unit's yearly results is capped. 《党政领导干部考核工作条例》(2019) 第二十七条:
 * 年度考核优秀等次人数一般不超过参加年度考核的领导干部总数的20% — a rule parameter (`cadre-assessment.excellentPercent`,
 * default 20). The cap is checked after the rows are written (afterWrite of `cadre-assessment`), so an
 * import of many rows counts them all and a write over the cap undoes itself.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { likeContains, parsePaging } from '../../core/paging.js';
import { unitsOf } from '../../runtime/scope.js';
import { scopeOf, yearOf } from './analysis.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { ASSESSMENT_RESULTS } from '../../../shared/cadre-analysis.js';
import { numberParamOn } from '../../runtime/params/registry.js';
import { paramWhereKey } from '../../runtime/params/refusal.js';

export const EXCELLENT = ASSESSMENT_RESULTS[0];
/** The rule parameter (cadre-assessment x-params; it was the sys_config key cadreExcellentPercent). */
export const EXCELLENT_PERCENT_KEY = 'cadre-assessment.excellentPercent';
export const DEFAULT_EXCELLENT_PERCENT = 20;
export const RULE_EXCELLENT = '年度考核优秀等次人数一般不超过参加年度考核的领导干部总数的规定比例（《党政领导干部考核工作条例》第二十七条）';

/**
 * The most 优秀 a unit may give in a year: the percentage of those taking part (the unit's current cadres,
 * or the results recorded, whichever is more), rounded down, and at least one (a small unit may name one).
 */
export function excellentCap(participants: number, percent: number): number {
  if (participants <= 0) return 0;
  return Math.max(1, Math.floor((participants * percent) / 100));
}

/** The share in force for a year's results: the value in force on the year's last day (a change mid-year applies to that year). */
export const excellentPercent = async (year: number): Promise<number> => Math.min(100, await numberParamOn(EXCELLENT_PERCENT_KEY, DEFAULT_EXCELLENT_PERCENT, `${year}-12-31`));

export interface UnitYear {
  unitId: number;
  unitName: string;
  participants: number;
  excellent: number;
  cap: number;
}

/**
 * Per unit of the year's results, counted by the cadre's own unit: participants, 优秀 and the cap. The
 * result's 考核单位 (`unitId`) is a label only — counting by it would let a write escape the cap by naming
 * another unit (issue 38 item 13).
 */
export async function excellentByUnit(db: Kysely<DB>, year: number, unitIds?: number[]): Promise<UnitYear[]> {
  const percent = await excellentPercent(year);
  const only = unitIds ? sql`AND u.id = ANY(${unitIds}::int[])` : sql``;
  const rows = (await sql<{ unit_id: number; unit_name: string; cadres: number; results: number; excellent: number }>`
    WITH r AS (SELECT c.unit_id AS unit_id, a.result FROM m_cadre_assessment a JOIN m_cadre c ON c.id = a.cadre_id WHERE a.year = ${year})
    SELECT u.id AS unit_id, u.name AS unit_name,
      (SELECT count(*)::int FROM m_cadre c WHERE c.unit_id = u.id AND (c.tenure_status IS NULL OR c.tenure_status IN ('1', '2'))) AS cadres,
      count(r.unit_id)::int AS results, count(*) FILTER (WHERE r.result = ${EXCELLENT})::int AS excellent
    FROM m_unit u JOIN r ON r.unit_id = u.id WHERE true ${only} GROUP BY u.id, u.name ORDER BY u.name__py`.execute(db)).rows;
  return rows.map((r) => {
    const participants = Math.max(r.cadres, r.results);
    return { unitId: r.unit_id, unitName: r.unit_name, participants, excellent: r.excellent, cap: excellentCap(participants, percent) };
  });
}

registerHook('cadre.assessmentCap', async (ctx) => {
  if (ctx.action === 'delete' || ctx.record.result !== EXCELLENT) return;
  const year = ctx.record.year;
  if (typeof year !== 'number') return;
  const unit = (await sql<{ unit_id: number | null }>`SELECT c.unit_id FROM m_cadre c WHERE c.id = ${ctx.record.cadreId as number}`.execute(ctx.trx)).rows[0]?.unit_id;
  if (typeof unit !== 'number') return;
  // A save that keeps an 优秀 where it was (same cadre and year) adds none: an over-cap unit may still
  // correct a remark; only a new 优秀 is held to the cap.
  const before = ctx.previous as Record<string, unknown> | undefined;
  if (before && before.result === EXCELLENT && before.year === year && before.cadreId === ctx.record.cadreId) return;
  const [over] = (await excellentByUnit(ctx.trx, year, [unit])).filter((u) => u.excellent > u.cap);
  if (!over) return;
  const message = `${over.unitName}${year}年度考核优秀${over.excellent}人，超过优秀等次限额${over.cap}人（参加考核${over.participants}人，优秀比例${await excellentPercent(year)}%，${paramWhereKey(EXCELLENT_PERCENT_KEY).slice(1, -1)}）。${RULE_EXCELLENT}`;
  throw new HttpError(400, message, { rule: RULE_EXCELLENT, errors: [{ field: 'result', message }] });
});

/** 干部考核 page: the current cadres of the caller's units with their result of the year, and each unit's 优秀 cap. */
export async function assessmentRoutes(app: FastifyInstance): Promise<void> {
  const view = perm('cadre-assess:list');
  app.get('/api/cadre/assess', { config: view }, async (req) => {
    const year = yearOf(req);
    const q = req.query as { q?: string; page?: string; size?: string; result?: string };
    const { offset, limit } = parsePaging({ page: q.page, size: q.size }, {});
    const name = q.q ? sql<boolean>`c.name ILIKE ${likeContains(q.q)}` : sql<boolean>`true`;
    const result = q.result === 'none' ? sql<boolean>`a.id IS NULL` : q.result ? sql<boolean>`a.result = ${q.result}` : sql<boolean>`true`;
    const where = sql<boolean>`(c.tenure_status IS NULL OR c.tenure_status IN ('1', '2')) AND ${await scopeOf(req)} AND ${name} AND ${result}`;
    const from = sql`m_cadre c LEFT JOIN m_cadre_assessment a ON a.cadre_id = c.id AND a.year = ${year} LEFT JOIN m_unit u ON u.id = c.unit_id`;
    const db = app.services.database.db;
    const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`.execute(db)).rows[0].n;
    const rows = (await sql<{ id: number; name: string; unitName: string | null; post: string | null; rank: string | null; assessmentId: number | null; version: number | null; result: string | null; note: string | null }>`
      SELECT c.id, c.name, u.name AS "unitName", c.post, c.rank, a.id AS "assessmentId", a.version, a.result, a.note
      FROM ${from} WHERE ${where} ORDER BY u.name__py, c.name__py, c.id LIMIT ${limit} OFFSET ${offset}`.execute(db)).rows;
    const [posts, ranks] = await Promise.all(['GB_JBXX_ZW', 'GB_JBXX_XZJB'].map((code) => app.services.dicts.labels(code)));
    return { content: rows.map((r) => ({ ...r, postLabel: posts.get(r.post ?? ''), rankLabel: ranks.get(r.rank ?? '') })), totalElements: total };
  });
  app.get('/api/cadre/assess/caps', { config: view }, async (req) => {
    const year = yearOf(req);
    const db = app.services.database.db;
    const units = unitsOf(await app.runtime.actorOf(currentUser(req)));
    return { year, percent: await excellentPercent(year), units: await excellentByUnit(db, year, units === 'all' ? undefined : units) };
  });
}

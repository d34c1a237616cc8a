/**
 * What the pages of members' daily management read beyond the module API (docs/organisation-life.md):
 * talk coverage, points, assistance totals, assessment results, weak-organisation candidates and a
 * member's evaluation record. Every answer keeps to the caller's data scope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { committeeNames, rankBy, secretaryVacantTooLong, talkCoverage, weightedTotal, yearBounds } from '../../../shared/evaluation/rules.js';
import { currentUser } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';

/** DJ_DZZ_LB 3 党支部, 4 联合党支部, 5 临时党支部. */
const BRANCH_TYPES = ['3', '4', '5'];

function groupBy<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = map.get(k);
    if (list) list.push(r);
    else map.set(k, [r]);
  }
  return map;
}

const bad = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

export function yearOf(q: { year?: string }): number {
  if (q.year === undefined || q.year === '') return Number(localToday().slice(0, 4));
  const year = Number(q.year);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw bad('year', '年度不正确');
  return year;
}

export interface OrgFact {
  id: number;
  name: string;
  type: string | null;
  parentId: number | null;
  secretary: string | null;
  deputySecretary: string | null;
  committee: string | null;
}

/** The organisations an answer covers: the caller's scope, within `orgId`'s subtree when given; only branches when asked. */
export async function scopedOrgs(req: FastifyRequest, opts: { branchesOnly?: boolean; orgId?: unknown } = {}): Promise<OrgFact[]> {
  const app = req.server;
  const actor = await app.runtime.actorOf(currentUser(req));
  const raw = opts.orgId ?? (req.query as { orgId?: string }).orgId;
  let ids: number[] | 'all' = actor.scope;
  if (raw !== undefined && raw !== '' && raw !== null) {
    const orgId = Number(raw);
    if (!Number.isSafeInteger(orgId) || orgId <= 0) throw bad('orgId', '所选党组织不正确');
    const sub = await app.services.orgTree.subtreeIds([orgId]);
    ids = ids === 'all' ? sub : sub.filter((id) => (ids as number[]).includes(id));
  }
  const rows = await sql<OrgFact>`
    SELECT id, name, type, parent_id AS "parentId", secretary, deputy_secretary AS "deputySecretary", committee FROM m_org
    WHERE (${ids === 'all'}::boolean OR id = ANY(${ids === 'all' ? [] : ids}::int[]))
      AND (${!opts.branchesOnly}::boolean OR type = ANY(${BRANCH_TYPES}::text[]))
    ORDER BY sort NULLS LAST, id`.execute(app.services.database.db);
  return rows.rows;
}

/** 谈心谈话 coverage per branch (支部工作条例 第十六条), with the members nobody talked to. */
export async function talkCoverageOf(app: FastifyInstance, branches: OrgFact[], year: number) {
  const db = app.services.database.db;
  const ids = branches.map((b) => b.id);
  const [from, to] = yearBounds(year);
  const [members, talks] = await Promise.all([
    sql<{ id: number; name: string; orgId: number }>`
      SELECT id, name, org_id AS "orgId" FROM m_member WHERE org_id = ANY(${ids}::int[]) AND party_status = '1' ORDER BY name__py NULLS LAST, id`.execute(db),
    sql<{ talkerId: number; memberId: number; orgId: number }>`
      SELECT talker_id AS "talkerId", member_id AS "memberId", org_id AS "orgId" FROM m_member_talk
      WHERE org_id = ANY(${ids}::int[]) AND date BETWEEN ${from}::date AND ${to}::date`.execute(db),
  ]);
  const membersOf = groupBy(members.rows, (m) => m.orgId);
  const talksOf = groupBy(talks.rows, (t) => t.orgId);
  return branches.map((b) => {
    const list = membersOf.get(b.id) ?? [];
    const names = committeeNames(b);
    const idsNamed = (n: string[]) => new Set(list.filter((m) => n.includes(m.name)).map((m) => m.id));
    const c = talkCoverage(list, idsNamed(names.committee), idsNamed(names.secretary), talksOf.get(b.id) ?? []);
    return { orgId: b.id, orgName: b.name, secretary: b.secretary, ...c, rate: Math.round(c.rate * 1000) / 10 };
  });
}

export type { PointsRow } from '../../../shared/evaluation/points.js';
import type { PointsRow } from '../../../shared/evaluation/points.js';
import { onRosterSql } from '../member/members.js';

interface Item {
  id: number;
  name: string;
  source: string;
  score: number;
  yearCap: number | null;
}

/**
 * A branch's (or a member's) points of a year, from the records the other modules keep: meetings attended
 * (`meeting.attendeeIds`), party-school hours (completed study by ID number), dues months paid by the
 * batch's end, and manual items once approved. Each source is one grouped query.
 */
export async function pointsOf(app: FastifyInstance, where: { orgIds?: number[]; memberId?: number }, year: number): Promise<{ rows: PointsRow[]; items: Item[] }> {
  const db = app.services.database.db;
  const items = (await sql<Item>`SELECT id, name, source, score, year_cap AS "yearCap" FROM m_member_points_item WHERE enabled IS NOT FALSE`.execute(db)).rows;
  const [from, to] = yearBounds(year);
  const memberFilter = where.memberId !== undefined ? sql`m.id = ${where.memberId}` : sql`m.org_id = ANY(${where.orgIds ?? []}::int[]) AND ${onRosterSql('m')}`;
  const members = (await sql<{ id: number; name: string; orgId: number; idCard: string | null }>`
    SELECT m.id, m.name, m.org_id AS "orgId", m.id_card AS "idCard" FROM m_member m WHERE ${memberFilter}`.execute(db)).rows;
  const ids = members.map((m) => m.id);
  // Members attend their branch's meetings: only those are read (an index on the branch, not the school's year).
  const orgIds = [...new Set(members.map((m) => m.orgId))];
  const count = new Map<string, Map<number, number>>();
  const put = (source: string, rows: { id: number; n: number }[]) => count.set(source, new Map(rows.map((r) => [r.id, Number(r.n)])));
  if (app.runtime.module('meeting')) {
    put('meeting', (await sql<{ id: number; n: number }>`
      SELECT (a.v)::int AS id, count(*)::int AS n FROM m_meeting mt CROSS JOIN LATERAL jsonb_array_elements_text(mt.attendee_ids) AS a(v)
      WHERE mt.org_id = ANY(${orgIds}::int[]) AND mt.date BETWEEN ${from}::date AND ${to}::date AND (a.v)::int = ANY(${ids}::int[]) GROUP BY 1`.execute(db)).rows);
  }
  if (app.runtime.module('pschool-student')) {
    put('study', (await sql<{ id: number; n: number }>`
      SELECT m.id, coalesce(sum(s.hours_done), 0)::float8 AS n FROM m_member m JOIN m_pschool_student s ON s.id_card = m.id_card
      WHERE m.id = ANY(${ids}::int[]) AND s.completed IS TRUE AND extract(year FROM coalesce(s.completed_at, s.updated_at)) = ${year} GROUP BY m.id`.execute(db)).rows);
  }
  put('dues', (await sql<{ id: number; n: number }>`
    SELECT i.member_id AS id, sum(b.months)::int AS n FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
    WHERE i.member_id = ANY(${ids}::int[]) AND left(b.first_month, 4) = ${String(year)} AND i.paid_at IS NOT NULL AND i.paid_cents >= i.due_cents
      AND i.paid_at < (to_date(b.first_month, 'YYYY-MM') + make_interval(months => b.months)) GROUP BY 1`.execute(db)).rows);
  const manual = (await sql<{ id: number; itemId: number; n: number }>`
    SELECT member_id AS id, item_id AS "itemId", sum(score)::float8 AS n FROM m_member_points
    WHERE member_id = ANY(${ids}::int[]) AND state = 1 AND date BETWEEN ${from}::date AND ${to}::date GROUP BY 1, 2`.execute(db)).rows;
  const capped = (item: Item, n: number) => {
    const v = n * (item.source === 'manual' ? 1 : item.score);
    return item.yearCap !== null && item.yearCap !== undefined ? Math.sign(v) * Math.min(Math.abs(v), item.yearCap) : v;
  };
  const rows = members.map((m) => {
    const by = { meeting: 0, study: 0, dues: 0, manual: 0 } as Record<string, number>;
    for (const item of items) {
      const n = item.source === 'manual' ? manual.filter((x) => x.id === m.id && x.itemId === item.id).reduce((s, x) => s + x.n, 0) : (count.get(item.source)?.get(m.id) ?? 0);
      by[item.source] += capped(item, n);
    }
    const r2 = (x: number) => Math.round(x * 100) / 100;
    return { memberId: m.id, name: m.name, orgId: m.orgId, meeting: r2(by.meeting), study: r2(by.study), dues: r2(by.dues), manual: r2(by.manual), total: r2(by.meeting + by.study + by.dues + by.manual) };
  });
  return { rows, items };
}

export const rankPoints = (rows: PointsRow[]) => rankBy(rows, (r) => r.total);

/** 党员帮扶: the year's applications and the amounts approved and paid, per branch. */
export async function assistTotals(app: FastifyInstance, orgs: OrgFact[], year: number) {
  const [from, to] = yearBounds(year);
  const rows = await sql<{ orgId: number; cases: number; approved: string | null; paid: string | null; paidCases: number }>`
    SELECT org_id AS "orgId", count(*)::int AS cases,
           sum(CASE WHEN state IN (1, 2) THEN approved_amount::numeric END)::text AS approved,
           sum(CASE WHEN state = 2 THEN approved_amount::numeric END)::text AS paid,
           count(*) FILTER (WHERE state = 2)::int AS "paidCases"
    FROM m_member_assist WHERE org_id = ANY(${orgs.map((o) => o.id)}::int[]) AND apply_date BETWEEN ${from}::date AND ${to}::date
    GROUP BY org_id`.execute(app.services.database.db);
  const names = new Map(orgs.map((o) => [o.id, o.name]));
  return rows.rows.map((r) => ({ ...r, orgName: names.get(r.orgId) ?? '', approved: Number(r.approved ?? 0).toFixed(2), paid: Number(r.paid ?? 0).toFixed(2) }));
}

/** 考核方案: each scored branch's weighted total (Σ score / full marks × weight) and its rank. */
export async function assessResults(app: FastifyInstance, planId: number) {
  const rows = await sql<{ orgId: number; orgName: string; score: number; maxScore: number; weight: number }>`
    SELECT s.org_id AS "orgId", o.name AS "orgName", s.score, i.max_score AS "maxScore", i.weight
    FROM m_assess_score s JOIN m_assess_plan_indicator i ON i.id = s.indicator_id JOIN m_org o ON o.id = s.org_id
    WHERE s.plan_id = ${planId}`.execute(app.services.database.db);
  const byOrg = groupBy(rows.rows, (r) => r.orgId);
  const totals = [...byOrg.values()].map((list) => ({ orgId: list[0].orgId, orgName: list[0].orgName, indicators: list.length, total: weightedTotal(list) }));
  return rankBy(totals, (r) => r.total);
}

/** Rates of 三会一课 compliance per quarter of a year, per branch (the meetings area's compliance function; see seams). */
export type QuarterCompliance = (app: FastifyInstance, orgIds: number[], year: number, today: string) => Promise<Map<number, (number | null)[]>>;
let quarterCompliance: QuarterCompliance | undefined;
export function registerQuarterCompliance(fn: QuarterCompliance): void {
  quarterCompliance = fn;
}

export interface WeakParams {
  secretaryVacantMonths: number;
  complianceThreshold: number;
  complianceQuarters: number;
  lastInAssessment: boolean;
}

/**
 * 软弱涣散 candidates by the school's rules (org-weak x-workflow.params): the secretary post vacant over
 * N months (since the trail's change that emptied it, or the branch's creation), 三会一课 compliance below
 * the threshold in N consecutive ended quarters, last place in a plan's ranking of the year.
 */
export async function weakCandidates(app: FastifyInstance, branches: OrgFact[], year: number, p: WeakParams, today = localToday()) {
  const db = app.services.database.db;
  const reasons = new Map<number, { reason: string; detail: string }[]>();
  const add = (orgId: number, reason: string, detail: string) => reasons.set(orgId, [...(reasons.get(orgId) ?? []), { reason, detail }]);
  const vacant = branches.filter((b) => !(b.secretary ?? '').trim());
  if (vacant.length) {
    const since = await sql<{ id: number; since: string }>`
      SELECT o.id, to_char(coalesce(
        (SELECT max(c.at) FROM change_records c WHERE c.module = 'org' AND c.record_id = o.id
           AND EXISTS (SELECT 1 FROM jsonb_array_elements(c.changes) ch WHERE ch->>'field' = 'secretary')), o.created_at), 'YYYY-MM-DD') AS since
      FROM m_org o WHERE o.id = ANY(${vacant.map((b) => b.id)}::int[])`.execute(db);
    for (const r of since.rows) {
      if (secretaryVacantTooLong(r.since, today, p.secretaryVacantMonths)) add(r.id, '书记空缺', `书记职位自${r.since}起空缺超过${p.secretaryVacantMonths}个月`);
    }
  }
  if (quarterCompliance) {
    const rates = await quarterCompliance(app, branches.map((b) => b.id), year, today);
    for (const [orgId, quarters] of rates) {
      let run = 0;
      for (let q = 0; q < quarters.length; q++) {
        const rate = quarters[q];
        run = rate !== null && rate < p.complianceThreshold ? run + 1 : 0;
        if (run >= p.complianceQuarters) {
          add(orgId, '三会一课不达标', `连续${p.complianceQuarters}个季度三会一课完成率低于${Math.round(p.complianceThreshold * 100)}%（至第${q + 1}季度）`);
          break;
        }
      }
    }
  }
  if (p.lastInAssessment) {
    const plans = await sql<{ id: number; title: string }>`SELECT id, title FROM m_assess_plan WHERE year = ${year}`.execute(db);
    const wanted = new Set(branches.map((b) => b.id));
    for (const plan of plans.rows) {
      const ranked = await assessResults(app, plan.id);
      if (ranked.length < 2) continue;
      const last = ranked[ranked.length - 1].rank;
      for (const r of ranked.filter((x) => x.rank === last && wanted.has(x.orgId))) add(r.orgId, '年度考核末位', `“${plan.title}”排名末位（第${r.rank}名，${r.total}分）`);
    }
  }
  const existing = new Map((await sql<{ orgId: number; id: number; state: number }>`
    SELECT org_id AS "orgId", id, state FROM m_org_weak WHERE year = ${year}`.execute(db)).rows.map((r) => [r.orgId, r]));
  return branches
    .filter((b) => reasons.has(b.id))
    .map((b) => ({ orgId: b.id, orgName: b.name, reasons: reasons.get(b.id)!, recordId: existing.get(b.id)?.id ?? null }));
}

/** A member's record of evaluation: rewards and punishments, appraisal grades, talks, assistance. */
export async function memberEvaluation(app: FastifyInstance, memberId: number) {
  const db = app.services.database.db;
  const [rewards, appraisals, talks, assists] = await Promise.all([
    sql`SELECT id, kind, level, name, to_char(date, 'YYYY-MM-DD') AS date, doc_no AS "docNo", reason FROM m_member_reward WHERE member_id = ${memberId} ORDER BY date DESC`.execute(db),
    sql`SELECT r.id, a.year, a.title, r.grade, r.self_grade AS "selfGrade", a.state FROM m_appraisal_result r JOIN m_appraisal a ON a.id = r.appraisal_id
        WHERE r.member_id = ${memberId} AND a.state = 3 ORDER BY a.year DESC`.execute(db),
    sql`SELECT t.id, to_char(t.date, 'YYYY-MM-DD') AS date, t.topic, m.name AS "talkerName" FROM m_member_talk t LEFT JOIN m_member m ON m.id = t.talker_id
        WHERE t.member_id = ${memberId} ORDER BY t.date DESC`.execute(db),
    sql`SELECT id, kind, to_char(apply_date, 'YYYY-MM-DD') AS "applyDate", amount, approved_amount AS "approvedAmount", state FROM m_member_assist
        WHERE member_id = ${memberId} ORDER BY apply_date DESC`.execute(db),
  ]);
  return { rewards: rewards.rows, appraisals: appraisals.rows, talks: talks.rows, assists: assists.rows };
}

/**
 * Leadership teams (领导班子, module `leader-team`): a unit's team with its type and term. Its members are
 * the cadres holding a current full-time post in the unit (cadre-post), so nobody keeps a second list;
 * the team's size and plan (the unit's approved posts, 编制管理) are kept on the row for the list, and
 * `teamDetail` gives the members and the structure (age bands, gender, education, ethnicity, party, rank).
 */
import { sql, type Kysely } from 'kysely';
import { fullYearsBetween, localToday } from '../../../shared/module-schema/computed.js';
import type { DB } from '../../db/types.js';
import { registerHook } from '../../runtime/index.js';
import { termEndOf } from './rules.js';

/**
 * A team member: a current full-time 职务 in the unit at 处级 or above (GB_JBXX_XZJB 01-06; 科级 posts are
 * the unit's staff, not its leadership team).
 */
export const TEAM_RANKS = ['01', '02', '03', '04', '05', '06'];
const currentPost = (today: string) =>
  sql`p.kind = '职务' AND coalesce(p.full_time, true) AND (p.end_date IS NULL OR p.end_date > ${today}::date) AND p.rank = ANY(${TEAM_RANKS}::text[])`;

/** Recomputes the plan and member counts of the teams of these units. */
export async function refreshTeams(db: Kysely<DB>, unitIds: number[], today = localToday()): Promise<void> {
  if (!unitIds.length) return;
  await sql`UPDATE m_leader_team t SET
      plan_size = (SELECT coalesce(sum(s.approved), 0)::int FROM m_staffing s WHERE s.unit_id = t.unit_id AND s.rank = ANY(${TEAM_RANKS}::text[])),
      member_count = (SELECT count(DISTINCT p.cadre_id)::int FROM m_cadre_post p WHERE p.unit_id = t.unit_id AND ${currentPost(today)})
    WHERE t.unit_id = ANY(${unitIds}::int[])`.execute(db);
}

registerHook('cadre.team', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  ctx.record.termEnd = termEndOf(r.termStart, r.termYears);
  if (typeof r.unitId !== 'number') return;
  const today = localToday();
  const counts = (await sql<{ plan: number; members: number }>`SELECT
      (SELECT coalesce(sum(s.approved), 0)::int FROM m_staffing s WHERE s.unit_id = ${r.unitId} AND s.rank = ANY(${TEAM_RANKS}::text[])) AS plan,
      (SELECT count(DISTINCT p.cadre_id)::int FROM m_cadre_post p WHERE p.unit_id = ${r.unitId} AND ${currentPost(today)}) AS members`.execute(ctx.trx)).rows[0];
  ctx.record.planSize = counts.plan;
  ctx.record.memberCount = counts.members;
});

export const AGE_BANDS = [
  { label: '35岁及以下', max: 35 },
  { label: '36-45岁', max: 45 },
  { label: '46-55岁', max: 55 },
  { label: '56岁及以上', max: Infinity },
] as const;

export interface TeamMember {
  cadreId: number;
  name: string;
  gender: string | null;
  birthDate: string | null;
  age: number | null;
  ethnicity: string | null;
  education: string | null;
  politicalStatus: string | null;
  postTitle: string | null;
  post: string | null;
  rank: string | null;
  startDate: string | null;
  probationEnd: string | null;
}

type Count = { label: string; count: number };

/** The members of a unit's team and its structure against the unit's staffing plan. */
export async function teamDetail(db: Kysely<DB>, unitId: number, today = localToday()) {
  const members = (await sql<TeamMember & { genderLabel: string; rankLabel: string; educationLabel: string; ethnicityLabel: string; politicalLabel: string }>`
    SELECT DISTINCT ON (c.id) c.id AS "cadreId", c.name, c.gender, c.birth_date::text AS "birthDate", c.ethnicity, c.education, c.political_status AS "politicalStatus",
      p.post_title AS "postTitle", p.post, p.rank, p.start_date::text AS "startDate", p.probation_end::text AS "probationEnd",
      coalesce(dg.label, '') AS "genderLabel", coalesce(dr.label, '') AS "rankLabel", coalesce(de.label, '') AS "educationLabel",
      coalesce(dn.label, '') AS "ethnicityLabel", coalesce(dp.label, '') AS "politicalLabel"
    FROM m_cadre_post p JOIN m_cadre c ON c.id = p.cadre_id
    LEFT JOIN dict_details dg ON dg.dict_code = 'DJ_COMM_XB' AND dg.value = c.gender
    LEFT JOIN dict_details dr ON dr.dict_code = 'GB_JBXX_XZJB' AND dr.value = p.rank
    LEFT JOIN dict_details de ON de.dict_code = 'GB_JBXX_XL' AND de.value = c.education
    LEFT JOIN dict_details dn ON dn.dict_code = 'DJ_COMM_MZXX' AND dn.value = c.ethnicity
    LEFT JOIN dict_details dp ON dp.dict_code = 'DJ_COMM_ZZMM' AND dp.value = c.political_status
    WHERE p.unit_id = ${unitId} AND ${currentPost(today)}
    ORDER BY c.id, p.rank, p.start_date`.execute(db)).rows;
  members.sort((a, b) => (a.rank ?? '99').localeCompare(b.rank ?? '99') || (a.post ?? '').localeCompare(b.post ?? '') || a.cadreId - b.cadreId);
  for (const m of members) m.age = fullYearsBetween(m.birthDate, today);
  const tally = (key: (m: (typeof members)[number]) => string): Count[] => {
    const map = new Map<string, number>();
    for (const m of members) map.set(key(m) || '未填', (map.get(key(m) || '未填') ?? 0) + 1);
    return [...map].map(([label, count]) => ({ label, count }));
  };
  const plan = (await sql<{ rank: string; rankLabel: string; approved: number; occupied: number }>`
    SELECT s.rank, coalesce(d.label, s.rank) AS "rankLabel", s.approved, coalesce(s.occupied, 0)::int AS occupied FROM m_staffing s
    LEFT JOIN dict_details d ON d.dict_code = 'GB_JBXX_XZJB' AND d.value = s.rank WHERE s.unit_id = ${unitId} AND s.rank = ANY(${TEAM_RANKS}::text[]) ORDER BY s.rank`.execute(db)).rows;
  const actualByRank = new Map<string, number>();
  for (const m of members) if (m.rank) actualByRank.set(m.rank, (actualByRank.get(m.rank) ?? 0) + 1);
  return {
    members,
    structure: {
      ageBands: AGE_BANDS.map((b, i) => ({ label: b.label, count: members.filter((m) => m.age !== null && m.age <= b.max && (i === 0 || m.age > AGE_BANDS[i - 1].max)).length })),
      averageAge: members.some((m) => m.age !== null) ? Math.round((members.reduce((s, m) => s + (m.age ?? 0), 0) / members.filter((m) => m.age !== null).length) * 10) / 10 : null,
      gender: tally((m) => m.genderLabel),
      education: tally((m) => m.educationLabel),
      ethnicity: tally((m) => m.ethnicityLabel),
      party: tally((m) => (['01', '02'].includes(m.politicalStatus ?? '') ? '中共党员' : m.politicalStatus ? '非中共党员' : '')),
      rank: tally((m) => m.rankLabel),
    },
    plan: plan.map((p) => ({ ...p, actual: actualByRank.get(p.rank) ?? 0 })),
  };
}

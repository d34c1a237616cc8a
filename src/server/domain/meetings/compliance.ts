/**
 * Compliance of organisation life (三会一课, 主题党日, 组织生活会, 民主生活会): per organisation and period,
 * how many meetings each declared frequency requires (frequencies.ts) and how many valid ones were held.
 * One grouped query for any number of organisations (the school's 5,000 branches × 12 months in one go);
 * meetings marked 无效 never count.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { periodEnd, periodOf, periodsOfYear } from '../../../shared/meetings/rules.js';
import { orgTreeOf } from '../org/index.js';
import type { OrgRow } from '../org/org-tree.js';
import { BRANCH_TYPES, COMMITTEE_TYPES, frequencyRules, type FrequencyRule } from './frequencies.js';

export type { OrgCompliance, PeriodCompliance } from '../../../shared/meetings/compliance.js';
import type { OrgCompliance, PeriodCompliance } from '../../../shared/meetings/compliance.js';

export interface ComplianceQuery {
  /** Organisations asked for: each stands for itself and every organisation under it. */
  orgIds: number[];
  year: number;
  /** Default: the server's today. */
  today?: string;
  /** Only these meeting types' rules (the pages of 主题党日, 组织生活会 ask for theirs). */
  types?: string[];
  /** false: the totals per organisation only, `periods` left empty (the overview). */
  periods?: boolean;
}

interface HeldRow {
  org_id: number;
  type: string;
  sl: boolean;
  /** Meetings of each quarter's three months, 10 bits a month. */
  q1: number;
  q2: number;
  q3: number;
  q4: number;
}

/** The twelve monthly counts of a row's packed quarters. */
function unpack(r: HeldRow): number[] {
  const out: number[] = [];
  for (const q of [r.q1, r.q2, r.q3, r.q4]) out.push(q & 1023, (q >> 10) & 1023, (q >> 20) & 1023);
  return out;
}

const appliesTo = (rule: FrequencyRule, org: OrgRow) =>
  rule.orgs === 'branch' ? BRANCH_TYPES.includes(org.type ?? '') : COMMITTEE_TYPES.includes(org.type ?? '');

/**
 * The compliance of every organisation in the subtrees of `orgIds` that some declared rule applies to
 * (branches; 党委 for 民主生活会), in tree order. Callers check scope before asking.
 */
export async function complianceOf(app: FastifyInstance, q: ComplianceQuery): Promise<OrgCompliance[]> {
  const m = app.runtime.module('meeting');
  const tree = orgTreeOf(app.services);
  if (!m || !tree) return [];
  const today = q.today ?? localToday();
  const rules = frequencyRules(m).filter((r) => !q.types || q.types.includes(r.type));
  const ids = new Set(await tree.subtreeIds(q.orgIds));
  const everyOrg = await tree.all();
  const orgs = everyOrg.filter((o) => ids.has(o.id) && rules.some((r) => appliesTo(r, o)));
  if (!orgs.length || !rules.length) return [];
  const orgIds = orgs.map((o) => o.id);
  const types = [...new Set(rules.map((r) => r.type))];
  const from = `${q.year}-01-01`;
  const to = `${q.year}-12-31`;
  const db = app.services.database.db;
  // Meetings per month of each organisation, type and 书记讲党课, one row per group (a few per branch). The
  // twelve counts travel packed in four integers (a quarter each, 10 bits a month: up to 1023): sums per group
  // keep the aggregate in memory on a big school (an array per group spilled to disk). Asked for most of
  // the tree (the school), every row is read and the organisations kept here; else they join as a set
  // (unnest: `= ANY(array)` would compare every row with every id).
  const all = orgs.length * 2 >= everyOrg.length;
  const orgJoin = all ? sql`` : sql`JOIN unnest(${orgIds}::int[]) AS o(id) ON o.id = m.org_id`;
  const quarters = sql.raw([1, 2, 3, 4].map((q) => `coalesce(sum(CASE WHEN (mo - 1) / 3 = ${q - 1} THEN 1 << (10 * ((mo - 1) % 3)) END), 0)::int AS q${q}`).join(', '));
  const [held, grouped] = await Promise.all([
    sql<HeldRow>`
      SELECT org_id, type, sl, ${quarters}
      FROM (SELECT m.org_id, m.type, coalesce(m.secretary_lecture, false) AS sl, extract(month FROM m.date)::int AS mo
            FROM m_meeting m ${orgJoin}
            WHERE m.type = ANY(${types}::text[]) AND m.date BETWEEN ${from}::date AND ${to}::date AND m.invalid IS NOT TRUE) x
      GROUP BY 1, 2, 3`.execute(db),
    rules.some((r) => r.onlyWithGroups)
      ? sql<{ org_id: number }>`
          SELECT DISTINCT m.org_id FROM m_meeting m ${orgJoin}
          WHERE m.type = '党小组会' AND m.date <= ${to}::date AND m.invalid IS NOT TRUE`.execute(db)
      : Promise.resolve({ rows: [] as { org_id: number }[] }),
  ]);
  const withGroups = new Set(grouped.rows.map((r) => r.org_id));
  // Per rule, once: its periods, whether each is still open, and the period of each month (0-based index).
  const plans = rules.map((rule) => {
    const periods = periodsOfYear(q.year, rule.per);
    const monthToPeriod = Array.from({ length: 12 }, (_, i) => periods.indexOf(periodOf(`${q.year}-${String(i + 1).padStart(2, '0')}-01`, rule.per)));
    return { rule, periods, open: periods.map((p) => periodEnd(p) >= today), monthToPeriod };
  });
  // org → type → meetings per month (index 0 = January): every meeting, and the secretary's lessons.
  const byOrg = new Map<number, Map<string, { all: number[]; secretary: number[] }>>();
  const wanted = new Set(orgIds);
  for (const r of held.rows) {
    if (!wanted.has(r.org_id)) continue;
    let entries = byOrg.get(r.org_id);
    if (!entries) byOrg.set(r.org_id, (entries = new Map()));
    let entry = entries.get(r.type);
    if (!entry) entries.set(r.type, (entry = { all: new Array<number>(12).fill(0), secretary: new Array<number>(12).fill(0) }));
    const counts = unpack(r);
    for (let i = 0; i < 12; i++) {
      entry.all[i] += counts[i];
      if (r.sl) entry.secretary[i] += counts[i];
    }
  }
  return orgs.map((org) => {
    const periods: PeriodCompliance[] = [];
    let due = 0;
    let met = 0;
    for (const { rule, periods: names, open, monthToPeriod } of plans) {
      if (!appliesTo(rule, org) || (rule.onlyWithGroups && !withGroups.has(org.id))) continue;
      const entry = byOrg.get(org.id)?.get(rule.type);
      const counts = new Array<number>(names.length).fill(0);
      const perMonth = rule.secretaryLecture ? entry?.secretary : entry?.all;
      if (perMonth) for (let i = 0; i < 12; i++) counts[monthToPeriod[i]] += perMonth[i];
      for (let i = 0; i < names.length; i++) {
        const compliant = counts[i] >= rule.min;
        if (!open[i] || compliant) {
          due += 1;
          if (compliant) met += 1;
        }
        if (q.periods !== false) periods.push({ orgId: org.id, period: names[i], type: rule.type, rule: rule.rule, required: rule.min, held: counts[i], compliant, open: open[i] });
      }
    }
    return { orgId: org.id, orgName: org.name, orgType: org.type, periods, due, met, rate: due ? met / due : 1, compliant: met === due };
  });
}

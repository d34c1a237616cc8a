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

export interface PeriodCompliance {
  orgId: number;
  /** '2026-01', '2026-Q1' or '2026'. */
  period: string;
  /** The meeting type (DJ_HY_LX). */
  type: string;
  /** The declared rule (two rules may count one type: 党课 per quarter, and the secretary's once a year). */
  rule: string;
  required: number;
  held: number;
  compliant: boolean;
  /** The period has not ended yet (as of `today`): not held yet is not a failure yet. */
  open: boolean;
}

export interface OrgCompliance {
  orgId: number;
  orgName: string;
  /** DJ_DZZ_LB of the organisation. */
  orgType: string | null;
  periods: PeriodCompliance[];
  /** Periods due (ended, or met already) and how many of them were met. */
  due: number;
  met: number;
  /** met / due, 0–1 (1 when nothing is due yet). */
  rate: number;
  /** Every due period met. */
  compliant: boolean;
}

export interface ComplianceQuery {
  /** Organisations asked for: each stands for itself and every organisation under it. */
  orgIds: number[];
  year: number;
  /** Default: the server's today. */
  today?: string;
  /** Only these meeting types' rules (the pages of 主题党日, 组织生活会 ask for theirs). */
  types?: string[];
}

interface HeldRow {
  org_id: number;
  type: string;
  sl: boolean;
  months: number[];
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
  const orgs = (await tree.all()).filter((o) => ids.has(o.id) && rules.some((r) => appliesTo(r, o)));
  if (!orgs.length || !rules.length) return [];
  const orgIds = orgs.map((o) => o.id);
  const types = [...new Set(rules.map((r) => r.type))];
  const from = `${q.year}-01-01`;
  const to = `${q.year}-12-31`;
  const db = app.services.database.db;
  // Months of each valid meeting per organisation, type and 书记讲党课, one row per group (a few per branch).
  const [held, grouped] = await Promise.all([
    sql<HeldRow>`
      SELECT org_id, type, coalesce(secretary_lecture, false) AS sl, array_agg(extract(month FROM date)::int) AS months
      FROM m_meeting
      WHERE org_id = ANY(${orgIds}::int[]) AND type = ANY(${types}::text[]) AND date BETWEEN ${from}::date AND ${to}::date
        AND invalid IS NOT TRUE
      GROUP BY 1, 2, 3`.execute(db),
    rules.some((r) => r.onlyWithGroups)
      ? sql<{ org_id: number }>`
          SELECT DISTINCT org_id FROM m_meeting
          WHERE org_id = ANY(${orgIds}::int[]) AND type = '党小组会' AND date <= ${to}::date AND invalid IS NOT TRUE`.execute(db)
      : Promise.resolve({ rows: [] as { org_id: number }[] }),
  ]);
  const withGroups = new Set(grouped.rows.map((r) => r.org_id));
  // org → type → [all months, secretary-lecture months]
  const byOrg = new Map<number, Map<string, { all: number[]; secretary: number[] }>>();
  for (const r of held.rows) {
    const types = byOrg.get(r.org_id) ?? new Map<string, { all: number[]; secretary: number[] }>();
    byOrg.set(r.org_id, types);
    const entry = types.get(r.type) ?? { all: [], secretary: [] };
    types.set(r.type, entry);
    entry.all.push(...r.months);
    if (r.sl) entry.secretary.push(...r.months);
  }
  const monthDate = (month: number) => `${q.year}-${String(month).padStart(2, '0')}-01`;
  return orgs.map((org) => {
    const periods: PeriodCompliance[] = [];
    for (const rule of rules) {
      if (!appliesTo(rule, org) || (rule.onlyWithGroups && !withGroups.has(org.id))) continue;
      const entry = byOrg.get(org.id)?.get(rule.type);
      const months = (rule.secretaryLecture ? entry?.secretary : entry?.all) ?? [];
      const counts = new Map<string, number>();
      for (const month of months) {
        const p = periodOf(monthDate(month), rule.per);
        counts.set(p, (counts.get(p) ?? 0) + 1);
      }
      for (const period of periodsOfYear(q.year, rule.per)) {
        const n = counts.get(period) ?? 0;
        periods.push({ orgId: org.id, period, type: rule.type, rule: rule.rule, required: rule.min, held: n, compliant: n >= rule.min, open: periodEnd(period) >= today });
      }
    }
    const due = periods.filter((p) => !p.open || p.compliant);
    const met = due.filter((p) => p.compliant).length;
    return { orgId: org.id, orgName: org.name, orgType: org.type, periods, due: due.length, met, rate: due.length ? met / due.length : 1, compliant: met === due.length };
  });
}

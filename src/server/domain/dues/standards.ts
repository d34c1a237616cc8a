/**
 * Standards of a year (module dues-standard), beyond writing them one by one: generation by the rules
 * for members who have none, and the branch secretary's confirmation of the branch's list.
 */
import { sql } from 'kysely';
import { formatCents, parseYuan } from '../../../shared/dues/money.js';
import { categoryOfMember, isDuesCategory, needsBase, type DuesCategory } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { coveredOrgs, inScope, scopeSql, type Caller, type Dues } from './context.js';
import { duesSettings } from './settings.js';
import { STANDARD_SOURCE } from './standard-values.js';
import { writeStandards, type StandardInput } from './standard-writer.js';
import type { BranchStandards, GenerateResult } from '../../../shared/dues/api.js';
import { onRosterSql } from '../member/members.js';

export function yearParam(value: unknown): number {
  const year = Number(value);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw new HttpError(400, '请选择年度', { errors: [{ field: 'year', message: '年度须为2000到2100之间的整数' }] });
  return year;
}

export async function categoryLabels(dues: Dues): Promise<Map<string, string>> {
  return dues.services.dicts.labels('DJ_DF_JFLB');
}

/**
 * 按规定生成: a standard for every member (status 正常) of the organisations who has none for the year:
 * the category from the member's 人员类别 or last year's standard, the base carried over from last year's
 * standard; in-service and retired members without a base to carry over are left for the payroll import.
 */
export async function generateStandards(dues: Dues, caller: Caller, body: { year?: unknown; orgId?: unknown }): Promise<GenerateResult> {
  const year = yearParam(body.year);
  const orgId = body.orgId === undefined || body.orgId === null || body.orgId === '' ? undefined : Number(body.orgId);
  const covered = await coveredOrgs(dues, caller, orgId);
  const rows = (await sql<{ id: number; name: string; orgId: number; memberCategory: string | null; lastCategory: string | null; lastBase: string | null }>`
    SELECT m.id, m.name, m.org_id AS "orgId", m.category AS "memberCategory", s.category AS "lastCategory", s.base AS "lastBase"
    FROM m_member m LEFT JOIN m_dues_standard s ON s.member_id = m.id AND s.year = ${year - 1}
    WHERE ${onRosterSql('m')} AND m.org_id IS NOT NULL AND ${scopeSql(covered, 'm.org_id')}
      AND NOT EXISTS (SELECT 1 FROM m_dues_standard x WHERE x.member_id = m.id AND x.year = ${year})
    ORDER BY m.org_id, m.id`.execute(dues.db)).rows;
  const inputs: StandardInput[] = [];
  const missing: string[] = [];
  for (const r of rows) {
    const category: DuesCategory = isDuesCategory(r.lastCategory) ? r.lastCategory : categoryOfMember(r.memberCategory);
    const baseCents = needsBase(category) ? (r.lastBase ? (parseYuan(r.lastBase) ?? null) : null) : null;
    if (needsBase(category) && baseCents === null) {
      missing.push(r.name);
      continue;
    }
    inputs.push({ member: { id: r.id, name: r.name, orgId: r.orgId }, category, baseCents, source: STANDARD_SOURCE.RULES });
  }
  const { bands } = await duesSettings(dues.services.database.db, dues.school);
  const counts = await writeStandards(dues.runtime, dues.school, year, inputs, bands, caller.runtimeActor, { imported: false, categoryLabels: await categoryLabels(dues) });
  return { ...counts, missingBase: missing.length, missingBaseSample: missing.slice(0, 10) };
}

/** Each branch of the organisations with its standards for the year and its confirmation. */
export async function branchStandards(dues: Dues, caller: Caller, yearValue: unknown, orgIdValue?: unknown): Promise<BranchStandards[]> {
  const year = yearParam(yearValue);
  const orgId = orgIdValue === undefined || orgIdValue === '' ? undefined : Number(orgIdValue);
  const covered = await coveredOrgs(dues, caller, orgId);
  const rows = await sql<{ orgId: number; orgName: string; members: number; withStandard: number; monthly: number; confirmedAt: Date | null; confirmedBy: string | null; confirmedMembers: number | null; confirmedMonthly: number | null; lastChange: Date | null }>`
    SELECT m.org_id AS "orgId", o.name AS "orgName", count(*)::int AS members, count(s.id)::int AS "withStandard",
           coalesce(sum(round(s.amount::numeric * 100)), 0)::bigint AS monthly,
           c.confirmed_at AS "confirmedAt", c.confirmed_by_name AS "confirmedBy", c.members AS "confirmedMembers", c.monthly_cents AS "confirmedMonthly",
           max(s.updated_at) AS "lastChange"
    FROM m_member m JOIN m_org o ON o.id = m.org_id
    LEFT JOIN m_dues_standard s ON s.member_id = m.id AND s.year = ${year}
    LEFT JOIN dues_standard_confirmation c ON c.org_id = m.org_id AND c.year = ${year}
    WHERE ${onRosterSql('m')} AND ${scopeSql(covered, 'm.org_id')}
    GROUP BY m.org_id, o.name, o.sort, c.confirmed_at, c.confirmed_by_name, c.members, c.monthly_cents
    ORDER BY o.sort NULLS LAST, m.org_id`.execute(dues.db);
  return rows.rows.map((r) => ({
    orgId: r.orgId,
    orgName: r.orgName,
    members: r.members,
    withStandard: r.withStandard,
    monthly: formatCents(r.monthly),
    confirmed: r.confirmedAt ? { at: new Date(r.confirmedAt).toISOString(), by: r.confirmedBy ?? '', members: r.confirmedMembers ?? 0, monthly: formatCents(r.confirmedMonthly ?? 0) } : null,
    stale: !!r.confirmedAt && ((!!r.lastChange && new Date(r.lastChange) > new Date(r.confirmedAt)) || r.confirmedMembers !== r.withStandard),
  }));
}

/** 确认: the branch secretary confirms the branch's list of standards for the year as it is now. */
export async function confirmStandards(dues: Dues, caller: Caller, body: { orgId?: unknown; year?: unknown }): Promise<BranchStandards> {
  const year = yearParam(body.year);
  const orgId = Number(body.orgId);
  if (!Number.isSafeInteger(orgId) || orgId <= 0) throw new HttpError(400, '请选择党支部');
  if (!inScope(caller.scope, orgId)) throw new HttpError(403, '所选党支部不在您的管理范围内');
  const org = await dues.levels.org(orgId);
  if (!dues.levels.isBranch(org)) throw new HttpError(400, '党费标准由党支部确认，请选择党支部');
  const [branch] = await branchStandards(dues, caller, year, orgId).then((list) => list.filter((b) => b.orgId === orgId));
  if (!branch || !branch.withStandard) throw new HttpError(400, `${org.name}还没有${year}年度的党费标准`);
  if (branch.withStandard < branch.members) throw new HttpError(400, `${org.name}还有${branch.members - branch.withStandard}名党员没有${year}年度的党费标准，请先导入或生成`);
  const values = { members: branch.withStandard, monthly_cents: parseYuan(branch.monthly)!, confirmed_by: caller.actor.id, confirmed_by_name: caller.actor.name, confirmed_at: new Date() };
  await dues.db.insertInto('dues_standard_confirmation').values({ org_id: orgId, year, ...values }).onConflict((oc) => oc.columns(['org_id', 'year']).doUpdateSet(values)).execute();
  return (await branchStandards(dues, caller, year, orgId)).find((b) => b.orgId === orgId)!;
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { analysisWorkbook, bandCase, type Band } from '../../core/analysis.js';
import { perm } from '../../core/auth/guard.js';
import { sendXlsx } from '../../core/xlsx.js';
import { memberCondition, memberStatusOf, requestedOrgIds } from './members.js';

import type { Analysis } from '../../../shared/member-analysis.js';

/** Age and party-age bands: [key, label, lower bound inclusive, upper bound exclusive]. */
export const AGE_BANDS: Band[] = [
  ['0-25', '25岁及以下', 0, 26], ['26-35', '26-35岁', 26, 36], ['36-45', '36-45岁', 36, 46], ['46-55', '46-55岁', 46, 56], ['56-60', '56-60岁', 56, 61], ['61+', '61岁及以上', 61, 200],
];
export const PARTY_AGE_BANDS: Band[] = [
  ['0-5', '5年及以下', 0, 6], ['6-10', '6-10年', 6, 11], ['11-20', '11-20年', 11, 21], ['21-30', '21-30年', 21, 31], ['31-50', '31-50年', 31, 51], ['51+', '50年以上', 51, 200],
];

const DICT_DIMENSIONS: [string, string, string, string][] = [
  ['gender', '性别', 'gender', 'DJ_COMM_XB'],
  ['ethnicity', '民族', 'ethnicity', 'DJ_COMM_MZXX'],
  ['education', '学历', 'education', 'DJ_DY_XLXX'],
  ['category', '人员类别', 'category', 'DJ_DY_RYLBXX'],
  ['partyStatus', '党籍状态', 'party_status', 'DJ_DY_DJZTXX'],
];

/** The members a caller analyses: the organisation's members (members.ts) within their scope; `partyStatus` widens it. */
async function analysedMembers(req: FastifyRequest): Promise<RawBuilder<boolean>> {
  return memberCondition(await requestedOrgIds(req), memberStatusOf((req.query as { partyStatus?: string }).partyStatus));
}

export async function analyseMembers(app: FastifyInstance, where: RawBuilder<boolean>): Promise<Analysis> {
  const db = app.services.database.db;
  const group = async (expr: RawBuilder<unknown>) =>
    (await sql<{ value: string | null; count: number }>`SELECT ${expr} AS value, count(*)::int AS count FROM m_member WHERE ${where} GROUP BY 1 ORDER BY 2 DESC`.execute(db)).rows;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE ${where}`.execute(db)).rows[0].n;
  const dimensions: Analysis['dimensions'] = [];
  for (const [key, title, column, dict] of DICT_DIMENSIONS) {
    const labels = await app.services.dicts.labels(dict);
    const rows = await group(sql.ref(column));
    dimensions.push({ key, title, slices: rows.map((r) => ({ value: r.value ?? '', label: r.value ? (labels.get(r.value) ?? r.value) : '未填写', count: r.count })) });
  }
  for (const [key, title, column, bands] of [['ageBand', '年龄段', 'birth_date', AGE_BANDS], ['partyAgeBand', '党龄段', 'full_date', PARTY_AGE_BANDS]] as const) {
    const counts = new Map((await group(bandCase(column, bands))).map((r) => [r.value ?? 'unknown', r.count]));
    const slices = bands.map(([value, label]) => ({ value, label, count: counts.get(value) ?? 0 }));
    if (counts.get('unknown')) slices.push({ value: 'unknown', label: key === 'partyAgeBand' ? '预备党员/未填写' : '未填写', count: counts.get('unknown')! });
    dimensions.push({ key, title, slices });
  }
  const byOrg = (await sql<{ value: number; label: string; count: number }>`
    SELECT o.id AS value, o.name AS label, count(*)::int AS count FROM m_member m JOIN m_org o ON o.id = m.org_id
    WHERE ${where} GROUP BY o.id, o.name ORDER BY count DESC LIMIT 30`.execute(db)).rows;
  dimensions.push({ key: 'org', title: '党组织（前30）', slices: byOrg.map((r) => ({ value: String(r.value), label: r.label, count: r.count })) });
  return { total, dimensions };
}

/** Member data analysis (党员数据分析): counts by dimension, for charts, with an .xlsx of the figures. */
export async function memberAnalysisRoutes(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module('member') || !app.runtime.module('org')) return;
  app.get('/api/member/analysis', { config: perm('member:list') }, async (req) => analyseMembers(app, await analysedMembers(req)));

  app.get('/api/member/analysis/export', { config: perm('member:list', 'member:export') }, async (req, reply) => {
    const analysis = await analyseMembers(app, await analysedMembers(req));
    return sendXlsx(reply, analysisWorkbook('党员数据分析', '党员总数', analysis), '党员数据分析.xlsx');
  });
}

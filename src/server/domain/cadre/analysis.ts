/**
 * 干部队伍结构分析 and 干部绩效分析: counts of the cadre team (current cadres: 在任 or 试用期) by dimension, and
 * of the yearly assessment results by unit, rank and age band, within the caller's unit scope. Each
 * dimension is declared once (its grouping and the condition of one of its slices), so the counts and
 * the drill-down list never disagree.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { analysisWorkbook, bandCase, inBand, type Band } from '../../core/analysis.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { parsePaging } from '../../core/paging.js';
import { sendXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { unitsOf } from '../../runtime/scope.js';
import type { Analysis, Slice } from '../../../shared/member-analysis.js';
import { ASSESSMENT_RESULTS, type PerformanceAnalysis } from '../../../shared/cadre-analysis.js';
import { AGE_BANDS } from '../member/analysis.js';

/** Years in the current post: the exchange rules count 5 and 10 years (《条例》第五十三条: 满十年的应当交流). */
export const POST_YEAR_BANDS: Band[] = [
  ['0-2', '不满3年', 0, 3], ['3-4', '3年至不满5年', 3, 5], ['5-9', '5年至不满10年', 5, 10], ['10+', '10年及以上', 10, 200],
];

/** Cadres the analysis counts: in office or on probation (任职状态 在任 1, 试用期 2), or with no status recorded. */
const CURRENT = sql<boolean>`(c.tenure_status IS NULL OR c.tenure_status IN ('1', '2'))`;
const PARTY = ['01', '02'];

interface Dimension {
  key: string;
  title: string;
  /** The group key of a cadre (alias c), as text; NULL reads as '' (未填写). */
  group: RawBuilder<string>;
  /** The cadres of one slice. */
  slice(value: string): RawBuilder<boolean>;
  /** Labels of the keys: a dictionary, fixed labels, or the units' names. */
  labels: { dict: string } | { fixed: [string, string][] } | 'unit';
}

const dictDimension = (key: string, title: string, column: string, dict: string): Dimension => ({
  key,
  title,
  group: sql<string>`COALESCE(${sql.ref(`c.${column}`)}, '')`,
  slice: (v) => (v ? sql<boolean>`${sql.ref(`c.${column}`)} = ${v}` : sql<boolean>`${sql.ref(`c.${column}`)} IS NULL`),
  labels: { dict },
});
const bandDimension = (key: string, title: string, column: string, bands: Band[]): Dimension => ({
  key,
  title,
  group: bandCase(`c.${column}`, bands),
  slice: (v) => inBand(`c.${column}`, bands, v),
  labels: { fixed: [...bands.map(([k, label]): [string, string] => [k, label]), ['unknown', '未填写']] },
});
const unitDimension: Dimension = {
  key: 'unit',
  title: '单位',
  group: sql<string>`COALESCE(c.unit_id::text, '')`,
  slice: (v) => (v ? sql<boolean>`c.unit_id = ${Number(v)}` : sql<boolean>`c.unit_id IS NULL`),
  labels: 'unit',
};

export const STRUCTURE_DIMENSIONS: Dimension[] = [
  dictDimension('rank', '职级', 'rank', 'GB_JBXX_XZJB'),
  bandDimension('ageBand', '年龄段', 'birth_date', AGE_BANDS),
  dictDimension('gender', '性别', 'gender', 'DJ_COMM_XB'),
  dictDimension('education', '学历', 'education', 'GB_JBXX_XL'),
  dictDimension('ethnicity', '民族', 'ethnicity', 'DJ_COMM_MZXX'),
  {
    key: 'party',
    title: '党派',
    group: sql<string>`CASE WHEN c.political_status IS NULL THEN '' WHEN c.political_status IN (${sql.join(PARTY)}) THEN 'party' ELSE 'nonparty' END`,
    slice: (v) =>
      v === 'party' ? sql<boolean>`c.political_status IN (${sql.join(PARTY)})` : v === 'nonparty' ? sql<boolean>`c.political_status NOT IN (${sql.join(PARTY)})` : sql<boolean>`c.political_status IS NULL`,
    labels: { fixed: [['party', '中共党员'], ['nonparty', '非中共党员']] },
  },
  bandDimension('postYears', '任现职年限', 'post_date', POST_YEAR_BANDS),
  dictDimension('category', '干部类别', 'category', 'GB_JBXX_GBLB'),
];
const PERFORMANCE_DIMENSIONS: Dimension[] = [unitDimension, STRUCTURE_DIMENSIONS[0], STRUCTURE_DIMENSIONS[1]];

const dimensionOf = (list: Dimension[], key: unknown): Dimension => {
  const d = list.find((x) => x.key === key);
  if (!d) throw new HttpError(400, `不支持的分析维度：${String(key)}`);
  return d;
};

/** The cadres the caller may analyse: their unit scope, narrowed to one unit when asked. */
export async function scopeOf(req: FastifyRequest): Promise<RawBuilder<boolean>> {
  const units = unitsOf(await req.server.runtime.actorOf(currentUser(req)));
  const raw = (req.query as { unitId?: string }).unitId;
  const unitId = raw === undefined || raw === '' ? undefined : Number(raw);
  if (unitId !== undefined && !Number.isSafeInteger(unitId)) throw new HttpError(400, '单位参数不正确');
  if (unitId !== undefined && units !== 'all' && !units.includes(unitId)) throw new HttpError(403, '无权查看该单位的干部');
  if (unitId !== undefined) return sql<boolean>`c.unit_id = ${unitId}`;
  return units === 'all' ? sql<boolean>`true` : units.length ? sql<boolean>`c.unit_id = ANY(${units}::int[])` : sql<boolean>`false`;
}

async function labelsOf(app: FastifyInstance, d: Dimension, keys: string[]): Promise<Map<string, string>> {
  if (d.labels === 'unit') {
    const ids = keys.filter(Boolean).map(Number);
    const rows = ids.length ? (await sql<{ id: number; name: string }>`SELECT id, name FROM m_unit WHERE id = ANY(${ids}::int[])`.execute(app.services.database.db)).rows : [];
    return new Map(rows.map((r) => [String(r.id), r.name]));
  }
  return 'dict' in d.labels ? app.services.dicts.labels(d.labels.dict) : new Map(d.labels.fixed);
}

/** Slices in the band order for bands, else largest first; empty values read 未填写. */
async function slicesOf(app: FastifyInstance, d: Dimension, rows: { value: string; count: number }[]): Promise<Slice[]> {
  const labels = await labelsOf(app, d, rows.map((r) => r.value));
  const slices = rows.map((r) => ({ value: r.value, label: r.value && r.value !== 'unknown' ? (labels.get(r.value) ?? r.value) : '未填写', count: r.count }));
  if (typeof d.labels === 'object' && 'fixed' in d.labels) {
    const order = [...labels.keys()];
    slices.sort((a, b) => order.indexOf(a.value) - order.indexOf(b.value));
  }
  return slices;
}

export async function analyseStructure(app: FastifyInstance, scope: RawBuilder<boolean>): Promise<Analysis> {
  const db = app.services.database.db;
  const where = sql<boolean>`${CURRENT} AND ${scope}`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre c WHERE ${where}`.execute(db)).rows[0].n;
  // One scan: every dimension's group key per cadre, counted by grouping sets.
  const sets = STRUCTURE_DIMENSIONS.map((d, i) => sql`(${sql.ref(`g${i}`)})`);
  const cols = STRUCTURE_DIMENSIONS.map((d, i) => sql`${d.group} AS ${sql.ref(`g${i}`)}`);
  const grouping = STRUCTURE_DIMENSIONS.map((d, i) => sql`GROUPING(${sql.ref(`g${i}`)})`);
  const rows = (await sql<Record<string, unknown>>`
    SELECT ${sql.join(STRUCTURE_DIMENSIONS.map((d, i) => sql.ref(`g${i}`)))}, ${sql.join(grouping.map((g, i) => sql`${g} AS ${sql.ref(`x${i}`)}`))}, count(*)::int AS count
    FROM (SELECT ${sql.join(cols)} FROM m_cadre c WHERE ${where}) t
    GROUP BY GROUPING SETS (${sql.join(sets)})`.execute(db)).rows;
  const dimensions: Analysis['dimensions'] = [];
  for (const [i, d] of STRUCTURE_DIMENSIONS.entries()) {
    const mine = rows.filter((r) => r[`x${i}`] === 0).map((r) => ({ value: String(r[`g${i}`] ?? ''), count: Number(r.count) }));
    dimensions.push({ key: d.key, title: d.title, slices: await slicesOf(app, d, mine.sort((a, b) => b.count - a.count)) });
  }
  return { total, dimensions };
}

export async function analysePerformance(app: FastifyInstance, scope: RawBuilder<boolean>, year: number): Promise<PerformanceAnalysis> {
  const db = app.services.database.db;
  const from = sql`m_cadre_assessment a JOIN m_cadre c ON c.id = a.cadre_id`;
  const where = sql<boolean>`a.year = ${year} AND ${scope}`;
  const years = (await sql<{ year: number }>`SELECT DISTINCT a.year FROM ${from} WHERE ${scope} AND a.year IS NOT NULL ORDER BY 1 DESC`.execute(db)).rows.map((r) => r.year);
  const totals = (await sql<{ result: string; count: number }>`SELECT a.result, count(*)::int AS count FROM ${from} WHERE ${where} GROUP BY 1`.execute(db)).rows;
  const count = (r: string) => totals.find((t) => t.result === r)?.count ?? 0;
  const dimensions: PerformanceAnalysis['dimensions'] = [];
  for (const d of PERFORMANCE_DIMENSIONS) {
    const rows = (await sql<{ value: string; result: string; count: number }>`
      SELECT ${d.group} AS value, a.result, count(*)::int AS count FROM ${from} WHERE ${where} GROUP BY 1, 2`.execute(db)).rows;
    const byValue = new Map<string, Record<string, number>>();
    for (const r of rows) byValue.set(r.value, { ...byValue.get(r.value), [r.result]: r.count });
    const slices = await slicesOf(app, d, [...byValue].map(([value, counts]) => ({ value, count: Object.values(counts).reduce((a, b) => a + b, 0) })));
    dimensions.push({
      key: d.key,
      title: d.title,
      rows: slices.map((s) => {
        const counts = byValue.get(s.value) ?? {};
        return { ...s, counts, excellentShare: s.count ? Math.round(((counts[ASSESSMENT_RESULTS[0]] ?? 0) / s.count) * 1000) / 10 : 0 };
      }),
    });
  }
  return { year, years, total: totals.reduce((a, t) => a + t.count, 0), results: ASSESSMENT_RESULTS.map((r) => ({ value: r, label: r, count: count(r) })), dimensions };
}

export const yearOf = (req: FastifyRequest): number => {
  const raw = (req.query as { year?: string }).year;
  const year = raw ? Number(raw) : new Date().getFullYear() - 1;
  if (!Number.isInteger(year) || year < 1949 || year > 2200) throw new HttpError(400, '年度参数不正确');
  return year;
};

export async function cadreAnalysisRoutes(app: FastifyInstance): Promise<void> {
  const structure = perm('cadre-structure:list');
  const performance = perm('cadre-performance:list');
  app.get('/api/cadre/structure', { config: structure }, async (req) => analyseStructure(app, await scopeOf(req)));
  app.get('/api/cadre/structure/export', { config: structure }, async (req, reply) =>
    sendXlsx(reply, analysisWorkbook('干部队伍结构分析', '干部总数', await analyseStructure(app, await scopeOf(req))), '干部队伍结构分析.xlsx'),
  );
  /** The cadres of one slice (drill-down), as the counts define it. */
  app.get('/api/cadre/structure/cadres', { config: structure }, async (req) => {
    const q = req.query as { dimension?: string; value?: string };
    const d = dimensionOf(STRUCTURE_DIMENSIONS, q.dimension);
    return cadrePage(app, req, sql<boolean>`${CURRENT} AND ${await scopeOf(req)} AND ${d.slice(q.value ?? '')}`);
  });

  app.get('/api/cadre/performance', { config: performance }, async (req) => analysePerformance(app, await scopeOf(req), yearOf(req)));
  app.get('/api/cadre/performance/export', { config: performance }, async (req, reply) => {
    const a = await analysePerformance(app, await scopeOf(req), yearOf(req));
    const book = analysisWorkbook(`${a.year}年度干部考核`, `${a.year}年度考核人数`, { total: a.total, dimensions: [{ key: 'result', title: '考核结果', slices: a.results }] });
    const sheet = book.worksheets[0];
    for (const d of a.dimensions) {
      sheet.addRow([]);
      sheet.addRow([d.title, '人数', ...ASSESSMENT_RESULTS, '优秀率']).font = { bold: true };
      for (const r of d.rows) sheet.addRow([r.label, r.count, ...ASSESSMENT_RESULTS.map((x) => r.counts[x] ?? 0), `${r.excellentShare}%`]);
    }
    return sendXlsx(reply, book, `${a.year}年度干部绩效分析.xlsx`);
  });
  /** The assessed cadres of one group and result (drill-down). */
  app.get('/api/cadre/performance/cadres', { config: performance }, async (req) => {
    const q = req.query as { dimension?: string; value?: string; result?: string };
    const d = q.dimension ? dimensionOf(PERFORMANCE_DIMENSIONS, q.dimension) : undefined;
    const result = q.result ? sql<boolean>`a.result = ${q.result}` : sql<boolean>`true`;
    return cadrePage(app, req, sql<boolean>`${await scopeOf(req)} AND ${d ? d.slice(q.value ?? '') : sql<boolean>`true`} AND ${result}`, yearOf(req));
  });
}

interface CadreRow {
  id: number;
  name: string;
  gender: string | null;
  age: number | null;
  unitName: string | null;
  post: string | null;
  rank: string | null;
  result?: string | null;
}

/** A page of cadres (with their result of the year, for the performance drill-down), labels filled. */
async function cadrePage(app: FastifyInstance, req: FastifyRequest, where: RawBuilder<boolean>, year?: number) {
  const { offset, limit } = parsePaging({ page: (req.query as { page?: string }).page, size: (req.query as { size?: string }).size }, {});
  const db = app.services.database.db;
  const from = year === undefined ? sql`m_cadre c` : sql`m_cadre_assessment a JOIN m_cadre c ON c.id = a.cadre_id AND a.year = ${year}`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`.execute(db)).rows[0].n;
  const rows = (await sql<CadreRow>`
    SELECT c.id, c.name, c.gender, date_part('year', age(current_date, c.birth_date))::int AS age, u.name AS "unitName", c.post, c.rank
      ${year === undefined ? sql`` : sql`, a.result`}
    FROM ${from} LEFT JOIN m_unit u ON u.id = c.unit_id WHERE ${where} ORDER BY c.name__py, c.id LIMIT ${limit} OFFSET ${offset}`.execute(db)).rows;
  const [genders, posts, ranks] = await Promise.all(['DJ_COMM_XB', 'GB_JBXX_ZW', 'GB_JBXX_XZJB'].map((code) => app.services.dicts.labels(code)));
  return {
    content: rows.map((r) => ({ ...r, genderLabel: genders.get(r.gender ?? ''), postLabel: posts.get(r.post ?? ''), rankLabel: ranks.get(r.rank ?? '') })),
    totalElements: total,
  };
}

/**
 * Reports designed in 统计报表 (docs/statistics.md): definitions of the built-in reports' shape
 * (shared/statistics.ts ReportSpec), run by the same engine (reports.ts). A definition is checked against
 * its data source before it is saved or run: every dimension, measure and condition field must be one
 * the source offers and fit what it is used for, every operator and value must be the query language's;
 * anything else answers 400 in Chinese and nothing is saved. Each user keeps their own; a shared one is
 * listed to everyone who may use its source.
 */
import { sql, type Kysely } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import type { DB } from '../../db/types.js';
import { HttpError, STATUS_MESSAGES } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { FieldInfo } from '../../runtime/module.js';
import { hasOwn } from '../../../shared/own.js';
import {
  DIMENSION_KINDS, MAX_REPORT_MEASURES, REPORT_CHARTS, type Band, type BandPreset, type QueryGroup, type ReportDefinitionAnswer, type ReportDimension, type ReportMeasure, type ReportSpec, type ReportSummary,
} from '../../../shared/statistics.js';
import { BUILTIN_REPORTS, builtinReport } from './builtin-reports.js';
import { bindParams, type ReportDefinition } from './reports.js';
import { dataSources, mayUse, sourceFor } from './sources.js';
import { compileWhere } from './where.js';

/** Designing a report (a button permission of 统计报表). */
export const DESIGN = 'stat-report:design';

const MAX_MEASURES = MAX_REPORT_MEASURES;
const MAX_BANDS = 20;
const bad = (message: string, field?: string) => new HttpError(400, message, field ? { errors: [{ field, message }] } : undefined);

/** Keys of an object beyond those allowed: a definition holds nothing the engine would ignore. */
function onlyKeys(o: object, allowed: string[], what: string): void {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  if (extra.length) throw bad(`${what}含有不认识的设置“${extra[0]}”`);
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim() && v.trim().length <= max ? v.trim() : undefined);

/** The condition fields of a where tree (their first path segment is the source's field). */
function conditionFields(node: unknown, out: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return out;
  const n = node as Record<string, unknown>;
  for (const k of ['and', 'or']) if (Array.isArray(n[k])) for (const c of n[k] as unknown[]) conditionFields(c, out);
  if (typeof n.field === 'string') out.push(n.field);
  return out;
}

/**
 * Checks a definition against its data source for the user and answers it normalised (only the keys the
 * engine reads); 400 on anything unknown or unfit, 403 when the user may not use the source.
 */
export async function checkSpec(runtime: Runtime, user: SessionUser, raw: unknown): Promise<ReportSpec> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('报表定义的格式不正确');
  const d = raw as Record<string, unknown>;
  onlyKeys(d, ['title', 'description', 'source', 'rows', 'columns', 'measures', 'where', 'hideEmpty', 'chart'], '报表定义');
  const title = text(d.title, 60);
  if (!title) throw bad('请填写报表名称（不超过60个字）', 'title');
  if (d.description !== undefined && d.description !== '' && !text(d.description, 200)) throw bad('报表说明不能超过200个字', 'description');
  if (typeof d.source !== 'string' || !d.source) throw bad('请选择数据源', 'source');
  const { source, module } = await sourceFor(runtime, user, d.source);
  const fieldMap = new Map<string, FieldInfo>(module ? [...module.fields] : source.relation!.fields.map((f) => [f.name, f]));
  const offered = (name: unknown, what: string): FieldInfo => {
    const f = typeof name === 'string' && (!source.fields.length || source.fields.includes(name)) ? fieldMap.get(name) : undefined;
    if (!f?.column) throw bad(`数据源“${source.title}”不提供${what}字段“${String(name ?? '')}”`);
    return f;
  };

  const dimension = (v: unknown, what: string): ReportDimension => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(`请设置报表的${what}`);
    const x = v as Record<string, unknown>;
    const kind = x.kind as ReportDimension['kind'];
    if (typeof kind !== 'string' || !hasOwn(DIMENSION_KINDS, kind)) throw bad(`${what}的分类方式“${String(kind ?? '')}”不正确`);
    const f = offered(x.field, what);
    const t = x.title === undefined || x.title === '' ? undefined : text(x.title, 30);
    if (x.title !== undefined && x.title !== '' && !t) throw bad(`${what}的标题不能超过30个字`);
    const head = { field: f.name, ...(t ? { title: t } : {}) };
    const unfit = () => bad(`字段“${f.title}”不能按${DIMENSION_KINDS[kind]}分类`);
    switch (kind) {
      case 'dict':
        onlyKeys(x, ['kind', 'field', 'title'], what);
        // Dictionary or labelled fields, and plain codes; dates, numbers and organisations have their own kinds.
        if (!(f.dict || f.labels || ((f.kind === 'string' || f.kind === 'integer' || f.kind === 'boolean') && !f.ref))) throw unfit();
        return { kind, ...head };
      case 'band': {
        onlyKeys(x, ['kind', 'field', 'title', 'bands', 'unknownLabel'], what);
        if (f.kind !== 'date') throw unfit();
        const bands = x.bands;
        const preset = bands === 'age' || bands === 'partyAge';
        const fits = (b: unknown) => Array.isArray(b) && b.length === 4 && typeof b[0] === 'string' && typeof b[1] === 'string' && Number.isInteger(b[2]) && Number.isInteger(b[3]) && b[2] >= 0 && b[2] < b[3] && b[3] <= 200;
        if (!preset && !(Array.isArray(bands) && bands.length > 0 && bands.length <= MAX_BANDS && bands.every(fits))) throw bad(`${what}的分段不正确（年龄段、党龄段或不超过${MAX_BANDS}个年限区间）`);
        const unknownLabel = x.unknownLabel === undefined ? undefined : text(x.unknownLabel, 20);
        return { kind, ...head, title: t ?? (bands === 'partyAge' ? '党龄段' : bands === 'age' ? '年龄段' : f.title), bands: bands as Band[] | BandPreset, ...(unknownLabel ? { unknownLabel } : {}) };
      }
      case 'org': {
        onlyKeys(x, ['kind', 'field', 'title', 'depth', 'subtotals'], what);
        if (f.ref !== 'org' || f.kind !== 'integer') throw unfit();
        if (x.depth !== 1 && x.depth !== 2) throw bad(`${what}的组织层级不正确（二级党组织或党支部）`);
        if (x.subtotals !== undefined && typeof x.subtotals !== 'boolean') throw bad('小计的设置不正确');
        return { kind, ...head, depth: x.depth, ...(x.subtotals && x.depth > 1 ? { subtotals: true } : {}) };
      }
      case 'year':
      case 'month':
        onlyKeys(x, ['kind', 'field', 'title'], what);
        if (f.kind !== 'date' && f.kind !== 'date-time') throw unfit();
        return { kind, ...head };
    }
  };

  const rows = dimension(d.rows, '行');
  const columns = d.columns === undefined || d.columns === null ? undefined : dimension(d.columns, '列');
  if (!Array.isArray(d.measures) || !d.measures.length || d.measures.length > MAX_MEASURES) throw bad(`请设置1到${MAX_MEASURES}个统计指标`, 'measures');
  const keys = new Set<string>();
  const measures = d.measures.map((v, i): ReportMeasure => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('统计指标的格式不正确');
    const x = v as Record<string, unknown>;
    onlyKeys(x, ['key', 'title', 'agg', 'field', 'cents', 'where'], '统计指标');
    const key = x.key === undefined || x.key === '' ? `m${i + 1}` : x.key;
    if (typeof key !== 'string' || !/^[A-Za-z][\w-]{0,30}$/.test(key) || keys.has(key)) throw bad(`统计指标的标识“${String(key)}”不正确或重复`);
    keys.add(key);
    const title = text(x.title, 30);
    if (!title) throw bad(`请填写第${i + 1}个统计指标的名称（不超过30个字）`);
    if (x.agg !== 'count' && x.agg !== 'sum') throw bad(`统计指标“${title}”的统计方式不正确（计数或求和）`);
    const out: ReportMeasure = { key, title, agg: x.agg };
    if (x.agg === 'sum') {
      const f = offered(x.field, '求和');
      if (f.kind !== 'integer' && f.kind !== 'number') throw bad(`字段“${f.title}”不是数值，不能求和`);
      out.field = f.name;
      if (x.cents === true) out.cents = true;
    } else if (x.field !== undefined || x.cents !== undefined) throw bad(`统计指标“${title}”是计数，不需要字段`);
    if (x.where !== undefined && x.where !== null) out.where = x.where as QueryGroup;
    return out;
  });
  const where = d.where === undefined || d.where === null ? undefined : (d.where as QueryGroup);

  // Conditions: on the source's fields (paths start at one), checked and compiled as 综合查询's are.
  const trees = [where, ...measures.map((m) => m.where)].filter((w): w is QueryGroup => !!w);
  for (const tree of trees) {
    if (typeof tree !== 'object' || Array.isArray(tree) || !('and' in tree || 'or' in tree)) throw bad('查询条件的格式不正确');
    for (const path of conditionFields(tree)) if (source.fields.length && !source.fields.includes(path.split('.')[0])) throw bad(`数据源“${source.title}”不提供条件字段“${path}”`);
    if (!module) throw bad(`数据源“${source.title}”不支持查询条件`);
    await compileWhere({ registry: runtime.registry, orgTree: runtime.ctx.orgTree }, module, bindParams(tree, { year: new Date().getFullYear() }));
  }
  if (d.hideEmpty !== undefined && typeof d.hideEmpty !== 'boolean') throw bad('“隐藏全为0的行”的设置不正确');
  if (d.chart !== undefined && (typeof d.chart !== 'string' || !hasOwn(REPORT_CHARTS, d.chart))) throw bad('图表类型不正确');
  const description = text(d.description, 200);
  return {
    title, source: source.code, rows, ...(columns ? { columns } : {}), measures, ...(where ? { where } : {}),
    ...(description ? { description } : {}), ...(d.hideEmpty ? { hideEmpty: true } : {}), ...(d.chart ? { chart: d.chart as ReportSpec['chart'] } : {}),
  };
}

interface Row {
  id: number;
  title: string;
  source: string;
  definition: ReportSpec;
  shared: boolean;
  owner_id: number | null;
  owner_name: string | null;
}

const PREFIX = 'custom-';
const wireId = (id: number) => `${PREFIX}${id}`;
/** The stored id of a designed report's wire id (`custom-12`), or undefined. */
const storedId = (id: string): number | undefined => (/^custom-\d{1,9}$/.test(id) ? Number(id.slice(PREFIX.length)) : undefined);

const asDefinition = (r: Row): ReportDefinition => ({ ...r.definition, id: wireId(r.id), description: r.definition.description ?? '' });

/** The designed reports a user sees: their own and the shared ones (any source; the caller filters by use). */
async function visibleRows(db: Kysely<DB>, user: SessionUser, id?: number): Promise<Row[]> {
  const { rows } = await sql<Row>`SELECT r.*, coalesce(nullif(u.nick_name, ''), u.username) AS owner_name FROM stat_report r LEFT JOIN users u ON u.id = r.owner_id
    WHERE (r.owner_id = ${user.id} OR r.shared) ${id === undefined ? sql`` : sql`AND r.id = ${id}`} ORDER BY (r.owner_id = ${user.id}) DESC, r.id`.execute(db);
  return rows;
}

/** `GET /api/reports`: the built-in and designed reports whose source the user may use. */
export async function listReports(db: Kysely<DB>, runtime: Runtime, user: SessionUser): Promise<ReportSummary[]> {
  const usable = new Set((await dataSources(runtime)).filter((s) => mayUse(runtime, user, s)).map((s) => s.code));
  const builtins = BUILTIN_REPORTS.filter((r) => usable.has(r.source)).map((r) => ({ id: r.id, title: r.title, builtin: true, source: r.source, description: r.description }));
  const designed = (await visibleRows(db, user))
    .filter((r) => usable.has(r.source))
    .map((r) => ({ id: wireId(r.id), title: r.title, builtin: false, source: r.source, description: r.definition.description ?? '', shared: r.shared, mine: r.owner_id === user.id, ownerName: r.owner_name ?? '' }));
  return [...builtins, ...designed];
}

/** A report the user may open by its wire id: a built-in, or a designed one of theirs or shared (404 otherwise). */
export async function reportFor(db: Kysely<DB>, user: SessionUser, id: string): Promise<ReportDefinitionAnswer & { run: ReportDefinition }> {
  const builtin = builtinReport(id);
  if (builtin) {
    const { id: _id, ...definition } = builtin;
    return { id, builtin: true, shared: true, mine: false, definition, run: builtin };
  }
  const stored = storedId(id);
  const row = stored === undefined ? undefined : (await visibleRows(db, user, stored))[0];
  if (!row) throw new HttpError(404, '报表不存在');
  return { id, builtin: false, shared: row.shared, mine: row.owner_id === user.id, definition: row.definition, run: asDefinition(row) };
}

/** The body of `POST /api/reports` and `PUT /api/reports/{id}`. */
interface SaveBody {
  definition?: unknown;
  shared?: unknown;
}

/** Saves a checked definition (a new one, or the user's own `id`); answers its summary. */
export async function saveReport(db: Kysely<DB>, runtime: Runtime, user: SessionUser, body: unknown, id?: string): Promise<ReportSummary> {
  if (!hasAnyPermission(user, [DESIGN])) throw new HttpError(403, STATUS_MESSAGES[403]);
  const b = (typeof body === 'object' && body !== null ? body : {}) as SaveBody;
  const spec = await checkSpec(runtime, user, b.definition);
  const shared = b.shared === true;
  const json = JSON.stringify(spec);
  let row: Row | undefined;
  if (id !== undefined) {
    const stored = storedId(id);
    row = stored === undefined ? undefined : (await sql<Row>`UPDATE stat_report SET title = ${spec.title}, source = ${spec.source}, definition = ${json}::jsonb, shared = ${shared}, updated_at = now()
      WHERE id = ${stored} AND owner_id = ${user.id} RETURNING *, NULL AS owner_name`.execute(db)).rows[0];
    if (!row) throw new HttpError(404, '报表不存在或不是您设计的');
  } else {
    row = (await sql<Row>`INSERT INTO stat_report (title, source, definition, shared, owner_id) VALUES (${spec.title}, ${spec.source}, ${json}::jsonb, ${shared}, ${user.id})
      RETURNING *, NULL AS owner_name`.execute(db)).rows[0];
  }
  return { id: wireId(row.id), title: row.title, builtin: false, source: row.source, description: spec.description ?? '', shared: row.shared, mine: true, ownerName: user.nickName || user.username };
}

export async function deleteReport(db: Kysely<DB>, user: SessionUser, id: string): Promise<void> {
  const stored = storedId(id);
  const r = stored === undefined ? undefined : await sql`DELETE FROM stat_report WHERE id = ${stored} AND owner_id = ${user.id}`.execute(db);
  if (!Number(r?.numAffectedRows ?? 0)) throw new HttpError(404, builtinReport(id) ? '内置报表不能删除' : '报表不存在或不是您设计的');
}

/** An unsaved definition as the engine runs it (the designer's preview). */
export async function previewDefinition(runtime: Runtime, user: SessionUser, raw: unknown): Promise<ReportDefinition> {
  if (!hasAnyPermission(user, [DESIGN])) throw new HttpError(403, STATUS_MESSAGES[403]);
  const spec = await checkSpec(runtime, user, raw);
  return { ...spec, id: 'preview', description: spec.description ?? '' };
}

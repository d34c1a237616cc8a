/**
 * Statistical reports (统计报表): a definition counts and sums a source's records by a row dimension (and
 * optionally a column dimension) with measures that carry their own conditions. Every bucket and measure
 * is also a where tree of the query language (where.ts), so the figure of any cell drills down to exactly
 * the records behind it through `POST /api/query/run`, and the report's SQL and the drill-down share one
 * definition. Reports run over live data or a snapshot (snapshots.ts), always in the caller's data scope.
 */
import { sql, type AliasedRawBuilder, type RawBuilder } from 'kysely';
import type { SessionUser } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { FieldInfo, RuntimeModule } from '../../runtime/module.js';
import { filterConditions, parseFilter, type Condition } from '../../runtime/query.js';
import { scopeCondition } from '../../runtime/scope.js';
import type { Band, QueryCondition, QueryGroup, QueryNode, ReportColumn, ReportDimension, ReportMeasure, ReportResult, ReportRow, ReportSpec } from '../../../shared/statistics.js';
import { AGE_BANDS, PARTY_AGE_BANDS } from '../member/analysis.js';
import { snapshotRelation, snapshotInfo } from './snapshots.js';
import { sourceFor, type DataSource, type RelationSource } from './sources.js';
import { compileWhere } from './where.js';

export type { Band };

/** A report definition (built-in or designed: one shape, shared/statistics.ts ReportSpec) and its id. */
export interface ReportDefinition extends ReportSpec {
  id: string;
  description: string;
}
export type Dimension = ReportDimension;
export type Measure = ReportMeasure;

export interface ReportParams {
  year: number;
  /** The module list's filter object (`POST /api/m/<module>/list` body). */
  filter?: Record<string, unknown>;
  snapshot?: number;
}

const YEAR = '{year}';

/**
 * A definition's where tree with its parameters put in: a value `{year}` becomes the year (a number), a
 * string holding `{year}` (`{year}-01-01`) the string with it.
 */
export function bindParams(node: QueryGroup | undefined, p: Pick<ReportParams, 'year'>): QueryGroup | undefined {
  if (!node) return undefined;
  const value = (v: unknown): unknown =>
    v === YEAR ? p.year : typeof v === 'string' ? v.replaceAll(YEAR, String(p.year)) : Array.isArray(v) ? v.map(value) : v;
  const walk = (n: QueryNode): QueryNode => {
    if ('and' in n) return { and: n.and.map(walk) };
    if ('or' in n) return { or: n.or.map(walk) };
    return 'value' in n ? { ...n, value: value(n.value) } : { ...n };
  };
  return walk(node) as QueryGroup;
}

/** The bands of a band dimension: its own limits or a named set. */
export function bandsOf(d: Extract<Dimension, { kind: 'band' }>): Band[] {
  return typeof d.bands === 'string' ? (d.bands === 'age' ? AGE_BANDS : PARTY_AGE_BANDS) : d.bands;
}

interface Bucket {
  key: string;
  label: string;
  where: QueryNode;
  order: number;
}

/** A dimension as SQL: the key expression, and how to turn the keys found into buckets. */
interface DimensionPlan {
  expr: RawBuilder<unknown>;
  buckets(keys: (string | null)[]): Promise<Map<string, Bucket>>;
  /** The bucket of a key found (org dimensions fold several keys into one). */
  bucketOf(key: string | null): string;
  /** Org dimensions with subtotals: the organisation a bucket's subtotal row sums it under. */
  parentOf?(bucketKey: string): { id: number; name: string } | undefined;
}

/** The last day of a month `yyyy-mm`. */
const monthEnd = (ym: string) => isoDate(new Date(Number(ym.slice(0, 4)), Number(ym.slice(5, 7)), 0));

const isoDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The date `years` years before today: a person born on it turns `years` today. */
function yearsAgo(years: number, today = new Date()): string {
  const d = new Date(today.getFullYear() - years, today.getMonth(), today.getDate());
  // 29 February in a year without one: the last day of February.
  if (d.getMonth() !== today.getMonth()) d.setDate(0);
  return isoDate(d);
}

/** The fields a report reads: a module's, or a relation source's. */
type Fields = Pick<RuntimeModule, 'field'>;

function fieldOf(m: Fields, name: string, allowed: string[]): FieldInfo {
  const f = m.field(name);
  if (!f?.column || (allowed.length && !allowed.includes(name))) throw new HttpError(400, `数据源不提供字段“${name}”`);
  return f;
}

async function planDimension(runtime: Runtime, m: Fields, d: Dimension, allowed: string[]): Promise<DimensionPlan> {
  const f = fieldOf(m, d.field, allowed);
  const col = sql.ref(f.column!);
  const identity = (k: string | null) => k ?? '';
  switch (d.kind) {
    case 'dict': {
      const labels = f.dict ? await runtime.ctx.dictLabels(f.dict) : (f.labels ?? new Map<string, string>());
      const order = new Map([...labels.keys()].map((k, i) => [k, i]));
      return {
        expr: sql`${col}::text`,
        bucketOf: identity,
        buckets: async (keys) =>
          new Map(
            keys.map((k) => {
              const key = k ?? '';
              const where: QueryCondition = k === null ? { field: d.field, op: 'isNull' } : { field: d.field, op: 'eq', value: f.kind === 'integer' ? Number(k) : k };
              return [key, { key, label: k === null ? '未填写' : (labels.get(k) ?? k), where, order: k === null ? 1e6 : (order.get(k) ?? 1e5) }];
            }),
          ),
      };
    }
    case 'band': {
      const bounds = bandsOf(d).map(([key, label, lo, hi]) => ({ key, label, upTo: yearsAgo(lo), after: yearsAgo(hi) }));
      const whens = bounds.map((b) => sql`WHEN ${col} <= ${b.upTo}::date AND ${col} > ${b.after}::date THEN ${b.key}`);
      return {
        expr: sql`CASE WHEN ${col} IS NULL THEN NULL ${sql.join(whens, sql` `)} ELSE 'other' END`,
        bucketOf: (k) => k ?? 'unknown',
        buckets: async (keys) => {
          const out = new Map<string, Bucket>();
          bounds.forEach((b, i) =>
            out.set(b.key, { key: b.key, label: b.label, order: i, where: { and: [{ field: d.field, op: 'lte', value: b.upTo }, { field: d.field, op: 'gt', value: b.after }] } }),
          );
          if (keys.includes(null)) out.set('unknown', { key: 'unknown', label: d.unknownLabel ?? '未填写', order: 1e6, where: { field: d.field, op: 'isNull' } });
          if (keys.includes('other')) {
            out.set('other', { key: 'other', label: '其他', order: 1e5, where: { or: [{ field: d.field, op: 'gt', value: bounds[0].upTo }, { field: d.field, op: 'lte', value: bounds[bounds.length - 1].after }] } });
          }
          return out;
        },
      };
    }
    case 'year':
      return {
        expr: sql`extract(year FROM ${col})::int::text`,
        bucketOf: (k) => k ?? 'unknown',
        buckets: async (keys) =>
          new Map(
            keys.map((k) => {
              const key = k ?? 'unknown';
              const where: QueryNode = k === null ? { field: d.field, op: 'isNull' } : { field: d.field, op: 'between', value: [`${k}-01-01`, `${k}-12-31`] };
              return [key, { key, label: k === null ? '未填写' : `${k}年`, where, order: k === null ? 1e6 : Number(k) }];
            }),
          ),
      };
    case 'month':
      return {
        expr: sql`to_char(${col}, 'YYYY-MM')`,
        bucketOf: (k) => k ?? 'unknown',
        buckets: async (keys) =>
          new Map(
            keys.map((k) => {
              const key = k ?? 'unknown';
              const where: QueryNode = k === null ? { field: d.field, op: 'isNull' } : { field: d.field, op: 'between', value: [`${k}-01`, monthEnd(k)] };
              return [key, { key, label: k === null ? '未填写' : `${k.slice(0, 4)}年${k.slice(5)}月`, where, order: k === null ? 1e6 : Number(k.replace('-', '')) }];
            }),
          ),
      };
    case 'org': {
      const tree = runtime.ctx.orgTree;
      // Each organisation found → its ancestor at the depth asked (itself when it is higher up), and the one above that (subtotals).
      const fold = new Map<string, { id: number; name: string }>();
      const parents = new Map<string, { id: number; name: string }>();
      return {
        expr: sql`${col}::text`,
        bucketOf: (k) => (k === null ? 'unknown' : String(fold.get(k)?.id ?? k)),
        parentOf: d.subtotals && d.depth > 1 ? (key) => parents.get(key) : undefined,
        buckets: async (keys) => {
          for (const k of keys) {
            if (k === null || fold.has(k)) continue;
            const path = (await tree.pathOf?.(Number(k))) ?? [];
            const level = Math.min(d.depth, path.length - 1);
            const at = path[level];
            fold.set(k, at ? { id: at.id, name: at.name ?? String(at.id) } : { id: Number(k), name: k });
            const above = level > 1 ? path[d.depth - 1] : undefined;
            if (at && above && level === d.depth) parents.set(String(at.id), { id: above.id, name: above.name ?? String(above.id) });
          }
          const names = await runtime.ctx.refNames('org', [...new Set([...fold.values()].map((v) => v.id))]);
          const out = new Map<string, Bucket>();
          for (const k of keys) {
            if (k === null) {
              out.set('unknown', { key: 'unknown', label: '未填写', order: 1e6, where: { field: d.field, op: 'isNull' } });
              continue;
            }
            const { id } = fold.get(k)!;
            out.set(String(id), { key: String(id), label: names.get(id) ?? String(id), order: 0, where: { field: d.field, op: 'subtree', value: id } });
          }
          return out;
        },
      };
    }
  }
}

/** The module list's filter object as query-language conditions (for drill-downs). */
function filterAsWhere(m: RuntimeModule, filter: Record<string, unknown> | undefined): QueryNode[] {
  return parseFilter(m, filter).map(({ field, op, value }): QueryNode => {
    switch (op) {
      case 'eq':
        return { field: field.name, op: 'eq', value };
      case 'like':
        return { field: field.name, op: 'like', value };
      case 'in':
        return { field: field.name, op: 'in', value: (value as unknown[]).filter((v) => v !== null && v !== '') };
      case 'range': {
        const [from, to] = value as unknown[];
        return { field: field.name, op: 'between', value: [from ?? null, to ?? null] };
      }
      case 'org-subtree':
        return { field: field.name, op: 'subtree', value };
    }
  });
}

export function readParams(raw: unknown): ReportParams {
  const p = (raw ?? {}) as Record<string, unknown>;
  if (typeof p !== 'object' || Array.isArray(p)) throw new HttpError(400, '报表参数的格式不正确');
  const year = p.year === undefined || p.year === null || p.year === '' ? new Date().getFullYear() : Number(p.year);
  if (!Number.isInteger(year) || year < 1921 || year > 2200) throw new HttpError(400, '统计年度不正确');
  const snapshot = p.snapshot === undefined || p.snapshot === null || p.snapshot === '' ? undefined : Number(p.snapshot);
  if (snapshot !== undefined && !Number.isSafeInteger(snapshot)) throw new HttpError(400, '数据快照不正确');
  if (p.filter !== undefined && p.filter !== null && (typeof p.filter !== 'object' || Array.isArray(p.filter))) throw new HttpError(400, '筛选条件的格式不正确');
  return { year, snapshot, filter: (p.filter ?? undefined) as Record<string, unknown> | undefined };
}

/**
 * What a report counts: the rows it reads (a module's table, a snapshot of it, or a relation source's
 * rows), their fields, the conditions every row must meet (the caller's data scope and the filter), and
 * whether a cell drills down through 综合查询 (module sources only).
 */
interface Subject {
  id: string;
  fields: Fields;
  from: AliasedRawBuilder<unknown, string> | ReturnType<typeof sql.table>;
  conditions: Condition[];
  compile(where: unknown): Promise<Condition | undefined>;
  /** The filter as query conditions of the drill-downs; undefined: no drill-down. */
  drillWhere?: QueryNode[];
  snapshot: ReportResult['snapshot'];
}

async function moduleSubject(runtime: Runtime, user: SessionUser, m: RuntimeModule, params: ReportParams): Promise<Subject> {
  const actor = await runtime.actorOf(user);
  const conditions: Condition[] = [];
  const scope = scopeCondition(m, actor, 'read');
  if (scope) conditions.push(scope);
  conditions.push(...(await filterConditions(parseFilter(m, params.filter), runtime.ctx.orgTree)));
  const snapshot = params.snapshot !== undefined ? await snapshotInfo(runtime, params.snapshot, m.id) : null;
  return {
    id: m.id,
    fields: m,
    from: snapshot ? snapshotRelation(m, snapshot.id) : sql.table(m.table).as(m.table),
    conditions,
    compile: (w) => compileWhere({ registry: runtime.registry, orgTree: runtime.ctx.orgTree, actor }, m, w),
    drillWhere: filterAsWhere(m, params.filter),
    snapshot,
  };
}

/** A relation source's rows for the year, in the caller's scope; the only filter is an organisation (with its subtree). */
async function relationSubject(runtime: Runtime, user: SessionUser, source: DataSource, r: RelationSource, def: ReportDefinition, params: ReportParams): Promise<Subject> {
  if (params.snapshot !== undefined) throw new HttpError(400, `报表“${def.title}”不能按数据快照统计`);
  const byName = new Map(r.fields.map((f) => [f.name, f]));
  const orgColumn = byName.get(r.orgField)!.column!;
  const conditions: Condition[] = [];
  const { scope } = await runtime.actorOf(user);
  if (scope !== 'all') conditions.push((eb) => (scope.length ? eb(sql.ref(orgColumn), 'in', scope) : eb.val(false)));
  for (const [key, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (key !== r.orgField) throw new HttpError(400, `报表“${def.title}”不能按“${byName.get(key)?.title ?? key}”筛选`);
    if (!Number.isSafeInteger(value) || (value as number) <= 0) throw new HttpError(400, '所选党组织不正确');
    const ids = await runtime.ctx.orgTree.subtreeIds([value as number]);
    conditions.push((eb) => (ids.length ? eb(sql.ref(orgColumn), 'in', ids) : eb.val(false)));
  }
  return {
    id: source.code,
    fields: { field: (name: string) => byName.get(name) },
    from: r.from({ school: runtime.ctx.school, year: params.year }).as(source.code),
    conditions,
    compile: async (w) => {
      if (w === undefined) return undefined;
      throw new HttpError(400, `数据源“${source.title}”不支持查询条件`);
    },
    snapshot: null,
  };
}

const cellKey = (col: string, measure: string) => `${col}|${measure}`;

type OrderedRow = ReportRow & { order: number };

/**
 * Rows grouped under their parent organisation, each group led by a subtotal row (the sum of its rows,
 * drilling down to the parent's subtree); groups in order of their subtotal's first figure.
 */
function withSubtotals(rows: OrderedRow[], parentOf: (key: string) => { id: number; name: string } | undefined, field: string, drillOf: (where: QueryNode) => Record<string, QueryGroup>): OrderedRow[] {
  const groups = new Map<string, { head: OrderedRow; rows: OrderedRow[] }>();
  const loose: OrderedRow[] = [];
  for (const row of rows) {
    const parent = parentOf(row.key);
    if (!parent) {
      loose.push(row);
      continue;
    }
    const key = `subtotal-${parent.id}`;
    let g = groups.get(key);
    if (!g) {
      g = { head: { key, label: `${parent.name}（小计）`, subtotal: true, values: {}, drill: drillOf({ field, op: 'subtree', value: parent.id }), order: 0 }, rows: [] };
      groups.set(key, g);
    }
    g.rows.push(row);
    // Rounded to cents: amounts are yuan by now.
    for (const [k, v] of Object.entries(row.values)) g.head.values[k] = Math.round(((g.head.values[k] ?? 0) + v) * 100) / 100;
  }
  const first = Object.keys(rows[0]?.values ?? {})[0];
  const ordered = [...groups.values()].sort((a, b) => (b.head.values[first] ?? 0) - (a.head.values[first] ?? 0) || a.head.label.localeCompare(b.head.label, 'zh-CN'));
  return [...ordered.flatMap((g) => [g.head, ...g.rows]), ...loose];
}
const TOTAL = '__total';

export async function runReport(runtime: Runtime, user: SessionUser, def: ReportDefinition, rawParams: unknown): Promise<ReportResult> {
  const params = readParams(rawParams);
  const { source, module } = await sourceFor(runtime, user, def.source);
  const subject = module ? await moduleSubject(runtime, user, module, params) : await relationSubject(runtime, user, source, source.relation!, def, params);
  const m = subject.fields;

  const base = [...subject.conditions];
  const baseWhere = bindParams(def.where, params);
  if (baseWhere) base.push((await subject.compile(baseWhere))!);

  const rows = await planDimension(runtime, m, def.rows, source.fields);
  const cols = def.columns ? await planDimension(runtime, m, def.columns, source.fields) : undefined;
  const measures = await Promise.all(
    def.measures.map(async (me) => {
      const cond = me.where ? await subject.compile(bindParams(me.where, params)) : undefined;
      const f = me.agg === 'sum' ? fieldOf(m, me.field!, source.fields) : undefined;
      return { me, cond, f };
    }),
  );

  const db = runtime.ctx.anyDb;
  let q = db.selectFrom(subject.from as never).select([rows.expr.as('r'), (cols?.expr ?? sql`''`).as('c')]);
  measures.forEach(({ me, cond, f }, i) => {
    const agg = (eb: Parameters<Condition>[0]) => {
      const value = f ? sql`coalesce(sum(${sql.ref(f.column!)})` : sql`(count(*)`;
      const filter = cond ? sql` FILTER (WHERE ${cond(eb)})` : sql``;
      return sql<number>`${value}${filter}${f ? sql`, 0)` : sql`)`}::float8`.as(`m${i}`);
    };
    q = q.select((eb) => agg(eb as never));
  });
  for (const c of base) q = q.where(c as never);
  const found = (await q.groupBy([sql`1`, sql`2`] as never).execute()) as Record<string, unknown>[];

  const rowKeys = [...new Set(found.map((r) => r.r as string | null))];
  const colKeys = [...new Set(found.map((r) => r.c as string | null))];
  const rowBuckets = await rows.buckets(rowKeys);
  const colBuckets = cols ? await cols.buckets(colKeys) : new Map<string, Bucket>([['', { key: '', label: '', where: { and: [] }, order: 0 }]]);
  const colList = [...colBuckets.values()].sort((a, b) => a.order - b.order || a.label.localeCompare(b.label, 'zh-CN'));

  // An organisation level is titled by the level (the field's own title names the member's branch).
  const levelTitle = def.rows.kind === 'org' ? (def.rows.depth === 1 ? '二级党组织' : '党支部') : undefined;
  const columns: ReportColumn[] = [{ key: 'label', title: def.rows.title ?? levelTitle ?? m.field(def.rows.field)!.title }];
  const single = def.measures.length === 1;
  const unit = (me: Measure) => (me.cents ? { unit: 'yuan' as const } : {});
  for (const cb of colList) for (const { me } of measures) columns.push({ key: cellKey(cb.key, me.key), title: cols ? (single ? cb.label : `${cb.label}·${me.title}`) : me.title, ...unit(me) });
  if (cols) for (const { me } of measures) columns.push({ key: cellKey(TOTAL, me.key), title: single ? '合计' : `${me.title}合计`, ...unit(me) });

  const common = [...(baseWhere ? [baseWhere] : []), ...(subject.drillWhere ?? [])];
  const drillOf = (rowWhere: QueryNode | undefined, colWhere: QueryNode | undefined, me: Measure): QueryGroup => ({
    and: [...common, ...(rowWhere ? [rowWhere] : []), ...(colWhere && cols ? [colWhere] : []), ...(me.where ? [bindParams(me.where, params)!] : [])],
  });

  const byRow = new Map<string, OrderedRow>();
  for (const b of rowBuckets.values()) byRow.set(b.key, { key: b.key, label: b.label, values: {}, drill: {}, order: b.order });
  const totals: Record<string, number> = {};
  for (const r of found) {
    const rowKey = rows.bucketOf(r.r as string | null);
    const colKey = cols ? cols.bucketOf(r.c as string | null) : '';
    const row = byRow.get(rowKey)!;
    measures.forEach(({ me }, i) => {
      const v = Number(r[`m${i}`] ?? 0);
      for (const key of [cellKey(colKey, me.key), ...(cols ? [cellKey(TOTAL, me.key)] : [])]) {
        row.values[key] = (row.values[key] ?? 0) + v;
        totals[key] = (totals[key] ?? 0) + v;
      }
    });
  }
  const totalsDrill: Record<string, QueryGroup> = {};
  for (const row of byRow.values()) {
    const rb = rowBuckets.get(row.key)!;
    if (subject.drillWhere) {
      for (const cb of colList) for (const { me } of measures) row.drill[cellKey(cb.key, me.key)] = drillOf(rb.where, cb.where, me);
      if (cols) for (const { me } of measures) row.drill[cellKey(TOTAL, me.key)] = drillOf(rb.where, undefined, me);
    }
    for (const c of columns.slice(1)) row.values[c.key] ??= 0;
  }
  if (subject.drillWhere) {
    for (const cb of colList) for (const { me } of measures) totalsDrill[cellKey(cb.key, me.key)] = drillOf(undefined, cb.where, me);
    if (cols) for (const { me } of measures) totalsDrill[cellKey(TOTAL, me.key)] = drillOf(undefined, undefined, me);
  }
  for (const c of columns.slice(1)) totals[c.key] ??= 0;
  // Sums of cents are exact integers up to here; each figure becomes yuan once, at the end.
  const yuan = new Set(columns.filter((c) => c.unit === 'yuan').map((c) => c.key));
  for (const values of [totals, ...[...byRow.values()].map((r) => r.values)]) for (const key of yuan) values[key] = values[key] / 100;

  let out = [...byRow.values()];
  if (def.hideEmpty) out = out.filter((r) => Object.values(r.values).some((v) => v !== 0));
  const first = columns[1]?.key;
  out.sort((a, b) => a.order - b.order || (def.rows.kind === 'org' ? (b.values[first] ?? 0) - (a.values[first] ?? 0) : 0) || a.label.localeCompare(b.label, 'zh-CN'));
  if (rows.parentOf) out = withSubtotals(out, rows.parentOf, def.rows.field, subject.drillWhere ? (where) => Object.fromEntries(Object.entries(totalsDrill).map(([k, g]) => [k, { and: [g, where] }])) : () => ({}));
  return {
    id: def.id,
    title: def.title,
    module: subject.id,
    columns,
    rows: out.map(({ order: _order, ...r }) => r),
    totals,
    totalsDrill,
    snapshot: subject.snapshot,
    chart: def.chart ?? 'auto',
    params: { year: params.year, filter: params.filter ?? {}, ...(params.snapshot ? { snapshot: params.snapshot } : {}) },
  };
}

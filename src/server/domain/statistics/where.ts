/**
 * The query language of 综合查询 and of report drill-downs (docs/statistics.md): and/or groups of
 * conditions on a module's fields and on the fields of the records it refers to. Every field name and
 * operator is checked against the module schemas before anything runs, and every value is a bound
 * parameter that fits the field (runtime/query.ts fitsField): the client never sends SQL.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { OrgTree } from '../../core/auth/org-scope.js';
import { containsText } from '../../db/text-search.js';
import { HttpError } from '../../errors.js';
import type { FieldInfo, RuntimeModule } from '../../runtime/module.js';
import type { ModuleRegistry } from '../../runtime/registry.js';
import { fitsField, type Condition } from '../../runtime/query.js';
import type { Actor } from '../../runtime/hooks.js';
import { scopeCondition } from '../../runtime/scope.js';
import { isSensitiveFormat } from '../../runtime/sensitive.js';
import { QUERY_OPS, type QueryGroup, type QueryNode, type QueryOp } from '../../../shared/statistics.js';

/** Deepest nesting of groups and longest reference path accepted (a query is written by a person). */
const MAX_DEPTH = 6;
const MAX_CONDITIONS = 100;

/** A field reached from a module, and the chain of references leading to it. */
export interface ResolvedPath {
  field: FieldInfo;
  /** The module holding the field. */
  module: RuntimeModule;
  /** The reference fields walked, from the queried module on ([] for its own fields). */
  hops: { field: FieldInfo; target: RuntimeModule }[];
  title: string;
}

const bad = (message: string) => new HttpError(400, message);

/** The reference field a path segment names: a reference field itself, or the one field referring to that module. */
function referenceOf(m: RuntimeModule, segment: string): FieldInfo | undefined {
  const direct = m.field(segment);
  if (direct?.ref) return direct;
  const towards = [...m.fields.values()].filter((f) => f.ref === segment && f.kind !== 'array' && f.column);
  return towards.length === 1 ? towards[0] : undefined;
}

/** `orgId.parentId`, `org.type`, `name`: the field a path ends at, every segment checked against the schemas. */
export function resolvePath(registry: ModuleRegistry, m: RuntimeModule, path: string): ResolvedPath {
  if (typeof path !== 'string' || !path) throw bad('查询条件缺少字段');
  const segments = path.split('.');
  if (segments.length > MAX_DEPTH) throw bad(`字段路径“${path}”过长`);
  let module = m;
  const hops: ResolvedPath['hops'] = [];
  const titles: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    const ref = referenceOf(module, segment);
    const target = ref?.ref ? registry.get(ref.ref) : undefined;
    if (!ref || !target || !ref.column) throw bad(`“${module.title}”没有可查询的关联“${segment}”`);
    hops.push({ field: ref, target });
    titles.push(ref.title);
    module = target;
  }
  const last = segments[segments.length - 1];
  const field = module.field(last) ?? (last === 'id' ? idField(module) : undefined);
  if (!field || !field.column) throw bad(`“${module.title}”没有可查询的字段“${last}”`);
  titles.push(field.title);
  return { field, module, hops, title: titles.join('·') };
}

function idField(m: RuntimeModule): FieldInfo {
  return { name: 'id', title: `${m.title}ID`, schema: { type: 'integer', title: 'ID' }, kind: 'integer', column: 'id', storage: 'integer', writable: false };
}

const isGroup = (n: QueryNode): n is QueryGroup => typeof n === 'object' && n !== null && ('and' in n || 'or' in n);

/** What a condition may do with a sensitive field, served masked: equality with a whole value, or presence (issue 38.3). */
const SENSITIVE_OPS: readonly QueryOp[] = ['eq', 'ne', 'isNull', 'notNull'];

function checkValue(path: string, r: ResolvedPath, op: QueryOp, value: unknown): void {
  const f = r.field;
  if (isSensitiveFormat(f.schema.format) && !SENSITIVE_OPS.includes(op)) throw bad(`“${r.title}”（${path}）只能按完整的号码精确查询，不能模糊、范围或多值查询`);
  const one = (v: unknown) => (f.kind === 'array' ? fitsField(f, v) : fitsField(f, v));
  const ok = (() => {
    switch (op) {
      case 'isNull':
      case 'notNull':
        return true;
      case 'like':
        return typeof value === 'string' && value.trim() !== '' && (f.kind === 'string' || f.kind === 'array');
      case 'in':
      case 'notIn':
        return Array.isArray(value) && value.length > 0 && value.length <= 1000 && value.every(one);
      case 'between':
        return Array.isArray(value) && value.length === 2 && value.every((v) => v === null || v === '' || one(v)) && value.some((v) => v !== null && v !== '');
      case 'subtree':
        return f.ref === 'org' && Number.isSafeInteger(value);
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return f.kind !== 'boolean' && f.kind !== 'array' && one(value);
      default:
        return one(value);
    }
  })();
  if (!ok) throw bad(`“${r.title}”（${path}）的查询值不正确`);
}

const jsonbHas = (col: string, v: unknown) => sql<SqlBool>`${sql.ref(col)} @> ${JSON.stringify([v])}::jsonb`;

/** The SQL condition of one operator on one column (`col` is qualified by the caller when needed). */
async function leaf(col: string, f: FieldInfo, op: QueryOp, value: unknown, orgTree: OrgTree): Promise<Condition> {
  const isArray = f.kind === 'array';
  switch (op) {
    case 'eq':
      return isArray ? () => jsonbHas(col, value) : (eb) => eb(sql.ref(col), '=', value);
    case 'ne':
      return isArray ? (eb) => eb.not(jsonbHas(col, value)) : (eb) => eb.or([eb(sql.ref(col), '<>', value), eb(sql.ref(col), 'is', null)]);
    case 'in':
      return isArray ? (eb) => eb.or((value as unknown[]).map((v) => jsonbHas(col, v))) : (eb) => eb(sql.ref(col), 'in', value as unknown[]);
    case 'notIn':
      return isArray
        ? (eb) => eb.not(eb.or((value as unknown[]).map((v) => jsonbHas(col, v))))
        : (eb) => eb.or([eb(sql.ref(col), 'not in', value as unknown[]), eb(sql.ref(col), 'is', null)]);
    case 'like':
      return () => containsText(col, (value as string).trim());
    case 'gt':
      return (eb) => eb(sql.ref(col), '>', value);
    case 'gte':
      return (eb) => eb(sql.ref(col), '>=', value);
    case 'lt':
      return (eb) => eb(sql.ref(col), '<', value);
    case 'lte':
      return (eb) => eb(sql.ref(col), '<=', value);
    case 'between': {
      const [from, to] = value as unknown[];
      const parts: Condition[] = [];
      if (from !== null && from !== '') parts.push((eb) => eb(sql.ref(col), '>=', from));
      if (to !== null && to !== '') parts.push((eb) => eb(sql.ref(col), '<=', to));
      return (eb) => eb.and(parts.map((p) => p(eb)));
    }
    case 'isNull':
      return isArray ? (eb) => eb.or([eb(sql.ref(col), 'is', null), eb(sql.ref(col), '=', sql`'[]'::jsonb`)]) : (eb) => eb(sql.ref(col), 'is', null);
    case 'notNull':
      return isArray ? (eb) => eb.and([eb(sql.ref(col), 'is not', null), eb(sql.ref(col), '<>', sql`'[]'::jsonb`)]) : (eb) => eb(sql.ref(col), 'is not', null);
    case 'subtree': {
      const ids = await orgTree.subtreeIds([value as number]);
      return (eb) => (ids.length ? eb(sql.ref(col), 'in', ids) : eb.val(false));
    }
  }
}

/**
 * One condition through its reference path: `fk IN (SELECT id FROM target WHERE ... AND <scope>)`, innermost
 * first. With an actor, every record a step reaches must lie in the actor's read scope (else a condition
 * would tell the fields of records the caller cannot read); an organisation's public fields (x-scope-self)
 * are the exception, as in its list.
 */
async function pathCondition(r: ResolvedPath, op: QueryOp, value: unknown, orgTree: OrgTree, actor?: Actor): Promise<Condition> {
  let cond = await leaf(r.field.column!, r.field, op, value, orgTree);
  for (let i = r.hops.length - 1; i >= 0; i--) {
    const { field, target } = r.hops[i];
    const open = target.selfScope && i === r.hops.length - 1 && target.selfScope.public.has(r.field.name);
    const scope = actor && !open ? scopeCondition(target, actor, 'read') : undefined;
    const inner = cond;
    cond = (eb) => eb(sql.ref(field.column!), 'in', eb.selectFrom(target.table).select('id').where(scope ? (e) => e.and([inner(e), scope(e)]) : inner));
  }
  return cond;
}

export interface CompileContext {
  registry: ModuleRegistry;
  orgTree: OrgTree;
  /** The caller: conditions through references see only the records it may read. Absent: a definition checked, not run. */
  actor?: Actor;
}

/**
 * The SQL condition of a where tree over a module; throws 400 (nothing runs) on an unknown field,
 * reference, operator or a value that does not fit. An empty tree is no condition.
 */
export async function compileWhere(c: CompileContext, m: RuntimeModule, where: unknown): Promise<Condition | undefined> {
  if (where === undefined || where === null) return undefined;
  let count = 0;
  const walk = async (node: unknown, depth: number): Promise<Condition | undefined> => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) throw bad('查询条件的格式不正确');
    if (depth > MAX_DEPTH) throw bad('查询条件的分组层次过多');
    if (isGroup(node as QueryNode)) {
      const keys = Object.keys(node);
      if (keys.length !== 1) throw bad('一个条件组只能是“并且”(and)或“或者”(or)之一');
      const kind = keys[0] as 'and' | 'or';
      const items = (node as Record<string, unknown>)[kind];
      if (!Array.isArray(items)) throw bad('条件组必须是条件的列表');
      const parts = (await Promise.all(items.map((i) => walk(i, depth + 1)))).filter((p): p is Condition => !!p);
      if (!parts.length) return undefined;
      return (eb) => (kind === 'and' ? eb.and(parts.map((p) => p(eb))) : eb.or(parts.map((p) => p(eb))));
    }
    const { field, op, value } = node as { field?: unknown; op?: unknown; value?: unknown };
    const extra = Object.keys(node).filter((k) => !['field', 'op', 'value'].includes(k));
    if (extra.length) throw bad(`查询条件含有不认识的键“${extra[0]}”`);
    if (++count > MAX_CONDITIONS) throw bad(`查询条件不能超过${MAX_CONDITIONS}个`);
    if (typeof op !== 'string' || !(QUERY_OPS as readonly string[]).includes(op)) throw bad(`不支持的查询运算“${String(op)}”`);
    const resolved = resolvePath(c.registry, m, field as string);
    checkValue(field as string, resolved, op as QueryOp, value);
    return pathCondition(resolved, op as QueryOp, value, c.orgTree, c.actor);
  };
  return walk(where, 0);
}

/** The where tree of a single group's conditions: a helper for built-in definitions. */
export const and = (...nodes: QueryNode[]): QueryGroup => ({ and: nodes });

export type { Expression };

/**
 * The list query as a pipeline of small functions (after Directus's apply-query): filters from the
 * body, the caller's data scope, the sort, the page. Every value is a bound parameter; identifiers come
 * only from the schema.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool, type SelectQueryBuilder } from 'kysely';
import type { FilterOp } from '../../shared/module-schema/types.js';
import type { OrgTree } from '../core/auth/org-scope.js';
import type { Paging } from '../core/paging.js';
import { containsText } from '../db/text-search.js';
import { HttpError } from '../errors.js';
import type { FieldError } from '../../shared/validation-messages.js';
import { normalizeIdCard } from '../../shared/validators.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import { isSensitiveFormat } from './sensitive.js';

// Module tables are created at run time, so the query builder sees them untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyQuery = SelectQueryBuilder<any, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<any, any>;
export type Condition = (eb: Eb) => Expression<SqlBool>;

export interface ParsedFilter {
  field: FieldInfo;
  op: FilterOp;
  value: unknown;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(v: string): boolean {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

/** Whether one value fits the field (for filters, where types are strict so SQL never sees a bad cast). */
export function fitsField(f: FieldInfo, v: unknown): boolean {
  switch (f.kind) {
    case 'string':
      return typeof v === 'string';
    case 'date':
      return typeof v === 'string' && isRealDate(v);
    case 'date-time':
      return typeof v === 'string' && (isRealDate(v) || !Number.isNaN(Date.parse(v)));
    case 'integer':
      return Number.isSafeInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return f.schema.items?.type === 'integer' ? Number.isSafeInteger(v) : typeof v === 'string';
  }
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.every(isEmpty));

/**
 * Reads the filter object `{field: value}`: each field must be a declared filter (or the foreign key of
 * a parent's x-children, filtered by eq), each value must fit the operator and the field. Empty values
 * are ignored, so a filter bar can send all its inputs.
 */
export function parseFilter(m: RuntimeModule, body: unknown): ParsedFilter[] {
  if (body === null || body === undefined || body === '') return [];
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, '筛选条件的格式不正确');
  const errors: FieldError[] = [];
  const parsed: ParsedFilter[] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const field = m.field(name);
    const op = m.filters.get(name) ?? (m.parents.some((p) => p.foreignKey === name) ? 'eq' : undefined);
    if (!field || !op) {
      errors.push({ field: name, message: `不支持按“${field?.title ?? name}”筛选` });
      continue;
    }
    if (isEmpty(value)) continue;
    // A sensitive field (served masked in every list) is filtered by equality with a whole value only:
    // part of it, a range or a list of guesses would tell it digit by digit (issue 38.3).
    if (isSensitiveFormat(field.schema.format) && (op !== 'eq' || typeof value !== 'string')) {
      errors.push({ field: name, message: `${field.title}只能按完整的号码精确查询` });
      continue;
    }
    if (!filterValueFits(field, op, value)) {
      errors.push({ field: name, message: `${field.title}的筛选值不正确` });
      continue;
    }
    // Identity numbers are stored in one form (validators.ts): a search typed with x or 15 digits finds it.
    parsed.push({ field, op, value: field.schema.format === 'id-card' && typeof value === 'string' && op === 'eq' ? normalizeIdCard(value) : value });
  }
  if (errors.length) throw new HttpError(400, errors[0].message, { errors });
  return parsed;
}

/** One query-string text as a value of the field's type (left as text when it is not one: parseFilter then says so). */
function typedFromText(f: FieldInfo, text: string): unknown {
  const kind = f.kind === 'array' ? f.schema.items?.type : f.kind;
  const t = text.trim();
  if ((kind === 'integer' || kind === 'number') && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (kind === 'boolean' && ['true', 'false', '1', '0'].includes(t)) return t === 'true' || t === '1';
  return t;
}

/**
 * The filter object of a query string (`?orgId=1&category=1,2&joinDate=2020-01-01,2024-12-31`): a query
 * string carries only text, so each declared filter's value is read as the field's type, a list (`in`) from
 * comma-separated or repeated values, a range from two. Keys that are not filters are left as they are
 * (parseFilter refuses unknown ones).
 */
export function filterFromQuery(m: RuntimeModule, query: Record<string, unknown>): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    const field = m.field(key);
    const op = m.filters.get(key) ?? (m.parents.some((p) => p.foreignKey === key) ? 'eq' : undefined);
    if (!field || !op || op === 'like' || (typeof raw !== 'string' && !Array.isArray(raw))) {
      filter[key] = raw;
      continue;
    }
    const texts = (Array.isArray(raw) ? raw : [raw]).map(String);
    if (op === 'in' || op === 'range') {
      const parts = texts.flatMap((t) => t.split(','));
      filter[key] = parts.map((p) => (p.trim() === '' ? null : typedFromText(field, p)));
    } else {
      filter[key] = texts.length === 1 ? typedFromText(field, texts[0]) : texts.map((t) => typedFromText(field, t));
    }
  }
  return filter;
}

function filterValueFits(f: FieldInfo, op: FilterOp, v: unknown): boolean {
  const one = (x: unknown) => fitsField(f, x);
  switch (op) {
    case 'eq':
      return one(v);
    case 'like':
      return typeof v === 'string';
    case 'in':
      return Array.isArray(v) && v.every(one);
    case 'range':
      return Array.isArray(v) && v.length === 2 && v.every((x) => x === null || x === '' || one(x));
    case 'org-subtree':
      return Number.isSafeInteger(v);
  }
}

/** A jsonb array column contains the value. */
const contains = (column: string, v: unknown): Condition => (eb) => eb(sql.ref(column), '@>', sql<string>`${JSON.stringify([v])}::jsonb`);

/** The SQL condition of each parsed filter; org-subtree filters ask the organisation tree. */
export async function filterConditions(filters: ParsedFilter[], orgTree: OrgTree): Promise<Condition[]> {
  const conditions: Condition[] = [];
  for (const { field, op, value } of filters) {
    const col = field.column!;
    const isArray = field.kind === 'array';
    switch (op) {
      case 'eq':
        conditions.push(isArray ? contains(col, value) : (eb) => eb(col, '=', value));
        break;
      case 'like':
        // ILIKE, plus the condition the column's character index answers (db/text-search.ts).
        conditions.push(() => containsText(col, (value as string).trim()));
        break;
      case 'in': {
        const values = (value as unknown[]).filter((v) => !isEmpty(v));
        conditions.push(isArray ? (eb) => eb.or(values.map((v) => contains(col, v)(eb))) : (eb) => eb(col, 'in', values));
        break;
      }
      case 'range': {
        const [from, to] = value as unknown[];
        if (!isEmpty(from)) conditions.push((eb) => eb(col, '>=', from));
        if (!isEmpty(to)) {
          // A date-only upper bound on a date-time field includes that whole day.
          conditions.push(
            field.kind === 'date-time' && DATE.test(to as string)
              ? (eb) => eb(col, '<', sql<Date>`${to}::date + 1`)
              : (eb) => eb(col, '<=', to),
          );
        }
        break;
      }
      case 'org-subtree': {
        const ids = await orgTree.subtreeIds([value as number]);
        conditions.push((eb) => (ids.length ? eb(col, 'in', ids) : eb.val(false)));
        break;
      }
    }
  }
  return conditions;
}

/** `id = ANY($1)`: one array parameter instead of one parameter per id (faster to parse for big batches). */
export function idIn(ids: number[]): Expression<SqlBool> {
  return sql<SqlBool>`id = ANY(${ids}::int[])`;
}

export function applyConditions<Q extends AnyQuery>(q: Q, conditions: Condition[]): Q {
  return conditions.reduce((acc, c) => acc.where(c) as Q, q);
}

/** The requested order, then id, so pages never overlap or skip a row. */
export function applySort<Q extends AnyQuery>(q: Q, order: [string, 'asc' | 'desc'][]): Q {
  let out = q;
  // PostgreSQL's default null placement (last ascending, first descending) lets a btree index serve both directions.
  for (const [column, dir] of order) out = out.orderBy(sql.ref(column), dir) as Q;
  if (!order.some(([c]) => c === 'id')) out = out.orderBy('id', 'desc') as Q;
  return out;
}

export function applyPaging<Q extends AnyQuery>(q: Q, paging: Pick<Paging, 'limit' | 'offset'>): Q {
  return q.limit(paging.limit).offset(paging.offset) as Q;
}

/**
 * The caller's data scope on a module: through its x-scope field, or, for a child module without one,
 * through the parent record (x-children). Lists filter with the SQL condition; writes and single-record
 * reads check the records themselves.
 *
 * An organisation module (x-scope-self) is scoped by the records' own ids: an organisation is in scope
 * when it is one of the caller's; a new one (no id yet) when its parent is.
 *
 * Reading (`'read'`) a workflow record with an `otherField` is also open to the other side of the process
 * (a transfer's receiving organisation sees it, takes its steps and reads its log); changing or deleting
 * it (`'write'`) stays with the record's own organisation.
 *
 * A module whose x-scope field refers to `unit` takes its scope from units instead: the caller's unit
 * scope (roles' `unit_scope` / `scope_unit_ids`; a role seeing every organisation sees every unit).
 * Pass the actor (not only its organisation ids) for such modules; a bare list of organisation ids sees no unit.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { RuntimeContext } from './context.js';
import type { Actor } from './hooks.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import { idIn, type AnyQuery, type Condition } from './query.js';

export type ScopeMode = 'read' | 'write';

/** The caller's scope: organisation ids (or 'all'), or the actor with its units. */
export type Scoped = number[] | 'all' | (Pick<Actor, 'scope' | 'units'> & Partial<Pick<Actor, 'id' | 'permissions'>>);

/**
 * x-owner: the user whose records alone a caller may touch (a caller without the module's `all`
 * permission), or undefined when ownership does not limit the caller (the system, approvers, superusers).
 */
function ownerLimit(m: RuntimeModule, s: Scoped): number | null | undefined {
  if (!m.owner || Array.isArray(s) || s === 'all' || !s.permissions || s.permissions === 'all' || s.permissions.includes(m.owner.all)) return undefined;
  return s.id ?? null;
}

function orgsOf(s: Scoped): number[] | 'all' {
  return Array.isArray(s) || s === 'all' ? s : s.scope;
}

export function unitsOf(s: Scoped): number[] | 'all' {
  if (Array.isArray(s)) return [];
  if (s === 'all') return 'all';
  return s.units ?? (s.scope === 'all' ? 'all' : []);
}

/** The ids a scope field may hold for the caller: units for a unit field, organisations otherwise. */
function idsFor(f: FieldInfo, s: Scoped): number[] | 'all' {
  return f.ref === 'unit' ? unitsOf(s) : orgsOf(s);
}

/** The organisation fields of a record a mode looks at: the scope field, and for reading the other side's. */
function scopeFields(m: RuntimeModule, mode: ScopeMode) {
  const other = mode === 'read' ? m.workflow?.otherField : undefined;
  return other ? [m.scopeField!, other] : [m.scopeField!];
}

/** The SQL condition of the scope; undefined when the module is not scoped or the caller sees all. */
export function scopeCondition(m: RuntimeModule, s: Scoped, mode: ScopeMode = 'write'): Condition | undefined {
  const orgs = orgScopeCondition(m, s, mode);
  const owner = ownerLimit(m, s);
  if (owner === undefined) return orgs;
  const col = m.owner!.field.column!;
  const own: Condition = (eb) => (owner === null ? eb.val(false) : eb(col, '=', owner));
  return orgs ? (eb) => eb.and([orgs(eb), own(eb)]) : own;
}

function orgScopeCondition(m: RuntimeModule, s: Scoped, mode: ScopeMode): Condition | undefined {
  const scope = orgsOf(s);
  if (m.selfScope) return scope === 'all' ? undefined : (eb) => (scope.length ? eb('id', 'in', scope) : eb.val(false));
  if (m.scopeField) {
    const parts = scopeFields(m, mode).map((f) => ({ col: f.column!, ids: idsFor(f, s) }));
    if (parts.some((x) => x.ids === 'all')) return undefined;
    const some = parts.filter((x) => x.ids.length);
    return (eb) => (some.length ? eb.or(some.map((x) => eb(x.col, 'in', x.ids as number[]))) : eb.val(false));
  }
  if (m.scopeVia) {
    const { foreignKey, parent } = m.scopeVia;
    const inParent = scopeCondition(parent, s, mode);
    if (!inParent) return undefined;
    return (eb) => eb(foreignKey.column!, 'in', eb.selectFrom(parent.table).select('id').where(inParent));
  }
  return undefined;
}

/** For each record (field names), whether it lies outside the scope; a record without an organisation (or parent) does too. */
export async function outOfScope(
  ctx: RuntimeContext,
  m: RuntimeModule,
  records: Record<string, unknown>[],
  s: Scoped,
  db: Kysely<DB> = ctx.db,
  mode: ScopeMode = 'write',
): Promise<boolean[]> {
  const outside = await outOfOrgScope(ctx, m, records, s, db, mode);
  const owner = ownerLimit(m, s);
  if (owner === undefined) return outside;
  return outside.map((out, i) => out || owner === null || records[i][m.owner!.field.name] !== owner);
}

async function outOfOrgScope(ctx: RuntimeContext, m: RuntimeModule, records: Record<string, unknown>[], s: Scoped, db: Kysely<DB>, mode: ScopeMode): Promise<boolean[]> {
  const scope = orgsOf(s);
  if (!m.scopeField && !m.scopeVia && !m.selfScope) return records.map(() => false);
  if (m.selfScope) {
    if (scope === 'all') return records.map(() => false);
    const allowed = new Set(scope);
    const parent = m.selfScope.parent.name;
    return records.map((r) => !allowed.has((r.id ?? r[parent]) as number));
  }
  if (m.scopeField) {
    const fields = scopeFields(m, mode).map((f) => ({ name: f.name, ids: idsFor(f, s) }));
    if (fields.some((f) => f.ids === 'all')) return records.map(() => false);
    const allowed = fields.map((f) => ({ name: f.name, ids: new Set(f.ids as number[]) }));
    return records.map((r) => !allowed.some((f) => f.ids.has(r[f.name] as number)));
  }
  const { foreignKey, parent } = m.scopeVia!;
  const cond = scopeCondition(parent, s, mode);
  if (!cond) return records.map(() => false);
  const ids = [...new Set(records.map((r) => r[foreignKey.name]).filter((v): v is number => typeof v === 'number'))];
  const visible = new Set<number>();
  for (let start = 0; start < ids.length; start += 1000) {
    const q = (db as Kysely<any>).selectFrom(parent.table).select('id').where(idIn(ids.slice(start, start + 1000))).where(cond);
    (await q.execute()).forEach((r: { id: number }) => visible.add(r.id));
  }
  return records.map((r) => !visible.has(r[foreignKey.name] as number));
}

/**
 * Whether the fields of a self-scoped module's records outside the scope must be hidden (x-scope-self
 * public): the caller does not see every organisation.
 */
export function masksFields(m: RuntimeModule, scope: number[] | 'all'): boolean {
  return !!m.selfScope && scope !== 'all';
}

/** The columns a self-scoped module may filter and sort every record on: id and the public fields' (pinyin key included). */
export function publicColumns(m: RuntimeModule): Set<string> {
  const out = new Set(['id']);
  for (const name of m.selfScope?.public ?? []) {
    const f = m.field(name);
    if (f?.column) out.add(f.column);
    if (f && f === m.nameField && m.pinyinColumn) out.add(m.pinyinColumn);
  }
  return out;
}

/** Blanks the non-public fields (and their labels and names) of the records outside the scope; marks them `restricted`. */
export function maskOutOfScope(m: RuntimeModule, records: Record<string, unknown>[], scope: number[] | 'all'): void {
  if (!m.selfScope || scope === 'all') return;
  const allowed = new Set(scope);
  const open = m.selfScope.public;
  for (const r of records) {
    if (allowed.has(r.id as number)) continue;
    for (const f of m.fields.values()) {
      if (open.has(f.name) || !(f.name in r)) continue;
      r[f.name] = null;
      if (`${f.name}Label` in r) r[`${f.name}Label`] = null;
      if (`${f.name}Name` in r) r[`${f.name}Name`] = null;
    }
    // Who changed it and when belong to the record's history (its trail), not to the public part.
    for (const s of ['createdAt', 'createdBy', 'updatedAt', 'updatedBy']) if (s in r) r[s] = null;
    r.restricted = true;
  }
}

export function applyScope<Q extends AnyQuery>(q: Q, m: RuntimeModule, s: Scoped, mode: ScopeMode = 'write'): Q {
  const cond = scopeCondition(m, s, mode);
  return cond ? (q.where(cond) as Q) : q;
}

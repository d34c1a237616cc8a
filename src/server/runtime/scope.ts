/**
 * The caller's data scope on a module: through its x-scope field, or, for a child module without one,
 * through the parent record (x-children). Lists filter with the SQL condition; writes and single-record
 * reads check the records themselves.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { RuntimeContext } from './context.js';
import type { RuntimeModule } from './module.js';
import { idIn, type AnyQuery, type Condition } from './query.js';

/** The SQL condition of the scope; undefined when the module is not scoped or the caller sees all. */
export function scopeCondition(m: RuntimeModule, scope: number[] | 'all'): Condition | undefined {
  if (scope === 'all') return undefined;
  if (m.scopeField) {
    const col = m.scopeField.column!;
    // A two-party process (x-workflow.otherField) is also the other side's: both see it.
    const other = m.workflow?.otherField?.column;
    if (other) return (eb) => (scope.length ? eb.or([eb(col, 'in', scope), eb(other, 'in', scope)]) : eb.val(false));
    return (eb) => (scope.length ? eb(col, 'in', scope) : eb.val(false));
  }
  if (m.scopeVia) {
    const { foreignKey, parent } = m.scopeVia;
    const inParent = scopeCondition(parent, scope)!;
    return (eb) => eb(foreignKey.column!, 'in', eb.selectFrom(parent.table).select('id').where(inParent));
  }
  return undefined;
}

/** For each record (field names), whether it lies outside the scope; a record without an organisation (or parent) does too. */
export async function outOfScope(
  ctx: RuntimeContext,
  m: RuntimeModule,
  records: Record<string, unknown>[],
  scope: number[] | 'all',
  db: Kysely<DB> = ctx.db,
): Promise<boolean[]> {
  if (scope === 'all' || (!m.scopeField && !m.scopeVia)) return records.map(() => false);
  if (m.scopeField) {
    const allowed = new Set(scope);
    const other = m.workflow?.otherField?.name;
    return records.map((r) => !allowed.has(r[m.scopeField!.name] as number) && !(other && allowed.has(r[other] as number)));
  }
  const { foreignKey, parent } = m.scopeVia!;
  const ids = [...new Set(records.map((r) => r[foreignKey.name]).filter((v): v is number => typeof v === 'number'))];
  const visible = new Set<number>();
  for (let start = 0; start < ids.length; start += 1000) {
    let q = (db as Kysely<any>).selectFrom(parent.table).select('id').where(idIn(ids.slice(start, start + 1000)));
    const cond = scopeCondition(parent, scope);
    if (cond) q = q.where(cond);
    (await q.execute()).forEach((r: { id: number }) => visible.add(r.id));
  }
  return records.map((r) => !visible.has(r[foreignKey.name] as number));
}

export function applyScope<Q extends AnyQuery>(q: Q, m: RuntimeModule, scope: number[] | 'all'): Q {
  const cond = scopeCondition(m, scope);
  return cond ? (q.where(cond) as Q) : q;
}

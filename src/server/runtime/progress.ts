/**
 * x-progress: the records of a piece of work given to many organisations (a task sent to every branch: one
 * record per organisation sharing its title, batch and deadline), grouped by the fields they share, each group
 * counted by where its records stand — done, failed, late (still open after the due date) and open. The
 * groups are read with the list's filter and the caller's read scope; a group's records are the module's list
 * (the one read policy: scope, masking, the sensitive-read log). docs/schema.md, x-progress.
 */
import { sql, type Kysely } from 'kysely';
import { localToday } from '../../shared/module-schema/computed.js';
import type { ProgressGroup, ProgressSpec } from '../../shared/module-schema/types.js';
import { parsePaging } from '../core/paging.js';
import { HttpError } from '../errors.js';
import type { Actor } from './hooks.js';
import type { RuntimeContext } from './context.js';
import { sqlNamed } from './list.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import { applyConditions, filterConditions, parseFilter, type Condition } from './query.js';
import { applyScope } from './scope.js';


/** The groups of the filtered records, latest due first, a page at a time. */
export async function progressGroups(ctx: RuntimeContext, m: RuntimeModule, filter: unknown, query: unknown, actor: Actor, today = localToday()) {
  const spec = m.schema['x-progress']!;
  const state = m.workflow!.stateField;
  const group = spec.groupBy.map((n) => m.field(n)!);
  const due = m.field(spec.due)!;
  const paging = parsePaging(query, {});
  const db = ctx.anyDb as Kysely<any>;
  const conditions = await filterConditions(parseFilter(m, filter), ctx.orgTree);
  const where = applyScope(applyConditions(db.selectFrom(m.table), conditions), m, actor, 'read');
  const st = sql.ref(state.column!);
  const failed = spec.failed ?? [];
  const closed = [...spec.done, ...failed];
  const inList = (states: number[]) => (states.length ? sql`${st} IN (${sql.join(states)})` : sql`false`);
  const grouped = where
    .select(group.map((f) => sql.ref(f.column!).as(f.name)))
    .select([
      sql<number>`count(*)::int`.as('total'),
      sql<number>`(count(*) FILTER (WHERE ${inList(spec.done)}))::int`.as('done'),
      sql<number>`(count(*) FILTER (WHERE ${inList(failed)}))::int`.as('failed'),
      sql<number>`(count(*) FILTER (WHERE NOT (${inList(closed)}) AND ${sql.ref(due.column!)} < ${today}))::int`.as('late'),
    ])
    .groupBy(group.map((f) => f.column!));
  const named = sqlNamed(ctx, group);
  const rows = await db
    .selectFrom(grouped.as('p'))
    .selectAll('p')
    .select(named.map(({ field, name }) => name.as(`${field.name}Name`)))
    .select(sql<number>`count(*) OVER ()`.as('groups'))
    .orderBy(sql.ref(`p.${due.name}`), sql`desc nulls last`)
    .orderBy(group.map((f) => sql.ref(`p.${f.name}`)))
    .limit(paging.limit)
    .offset(paging.offset)
    .execute();
  const content: ProgressGroup[] = rows.map((r) => ({
    key: Object.fromEntries([...group.map((f) => [f.name, r[f.name] ?? null]), ...named.map(({ field }) => [`${field.name}Name`, r[`${field.name}Name`] ?? null])]),
    total: r.total,
    done: r.done,
    failed: r.failed,
    late: r.late,
    open: r.total - r.done - r.failed - r.late,
  }));
  return { content, totalElements: rows.length ? Number(rows[0].groups) : paging.offset ? undefined : 0 };
}

/** The conditions that select one group's records: each shared field equal to the group's value (or empty). */
export function groupConditions(m: RuntimeModule, key: unknown): Condition[] {
  const spec = m.schema['x-progress']!;
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw new HttpError(400, '缺少要查看的分组');
  const values = key as Record<string, unknown>;
  return spec.groupBy.map((name) => {
    const f = m.field(name)!;
    const v = values[name];
    if (v === null || v === undefined || v === '') return (eb) => eb(f.column!, 'is', null);
    if (typeof v !== 'string' && typeof v !== 'number') throw new HttpError(400, `分组的${f.title}不正确`);
    return (eb) => eb(f.column!, '=', v);
  });
}

/** Start check: group fields and the due date are stored fields, the states are the workflow's. */
export function progressProblems(m: RuntimeModule, spec: ProgressSpec): string[] {
  const problems: string[] = [];
  if (!m.workflow) return ['x-progress needs an x-workflow (its states say done and failed)'];
  const stored = (f: FieldInfo | undefined) => !!f?.column && f.kind !== 'array';
  for (const name of spec.groupBy) if (!stored(m.field(name))) problems.push(`x-progress.groupBy: "${name}" is not a stored field`);
  if (!stored(m.field(spec.due)) || m.field(spec.due)!.kind !== 'date') problems.push(`x-progress.due: "${spec.due}" is not a date field`);
  const states = new Set(m.workflow.stateLabels().keys());
  for (const s of [...spec.done, ...(spec.failed ?? [])]) if (!states.has(String(s))) problems.push(`x-progress: state ${s} is not a state of the workflow`);
  return problems;
}

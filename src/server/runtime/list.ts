/**
 * The list call in one round trip: the page, the count and the names of the page's references in a
 * single statement, so a list costs PostgreSQL one parse and the server one query however many parts
 * the answer has. Shape (for a filter W and order O):
 *
 *   SELECT p.*, t.total, (SELECT coalesce(name, '') FROM m_org WHERE id = p."orgId") AS "orgIdName"
 *   FROM (SELECT count(*) AS total FROM m_x WHERE W) t
 *   LEFT JOIN LATERAL (SELECT <list columns> FROM m_x WHERE W ORDER BY O LIMIT n OFFSET k) p ON true
 *
 * The count row always exists, so a page past the end still answers its total (one row of nulls).
 * Reference names are looked up for the page rows only. Without a count (`count=false`) the page is
 * read alone and the total is given only when the page itself shows it (a page that is not full).
 */
import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from 'kysely';
import { parsePaging } from '../core/paging.js';
import type { RuntimeContext } from './context.js';
import { columnsFor, decorate, selection } from './decorate.js';
import type { Actor } from './hooks.js';
import { SYSTEM_FIELDS, type FieldInfo, type RuntimeModule } from './module.js';
import { applyConditions, applyPaging, applySort, filterConditions, parseFilter, type Condition } from './query.js';
import { applyScope, maskOutOfScope, masksFields, publicColumns } from './scope.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */

export interface ListInput {
  /** The filter object `{field: value}` (body of POST list). */
  filter?: unknown;
  /** page, size, sort (and `count=false`) as the query string carries them. */
  query?: unknown;
  /** All visible fields and the system fields instead of the list columns (`?fields=all`). */
  allFields?: boolean;
  /** false: skip the count (the caller knows it: only the page changed). Default: the query's `count`, else true. */
  count?: boolean;
  /** Further conditions beyond the filter object (a workflow's "waiting for me"). */
  conditions?: Condition[];
  /**
   * The relation read instead of the module's table, aliased as the table and with its columns (a data
   * snapshot of the module, statistics/snapshots.ts): filters, scope, sorting and labels apply unchanged.
   */
  from?: AliasedRawBuilder<unknown, string>;
}

export interface ListPage<R> {
  content: R[];
  /** Absent only when the count was skipped and the page does not show it. */
  totalElements?: number;
}

export const LIST_SYSTEM = ['id', 'version'];
export const ALL_SYSTEM = Object.keys(SYSTEM_FIELDS);
export const ALL_SYSTEM_SELECT = Object.entries(SYSTEM_FIELDS).map(([api, col]) => (api === col ? col : `${col} as ${api}`));

/** `count=false` (or 0) in the query string skips the count. */
export function countWanted(input: ListInput): boolean {
  if (input.count !== undefined) return input.count;
  const raw = (input.query as Record<string, unknown> | undefined)?.count;
  return !(raw === false || raw === 'false' || raw === '0');
}

/** Reference fields whose names the statement can read itself: one id per record, and a target with a name. */
export function sqlNamed(ctx: RuntimeContext, fields: FieldInfo[]): { field: FieldInfo; name: RawBuilder<string | null> }[] {
  return fields.flatMap((f) => {
    if (!f.ref || f.kind === 'array') return [];
    const target = ctx.refTarget(f.ref);
    if (!target?.nameColumn) return [];
    const name = sql<string | null>`(SELECT coalesce(${sql.ref(target.nameColumn)}::text, '') FROM ${sql.table(target.table)} WHERE id = ${sql.ref(`p.${f.name}`)})`;
    return [{ field: f, name }];
  });
}

export async function listRecords(ctx: RuntimeContext, m: RuntimeModule, input: ListInput, actor: Actor): Promise<ListPage<Record<string, unknown>>> {
  const filters = parseFilter(m, input.filter);
  const paging = parsePaging(input.query, m.sortable, m.defaultOrder);
  const withCount = countWanted(input);
  const conditions = [...(await filterConditions(filters, ctx.orgTree)), ...(input.conditions ?? [])];
  const db = ctx.anyDb;
  // An organisation module lists every record with its public fields (x-scope-self) as long as nothing but
  // public fields is filtered or sorted on (else the order or the count would tell the hidden values).
  const columns = masksFields(m, actor.scope) ? publicColumns(m) : undefined;
  const masked = !!columns && !input.conditions?.length && filters.every((f) => columns.has(f.field.column!)) && paging.order.every(([col]) => columns.has(col));
  const filtered = applyConditions(input.from ? (db as Kysely<any>).selectFrom(input.from) : db.selectFrom(m.table), conditions);
  const where = masked ? filtered : applyScope(filtered, m, actor, 'read');
  const fields = input.allFields ? [...m.fields.values()] : m.listFields.map((n) => m.field(n)!);
  const system = input.allFields ? ALL_SYSTEM : LIST_SYSTEM;
  const page = applyPaging(applySort(where.select(selection(columnsFor(m, fields), input.allFields ? ALL_SYSTEM_SELECT : LIST_SYSTEM)), paging.order), paging);
  const named = sqlNamed(ctx, fields);
  const names = named.map(({ field, name }) => name.as(`${field.name}Name`));

  let rows: Record<string, unknown>[];
  let total: number | undefined;
  if (withCount) {
    const counted = await (db as Kysely<any>)
      .selectFrom(where.select(sql<number>`count(*)::int`.as('total')).as('t'))
      .leftJoinLateral(page.as('p'), (join) => join.onTrue())
      .selectAll('p')
      .select(['t.total', ...names])
      .execute();
    total = counted[0].total as number;
    // A page past the end is the count's row joined to nothing.
    rows = counted[0].id === null ? [] : counted;
  } else {
    rows = await (db as Kysely<any>).selectFrom(page.as('p')).selectAll('p').select(names).execute();
    if (rows.length < paging.limit && (rows.length > 0 || paging.offset === 0)) total = paging.offset + rows.length;
  }
  const content = await decorate(ctx, m, rows, fields, system, ctx.db, new Set(named.map((n) => n.field.name)));
  if (masked) maskOutOfScope(m, content, actor.scope);
  return total === undefined ? { content } : { content, totalElements: total };
}

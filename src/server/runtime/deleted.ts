import { maskRecords } from './sensitive.js';
import { sql, type Kysely } from 'kysely';
import { HttpError } from '../errors.js';
import type { DeletedEntry } from '../../shared/module-schema/api.js';
import type { Paging } from '../core/paging.js';
import type { DB } from '../db/types.js';
import type { RuntimeContext } from './context.js';
import { decorate } from './decorate.js';
import type { Actor } from './hooks.js';
import { ALL_SYSTEM } from './list.js';
import { SYSTEM_FIELDS, type RuntimeModule } from './module.js';

type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Deleted records (security issue 12, finding 9): every delete through the runtime keeps the record's last
 * stored row with who and when, so administrators can list a module's deletions and put a record back.
 */

/** Keeps the stored rows of records about to be deleted; answers their entries' ids by record id. */
export async function keepDeleted(
  trx: Kysely<DB>,
  m: RuntimeModule,
  ids: number[],
  actor: Actor,
  parents: Map<number, number> = new Map(),
): Promise<Map<number, number>> {
  const rows = await (trx as AnyDb).selectFrom(m.table).selectAll().where('id', 'in', ids).execute();
  if (!rows.length) return new Map();
  const kept = await trx
    .insertInto('deleted_records')
    .values(rows.map((row: Record<string, unknown>) => ({
      module: m.id,
      record_id: row.id as number,
      parent_deletion_id: parents.get(row.id as number) ?? null,
      row: JSON.stringify(row),
      user_id: actor.id,
      username: actor.username,
    })))
    .returning(['id', 'record_id'])
    .execute();
  return new Map(kept.map((k) => [k.record_id, k.id]));
}

/** A stored row keyed by API field names, as the list reads it. */
function apiRow(m: RuntimeModule, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, column] of Object.entries(SYSTEM_FIELDS)) out[api] = row[column] ?? null;
  for (const f of m.columns) out[f.name] = row[f.column!] ?? null;
  return out;
}

/** A module's deletions, newest first (children deleted with a parent are counted under it). */
export async function listDeleted(ctx: RuntimeContext, m: RuntimeModule, paging: Paging): Promise<{ content: DeletedEntry[]; totalElements: number }> {
  const base = ctx.db.selectFrom('deleted_records').where('module', '=', m.id).where('parent_deletion_id', 'is', null);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'record_id', 'row', 'username', 'at', 'restored_at', 'restored_by'])
      .select((eb) => eb.selectFrom('deleted_records as c').whereRef('c.parent_deletion_id', '=', 'deleted_records.id').select(sql<number>`count(*)::int`.as('n')).as('with_it'))
      .orderBy('id', 'desc')
      .limit(paging.limit)
      .offset(paging.offset)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  // Kept rows are shown like list rows: ID numbers masked (restoring puts back the stored ones).
  const records = maskRecords(m, await decorate(ctx, m, rows.map((r) => apiRow(m, r.row)), m.columns, ALL_SYSTEM));
  return {
    content: rows.map((r, i) => ({
      id: r.id,
      recordId: r.record_id,
      record: records[i],
      withIt: Number(r.with_it ?? 0),
      username: r.username,
      at: new Date(r.at).toISOString(),
      restoredAt: r.restored_at ? new Date(r.restored_at).toISOString() : null,
      restoredBy: r.restored_by,
    })),
    totalElements: count.total,
  };
}

/** The entry and the entries deleted with it, parents before children. */
async function entryTree(db: Kysely<DB>, id: number) {
  const entries = [];
  let level = await db.selectFrom('deleted_records').selectAll().where('id', '=', id).execute();
  while (level.length) {
    entries.push(...level);
    level = await db.selectFrom('deleted_records').selectAll().where('parent_deletion_id', 'in', level.map((e) => e.id)).orderBy('module').orderBy('record_id').execute();
  }
  return entries;
}

/**
 * Puts a deleted record back with its id and values (and the children deleted with it), in one
 * transaction. `checkScope` refuses a record outside the actor's scope; `tableOf` names each module's table.
 */
export async function restoreDeleted(
  trx: Kysely<DB>,
  m: RuntimeModule,
  id: number,
  actor: Actor,
  tableOf: (moduleId: string) => string | undefined,
  checkScope: (row: Record<string, unknown>) => Promise<void>,
): Promise<{ recordId: number; restored: { module: string; ids: number[] }[] }> {
  const entries = await entryTree(trx, id);
  const top = entries[0];
  if (!top || top.module !== m.id || top.parent_deletion_id !== null) throw new HttpError(404, '删除记录不存在');
  if (top.restored_at) throw new HttpError(409, `该记录已于${new Date(top.restored_at).toLocaleString('zh-CN', { hour12: false })}由${top.restored_by ?? ''}恢复`);
  await checkScope(apiRow(m, top.row));
  const restored = new Map<string, number[]>();
  for (const e of entries) {
    const table = tableOf(e.module);
    if (!table) throw new HttpError(400, '该记录所属的模块已不存在，无法恢复');
    const row = { ...e.row, version: Number(e.row.version ?? 0) + 1, updated_at: new Date().toISOString(), updated_by: actor.id };
    try {
      // jsonb_populate_record turns the kept JSON back into the table's own column types (dates, arrays, jsonb).
      await sql`INSERT INTO ${sql.table(table)} SELECT * FROM jsonb_populate_record(NULL::${sql.table(table)}, ${JSON.stringify(row)}::jsonb)`.execute(trx);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '23505') throw new HttpError(409, '无法恢复：已有相同编号或唯一信息的记录，请先处理后再恢复');
      if (code === '23503') throw new HttpError(409, '无法恢复：该记录引用的数据已被删除，请先恢复或重建后再试');
      throw error;
    }
    restored.set(e.module, [...(restored.get(e.module) ?? []), e.record_id]);
  }
  await trx
    .updateTable('deleted_records')
    .set({ restored_at: new Date(), restored_by: actor.username })
    .where('id', 'in', entries.map((e) => e.id))
    .execute();
  return { recordId: top.record_id, restored: [...restored].map(([module, ids]) => ({ module, ids })) };
}

/**
 * Data snapshots (数据快照): a point-in-time, read-only copy of chosen modules, usable as a report source
 * and comparable with another snapshot. Storage grows with change, not size: each record's row is kept
 * as a version (its JSON and hash) that belongs to every snapshot of its module from the one that first
 * saw it up to the one that saw it changed or gone. A snapshot therefore stores only the rows that
 * changed since the module's previous snapshot (migration 0270, docs/statistics.md).
 */
import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { SessionUser } from '../../core/auth/session-user.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { columnsFor, decorate, selection } from '../../runtime/decorate.js';
import type { Runtime } from '../../runtime/index.js';
import type { JobControl } from '../../runtime/jobs.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { applyPaging, type Condition } from '../../runtime/query.js';
import { scopeCondition } from '../../runtime/scope.js';
import { maskRecords } from '../../runtime/sensitive.js';
import { ExportState, type Snapshot, type SnapshotDiff } from '../../../shared/statistics.js';

/** Modules a snapshot may hold (whose reports and queries read them). */
export const SNAPSHOT_MODULES = ['member', 'org', 'development', 'unit'];

interface SnapshotRow {
  id: number;
  title: string;
  modules: string[];
  taken_at: Date;
  state: number;
  counts: Record<string, number>;
  stored: Record<string, number>;
  created_by_name: string;
  note: string;
}

const toSnapshot = (r: SnapshotRow): Snapshot => ({
  id: r.id, title: r.title, modules: r.modules, takenAt: new Date(r.taken_at).toISOString(), state: r.state, counts: r.counts, stored: r.stored, createdByName: r.created_by_name, note: r.note ?? '',
});

/** The versions of a module's records in a snapshot. */
const inSnapshot = (module: string, id: number) =>
  sql<boolean>`v.module = ${module} AND v.first_snapshot <= ${id} AND (v.last_snapshot IS NULL OR v.last_snapshot > ${id})`;

/**
 * A module's records as a snapshot held them, as a relation with the module table's columns (and the
 * version's hash), aliased as the table: every query written for the live table runs on it unchanged.
 */
export function snapshotRelation(m: RuntimeModule, id: number): AliasedRawBuilder<unknown, string> {
  return sql`(SELECT v.hash AS snapshot_hash, (jsonb_populate_record(null::${sql.table(m.table)}, v.data)).* FROM stat_snapshot_version v WHERE ${inSnapshot(m.id, id)})`.as(m.table);
}

export async function listSnapshots(db: Kysely<DB>): Promise<Snapshot[]> {
  const { rows } = await sql<SnapshotRow>`SELECT * FROM stat_snapshot ORDER BY taken_at DESC, id DESC`.execute(db);
  return rows.map(toSnapshot);
}

/** A finished snapshot holding the module (400 otherwise), for reports and queries. */
export async function snapshotInfo(runtime: Runtime, id: number, module: string): Promise<{ id: number; title: string; takenAt: string }> {
  const { rows } = await sql<SnapshotRow>`SELECT * FROM stat_snapshot WHERE id = ${id}`.execute(runtime.ctx.db);
  const s = rows[0];
  if (!s || s.state !== ExportState.FINISH) throw new HttpError(400, '数据快照不存在或尚未完成');
  if (!s.modules.includes(module)) throw new HttpError(400, `数据快照“${s.title}”不含${runtime.module(module)?.title ?? module}`);
  return { id: s.id, title: s.title, takenAt: new Date(s.taken_at).toISOString() };
}

export function checkModules(runtime: Runtime, modules: unknown): string[] {
  if (!Array.isArray(modules) || !modules.length || modules.some((x) => typeof x !== 'string')) throw new HttpError(400, '请选择要快照的模块');
  const unknown = modules.filter((x) => !SNAPSHOT_MODULES.includes(x) || !runtime.module(x));
  if (unknown.length) throw new HttpError(400, `不能快照模块“${unknown[0]}”`);
  return [...new Set(modules as string[])];
}

/** Registers a snapshot (state start) and answers its id; `take` fills it. */
export async function newSnapshot(db: Kysely<DB>, title: string, modules: string[], user: { id: number | null; name: string }, takenAt?: Date, note = ''): Promise<number> {
  const { rows } = await sql<{ id: number }>`INSERT INTO stat_snapshot (title, modules, taken_at, created_by, created_by_name, note)
    VALUES (${title}, ${modules}::text[], ${takenAt ?? new Date()}, ${user.id}, ${user.name}, ${note}) RETURNING id`.execute(db);
  return rows[0].id;
}

/**
 * Takes snapshot `id` of its modules in one transaction: versions whose record changed or went are
 * closed at this snapshot, rows without an open version are stored. `rowsOf` gives a module's rows as
 * another relation of its table's row type (the demo's "end of last year" copy: the members of that
 * day, as they were then); normal snapshots take the table. One transaction holds all the modules, so
 * they are copied at the same moment.
 */
export async function takeSnapshot(runtime: Runtime, id: number, job?: JobControl, rowsOf?: Record<string, RawBuilder<unknown>>): Promise<Snapshot> {
  const db = runtime.ctx.db;
  const { rows } = await sql<SnapshotRow>`SELECT * FROM stat_snapshot WHERE id = ${id}`.execute(db);
  const snap = rows[0];
  const counts: Record<string, number> = {};
  const stored: Record<string, number> = {};
  await runtime.ctx.beforeTransaction();
  try {
    await db.transaction().execute(async (trx) => {
      for (const module of snap.modules) {
        const m = runtime.module(module)!;
        const given = rowsOf?.[module];
        // The rows copied: the table, or the relation given (read again for the rows that changed).
        const rows = given ? sql`(${given})` : sql.table(m.table);
        const source = sql`SELECT * FROM ${rows} r`;
        // The hash of each row now (its text form), then only the rows that changed are turned into JSON.
        await sql`DROP TABLE IF EXISTS snapshot_current`.execute(trx);
        await sql`CREATE TEMP TABLE snapshot_current ON COMMIT DROP AS SELECT s.id, md5(s::text) AS h FROM (${source}) s`.execute(trx);
        await sql`CREATE UNIQUE INDEX ON snapshot_current (id)`.execute(trx);
        await sql`ANALYZE snapshot_current`.execute(trx);
        await sql`UPDATE stat_snapshot_version v SET last_snapshot = ${id}
          WHERE v.module = ${module} AND v.last_snapshot IS NULL
            AND NOT EXISTS (SELECT 1 FROM snapshot_current c WHERE c.id = v.record_id AND c.h = v.hash)`.execute(trx);
        const inserted = await sql`INSERT INTO stat_snapshot_version (module, record_id, first_snapshot, hash, data)
          SELECT ${module}, c.id, ${id}, c.h, to_jsonb(t) FROM snapshot_current c JOIN ${rows} t ON t.id = c.id
          WHERE NOT EXISTS (SELECT 1 FROM stat_snapshot_version v WHERE v.module = ${module} AND v.record_id = c.id AND v.last_snapshot IS NULL)`.execute(trx);
        const { rows: n } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM snapshot_current`.execute(trx);
        counts[module] = n[0].n;
        stored[module] = Number(inserted.numAffectedRows ?? 0);
        await sql`DROP TABLE snapshot_current`.execute(trx);
      }
      await sql`UPDATE stat_snapshot SET state = ${ExportState.FINISH}, counts = ${JSON.stringify(counts)}::jsonb, stored = ${JSON.stringify(stored)}::jsonb WHERE id = ${id}`.execute(trx);
    });
  } catch (error) {
    await sql`UPDATE stat_snapshot SET state = ${ExportState.ERROR} WHERE id = ${id}`.execute(db);
    throw error;
  }
  // Progress is written after the commit: on the embedded database a write beside the open transaction waits for it.
  await job?.progress(snap.modules.length, snap.modules.length);
  return toSnapshot({ ...snap, state: ExportState.FINISH, counts, stored });
}

/** The stored fields of a module compared between two snapshots (the system columns left out). */
function comparedFields(m: RuntimeModule) {
  return [...m.fields.values()].filter((f) => f.column);
}

/** The compared fields of one side's row (`<alias>.d`, its JSON) as one JSON value; in parts, as a call takes at most 100 arguments. */
function comparedValues(fields: ReturnType<typeof comparedFields>, alias: 'a' | 'b'): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  for (let i = 0; i < fields.length; i += 40) {
    const pairs = fields.slice(i, i + 40).flatMap((f) => [sql.lit(f.column!), sql`${sql.ref(`${alias}.d`)} -> ${sql.lit(f.column!)}`]);
    parts.push(sql`jsonb_build_object(${sql.join(pairs)})`);
  }
  return parts.length ? sql`(${sql.join(parts, sql` || `)})` : sql`'{}'::jsonb`;
}

export type DiffKind = SnapshotDiff['kind'];

/**
 * Compares two snapshots of a module in the caller's scope: how many records were added, removed and
 * changed from `a` to `b`, and one page of the records of one kind with their changed fields.
 */
export async function diffSnapshots(runtime: Runtime, user: SessionUser, a: number, b: number, module: string, kind: DiffKind, page: number, size: number): Promise<SnapshotDiff> {
  const m = runtime.module(module);
  if (!m) throw new HttpError(400, `不存在模块“${module}”`);
  await snapshotInfo(runtime, a, module);
  await snapshotInfo(runtime, b, module);
  const actor = await runtime.actorOf(user);
  const scope = scopeCondition(m, actor, 'read');
  const db = runtime.ctx.anyDb;
  const side = (id: number) => {
    let q = db.selectFrom(snapshotRelation(m, id) as never).select(['id', 'snapshot_hash as h', sql`to_jsonb(${sql.table(m.table)})`.as('d')] as never);
    if (scope) q = q.where(scope as never);
    return q;
  };
  const joined = sql`(${side(a)}) a FULL JOIN (${side(b)}) b ON a.id = b.id`;
  const fields = comparedFields(m);
  // Changed = a compared field differs; a row only touched (its version, its update time) did not change.
  const differs = sql`a.h <> b.h AND ${comparedValues(fields, 'a')} IS DISTINCT FROM ${comparedValues(fields, 'b')}`;
  const { rows: counts } = await sql<{ added: number; removed: number; changed: number }>`SELECT
      count(*) FILTER (WHERE a.id IS NULL)::int AS added,
      count(*) FILTER (WHERE b.id IS NULL)::int AS removed,
      count(*) FILTER (WHERE a.id IS NOT NULL AND b.id IS NOT NULL AND ${differs})::int AS changed
    FROM ${joined}`.execute(db);
  const which = kind === 'added' ? sql`a.id IS NULL` : kind === 'removed' ? sql`b.id IS NULL` : sql`a.id IS NOT NULL AND b.id IS NOT NULL AND ${differs}`;
  const { rows } = await sql<{ id: number; before: Record<string, unknown> | null; after: Record<string, unknown> | null }>`SELECT coalesce(a.id, b.id) AS id, a.d AS before, b.d AS after
    FROM ${joined} WHERE ${which} ORDER BY 1 LIMIT ${size} OFFSET ${page * size}`.execute(db);
  const nameCol = m.nameField?.column;
  // Both sides as API records (field names, labels of dictionaries, names of references, numbers masked): people read 预备党员 → 正式党员, never codes or ids.
  const asRecords = async (side: 'before' | 'after') =>
    maskRecords(m, await decorate(runtime.ctx, m, rows.map((r) => Object.fromEntries(fields.map((f) => [f.name, r[side]?.[f.column!] ?? null]))), fields, []));
  const [before, after] = [await asRecords('before'), await asRecords('after')];
  const shownValue = (record: Record<string, unknown>, name: string) => record[`${name}Label`] ?? record[`${name}Name`] ?? record[name] ?? null;
  const content = rows.map((r, i) => {
    const changed = fields.filter((f) => JSON.stringify(r.before?.[f.column!] ?? null) !== JSON.stringify(r.after?.[f.column!] ?? null));
    const shown = kind === 'changed' ? changed : [];
    return {
      id: r.id,
      name: nameCol ? String((r.after ?? r.before)?.[nameCol] ?? '') : `第${r.id}条记录`,
      fields: shown.map((f) => ({ field: f.name, title: f.title, before: r.before ? shownValue(before[i], f.name) : null, after: r.after ? shownValue(after[i], f.name) : null })),
    };
  });
  const total = kind === 'added' ? counts[0].added : kind === 'removed' ? counts[0].removed : counts[0].changed;
  return { module, ...counts[0], kind, content, totalElements: total };
}

/** One page of a snapshot's records of a module matching conditions (report drill-downs over a snapshot). */
export async function snapshotRecords(runtime: Runtime, user: SessionUser, id: number, m: RuntimeModule, conditions: Condition[], page: number, size: number) {
  await snapshotInfo(runtime, id, m.id);
  const actor = await runtime.actorOf(user);
  const scope = scopeCondition(m, actor, 'read');
  const fields = m.listFields.map((n) => m.field(n)!);
  let q = runtime.ctx.anyDb.selectFrom(snapshotRelation(m, id) as never);
  for (const c of [...(scope ? [scope] : []), ...conditions]) q = q.where(c as never);
  const { total } = (await q.select(sql<number>`count(*)::int`.as('total') as never).executeTakeFirstOrThrow()) as { total: number };
  const rows = await applyPaging(q.select(selection(columnsFor(m, fields), ['id', 'version']) as never).orderBy('id' as never), { limit: size, offset: page * size }).execute();
  const content = maskRecords(m, await decorate(runtime.ctx, m, rows as Record<string, unknown>[], fields, ['id', 'version']));
  return { content, totalElements: total };
}

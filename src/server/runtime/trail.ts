import { sql, type Kysely } from 'kysely';
import { ChangeRecordOriginLabel, ChangeRecordType, ChangeRecordTypeLabel } from '../../shared/constants.js';
import type { Paging } from '../core/paging.js';
import type { DB } from '../db/types.js';
import type { RuntimeContext } from './context.js';
import { labelOf } from './decorate.js';
import type { Actor, Origin } from './hooks.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import { maskIdCard, sensitiveFields } from './sensitive.js';
import type { ChangeRecord, FieldChange } from '../../shared/module-schema/api.js';

/** A stored value in the form the trail keeps and compares: null for empty, ISO text for instants. */
export function trailValue(f: FieldInfo, v: unknown): unknown {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) return null;
  if (f.kind === 'date-time') {
    const d = v instanceof Date ? v : new Date(String(v));
    return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
  }
  return v;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Labels of every dictionary a module uses: code → value → label. */
export type DictSnapshot = Map<string, Map<string, string>>;

/**
 * The module's dictionaries, read (from the cache) before a write's transaction: inside it, on the
 * embedded database, the dictionary service could not query without waiting for the transaction.
 */
export async function dictSnapshot(ctx: RuntimeContext, m: RuntimeModule, db: Kysely<DB> = ctx.db): Promise<DictSnapshot> {
  const snapshot: DictSnapshot = new Map();
  for (const code of m.dictCodes) snapshot.set(code, await ctx.dictLabels(code, db));
  return snapshot;
}

/**
 * The field-level changes between two states of a record (before is undefined for a new record), with
 * labels for dictionary and reference fields so the trail reads without further look-ups. `db` is the
 * write's transaction (reference names are read through it).
 */
export async function changesOf(
  ctx: RuntimeContext,
  db: Kysely<DB>,
  m: RuntimeModule,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
  dicts: DictSnapshot,
): Promise<FieldChange[]> {
  const changes: FieldChange[] = [];
  for (const f of m.columns) {
    const b = before ? trailValue(f, before[f.name]) : null;
    const a = trailValue(f, after[f.name]);
    if (same(a, b)) continue;
    const change: FieldChange = { field: f.name, title: f.title, before: b, after: a };
    const values = [b, a].flatMap((v) => (Array.isArray(v) ? v : v === null ? [] : [v]));
    if (f.dict) {
      const labels = dicts.get(f.dict) ?? new Map<string, string>();
      change.beforeLabel = labelOf(b, (v) => labels.get(String(v)));
      change.afterLabel = labelOf(a, (v) => labels.get(String(v)));
    } else if (f.ref) {
      const names = await ctx.refNames(f.ref, values as number[], db);
      change.beforeLabel = labelOf(b, (v) => names.get(v as number), false);
      change.afterLabel = labelOf(a, (v) => names.get(v as number), false);
    }
    changes.push(change);
  }
  return changes;
}

/** The workflow record a change came from: a step of `module`'s record `recordId` wrote it. */
export interface TrailSource {
  module: string;
  recordId: number;
}

export interface TrailEntry {
  recordId: number;
  source?: TrailSource;
  type: (typeof ChangeRecordType)[keyof typeof ChangeRecordType];
  origin: Origin;
  changes: FieldChange[];
}

/**
 * Writes the change records of a write in its transaction, in one statement. Modules without x-trail
 * keep none; an update that changed nothing leaves no record.
 */
export async function recordChanges(trx: Kysely<DB>, m: RuntimeModule, entries: TrailEntry[], actor: Actor): Promise<void> {
  if (!m.trail) return;
  const moduleCode = m.trail.moduleCode;
  const rows = entries
    .filter((e) => e.type === ChangeRecordType.ADD || e.changes.length > 0)
    .map((e) => ({ module: m.id, module_code: moduleCode, record_id: e.recordId, type: e.type, origin: e.origin, changes: JSON.stringify(e.changes), user_id: actor.id, username: actor.username, source_module: e.source?.module ?? null, source_id: e.source?.recordId ?? null }));
  if (rows.length) await trx.insertInto('change_records').values(rows).execute();
}

/** A change as read back: sensitive fields (ID numbers) masked on both sides, as lists and exports show them. */
function maskedChange(sensitive: string[], c: FieldChange): FieldChange {
  if (!sensitive.includes(c.field)) return c;
  const mask = (v: unknown) => (typeof v === 'string' && v ? maskIdCard(v) : v);
  return { ...c, before: mask(c.before), after: mask(c.after) };
}

/**
 * The change records of one record, newest first. The stored changes keep the real values (restoring a
 * change writes them back); what is read out masks ID numbers like the list does.
 */
export async function trailOf(ctx: RuntimeContext, m: RuntimeModule, recordId: number, paging: Paging): Promise<{ content: ChangeRecord[]; totalElements: number }> {
  const base = ctx.db.selectFrom('change_records').where('module', '=', m.id).where('record_id', '=', recordId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(paging.limit).offset(paging.offset).execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  const sensitive = sensitiveFields(m);
  return {
    content: rows.map((r) => ({
      id: r.id,
      module: r.module,
      moduleCode: r.module_code,
      recordId: r.record_id,
      type: r.type,
      typeLabel: ChangeRecordTypeLabel[r.type as 1 | 2] ?? '',
      origin: r.origin,
      originLabel: ChangeRecordOriginLabel[r.origin as Origin] ?? '',
      changes: sensitive.length ? r.changes.map((c) => maskedChange(sensitive, c)) : r.changes,
      userId: r.user_id,
      username: r.username,
      at: new Date(r.at).toISOString(),
      source: r.source_module && r.source_id !== null ? { module: r.source_module, title: ctx.registry.get(r.source_module)?.title ?? r.source_module, recordId: r.source_id } : null,
    })),
    totalElements: count.total,
  };
}

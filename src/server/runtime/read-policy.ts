/**
 * The one read policy of the runtime (issue 38, DESIGN.md §11): for an actor, a module and records (or
 * ids), which records are visible (the module's view permission and the actor's read scope per record),
 * which fields are served (a self-scoped module's private fields blanked outside the scope), which values
 * are masked (a sensitive value is whole only where the actor may edit THAT record: the module's edit
 * permission and the record inside the actor's write scope) and the log of every whole sensitive value
 * served (sensitive_reads). Every path that returns a module's records to a caller goes through it: the
 * generic list and detail, 综合查询's reference paths, templates, the cadre profile, domain routes.
 * Aggregates may count directly; they never return a row's sensitive value.
 *
 * The system actor (no `permissions`: seeds, domain services) is not limited.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import type { RuntimeContext } from './context.js';
import { decorate, selection } from './decorate.js';
import type { Actor } from './hooks.js';
import { ALL_SYSTEM, ALL_SYSTEM_SELECT } from './list.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import { idIn } from './query.js';
import { maskOutOfScope, outOfScope, scopeCondition } from './scope.js';
import { maskIdCard, sensitiveFields } from './sensitive.js';

type Row = Record<string, unknown>;

/** How records are served: `list` masks every sensitive value (lists, exports); `record` serves it whole where the actor may edit the record, and logs that. */
export type ReadMode = 'list' | 'record';

export interface ServeOptions {
  /** The caller's address, kept with each logged whole read. */
  address: string;
  /** Default `record`. */
  mode?: ReadMode;
  db?: Kysely<DB>;
}

/** Whether the actor holds a permission (the system and superusers hold every one). */
export function actorMay(actor: Actor, permission: string): boolean {
  return actor.permissions === undefined || actor.permissions === 'all' || actor.permissions.includes(permission);
}

/** The system actor (seeds, domain services): not a caller, so no rule of this policy limits it. */
export const isSystemActor = (actor: Actor): boolean => actor.permissions === undefined;

/**
 * For each stored record (field names, with its scope field or parent key), whether the actor may see its
 * sensitive values whole: the module's edit permission and the record inside the actor's write scope.
 */
export async function wholeFor(ctx: RuntimeContext, m: RuntimeModule, actor: Actor, records: Row[], db: Kysely<DB> = ctx.db): Promise<boolean[]> {
  if (!sensitiveFields(m).length || !records.length) return records.map(() => false);
  if (!actorMay(actor, m.permissions.edit)) return records.map(() => false);
  return (await outOfScope(ctx, m, records, actor, db, 'write')).map((out) => !out);
}

/**
 * Masks the sensitive values of the records the actor may not see whole (all of them in `list` mode),
 * logs the whole ones served (`record` mode) and answers the records (changed in place). The records carry
 * the fields their scope needs (a detail's, or rows read by `readVisible`).
 */
export async function serveRecords<T extends Row>(ctx: RuntimeContext, m: RuntimeModule, actor: Actor, records: T[], options: ServeOptions): Promise<T[]> {
  const names = sensitiveFields(m);
  if (!names.length || !records.length) return records;
  const whole = options.mode === 'list' ? records.map(() => false) : await wholeFor(ctx, m, actor, records, options.db);
  records.forEach((r, i) => {
    if (whole[i]) return;
    for (const name of names) {
      const v = r[name];
      if (typeof v === 'string' && v) (r as Row)[name] = maskIdCard(v);
    }
  });
  if (!isSystemActor(actor)) await logWholeReads(options.db ?? ctx.db, m, records.filter((_, i) => whole[i]), actor, options.address);
  return records;
}

/** One sensitive_reads row per record whose sensitive values were served whole (only filled-in fields count). */
async function logWholeReads(db: Kysely<DB>, m: RuntimeModule, records: Row[], actor: Actor, address: string): Promise<void> {
  const names = sensitiveFields(m);
  const rows = records.flatMap((r) => {
    const shown = names.filter((n) => typeof r[n] === 'string' && r[n] !== '');
    return shown.length && typeof r.id === 'number' ? [{ module: m.id, record_id: r.id, fields: shown.join(','), user_id: actor.id, username: actor.username, address }] : [];
  });
  if (rows.length) await db.insertInto('sensitive_reads').values(rows).execute();
}

export interface ReadVisibleOptions extends ServeOptions {
  /** The fields to serve (default: every field of the module). */
  fields?: FieldInfo[];
  /** Without the module's view permission: 'skip' answers nothing (a placeholder stays empty), 'refuse' a 403. Default 'skip'. */
  withoutPermission?: 'skip' | 'refuse';
}

/**
 * The records of these ids the actor may read, decorated and served by the policy (id → record): the
 * module's view permission, the read scope per record (a self-scoped module's out-of-scope records with
 * their public fields only, marked `restricted`), masking and the log. Missing and invisible ids are absent.
 */
export async function readVisible(ctx: RuntimeContext, m: RuntimeModule, actor: Actor, ids: number[], options: ReadVisibleOptions): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  const unique = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (!unique.length) return out;
  if (!actorMay(actor, m.permissions.view)) {
    if (options.withoutPermission === 'refuse') throw new HttpError(403, `无权查看“${m.title}”的记录`);
    return out;
  }
  const db = options.db ?? ctx.db;
  const rows: Row[] = [];
  for (let start = 0; start < unique.length; start += 1000) {
    rows.push(...(await (db as Kysely<any>).selectFrom(m.table).select(selection(m.columns, ALL_SYSTEM_SELECT)).where(idIn(unique.slice(start, start + 1000))).execute()));
  }
  const outside = await outOfScope(ctx, m, rows, actor, db, 'read');
  // A self-scoped module (organisations) shows every record's public fields; the others only in scope.
  const kept = rows.filter((_, i) => !outside[i] || m.selfScope);
  const fields = options.fields ?? [...m.fields.values()];
  const records = await decorate(ctx, m, kept, fields, ALL_SYSTEM, db);
  // Masking and the write scope look at the stored row (its scope field), whatever fields are served.
  const whole = options.mode === 'list' ? kept.map(() => false) : await wholeFor(ctx, m, actor, kept, db);
  const names = sensitiveFields(m);
  records.forEach((r, i) => {
    if (!whole[i]) for (const n of names) if (typeof r[n] === 'string' && r[n]) r[n] = maskIdCard(r[n] as string);
  });
  if (m.selfScope) maskOutOfScope(m, records, actor.scope);
  if (!isSystemActor(actor)) await logWholeReads(db, m, records.filter((_, i) => whole[i]), actor, options.address);
  for (const r of records) out.set(r.id as number, r);
  return out;
}

/**
 * Whether the actor filters or sorts a module's field only by equality with a whole value: a sensitive
 * field served masked (in every list) would otherwise be told digit by digit by `like`, by a range or by
 * the order. Superusers (outside the threat model) are not limited.
 */
export function equalityOnly(actor: Actor | undefined, m: RuntimeModule, field: FieldInfo): boolean {
  if (actor && (actor.permissions === 'all' || isSystemActor(actor))) return false;
  return !!field.column && sensitiveFields(m).includes(field.name);
}

/** The 400 of a partial, range or ordering condition on a sensitive field. */
export function equalityOnlyError(field: FieldInfo, what = '筛选'): HttpError {
  const message = `${field.title}只能按完整的号码精确${what === '排序' ? '查询，不能排序' : '查询'}`;
  return new HttpError(400, message, { errors: [{ field: field.name, message }] });
}

/**
 * The one write check on references (issue 38.5): of these ids of a reference's target, those the actor may
 * not read, so a write may not name them (a meeting's host, an attendee, a talk partner of another college):
 * what its picker would not offer (read scope; an organisation's name is public, x-scope-self). Empty for
 * the system actor and for targets that are not modules (users, roles).
 */
export async function unreadableRefs(ctx: RuntimeContext, target: string, ids: number[], actor: Actor, db: Kysely<DB> = ctx.db): Promise<Set<number>> {
  const m = ctx.registry.get(target);
  const unique = [...new Set(ids.filter((id) => Number.isSafeInteger(id)))];
  if (!m || !unique.length || isSystemActor(actor)) return new Set();
  if (m.selfScope && m.nameField && m.selfScope.public.has(m.nameField.name)) return new Set();
  const scope = scopeCondition(m, actor, 'read');
  if (!scope) return new Set();
  const readable = new Set<number>();
  for (let start = 0; start < unique.length; start += 1000) {
    const rows = await (db as Kysely<any>).selectFrom(m.table).select('id').where(idIn(unique.slice(start, start + 1000))).where(scope).execute();
    rows.forEach((r: { id: number }) => readable.add(r.id));
  }
  return new Set(unique.filter((id) => !readable.has(id)));
}

/** The 400 message of a reference naming a record the writer may not read (the field's title named). */
export const unreadableRefMessage = (title: string): string => `${title}所选的记录不在您的数据范围内`;

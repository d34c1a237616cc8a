import type { Kysely } from 'kysely';
import type { ChangeRecordOrigin, ValueOf } from '../../shared/constants.js';
import type { DB } from '../db/types.js';
import type { RuntimeModule } from './module.js';

/** Who is writing: a signed-in user (scope applies) or the system (domain services, seeds). */
export interface Actor {
  id: number | null;
  username: string;
  /** Organisation ids the actor may touch, or 'all'. */
  scope: number[] | 'all';
  /** The actor's own organisation: the default of a record's x-scope field. */
  orgId: number | null;
  /** Unit ids a unit-scoped module's records may be touched in, or 'all'; absent: 'all' when `scope` is, else none. */
  units?: number[] | 'all';
  /** A signed-in user's permissions ('all' for a superuser); absent for the system (x-owner does not limit it). */
  permissions?: readonly string[] | 'all';
}

export type Origin = ValueOf<typeof ChangeRecordOrigin>;

interface HookBase {
  module: RuntimeModule;
  actor: Actor;
  /** The transaction of the write: hooks read and write through it, so a refusal undoes everything. */
  trx: Kysely<DB>;
}

export interface WriteHookContext extends HookBase {
  action: 'create' | 'update';
  origin: Origin;
  /** The record about to be written (field names); beforeWrite hooks may change it, read-only fields included. */
  record: Record<string, unknown>;
  /** The stored record before an update; undefined on create. */
  previous?: Record<string, unknown>;
  /** The record's id: set on update, and on create once inserted (afterWrite). */
  id?: number;
}

export interface DeleteHookContext extends HookBase {
  action: 'delete';
  /** The records about to be deleted (field names, with id). */
  records: Record<string, unknown>[];
}

/** A deleted record put back (`afterRestore`): rebuild what the record's create made beside it. */
export interface RestoreHookContext extends HookBase {
  action: 'restore';
  /** The record as restored (field names, with id). */
  record: Record<string, unknown>;
  id: number;
}

/** What a hook receives; `action` tells a write ('create', 'update') from a delete. */
export type HookContext = WriteHookContext | DeleteHookContext;
export type Hook = (ctx: HookContext) => void | Promise<void>;

export type RestoreHook = (ctx: RestoreHookContext) => void | Promise<void>;

const hooks = new Map<string, Hook>();
const restoreHooks = new Map<string, RestoreHook>();

/** An `afterRestore` hook (registered apart: it receives the restored record, not a write). */
export function registerRestoreHook(name: string, fn: RestoreHook): void {
  restoreHooks.set(name, fn);
}

export async function runRestoreHooks(names: string[], ctx: RestoreHookContext): Promise<void> {
  for (const name of names) {
    const fn = restoreHooks.get(name);
    if (!fn) throw new Error(`restore hook "${name}" is not registered (a schema names it under x-hooks.afterRestore)`);
    await fn(ctx);
  }
}

/**
 * Domain services plug into module writes by name: a schema lists names under x-hooks
 * (beforeWrite, afterWrite, beforeDelete, afterRestore) and the service registers the function under
 * that name (afterRestore ones with registerRestoreHook). beforeWrite may change `ctx.record` or throw
 * an HttpError; afterWrite runs in the same transaction; beforeDelete may refuse by throwing;
 * afterRestore runs in the restore's transaction and may refuse it (a month another batch took since).
 */
export function registerHook(name: string, fn: Hook): void {
  hooks.set(name, fn);
}

export function unregisterHook(name: string): void {
  hooks.delete(name);
}

export function hookNamed(name: string): Hook {
  const fn = hooks.get(name);
  if (!fn) throw new Error(`hook "${name}" is not registered (a schema names it under x-hooks)`);
  return fn;
}

/** What a fill (`x-fill`) receives: the form's values of its `on` fields, and who asks. */
export interface FillContext {
  module: RuntimeModule;
  actor: Actor;
  db: Kysely<DB>;
  values: Record<string, unknown>;
}
/** Values a form takes over when its `on` fields change (only those of the fill's `sets` are passed on). */
export type Fill = (ctx: FillContext) => Promise<Record<string, unknown>> | Record<string, unknown>;

const fills = new Map<string, Fill>();

/** A schema's `x-fill` names it: the form asks for its values (POST /api/m/{id}/fill/{name}) as the user types. */
export function registerFill(name: string, fn: Fill): void {
  fills.set(name, fn);
}

export function fillNamed(name: string): Fill | undefined {
  return fills.get(name);
}

export interface EligibilityContext {
  module: RuntimeModule;
  actor: Actor;
  db: Kysely<DB>;
  /** The reference field asked about. */
  field: string;
  /** The form's values of the declaration's `on` fields. */
  values: Record<string, unknown>;
  /** The referenced records to judge (the caller may pick each). */
  ids: number[];
}
/** Referenced record id → why it may not be chosen for the field now (in Chinese); the eligible are absent. */
export type Eligibility = (ctx: EligibilityContext) => Promise<Map<number, string>>;

const eligibilities = new Map<string, Eligibility>();

/**
 * A field's `x-ref-eligible` names it: pickers grey out who may not be chosen, with the reason, and 全选 leaves
 * them out (POST /api/m/{id}/eligible/{field}). The write's own guard still decides on save.
 */
export function registerEligibility(name: string, fn: Eligibility): void {
  eligibilities.set(name, fn);
}

export function eligibilityNamed(name: string): Eligibility | undefined {
  return eligibilities.get(name);
}

/** Hook names the schemas use that no service registered. */
export function missingHooks(modules: RuntimeModule[]): string[] {
  const names = modules.flatMap((m) => [...m.hooks.beforeWrite, ...m.hooks.afterWrite, ...m.hooks.beforeDelete].map((h) => `${m.id}: ${h}`));
  const restore = modules.flatMap((m) => m.hooks.afterRestore.map((h) => `${m.id}: ${h}`));
  const filled = modules.flatMap((m) => (m.schema['x-fill'] ?? []).map((f) => `${m.id}: ${f.name}`));
  const eligible = modules.flatMap((m) => Object.values(m.schema.properties).flatMap((f) => (f['x-ref-eligible'] ? [`${m.id}: ${f['x-ref-eligible'].name}`] : [])));
  const missing = (list: string[], known: Map<string, unknown>) => list.filter((n) => !known.has(n.split(': ')[1]));
  return [...missing(names, hooks), ...missing(restore, restoreHooks), ...missing(filled, fills), ...missing(eligible, eligibilities)];
}

export async function runHooks(names: string[], ctx: HookContext): Promise<void> {
  for (const name of names) await hookNamed(name)(ctx);
}

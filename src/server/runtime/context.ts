import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { OrgTree } from '../core/auth/org-scope.js';
import type { DictService } from '../core/dicts/service.js';
import type { DB } from '../db/types.js';
import { idIn } from './query.js';
import type { ModuleRegistry } from './registry.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */

/** The services the runtime's parts share (one per app). */
export class RuntimeContext {
  constructor(
    readonly db: Kysely<DB>,
    readonly registry: ModuleRegistry,
    readonly dicts: DictService,
    /** Read on each use: the organisation module replaces the tree after start. */
    private readonly orgTreeOf: () => OrgTree,
    readonly school: string,
    readonly log: FastifyBaseLogger,
  ) {}

  get orgTree(): OrgTree {
    return this.orgTreeOf();
  }

  /**
   * Loads the caches that work inside a transaction reads (the organisation tree: levels, scopes, reminder
   * receivers) before the transaction opens: on the embedded database a cache loading through the pool
   * from inside a transaction waits for that transaction forever (an import of members hung so).
   */
  async beforeTransaction(): Promise<void> {
    await this.orgTree.subtreeIds([]);
  }

  /** Work to run once a transaction opened with `transaction` commits (nothing runs when it rolls back). */
  private readonly commitQueues = new WeakMap<object, (() => void)[]>();

  /**
   * A transaction whose write events (and the caches that listen to them) go out after its commit:
   * writes made through its handle queue them with `afterCommit`.
   */
  async transaction<R>(fn: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
    await this.beforeTransaction();
    const queue: (() => void)[] = [];
    const result = await this.db.transaction().execute((trx) => {
      this.commitQueues.set(trx, queue);
      return fn(trx);
    });
    for (const run of queue) run();
    return result;
  }

  /** Queues `run` until the commit of `trx` when it was opened with `transaction`; false otherwise (run it now). */
  afterCommit(trx: Kysely<DB>, run: () => void): boolean {
    const queue = this.commitQueues.get(trx);
    if (!queue) return false;
    queue.push(run);
    return true;
  }

  /** The query builder for module tables, which exist only at run time. */
  get anyDb(): Kysely<any> {
    return this.db as never;
  }

  /**
   * Where a reference target lives: users for 'user', roles for 'role', the module's table for a module id (org, unit and
   * member resolve once modules of those ids exist); undefined when there is nothing to look in yet.
   */
  refTarget(target: string): { table: string; nameColumn: string | null } | undefined {
    if (target === 'user') return { table: 'users', nameColumn: 'nick_name' };
    if (target === 'role') return { table: 'roles', nameColumn: 'name' };
    const m = this.registry.get(target);
    return m ? { table: m.table, nameColumn: m.nameField?.column ?? null } : undefined;
  }

  /** Which of these ids exist in the target; undefined when the target cannot be checked. */
  async existingRefs(target: string, ids: number[], db: Kysely<DB> = this.db): Promise<Set<number> | undefined> {
    const where = this.refTarget(target);
    if (!where) return undefined;
    const found = new Set<number>();
    for (let start = 0; start < ids.length; start += 1000) {
      const rows = await (db as Kysely<any>).selectFrom(where.table).select('id').where(idIn(ids.slice(start, start + 1000))).execute();
      rows.forEach((r: { id: number }) => found.add(r.id));
    }
    return found;
  }

  /**
   * Labels of a dictionary (value → label): from the dictionary service's cache, or read through `db`
   * when that is a transaction (inside one, on the embedded database, the service's own query would wait
   * for the transaction to end).
   */
  async dictLabels(code: string, db: Kysely<DB> = this.db): Promise<Map<string, string>> {
    return db === this.db ? this.dicts.labels(code) : dictLabelsIn(db, code);
  }

  /** The values a dictionary field may take (enabled entries), like dictLabels for transactions. */
  async dictValues(code: string, db: Kysely<DB> = this.db): Promise<Set<string>> {
    if (db === this.db) return this.dicts.values(code);
    const rows = await db.selectFrom('dict_details').select('value').where('dict_code', '=', code).where('disabled', '=', false).execute();
    return new Set(rows.map((r) => r.value));
  }

  /**
   * id → display name of referenced records (empty when the target has no name field). Inside a
   * transaction pass its handle: on the embedded database a query outside it would wait for it forever.
   */
  async refNames(target: string, ids: number[], db: Kysely<DB> = this.db): Promise<Map<number, string>> {
    const where = this.refTarget(target);
    if (!where?.nameColumn || !ids.length) return new Map();
    const rows = await (db as Kysely<any>).selectFrom(where.table).select(['id', `${where.nameColumn} as name`]).where(idIn(ids)).execute();
    return new Map(rows.map((r: { id: number; name: unknown }) => [r.id, r.name == null ? '' : String(r.name)]));
  }

  /** Records of the target whose name is one of these (import matches references by name). */
  async refIdsByName(target: string, names: string[], db: Kysely<DB> = this.db): Promise<Map<string, number[]>> {
    const where = this.refTarget(target);
    const out = new Map<string, number[]>();
    if (!where?.nameColumn || !names.length) return out;
    const rows = await (db as Kysely<any>).selectFrom(where.table).select(['id', `${where.nameColumn} as name`]).where(where.nameColumn, 'in', names).execute();
    for (const r of rows as { id: number; name: string }[]) out.set(r.name, [...(out.get(r.name) ?? []), r.id]);
    return out;
  }
}

/** A dictionary's labels (value → label) read through `db`: inside a transaction, where the dictionary service's cache query would wait. */
export async function dictLabelsIn(db: Kysely<DB>, code: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('dict_details').select(['value', 'label']).where('dict_code', '=', code).execute();
  return new Map(rows.map((r) => [r.value, r.label]));
}

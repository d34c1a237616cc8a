import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin, ChangeRecordType } from '../../shared/constants.js';
import { parsePaging } from '../core/paging.js';
import type { DB } from '../db/types.js';
import { HttpError, STATUS_MESSAGES } from '../errors.js';
import type { RuntimeContext } from './context.js';
import { columnsFor, decorate, selection } from './decorate.js';
import { ALL_SYSTEM, ALL_SYSTEM_SELECT, LIST_SYSTEM, listRecords, type ListInput, type ListPage } from './list.js';
import { keepDeleted, restoreDeleted } from './deleted.js';
import { runHooks, runRestoreHooks, type Actor, type Origin, type WriteHookContext } from './hooks.js';
import { SYSTEM_FIELDS, type ChildLink, type FieldInfo, type RuntimeModule } from './module.js';
import { applyConditions, applyPaging, applySort, filterConditions, idIn, parseFilter, type Condition } from './query.js';
import { pinyinKey } from './pinyin.js';
import { applyScope, outOfScope, scopeCondition, type ScopeMode } from './scope.js';
import { changesOf, dictSnapshot, recordChanges, type DictSnapshot, type TrailEntry, type TrailSource } from './trail.js';
import { assertValid, readWriteInput, uniqueMessage, validateCandidates } from './validate.js';
import { remindersAfterDelete, remindersAfterWrite } from './reminders/service.js';
import { assertEditable } from './workflow/safety.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
type AnyDb = Kysely<any>;

/** The system fields every record carries. */
/** Records one batch update may carry (a grid of a branch's members, a class's learners). */
export const UPDATE_MANY_MAX = 1000;

export interface SystemFields {
  id: number;
  version: number;
  createdAt?: Date;
  createdBy?: number | null;
  updatedAt?: Date;
  updatedBy?: number | null;
}

export type { ListInput, ListPage } from './list.js';

export type ApiRecord<T = Record<string, unknown>> = T & SystemFields & Record<string, unknown>;

export interface WriteOptions {
  origin?: Origin;
  /** The workflow record whose step makes this write (kept in the trail: the change's origin is that record). */
  source?: TrailSource;
  /**
   * Run inside this transaction (a domain service writing several things at once). Its write event waits
   * for the commit when the transaction was opened with `ctx.transaction` (workflow steps are).
   */
  trx?: Kysely<DB>;
  /**
   * Values of read-only fields a server-side process sets (a member's 党籍状态 changes only through the
   * processes that decide it, docs/schema.md "Read-only fields set by processes"). Never from a client:
   * the generic API drops read-only keys; each value must fit its field's dictionary or enum.
   */
  set?: Record<string, unknown>;
}

/** A validated write: the record to store and, for an update, the stored row and the version read. */
export interface PreparedWrite {
  values: Record<string, unknown>;
  current?: Record<string, unknown>;
  /** The version the client read; by default the stored row's. */
  version?: number;
  /**
   * A new workflow record's state other than the initial one: only for a process record created by another
   * process's step (`source` set), whose approval stands for this record's earlier steps (createMany).
   */
  state?: number;
  /** USER_CREATE or USER_UPDATE by default. */
  origin?: Origin;
  source?: TrailSource;
}

export interface WriteEvent {
  module: string;
  action: 'create' | 'update' | 'delete';
  ids: number[];
  origin?: Origin;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Reads and writes the records of one module. Every write takes the same path, in one fixed order:
 * validate → (transaction: beforeWrite hooks → SQL → trail record → afterWrite hooks) → write event.
 * The actor's data scope applies to every call; permissions are the caller's business (routes check them).
 */
export class RecordService<T = Record<string, unknown>> {
  constructor(
    private readonly ctx: RuntimeContext,
    readonly module: RuntimeModule,
    private readonly emit: (event: WriteEvent) => void,
    private readonly serviceOf: (module: string) => RecordService,
  ) {}

  private get db(): AnyDb {
    return this.ctx.anyDb;
  }

  // ------------------------------------------------------------------ reading

  /**
   * A page of records with the total (one statement: see list.ts). With `count: false` (or `count=false`
   * in the query) the total is skipped, and given only when the page shows it.
   */
  list(input: ListInput & { count?: true }, actor: Actor): Promise<{ content: ApiRecord<T>[]; totalElements: number }>;
  list(input: ListInput, actor: Actor): Promise<ListPage<ApiRecord<T>>>;
  async list(input: ListInput, actor: Actor): Promise<ListPage<ApiRecord<T>>> {
    return (await listRecords(this.ctx, this.module, input, actor)) as ListPage<ApiRecord<T>>;
  }

  /** One record with every visible field; 404 when it does not exist or lies outside the actor's scope. */
  async get(id: number, actor: Actor, db: Kysely<DB> = this.ctx.db): Promise<ApiRecord<T>> {
    const row = await this.readRow(id, db);
    if (!row || !(await this.inScope([row], actor, db, 'read'))) throw new HttpError(404, `${this.module.title}记录不存在`);
    return (await this.decorateOne(row, db)) as ApiRecord<T>;
  }

  /** The stored row (field names, all visible fields, system fields), ignoring scope. */
  async readRow(id: number, db: Kysely<DB> = this.ctx.db): Promise<Record<string, unknown> | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const m = this.module;
    return (db as AnyDb).selectFrom(m.table).select(selection(m.columns, ALL_SYSTEM_SELECT)).where('id', '=', id).executeTakeFirst();
  }

  async decorateOne(row: Record<string, unknown>, db: Kysely<DB> = this.ctx.db) {
    const [record] = await decorate(this.ctx, this.module, [row], [...this.module.fields.values()], ALL_SYSTEM, db);
    return record;
  }

  /** Whether every one of these stored records lies in the actor's data scope (to change them, or with 'read' to read them). */
  async inScope(rows: Record<string, unknown>[], actor: Actor, db: Kysely<DB> = this.ctx.db, mode: ScopeMode = 'write'): Promise<boolean> {
    return !(await outOfScope(this.ctx, this.module, rows, actor, db, mode)).some(Boolean);
  }

  /**
   * Refuses a change to records outside the actor's write scope. A record the actor cannot even read is
   * answered like a missing one (404), so its existence is not told; one it reads but may not change (the
   * other side of a workflow) is a 403.
   */
  private async assertWritable(rows: Record<string, unknown>[], actor: Actor, db: Kysely<DB>, missing: string): Promise<void> {
    if (await this.inScope(rows, actor, db)) return;
    if (!(await this.inScope(rows, actor, db, 'read'))) throw new HttpError(404, missing);
    throw new HttpError(403, '无权操作该组织的数据');
  }

  /** The field a scope refusal is reported on: the organisation field, or an organisation's parent. */
  private get scopeFieldName(): string | undefined {
    return this.module.scopeField?.name ?? this.module.selfScope?.parent.name;
  }

  // ------------------------------------------------------------------ writing

  /** New records start from the schema defaults; the scope field defaults to the actor's organisation. */
  private withDefaults(values: Record<string, unknown>, actor: Actor): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const f of this.module.writableFields) if (f.schema.default !== undefined) record[f.name] = f.schema.default;
    Object.assign(record, values);
    const scope = this.module.scopeField;
    // A read-only scope field is set by a beforeWrite hook (from another record), which checks the scope.
    // An organisation scope defaults to the actor's organisation (a unit scope has no such default).
    if (scope?.writable && scope.ref !== 'unit' && (record[scope.name] === null || record[scope.name] === undefined) && actor.orgId !== null) record[scope.name] = actor.orgId;
    return record;
  }

  /**
   * The stored values a client may change (the base an update's changes apply to), in their API form: a
   * date-time column reads as a Date, which the API sends (and validation expects) as an ISO string.
   */
  private writableValues(row: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(this.module.writableFields.map((f) => [f.name, row[f.name] instanceof Date ? (row[f.name] as Date).toISOString() : (row[f.name] ?? null)]));
  }

  async create(body: unknown, actor: Actor, options: WriteOptions = {}): Promise<ApiRecord<T>> {
    const db = options.trx ?? this.ctx.db;
    const input = readWriteInput(this.module, body);
    const values = this.withDefaults(input.values, actor);
    const [result] = await validateCandidates(this.ctx, this.module, [{ values }], actor, db);
    assertValid(result, this.scopeFieldName);
    await this.applySet(values, options.set, db);
    const origin = options.origin ?? ChangeRecordOrigin.USER_CREATE;
    const dicts = await dictSnapshot(this.ctx, this.module, db);
    const [id] = await this.inTransaction(options.trx, (trx) => this.writeMany(trx, [{ values, origin, source: options.source }], actor, dicts));
    this.emitAfter(options.trx, { module: this.module.id, action: 'create', ids: [id], origin });
    // A new organisation placed under one of the actor's is theirs, though their scope was read before it existed.
    const reader = this.module.selfScope && actor.scope !== 'all' ? { ...actor, scope: [...actor.scope, id] } : actor;
    return this.get(id, reader, db);
  }

  /**
   * Creates many records in one set-based write (a batch job: the graduation wave's transfers): all are
   * validated together (a refusal names the row, nothing is written), then one writeMany — multi-row
   * INSERTs, one trail INSERT, the reminders of all at once. Each row may carry its own `set` (read-only
   * values a process decides); `state` starts workflow records in a later state, only with a `source`.
   * Answers the new ids in the order given. Run it inside the caller's transaction for all-or-nothing.
   */
  async createMany(rows: { body: unknown; set?: Record<string, unknown> }[], actor: Actor, options: Omit<WriteOptions, 'set'> & { state?: number } = {}): Promise<number[]> {
    if (!rows.length) return [];
    if (options.state !== undefined && !options.source) throw new Error(`${this.module.id}: createMany with a state needs the source step`);
    const db = options.trx ?? this.ctx.db;
    const values = rows.map((r) => this.withDefaults(readWriteInput(this.module, r.body).values, actor));
    const results = await validateCandidates(this.ctx, this.module, values.map((v) => ({ values: v })), actor, db);
    for (const [i, result] of results.entries()) {
      try {
        assertValid(result, this.scopeFieldName);
      } catch (error) {
        if (error instanceof HttpError) error.message = `第${i + 1}条：${error.message}`;
        throw error;
      }
    }
    for (const [i, r] of rows.entries()) await this.applySet(values[i], r.set, db);
    const origin = options.origin ?? ChangeRecordOrigin.USER_CREATE;
    const dicts = await dictSnapshot(this.ctx, this.module, db);
    const writes = values.map((v) => ({ values: v, origin, source: options.source, state: options.state }));
    const ids = await this.inTransaction(options.trx, (trx) => this.writeMany(trx, writes, actor, dicts));
    this.emitAfter(options.trx, { module: this.module.id, action: 'create', ids, origin });
    return ids;
  }

  /**
   * Updates a record from the fields the body carries (absent fields keep their values, null empties
   * one). The body names the `version` it read; a record changed since answers 409 with its current state.
   */
  async update(body: unknown, actor: Actor, options: WriteOptions = {}): Promise<ApiRecord<T>> {
    const m = this.module;
    const input = readWriteInput(m, body);
    const id = Number(input.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, '缺少要修改的记录编号', { errors: [{ field: 'id', message: '缺少要修改的记录编号' }] });
    if (!Number.isSafeInteger(input.version)) throw new HttpError(400, '缺少记录的版本号', { errors: [{ field: 'version', message: '缺少记录的版本号（读取记录时得到的 version）' }] });
    const db = options.trx ?? this.ctx.db;
    const current = await this.readRow(id, db);
    if (!current) throw new HttpError(404, `${m.title}记录不存在`);
    await this.assertWritable([current], actor, db, `${m.title}记录不存在`);
    // A record in flight changes only through its steps (a step's own writes name it as their source).
    if (!options.source) assertEditable(m, [current], 'update');
    if (current.version !== input.version) await this.conflict(id, db);
    const values = { ...this.writableValues(current), ...input.values };
    const [result] = await validateCandidates(this.ctx, m, [{ values, currentId: id, stored: current }], actor, db);
    assertValid(result, this.scopeFieldName);
    await this.applySet(values, options.set, db);
    const origin = options.origin ?? ChangeRecordOrigin.USER_UPDATE;
    const dicts = await dictSnapshot(this.ctx, m, db);
    await this.inTransaction(options.trx, (trx) => this.writeMany(trx, [{ values, current, origin, version: input.version as number, source: options.source }], actor, dicts));
    this.emitAfter(options.trx, { module: m.id, action: 'update', ids: [id], origin });
    return this.get(id, actor, db);
  }

  /**
   * Updates several records in one transaction (the grid of a parent's children saved at once): each body as
   * update() takes it, with its version. A refusal names the row (第N行) and carries its `row` (0-based) and
   * `id`; nothing is written then.
   */
  async updateMany(bodies: unknown, actor: Actor): Promise<ApiRecord<T>[]> {
    if (!Array.isArray(bodies) || !bodies.length) throw new HttpError(400, '没有要保存的记录');
    if (bodies.length > UPDATE_MANY_MAX) throw new HttpError(400, `一次最多保存${UPDATE_MANY_MAX}条记录`);
    return this.ctx.transaction(async (trx) => {
      const saved: ApiRecord<T>[] = [];
      for (const [row, body] of bodies.entries()) {
        try {
          saved.push(await this.update(body, actor, { trx }));
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          const id = (body as { id?: unknown } | null)?.id;
          throw new HttpError(error.statusCode, `第${row + 1}行：${error.message}`, { ...error.details, row, id });
        }
      }
      return saved;
    });
  }

  /** Adds the read-only values a process sets (WriteOptions.set), each checked against its field. */
  private async applySet(values: Record<string, unknown>, set: Record<string, unknown> | undefined, db: Kysely<DB>): Promise<void> {
    if (!set) return;
    for (const [name, value] of Object.entries(set)) {
      const f = this.module.field(name);
      if (!f || !f.column || f.writable) throw new Error(`${this.module.id}.${name} is not a stored read-only field (WriteOptions.set)`);
      if (value !== null && f.schema.enum && !f.schema.enum.includes(value as never)) throw new HttpError(400, `${f.title}的取值“${String(value)}”不正确`);
      if (value !== null && f.dict) {
        const known = await db.selectFrom('dict_details').select('value').where('dict_code', '=', f.dict).where('value', '=', String(value)).executeTakeFirst();
        if (!known) throw new HttpError(400, `${f.title}的取值“${String(value)}”不在字典中`);
      }
      values[name] = value;
    }
  }

  private async conflict(id: number, db?: Kysely<DB>): Promise<never> {
    const row = await this.readRow(id, db);
    if (!row) throw new HttpError(404, `${this.module.title}记录不存在`);
    throw new HttpError(409, STATUS_MESSAGES[409], { current: await this.decorateOne(row, db) });
  }

  private async inTransaction<R>(trx: Kysely<DB> | undefined, fn: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
    return trx ? fn(trx) : this.ctx.transaction(fn);
  }

  /** A write event: now, or after the commit of the caller's transaction (listeners must not see a write that may roll back). */
  private emitAfter(trx: Kysely<DB> | undefined, event: WriteEvent): void {
    if (trx && this.ctx.afterCommit(trx, () => this.emit(event))) return;
    this.emit(event);
  }

  /** Stored column values of a record (arrays as JSON for jsonb). */
  toColumns(values: Record<string, unknown>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const f of this.module.columns) {
      if (!(f.name in values)) continue;
      const v = values[f.name];
      row[f.column!] = v === undefined || v === null || v === '' ? null : f.kind === 'array' ? JSON.stringify(v) : v;
    }
    const name = this.module.nameField;
    if (this.module.pinyinColumn && name!.name in values) row[this.module.pinyinColumn] = pinyinKey(values[name!.name]);
    return row;
  }

  /**
   * Fills the pinyin keys that rows written around the runtime lack (seeded or older rows), in batches;
   * answers how many it filled.
   */
  async fillPinyinKeys(): Promise<number> {
    const m = this.module;
    if (!m.pinyinColumn) return 0;
    const name = m.nameField!.column!;
    let filled = 0;
    for (;;) {
      const rows = await this.db.selectFrom(m.table).select(['id', `${name} as name`]).where(m.pinyinColumn, 'is', null).where(name, 'is not', null).limit(1000).execute();
      if (!rows.length) return filled;
      const values = rows.map((r: { id: number; name: string }) => sql`(${r.id}::int, ${pinyinKey(r.name)}::text)`);
      await sql`UPDATE ${sql.table(m.table)} AS t SET ${sql.ref(m.pinyinColumn)} = v.key FROM (VALUES ${sql.join(values)}) AS v(id, key) WHERE t.id = v.id`.execute(this.db);
      filled += rows.length;
    }
  }

  /**
   * The writes of one transaction, in the fixed order: beforeWrite hooks (each may change its record or
   * refuse), the SQL (new records in multi-row INSERTs, updates each checked against the version read),
   * the trail records (one INSERT), then afterWrite hooks. A single write is a batch of one; an import
   * writes up to IMPORT_BATCH rows at once. Answers the ids in the order of `writes`.
   */
  async writeMany(trx: Kysely<DB>, writes: PreparedWrite[], actor: Actor, dicts: DictSnapshot): Promise<number[]> {
    const m = this.module;
    // A workflow record starts in its initial state; only its transitions change the state afterwards,
    // and once in flight only they change it at all (imports included).
    if (m.workflow) for (const w of writes) if (!w.current) w.values[m.workflow.stateField.name] = w.state !== undefined && w.source ? w.state : m.workflow.initial;
    if (m.workflow) for (const w of writes) if (w.current && !w.source) assertEditable(m, [w.current], 'update');
    const hooks: WriteHookContext[] = writes.map((w) => ({
      module: m,
      actor,
      trx,
      action: w.current ? 'update' : 'create',
      origin: w.origin ?? (w.current ? ChangeRecordOrigin.USER_UPDATE : ChangeRecordOrigin.USER_CREATE),
      record: w.values,
      ...(w.current && { previous: w.current, id: w.current.id as number }),
    }));
    for (const h of hooks) await runHooks(m.hooks.beforeWrite, h);

    const creates = hooks.filter((h) => h.action === 'create');
    // PostgreSQL takes at most 65,535 parameters per statement.
    const perInsert = Math.max(1, Math.floor(60_000 / (m.columns.length + 3)));
    for (let start = 0; start < creates.length; start += perInsert) {
      const chunk = creates.slice(start, start + perInsert);
      const rows = await this.translateUniqueViolation(chunk[0].record, () =>
        (trx as AnyDb)
          .insertInto(m.table)
          .values(chunk.map((h) => ({ ...this.toColumns(h.record), school: this.ctx.school, created_by: actor.id, updated_by: actor.id })))
          .returning('id')
          .execute(),
      );
      // Rows come back in VALUES order.
      rows.forEach((r: { id: number }, i: number) => (chunk[i].id = r.id));
    }
    for (const [i, h] of hooks.entries()) {
      if (h.action !== 'update') continue;
      const current = writes[i].current!;
      const result = await this.translateUniqueViolation(h.record, () =>
        (trx as AnyDb)
          .updateTable(m.table)
          .set({ ...this.toColumns(h.record), version: sql`version + 1`, updated_at: new Date(), updated_by: actor.id })
          .where('id', '=', h.id)
          .where('version', '=', writes[i].version ?? (current.version as number))
          .executeTakeFirst(),
      );
      if (Number(result.numUpdatedRows) === 0) await this.conflict(h.id!, trx);
    }

    const entries: TrailEntry[] = [];
    for (const [i, h] of hooks.entries()) {
      const changes = await changesOf(this.ctx, trx, m, writes[i].current, writes[i].current ? { ...writes[i].current, ...h.record } : h.record, dicts);
      entries.push({ recordId: h.id!, type: h.action === 'create' ? ChangeRecordType.ADD : ChangeRecordType.UPDATE, origin: h.origin, changes, source: writes[i].source });
    }
    await recordChanges(trx, m, entries, actor);
    for (const h of hooks) await runHooks(m.hooks.afterWrite, h);
    await remindersAfterWrite(this.ctx, trx, m, hooks.map((h) => h.id!));
    return hooks.map((h) => h.id!);
  }

  /** A unique index refusing a write that raced past validation answers the same 400 as validation. */
  private async translateUniqueViolation<R>(values: Record<string, unknown>, write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      const e = error as { code?: string; constraint?: string; message?: string };
      if (e.code !== UNIQUE_VIOLATION) throw error;
      const set = this.module.uniqueSets.find((s) => (e.constraint ?? e.message ?? '').includes(s.map((f) => f.column).join('_'))) ?? this.module.uniqueSets[0];
      if (!set) throw error;
      const message = uniqueMessage(set, set.map((f) => values[f.name]));
      throw new HttpError(400, message, { errors: [{ field: set[0].name, message }] });
    }
  }

  /**
   * Deletes records (all in the actor's scope, else 404 as if missing). Children follow x-children: cascade deletes
   * them in the same transaction (their beforeDelete hooks run), restrict refuses while any exist.
   */
  async remove(ids: number[], actor: Actor, options: { trx?: Kysely<DB> } = {}): Promise<number> {
    const m = this.module;
    const unique = [...new Set(ids)];
    const db = options.trx ?? this.ctx.db;
    const rows = await (db as AnyDb)
      .selectFrom(m.table)
      .select(selection(m.columns, ALL_SYSTEM_SELECT))
      .where(idIn(unique))
      .execute();
    if (rows.length !== unique.length) throw new HttpError(404, `${m.title}记录不存在或已被删除`);
    await this.assertWritable(rows, actor, db, `${m.title}记录不存在或已被删除`);
    assertEditable(m, rows, 'delete');
    for (const child of m.children.filter((c) => c.onDelete === 'restrict')) {
      const childModule = this.serviceOf(child.module).module;
      const any = await (db as AnyDb).selectFrom(childModule.table).select('id').where(childModule.field(child.foreignKey)!.column!, 'in', unique).limit(1).executeTakeFirst();
      if (any) throw new HttpError(400, `存在${child.title ?? childModule.title}记录，不能删除`);
    }
    await this.inTransaction(options.trx, (trx) => this.deleteRows(trx, rows, actor));
    this.emitAfter(options.trx, { module: m.id, action: 'delete', ids: unique });
    return unique.length;
  }

  /**
   * Deletes rows and their cascaded children, keeping each stored row in deleted_records (children point at
   * their parent's entry through `parents`: record id → the parent's entry id).
   */
  private async deleteRows(trx: Kysely<DB>, rows: Record<string, unknown>[], actor: Actor, parents?: Map<number, number>): Promise<void> {
    if (!rows.length) return;
    const m = this.module;
    const ids = rows.map((r) => r.id as number);
    await runHooks(m.hooks.beforeDelete, { action: 'delete', module: m, actor, trx, records: rows });
    const entries = await keepDeleted(trx, m, ids, actor, parents);
    for (const child of m.children.filter((c) => c.onDelete === 'cascade')) {
      const service = this.serviceOf(child.module);
      const childModule = service.module;
      const childRows = await (trx as AnyDb)
        .selectFrom(childModule.table)
        .select(selection(childModule.columns, ALL_SYSTEM_SELECT))
        .where(childModule.field(child.foreignKey)!.column!, 'in', ids)
        .execute();
      const childParents = new Map(childRows.map((r: Record<string, unknown>) => [r.id as number, entries.get(r[child.foreignKey] as number)!]));
      await service.deleteRows(trx, childRows, actor, childParents);
    }
    await (trx as AnyDb).deleteFrom(m.table).where(idIn(ids)).execute();
    await remindersAfterDelete(this.ctx, trx, m, rows);
  }

  /** Puts a deleted record back (with the children deleted with it), if it is in the actor's scope. */
  async restoreDeleted(deletionId: number, actor: Actor): Promise<{ recordId: number }> {
    const m = this.module;
    const result = await this.inTransaction(undefined, async (trx) => {
      const r = await restoreDeleted(trx, m, deletionId, actor, (id) => this.ctx.registry.get(id)?.table, async (row) => {
        if (!(await this.inScope([row], actor, trx))) throw new HttpError(404, '删除记录不存在');
      });
      // What the record's create made beside it (a batch's months) is rebuilt by its module, or the restore refused.
      if (m.hooks.afterRestore.length) {
        const record = (await this.readRow(r.recordId, trx))!;
        await runRestoreHooks(m.hooks.afterRestore, { module: m, actor, trx, action: 'restore', record, id: r.recordId });
      }
      return r;
    });
    for (const r of result.restored) this.emit({ module: r.module, action: 'create', ids: r.ids, origin: ChangeRecordOrigin.USER_RESTORE });
    return { recordId: result.recordId };
  }

  /**
   * Puts back the `before` values of one change through the normal update path: permission and scope
   * checked, validated, version bumped, recorded with origin USER_RESTORE.
   */
  async restore(id: number, changeId: number, actor: Actor, version?: number): Promise<ApiRecord<T>> {
    const m = this.module;
    const change = await this.ctx.db
      .selectFrom('change_records')
      .selectAll()
      .where('id', '=', changeId)
      .where('module', '=', m.id)
      .where('record_id', '=', id)
      .executeTakeFirst();
    if (!change) throw new HttpError(404, '修改记录不存在');
    if (change.type === ChangeRecordType.ADD) throw new HttpError(400, '新增记录无需恢复，请直接修改');
    const current = await this.readRow(id);
    if (!current || !(await this.inScope([current], actor))) throw new HttpError(404, `${m.title}记录不存在`);
    const body: Record<string, unknown> = { id, version: version ?? current.version };
    for (const c of change.changes) if (m.field(c.field)?.writable) body[c.field] = c.before;
    return this.update(body, actor, { origin: ChangeRecordOrigin.USER_RESTORE });
  }

  // ------------------------------------------------------------------ helpers for import and export

  /** Stored rows by id (field names), for an import's updates. */
  async rowsByIds(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom(this.module.table).select(selection(this.module.columns, ALL_SYSTEM_SELECT)).where(idIn(ids)).execute();
    return new Map(rows.map((r: Record<string, unknown>) => [r.id as number, r]));
  }

  /** The writable values of a stored row merged with an import row's values. */
  mergeForUpdate(current: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
    return { ...this.writableValues(current), ...values };
  }

  newRecord(values: Record<string, unknown>, actor: Actor): Record<string, unknown> {
    return this.withDefaults(values, actor);
  }

  /** Ids of every record matching the filter in the requested order (the export reads rows in batches by these). */
  async matchingIds(input: ListInput, actor: Actor, db: Kysely<DB> = this.ctx.db): Promise<number[]> {
    const m = this.module;
    const filters = parseFilter(m, input.filter);
    const paging = parsePaging({ ...(input.query as object), page: 0, size: 1 }, m.sortable, m.defaultOrder);
    const conditions = [...(await filterConditions(filters, this.ctx.orgTree)), ...(input.conditions ?? [])];
    const q = applySort(applyScope(applyConditions((db as AnyDb).selectFrom(m.table), conditions), m, actor, 'read').select('id'), paging.order);
    // One array value instead of a row per id: 100,000 result rows cost the embedded engine ~40 MB of
    // memory at once. The aggregate takes the sorted subquery's rows in their order.
    const { ids } = await (db as AnyDb).selectFrom(q.as('matching')).select(sql<number[] | null>`array_agg(matching.id)`.as('ids')).executeTakeFirstOrThrow();
    return ids ?? [];
  }

  /** Decorated records of these ids, in this order. */
  async recordsByIds(ids: number[], fields: FieldInfo[]): Promise<Record<string, unknown>[]> {
    const m = this.module;
    const rows = await this.db.selectFrom(m.table).select(selection(columnsFor(m, fields), ['id'])).where(idIn(ids)).execute();
    const byId = new Map(rows.map((r: Record<string, unknown>) => [r.id as number, r]));
    const ordered = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    return decorate(this.ctx, m, ordered, fields, ['id']);
  }

  /**
   * Records that lack a required field (one made required after they were stored, see x-required-from):
   * list columns plus `missing` (the fields they lack), paged and sorted like the list, in the actor's scope.
   */
  async incomplete(query: unknown, actor: Actor): Promise<{ content: (ApiRecord<T> & { missing: string[] })[]; totalElements: number }> {
    const m = this.module;
    const required = (m.schema.required ?? []).flatMap((n) => (m.field(n)?.column ? [m.field(n)!] : []));
    if (!required.length) return { content: [], totalElements: 0 };
    const blank = (f: FieldInfo) => (f.kind === 'array' ? sql<boolean>`(${sql.ref(f.column!)} IS NULL OR ${sql.ref(f.column!)} = '[]'::jsonb)` : sql<boolean>`${sql.ref(f.column!)} IS NULL`);
    const lacking = sql<boolean>`(${sql.join(required.map(blank), sql` OR `)})`;
    const base = applyScope(this.db.selectFrom(m.table).where(lacking), m, actor);
    const paging = parsePaging(query, m.sortable, m.defaultOrder);
    const fields = m.listFields.map((n) => m.field(n)!);
    const rows = await applyPaging(applySort(base.select(selection(columnsFor(m, [...fields, ...required]), LIST_SYSTEM)), paging.order), paging).execute();
    const { total } = (await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()) as { total: number };
    const records = await decorate(this.ctx, m, rows, fields, LIST_SYSTEM);
    const isBlank = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
    const content = records.map((r, i) => ({ ...r, missing: required.filter((f) => isBlank(rows[i][f.name])).map((f) => f.name) }));
    return { content: content as (ApiRecord<T> & { missing: string[] })[], totalElements: total };
  }

  /** The child modules (x-children) with their record services. */
  childServices(): { link: ChildLink; service: RecordService }[] {
    return this.module.children.map((link) => ({ link, service: this.serviceOf(link.module) }));
  }

  /** Ids of the records whose `foreignKey` names one of these parents, by parent then id (exports). */
  async idsOfChildren(foreignKey: string, parentIds: number[]): Promise<number[]> {
    const column = this.module.field(foreignKey)!.column!;
    const ids: number[] = [];
    for (let start = 0; start < parentIds.length; start += 1000) {
      const rows = await this.db.selectFrom(this.module.table).select('id').where(column, 'in', parentIds.slice(start, start + 1000)).orderBy(column).orderBy('id').execute();
      rows.forEach((r: { id: number }) => ids.push(r.id));
    }
    return ids;
  }

  /** The scope condition for other queries over this module (children lists, pickers): what the actor may read. */
  scopeCondition(actor: Actor) {
    return scopeCondition(this.module, actor, 'read');
  }

  /** The scope of a picker (id and name): none when the name is public to every caller (x-scope-self). */
  pickerScopeCondition(actor: Actor) {
    const m = this.module;
    if (m.selfScope && m.nameField && m.selfScope.public.has(m.nameField.name)) return undefined;
    return this.scopeCondition(actor);
  }
}

/**
 * The rows of an import, batch by batch: which sheets go to which module, cells → values, the existing
 * record each row names (its 记录ID, else an x-unique key), validation with every problem of every row,
 * and the writes of the good rows (one at a time when a batch is refused after validation).
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin } from '../../shared/constants.js';
import type { ImportRowError } from '../../shared/module-schema/api.js';
import { rawText, type SheetInfo, type StreamedTable, type TableRow, type XlsxFile } from '../core/xlsx-read.js';
import type { ImportUpload } from '../core/xlsx-upload.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { isMasked, sensitiveFields } from './sensitive.js';
import { RECORD_ID_COLUMN, childSheetName, importFields, normaliseHeader, parseCell, type CellLookups } from './cells.js';
import type { RuntimeContext } from './context.js';
import { selection } from './decorate.js';
import type { Actor } from './hooks.js';
import { ALL_SYSTEM_SELECT } from './list.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import { idIn } from './query.js';
import type { PreparedWrite, RecordService } from './records.js';
import { outOfScope } from './scope.js';
import { dictSnapshot, type DictSnapshot } from './trail.js';
import { findByKeys, keyOf, uniqueMessage, validateCandidates, type Candidate } from './validate.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */

/** The 记录ID column as rows are keyed (no field of a module may be named `id`). */
const ID_KEY = 'id';
const ID_FIELD = { name: ID_KEY, title: RECORD_ID_COLUMN } as FieldInfo;

/** A 记录ID cell: a positive whole number, or nothing (an empty cell: a new record). */
function recordIdOf(raw: unknown, bad: () => void): number | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  const id = typeof raw === 'number' ? raw : Number(rawText(raw));
  if (Number.isSafeInteger(id) && id > 0) return id;
  bad();
  return undefined;
}

/** A sheet's columns are found by the fields' titles (or names), and the 记录ID an export adds last. */
function headerMap(fields: FieldInfo[]): Map<string, FieldInfo> {
  const byHeader = new Map<string, FieldInfo>();
  for (const f of fields) {
    byHeader.set(normaliseHeader(f.title), f);
    byHeader.set(f.name, f);
  }
  byHeader.set(normaliseHeader(RECORD_ID_COLUMN), ID_FIELD);
  return byHeader;
}

/** One sheet of an import: the module its rows go to, and the look-ups read once for all its batches. */
export interface SheetPlan {
  m: RuntimeModule;
  service: RecordService;
  sheet: SheetInfo;
  byHeader: Map<string, FieldInfo>;
  /** A child sheet's name, which marks its rows' errors. */
  sheetName?: string;
  /** Dictionary labels (label → value) and the snapshot the trail records, read before any transaction. */
  dictValues?: Map<string, Map<string, string>>;
  dicts?: DictSnapshot;
}

/** A sheet being read in one pass. */
export interface SheetRun {
  plan: SheetPlan;
  table: StreamedTable<FieldInfo>;
  /** Per x-unique set, the keys of the rows read so far: a later row repeating one is refused, as within a batch. */
  seen: Set<string>[];
}

/** A batch of rows prepared: their problems so far, and how to write each good row. */
export interface PreparedBatch {
  rows: TableRow[];
  problems: Map<number, ImportRowError[]>;
  addProblem: (index: number, column: string, message: string) => void;
  writeOf: (index: number) => PreparedWrite;
  /** Rows without problems (asked again after writes refused some). */
  good: () => number[];
}

/** The sheets of an import: the first visible one for the module, then its children's (x-children) by name. */
export function planSheets(m: RuntimeModule, records: (module: string) => RecordService, book: XlsxFile): SheetPlan[] {
  const main = book.firstVisibleSheet();
  if (!main) return [];
  const plans: SheetPlan[] = [{ m, service: records(m.id), sheet: main, byHeader: headerMap(importFields(m)) }];
  for (const { link, service } of records(m.id).childServices()) {
    const name = childSheetName(link, service.module);
    const sheet = book.sheets.find((s) => s.name === name && s !== main && !s.hidden);
    if (sheet) plans.push({ m: service.module, service, sheet, byHeader: headerMap(importFields(service.module)), sheetName: name });
  }
  return plans;
}


/** Opens a sheet for one pass; undefined when it has no title row. */
export async function openSheet(ctx: RuntimeContext, plan: SheetPlan, upload: ImportUpload): Promise<SheetRun | undefined> {
  const table = await upload.book!.openTable(plan.sheet, plan.byHeader, upload.maxRows);
  if (!table) return undefined;
  if (!plan.dictValues) {
    plan.dictValues = new Map();
    for (const f of table.columns.values()) {
      if (f.dict && !plan.dictValues.has(f.dict)) plan.dictValues.set(f.dict, new Map((await ctx.dicts.entries(f.dict)).map((e) => [e.label, e.value])));
    }
    plan.dicts = await dictSnapshot(ctx, plan.m);
  }
  return { plan, table, seen: plan.m.uniqueSets.map(() => new Set<string>()) };
}


/**
 * One batch of a sheet: cells → values, the existing record each row names (its 记录ID, else its first
 * filled-in x-unique key), validation, and the writes of the good rows. Every look-up goes through `db`
 * (the transaction of mode `all`: on the embedded database a query outside it would wait forever).
 */
export async function prepareBatch(ctx: RuntimeContext, run: SheetRun, rows: TableRow[], actor: Actor, db: Kysely<DB>): Promise<PreparedBatch> {
  const { m, service, sheetName } = run.plan;
  const problems = new Map<number, ImportRowError[]>();
  const addProblem = (index: number, column: string, message: string) =>
    problems.set(index, [...(problems.get(index) ?? []), { row: rows[index].row, column, message, ...(sheetName && { sheet: sheetName }) }]);

  // Cells → values.
  const lookups: CellLookups = { dictValues: run.plan.dictValues!, refIds: await refLookups(ctx, run, rows, db) };
  const ids: (number | undefined)[] = [];
  const sensitive = new Set(sensitiveFields(m));
  const values = rows.map((r, i) => {
    const record: Record<string, unknown> = {};
    for (const [col, f] of run.table.columns) {
      const raw = r.cells[col - 1];
      if (f === ID_FIELD) {
        ids[i] = recordIdOf(raw, () => addProblem(i, RECORD_ID_COLUMN, `${RECORD_ID_COLUMN}“${rawText(raw)}”不正确`));
        continue;
      }
      // A masked identity-card number (an exported file) stands for the stored one: no value.
      if (sensitive.has(f.name) && isMasked(rawText(raw))) continue;
      const result = parseCell(f, raw, lookups);
      if ('error' in result) addProblem(i, f.title, result.error);
      // An empty cell gives no value: a new record takes the default, an updated one keeps its value.
      else if (result.value !== null) record[f.name] = result.value;
    }
    return record;
  });

  // A row carrying a record id (an exported file) updates that record; other rows matching an existing
  // record by an x-unique key update it too.
  const matches = await matchExisting(ctx, m, values, db);
  const currents = await rowsByIds(m, [...new Set([...ids, ...matches].filter((x): x is number => x !== undefined))], db);
  ids.forEach((id, i) => {
    if (id === undefined) return;
    if (currents.has(id)) matches[i] = id;
    else addProblem(i, RECORD_ID_COLUMN, `${RECORD_ID_COLUMN}“${id}”的${m.title}记录不存在`);
  });
  const candidates: Candidate[] = values.map((v, i) => {
    const current = matches[i] !== undefined ? currents.get(matches[i]!) : undefined;
    return current ? { values: service.mergeForUpdate(current, v), currentId: current.id as number, stored: current } : { values: service.newRecord(v, actor) };
  });
  const results = await validateCandidates(ctx, m, candidates, actor, db);
  const updatedOutside = await outOfScope(ctx, m, candidates.map((c) => (c.currentId ? currents.get(c.currentId)! : {})), actor, db);
  results.forEach((r, i) => {
    const parseFailed = new Set((problems.get(i) ?? []).map((p) => p.column));
    for (const e of r.errors) {
      const title = m.field(e.field)?.title ?? e.field;
      if (!parseFailed.has(title)) addProblem(i, title, e.message);
    }
    if (r.outOfScope || (candidates[i].currentId && updatedOutside[i])) {
      addProblem(i, (m.scopeField ?? m.scopeVia?.foreignKey)?.title ?? '', '无权导入该组织的数据');
    }
  });
  uniqueAcrossBatches(run, candidates, problems, addProblem);

  const writeOf = (i: number): PreparedWrite => {
    const c = candidates[i];
    return c.currentId
      ? { values: c.values, current: currents.get(c.currentId)!, origin: ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE }
      : { values: c.values, origin: ChangeRecordOrigin.SYSTEM_IMPORT };
  };
  const good = () => rows.map((_r, i) => i).filter((i) => !problems.has(i));
  return { rows, problems, addProblem, writeOf, good };
}

/**
 * validateCandidates finds repeated x-unique values within a batch; a value repeating one of an earlier
 * batch is refused the same way (only the keys are kept, not the rows).
 */
function uniqueAcrossBatches(run: SheetRun, candidates: Candidate[], problems: Map<number, ImportRowError[]>, addProblem: PreparedBatch['addProblem']) {
  run.plan.m.uniqueSets.forEach((set, k) => {
    const seen = run.seen[k];
    const titles = new Set(set.map((f) => f.title));
    const keys: string[] = [];
    candidates.forEach((c, i) => {
      const key = set.map((f) => c.values[f.name]);
      if (key.some((v) => v === null || v === undefined)) return;
      if ((problems.get(i) ?? []).some((p) => titles.has(p.column))) return;
      if (seen.has(keyOf(key))) addProblem(i, set[0].title, uniqueMessage(set, key));
      else keys.push(keyOf(key));
    });
    for (const key of keys) seen.add(key);
  });
}

/** The reference names a batch uses → ids. */
async function refLookups(ctx: RuntimeContext, run: SheetRun, rows: TableRow[], db: Kysely<DB>): Promise<CellLookups['refIds']> {
  const refIds: CellLookups['refIds'] = new Map();
  for (const [col, f] of run.table.columns) {
    if (!f.ref) continue;
    const names = [...new Set(rows.flatMap((r) => rawText(r.cells[col - 1]).split(/[、,，;；\n]/).map((s) => s.trim())).filter((s) => s && !/^\d+$/.test(s)))];
    refIds.set(f.ref, new Map([...(refIds.get(f.ref) ?? []), ...(await ctx.refIdsByName(f.ref, names, db))]));
  }
  return refIds;
}

/** Stored rows by id, read through `db` (RecordService.rowsByIds reads outside any transaction). */
async function rowsByIds(m: RuntimeModule, ids: number[], db: Kysely<DB>): Promise<Map<number, Record<string, unknown>>> {
  if (!ids.length) return new Map();
  const rows = await (db as Kysely<any>).selectFrom(m.table).select(selection(m.columns, ALL_SYSTEM_SELECT)).where(idIn(ids)).execute();
  return new Map(rows.map((r: Record<string, unknown>) => [r.id as number, r]));
}

/** The id of the existing record each row names by the first x-unique key it fills in, if any. */
async function matchExisting(ctx: RuntimeContext, m: RuntimeModule, values: Record<string, unknown>[], db: Kysely<DB>): Promise<(number | undefined)[]> {
  const matches: (number | undefined)[] = values.map(() => undefined);
  for (const set of m.uniqueSets) {
    const pending = values.map((v, i) => ({ i, key: set.map((f) => v[f.name]) })).filter((x) => matches[x.i] === undefined && x.key.every((k) => k !== null && k !== undefined));
    if (!pending.length) continue;
    const found = await findByKeys(ctx, m, set, pending.map((p) => p.key), db);
    for (const p of pending) matches[p.i] = found.get(keyOf(p.key));
  }
  return matches;
}

/** Writes rows one at a time, each undone alone when a hook or the database refuses it; answers how many were written. */
export async function oneByOne(log: FastifyBaseLogger, trx: Kysely<DB>, plan: SheetPlan, batch: PreparedBatch, indices: number[], actor: Actor): Promise<number> {
  let done = 0;
  for (const i of indices) {
    await sql`SAVEPOINT import_row`.execute(trx);
    try {
      await plan.service.writeMany(trx, [batch.writeOf(i)], actor, plan.dicts!);
      await sql`RELEASE SAVEPOINT import_row`.execute(trx);
      done += 1;
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT import_row`.execute(trx);
      if (!(error instanceof HttpError)) log.error({ err: error, module: plan.m.id, row: batch.rows[i].row }, 'import row failed');
      batch.addProblem(i, columnOf(plan.m, error), messageOf(error));
    }
  }
  return done;
}


function messageOf(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  return '保存失败';
}

function columnOf(m: RuntimeModule, error: unknown): string {
  const field = error instanceof HttpError ? (error.details?.errors as { field?: string }[] | undefined)?.[0]?.field : undefined;
  return (field && m.field(field)?.title) || '';
}

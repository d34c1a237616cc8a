import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin, TaskStatus, TaskStatusLabel } from '../../shared/constants.js';
import type { ImportMode, ImportRowError, ImportStatus } from '../../shared/module-schema/api.js';
import type { SessionUser } from '../core/auth/session-user.js';
import { commitStreamedRow, sendXlsxBuffer } from '../core/xlsx.js';
import { rawText, UNREADABLE_MESSAGE, XlsxUnreadable, type SheetInfo, type StreamedTable, type TableRow, type XlsxFile } from '../core/xlsx-read.js';
import type { ImportUpload } from '../core/xlsx-upload.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { isMasked, sensitiveFields } from './sensitive.js';
import { ERROR_COLUMN, RECORD_ID_COLUMN, childSheetName, importFields, normaliseHeader, parseCell, type CellLookups } from './cells.js';
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

// The upload is read in core (the user import reads it too); the routes of modules take it from here.
export { IMPORT_MAX_BYTES, readImportUpload, registerImportMultipart, type ImportUpload } from '../core/xlsx-upload.js';
export type { ImportMode };

/** Rows per batch read, validated and (mode `partial`) committed in one transaction, and per progress update. */
export const IMPORT_BATCH = 1000;
/** Row problems listed in the job's answer; the error report holds them all. */
export const IMPORT_LISTED_ERRORS = 1000;
/** What a job interrupted by a stop of the server says (it is marked failed at the next start). */
export const INTERRUPTED_MESSAGE = '服务重启，导入已中断，请重新导入';
/** A running job notes its progress at least this often (every batch, and on a timer)… */
const HEARTBEAT_MS = 15_000;
/** …so one silent for this long was left by a stopped server. */
export const INTERRUPTED_AFTER_MS = 120_000;

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
interface SheetPlan {
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
interface SheetRun {
  plan: SheetPlan;
  table: StreamedTable<FieldInfo>;
  /** Per x-unique set, the keys of the rows read so far: a later row repeating one is refused, as within a batch. */
  seen: Set<string>[];
}

/** A batch of rows prepared: their problems so far, and how to write each good row. */
interface PreparedBatch {
  rows: TableRow[];
  problems: Map<number, ImportRowError[]>;
  addProblem: (index: number, column: string, message: string) => void;
  writeOf: (index: number) => PreparedWrite;
  /** Rows without problems (asked again after writes refused some). */
  good: () => number[];
}

/**
 * The bad rows as they were typed, with their problems in an extra column, a sheet per imported sheet
 * with bad rows; written as the batches go (streaming writer), so only the compressed file is kept.
 */
class ErrorReport {
  private readonly chunks: Buffer[] = [];
  private readonly stream = new PassThrough();
  private readonly book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: this.stream, useStyles: true, useSharedStrings: false });
  private sheet?: { run: SheetRun; ws: ExcelJS.Worksheet };
  private rows = 0;

  constructor() {
    this.stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
  }

  async add(run: SheetRun, batch: PreparedBatch): Promise<void> {
    if (!batch.problems.size) return;
    if (this.sheet?.run !== run) {
      this.sheet?.ws.commit();
      const ws = this.book.addWorksheet(`${run.plan.m.title}导入错误`.slice(0, 31));
      const { headers } = run.table;
      ws.columns = [...headers.map(() => ({ width: 16 })), { width: 60 }];
      const header = ws.addRow([...headers, ERROR_COLUMN]);
      header.font = { bold: true };
      header.getCell(headers.length + 1).font = { bold: true, color: { argb: 'FFC00000' } };
      header.commit();
      this.sheet = { run, ws };
    }
    for (const i of [...batch.problems.keys()].sort((a, b) => a - b)) {
      const text = batch.problems.get(i)!.map((p) => `第${p.row}行${p.column ? `【${p.column}】` : ''}${p.message}`).join('；');
      await commitStreamedRow(this.sheet.ws, [...(batch.rows[i].cells as ExcelJS.CellValue[]), text]);
      this.rows += 1;
    }
  }

  /** The finished workbook; null when no row was bad. */
  async finish(): Promise<Buffer | null> {
    if (!this.rows) return null;
    this.sheet?.ws.commit();
    await this.book.commit();
    return Buffer.concat(this.chunks);
  }
}

/** What one pass over the file found: rows read, rows with problems, the first problems, the report. */
class PassResult {
  rows = 0;
  failed = 0;
  imported = 0;
  readonly errors: ImportRowError[] = [];
  readonly report = new ErrorReport();

  async add(run: SheetRun, batch: PreparedBatch): Promise<void> {
    this.rows += batch.rows.length;
    this.failed += batch.problems.size;
    for (const i of [...batch.problems.keys()].sort((a, b) => a - b)) {
      for (const p of batch.problems.get(i)!) if (this.errors.length < IMPORT_LISTED_ERRORS) this.errors.push(p);
    }
    await this.report.add(run, batch);
  }
}

/** Thrown inside the single transaction of mode `all` to undo it. */
class Undo extends Error {}

/**
 * Spreadsheet imports as jobs stored in `import_jobs`: the request checks the file (zip bombs, the row
 * limit: 400 at once) and answers a job id; the job reads the sheets as streams, batch by batch (memory
 * stays flat, and the server answers between batches), validates every row (all problems of all rows
 * reported), writes the good rows through the records' normal write path (hooks and trail included;
 * origin SYSTEM_IMPORT, or SYSTEM_IMPORT_UPDATE when a row matches a record by its 记录ID or an x-unique
 * key), and offers the bad rows back as a workbook with an error column.
 * Mode `partial` commits the good rows batch by batch; mode `all` reads the file twice: first validating
 * only, then (no problem found) writing everything in one transaction.
 */
export class ImportJobs {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly ctx: RuntimeContext,
    private readonly records: (module: string) => RecordService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Marks failed the jobs a stopped server left running (called at start). The embedded database has one
   * server: every unfinished job is such a job. On PostgreSQL several app servers share the table: only
   * jobs silent for longer than INTERRUPTED_AFTER_MS are (a running job notes its progress far more often);
   * status() marks the others when they fall silent.
   */
  async failInterrupted(singleServer: boolean): Promise<number> {
    let q = this.ctx.db
      .updateTable('import_jobs')
      .set({ status: TaskStatus.ERROR, message: INTERRUPTED_MESSAGE, finished_at: new Date() })
      .where('status', 'in', [TaskStatus.PREPARE, TaskStatus.START])
      .where('finished_at', 'is', null);
    if (!singleServer) q = q.where(sql<boolean>`coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ${INTERRUPTED_AFTER_MS / 1000})`);
    const rows = await q.returning('id').execute();
    if (rows.length) this.log.warn({ jobs: rows.map((r) => r.id) }, 'import jobs interrupted by a stop of the server marked failed');
    return rows.length;
  }

  async start(m: RuntimeModule, upload: ImportUpload, actor: Actor): Promise<number> {
    const plans = upload.book ? this.plan(m, upload.book) : [];
    // Over the row limit: refused now, before a job exists (counted from the XML; read only near the limit).
    for (const p of plans) await upload.book!.assertRowLimit(p.sheet, p.byHeader, upload.maxRows);
    const job = await this.ctx.db
      .insertInto('import_jobs')
      .values({ module: m.id, mode: upload.mode, status: TaskStatus.PREPARE, file_name: upload.fileName, user_id: actor.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run: Promise<void> = this.run(job.id, upload, plans, actor)
      .catch(async (error: unknown) => {
        this.log.error({ err: error, module: m.id, job: job.id }, 'import failed');
        await this.finish(job.id, { status: TaskStatus.ERROR, message: '导入失败：服务器内部错误' }).catch(() => undefined);
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return job.id;
  }

  /** Waits for the jobs in flight (the app is closing). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** The sheets of an import: the first visible one for the module, then its children's (x-children) by name. */
  private plan(m: RuntimeModule, book: XlsxFile): SheetPlan[] {
    const main = book.firstVisibleSheet();
    if (!main) return [];
    const plans: SheetPlan[] = [{ m, service: this.records(m.id), sheet: main, byHeader: headerMap(importFields(m)) }];
    for (const { link, service } of this.records(m.id).childServices()) {
      const name = childSheetName(link, service.module);
      const sheet = book.sheets.find((s) => s.name === name && s !== main && !s.hidden);
      if (sheet) plans.push({ m: service.module, service, sheet, byHeader: headerMap(importFields(service.module)), sheetName: name });
    }
    return plans;
  }

  private async job(m: RuntimeModule, jobId: number, user: SessionUser) {
    const job = Number.isSafeInteger(jobId)
      ? await this.ctx.db.selectFrom('import_jobs').selectAll().where('id', '=', jobId).where('module', '=', m.id).executeTakeFirst()
      : undefined;
    // A job is its starter's (administrators see all).
    if (!job || (job.user_id !== user.id && !user.isSuper)) throw new HttpError(404, '导入任务不存在');
    return job;
  }

  async status(m: RuntimeModule, jobId: number, user: SessionUser): Promise<ImportStatus> {
    let job = await this.job(m, jobId, user);
    const silentSince = (job.heartbeat_at ?? job.created_at).getTime();
    if (job.finished_at === null && job.status !== TaskStatus.SUCCESS && job.status !== TaskStatus.ERROR && Date.now() - silentSince > INTERRUPTED_AFTER_MS) {
      // Silent for long: its server stopped (another app server, or this one before a quick restart).
      await this.ctx.db
        .updateTable('import_jobs')
        .set({ status: TaskStatus.ERROR, message: INTERRUPTED_MESSAGE, finished_at: new Date() })
        .where('id', '=', job.id)
        .where('finished_at', 'is', null)
        .where(sql<boolean>`coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ${INTERRUPTED_AFTER_MS / 1000})`)
        .execute();
      job = await this.job(m, jobId, user);
    }
    return {
      id: job.id,
      status: job.status,
      statusLabel: TaskStatusLabel[job.status as 1 | 2 | 3 | 4] ?? '',
      mode: job.mode,
      fileName: job.file_name,
      total: job.total,
      processed: job.processed,
      imported: job.imported,
      errors: job.errors,
      message: job.message,
      reportUrl: job.report ? `/api/m/${m.id}/import/${job.id}/report` : null,
    };
  }

  async sendReport(reply: FastifyReply, m: RuntimeModule, jobId: number, user: SessionUser) {
    const job = await this.job(m, jobId, user);
    if (!job.report) throw new HttpError(404, '该导入任务没有错误报告');
    return sendXlsxBuffer(reply, Buffer.from(job.report), `${m.title}导入错误报告.xlsx`);
  }

  private progress(jobId: number, set: { status?: number; total?: number; processed?: number; imported?: number }) {
    return this.ctx.db
      .updateTable('import_jobs')
      .set({ ...set, heartbeat_at: sql<Date>`now()` })
      .where('id', '=', jobId)
      .execute();
  }

  private finish(jobId: number, set: { status: number; message: string; total?: number; processed?: number; imported?: number; errors?: ImportRowError[]; report?: Buffer | null }) {
    const { errors, ...rest } = set;
    return this.ctx.db
      .updateTable('import_jobs')
      .set({ ...rest, ...(errors && { errors: JSON.stringify(errors) }), finished_at: new Date() })
      .where('id', '=', jobId)
      .execute();
  }

  private async finishWithErrors(jobId: number, result: PassResult, message: string, status: number = TaskStatus.ERROR) {
    const report = await result.report.finish();
    await this.finish(jobId, { status, message, total: result.rows, processed: result.rows, imported: result.imported, errors: result.errors, report });
  }

  private async run(jobId: number, upload: ImportUpload, plans: SheetPlan[], actor: Actor): Promise<void> {
    await this.progress(jobId, { status: TaskStatus.START });
    if (!upload.book) {
      await this.finish(jobId, { status: TaskStatus.ERROR, message: UNREADABLE_MESSAGE });
      return;
    }
    // Until the sheets are read, the rows holding values stand for the total (less a title row each).
    await this.progress(jobId, { total: plans.reduce((n, p) => n + Math.max(0, p.sheet.valueRows - 1), 0) });
    const result = new PassResult();
    // Alive while a long step runs (mode `all` writes in one transaction, without progress notes).
    const heartbeat = setInterval(() => void this.progress(jobId, {}).catch(() => undefined), HEARTBEAT_MS).unref();
    try {
      if (upload.mode === 'all') await this.runAll(jobId, upload, plans, actor, result);
      else await this.runPartial(jobId, upload, plans, actor, result);
    } catch (error) {
      // The file turned out unreadable, or over the limit, while it was read: say so, with what was done.
      if (!(error instanceof XlsxUnreadable || error instanceof HttpError)) throw error;
      const message = error instanceof HttpError ? error.message : UNREADABLE_MESSAGE;
      await this.finish(jobId, { status: TaskStatus.ERROR, message: result.imported ? `${message}（已导入${result.imported}行）` : message, processed: result.rows, imported: result.imported });
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Opens a sheet for one pass; undefined when it has no title row. */
  private async open(plan: SheetPlan, upload: ImportUpload): Promise<SheetRun | undefined> {
    const table = await upload.book!.openTable(plan.sheet, plan.byHeader, upload.maxRows);
    if (!table) return undefined;
    if (!plan.dictValues) {
      plan.dictValues = new Map();
      for (const f of table.columns.values()) {
        if (f.dict && !plan.dictValues.has(f.dict)) plan.dictValues.set(f.dict, new Map((await this.ctx.dicts.entries(f.dict)).map((e) => [e.label, e.value])));
      }
      plan.dicts = await dictSnapshot(this.ctx, plan.m);
    }
    return { plan, table, seen: plan.m.uniqueSets.map(() => new Set<string>()) };
  }

  private async noTitleRow(jobId: number) {
    await this.finish(jobId, { status: TaskStatus.ERROR, message: '未找到标题行，请使用导入模板填写' });
  }

  /** Mode `partial`: each batch validated and its good rows committed, one transaction per batch. */
  private async runPartial(jobId: number, upload: ImportUpload, plans: SheetPlan[], actor: Actor, result: PassResult): Promise<void> {
    for (const [k, plan] of plans.entries()) {
      const run = await this.open(plan, upload);
      if (!run) {
        if (k === 0) return this.noTitleRow(jobId);
        continue;
      }
      for await (const rows of run.table.batches(IMPORT_BATCH)) {
        const batch = await this.prepare(run, rows, actor, this.ctx.db);
        const good = batch.good();
        if (good.length) {
          await this.ctx.beforeTransaction();
          try {
            await this.ctx.db.transaction().execute((trx) => plan.service.writeMany(trx, good.map(batch.writeOf), actor, plan.dicts!));
            result.imported += good.length;
          } catch {
            // Some row was refused after validation (a hook, a race on a unique key): this batch again, row by row.
            result.imported += await this.ctx.db.transaction().execute((trx) => this.oneByOne(trx, plan, batch, good, actor));
          }
        }
        await result.add(run, batch);
        await this.progress(jobId, { processed: result.rows, imported: result.imported });
        await nextTurn();
      }
    }
    const message = result.failed ? `导入完成：成功${result.imported}行，失败${result.failed}行` : `导入完成：成功${result.imported}行`;
    if (result.failed) await this.finishWithErrors(jobId, result, message, result.imported ? TaskStatus.SUCCESS : TaskStatus.ERROR);
    else await this.finish(jobId, { status: TaskStatus.SUCCESS, message, total: result.rows, processed: result.rows, imported: result.imported, errors: [] });
  }

  /**
   * Mode `all`: a first pass validates every row and writes nothing; when no row is bad, a second pass
   * prepares each batch again inside one transaction (so it sees the rows written before it) and writes
   * it. A row refused there (a hook, a concurrent write) undoes everything, and every such row is named.
   */
  private async runAll(jobId: number, upload: ImportUpload, plans: SheetPlan[], actor: Actor, first: PassResult): Promise<void> {
    for (const [k, plan] of plans.entries()) {
      const run = await this.open(plan, upload);
      if (!run) {
        if (k === 0) return this.noTitleRow(jobId);
        continue;
      }
      for await (const rows of run.table.batches(IMPORT_BATCH)) {
        await first.add(run, await this.prepare(run, rows, actor, this.ctx.db));
        await this.progress(jobId, { processed: first.rows });
        await nextTurn();
      }
    }
    if (first.failed) return this.finishWithErrors(jobId, first, `${first.failed}行数据有误，未导入任何数据`);

    const second = new PassResult();
    try {
      await this.ctx.beforeTransaction();
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const plan of plans) {
          const run = await this.open(plan, upload);
          if (!run) continue;
          for await (const rows of run.table.batches(IMPORT_BATCH)) {
            const batch = await this.prepare(run, rows, actor, trx);
            const good = batch.good();
            if (good.length) {
              await sql`SAVEPOINT import_batch`.execute(trx);
              try {
                await plan.service.writeMany(trx, good.map(batch.writeOf), actor, plan.dicts!);
                await sql`RELEASE SAVEPOINT import_batch`.execute(trx);
              } catch {
                await sql`ROLLBACK TO SAVEPOINT import_batch`.execute(trx);
                await this.oneByOne(trx, plan, batch, good, actor);
              }
            }
            await second.add(run, batch);
          }
        }
        if (second.failed) throw new Undo();
      });
    } catch (error) {
      if (!(error instanceof Undo)) throw error;
      return this.finishWithErrors(jobId, second, `${second.failed}行数据有误，未导入任何数据`);
    }
    await this.finish(jobId, { status: TaskStatus.SUCCESS, message: `导入完成：成功${second.rows}行`, total: second.rows, processed: second.rows, imported: second.rows, errors: [] });
  }

  /**
   * One batch of a sheet: cells → values, the existing record each row names (its 记录ID, else its first
   * filled-in x-unique key), validation, and the writes of the good rows. Every look-up goes through `db`
   * (the transaction of mode `all`: on the embedded database a query outside it would wait forever).
   */
  private async prepare(run: SheetRun, rows: TableRow[], actor: Actor, db: Kysely<DB>): Promise<PreparedBatch> {
    const { m, service, sheetName } = run.plan;
    const problems = new Map<number, ImportRowError[]>();
    const addProblem = (index: number, column: string, message: string) =>
      problems.set(index, [...(problems.get(index) ?? []), { row: rows[index].row, column, message, ...(sheetName && { sheet: sheetName }) }]);

    // Cells → values.
    const lookups: CellLookups = { dictValues: run.plan.dictValues!, refIds: await this.refLookups(run, rows, db) };
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
    const matches = await this.matchExisting(m, values, db);
    const currents = await this.rowsByIds(m, [...new Set([...ids, ...matches].filter((x): x is number => x !== undefined))], db);
    ids.forEach((id, i) => {
      if (id === undefined) return;
      if (currents.has(id)) matches[i] = id;
      else addProblem(i, RECORD_ID_COLUMN, `${RECORD_ID_COLUMN}“${id}”的${m.title}记录不存在`);
    });
    const candidates: Candidate[] = values.map((v, i) => {
      const current = matches[i] !== undefined ? currents.get(matches[i]!) : undefined;
      return current ? { values: service.mergeForUpdate(current, v), currentId: current.id as number, stored: current } : { values: service.newRecord(v, actor) };
    });
    const results = await validateCandidates(this.ctx, m, candidates, actor, db);
    const updatedOutside = await outOfScope(this.ctx, m, candidates.map((c) => (c.currentId ? currents.get(c.currentId)! : {})), actor, db);
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
    this.uniqueAcrossBatches(run, candidates, problems, addProblem);

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
  private uniqueAcrossBatches(run: SheetRun, candidates: Candidate[], problems: Map<number, ImportRowError[]>, addProblem: PreparedBatch['addProblem']) {
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

  /** Writes rows one at a time, each undone alone when a hook or the database refuses it; answers how many were written. */
  private async oneByOne(trx: Kysely<DB>, plan: SheetPlan, batch: PreparedBatch, indices: number[], actor: Actor): Promise<number> {
    let done = 0;
    for (const i of indices) {
      await sql`SAVEPOINT import_row`.execute(trx);
      try {
        await plan.service.writeMany(trx, [batch.writeOf(i)], actor, plan.dicts!);
        await sql`RELEASE SAVEPOINT import_row`.execute(trx);
        done += 1;
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT import_row`.execute(trx);
        if (!(error instanceof HttpError)) this.log.error({ err: error, module: plan.m.id, row: batch.rows[i].row }, 'import row failed');
        batch.addProblem(i, columnOf(plan.m, error), messageOf(error));
      }
    }
    return done;
  }

  /** The reference names a batch uses → ids. */
  private async refLookups(run: SheetRun, rows: TableRow[], db: Kysely<DB>): Promise<CellLookups['refIds']> {
    const refIds: CellLookups['refIds'] = new Map();
    for (const [col, f] of run.table.columns) {
      if (!f.ref) continue;
      const names = [...new Set(rows.flatMap((r) => rawText(r.cells[col - 1]).split(/[、,，;；\n]/).map((s) => s.trim())).filter((s) => s && !/^\d+$/.test(s)))];
      refIds.set(f.ref, new Map([...(refIds.get(f.ref) ?? []), ...(await this.ctx.refIdsByName(f.ref, names, db))]));
    }
    return refIds;
  }

  /** Stored rows by id, read through `db` (RecordService.rowsByIds reads outside any transaction). */
  private async rowsByIds(m: RuntimeModule, ids: number[], db: Kysely<DB>): Promise<Map<number, Record<string, unknown>>> {
    if (!ids.length) return new Map();
    const rows = await (db as Kysely<any>).selectFrom(m.table).select(selection(m.columns, ALL_SYSTEM_SELECT)).where(idIn(ids)).execute();
    return new Map(rows.map((r: Record<string, unknown>) => [r.id as number, r]));
  }

  /** The id of the existing record each row names by the first x-unique key it fills in, if any. */
  private async matchExisting(m: RuntimeModule, values: Record<string, unknown>[], db: Kysely<DB>): Promise<(number | undefined)[]> {
    const matches: (number | undefined)[] = values.map(() => undefined);
    for (const set of m.uniqueSets) {
      const pending = values.map((v, i) => ({ i, key: set.map((f) => v[f.name]) })).filter((x) => matches[x.i] === undefined && x.key.every((k) => k !== null && k !== undefined));
      if (!pending.length) continue;
      const found = await findByKeys(this.ctx, m, set, pending.map((p) => p.key), db);
      for (const p of pending) matches[p.i] = found.get(keyOf(p.key));
    }
    return matches;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  return '保存失败';
}

function columnOf(m: RuntimeModule, error: unknown): string {
  const field = error instanceof HttpError ? (error.details?.errors as { field?: string }[] | undefined)?.[0]?.field : undefined;
  return (field && m.field(field)?.title) || '';
}

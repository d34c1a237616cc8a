import multipart from '@fastify/multipart';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin, TaskStatus, TaskStatusLabel } from '../../shared/constants.js';
import type { SessionUser } from '../core/auth/session-user.js';
import { sendXlsx } from '../core/xlsx.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { ERROR_COLUMN, RECORD_ID_COLUMN, childSheetName, firstVisibleSheet, importFields, normaliseHeader, parseCell, rawText, readTable, type CellLookups } from './cells.js';
import type { RuntimeContext } from './context.js';
import type { Actor } from './hooks.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import type { PreparedWrite, RecordService } from './records.js';
import { outOfScope } from './scope.js';
import type { ImportMode, ImportRowError, ImportStatus } from '../../shared/module-schema/api.js';
import { dictSnapshot, type DictSnapshot } from './trail.js';
import { findByKeys, validateCandidates, type Candidate } from './validate.js';

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Rows per transaction in `partial` mode (and per progress update). */
export const IMPORT_BATCH = 1000;

export type { ImportMode };

/** Multipart parsing for a route plugin with import routes (once per plugin): one file of at most IMPORT_MAX_BYTES. */
export async function registerImportMultipart(app: FastifyInstance): Promise<void> {
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
}

export interface ImportUpload {
  buffer: Buffer;
  fileName: string;
  mode: ImportMode;
}

/** Reads the multipart import request: one .xlsx file and the mode (a form field or the query). */
export async function readImportUpload(req: FastifyRequest): Promise<ImportUpload> {
  if (!req.isMultipart()) throw new HttpError(400, '请选择要导入的文件', { errors: [{ field: 'file', message: '请选择要导入的 .xlsx 文件' }] });
  let file: { buffer: Buffer; fileName: string } | undefined;
  let mode = (req.query as { mode?: string }).mode;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'mode' && typeof part.value === 'string') mode = part.value;
      } else if (!file) {
        file = { buffer: await part.toBuffer(), fileName: part.filename ?? '' };
      } else part.file.resume();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `文件大小不能超过${IMPORT_MAX_BYTES / 1024 / 1024}MB`);
    throw new HttpError(400, '上传的内容不完整，请重试');
  }
  if (!file) throw new HttpError(400, '请选择要导入的文件', { errors: [{ field: 'file', message: '请选择要导入的 .xlsx 文件' }] });
  if (!/\.xlsx$/i.test(file.fileName)) throw new HttpError(400, '只能导入 .xlsx 文件', { errors: [{ field: 'file', message: '只能导入 .xlsx 文件（请使用导入模板）' }] });
  mode ??= 'partial';
  if (mode !== 'partial' && mode !== 'all') throw new HttpError(400, '导入方式不正确', { errors: [{ field: 'mode', message: '导入方式只能是 partial（导入正确的行）或 all（全部正确才导入）' }] });
  return { ...file, mode };
}

/** One data row of the sheet: its row number, raw cells by field, and every raw cell for the report. */
interface SheetRow {
  row: number;
  raw: Map<string, unknown>;
  cells: unknown[];
}

/** The 记录ID column as readSheet keys it (no field of a module may be named `id`). */
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

/** One sheet of an import, prepared: its rows' problems so far, and how to write each good row. */
interface PreparedSheet {
  m: RuntimeModule;
  parsed: ParsedSheet;
  service: RecordService;
  problems: Map<number, ImportRowError[]>;
  addProblem: (index: number, column: string, message: string) => void;
  writeOf: (index: number) => PreparedWrite;
  /** Rows without problems (asked again after writes refused some). */
  good: () => number[];
  dicts: DictSnapshot;
}

interface ParsedSheet {
  headers: string[];
  /** Sheet column (1-based) → field. */
  columns: Map<number, FieldInfo>;
  rows: SheetRow[];
}

/** The title row found by the fields' titles (or names); every non-empty row after it, cells keyed by field. */
function readSheet(sheet: ExcelJS.Worksheet, fields: FieldInfo[]): ParsedSheet | undefined {
  const byHeader = new Map<string, FieldInfo>();
  for (const f of fields) {
    byHeader.set(normaliseHeader(f.title), f);
    byHeader.set(f.name, f);
  }
  // An exported file's last column: the id of the record the row was exported from.
  byHeader.set(normaliseHeader(RECORD_ID_COLUMN), ID_FIELD);
  const table = readTable(sheet, byHeader);
  if (!table) return undefined;
  const rows = table.rows.map(({ row, cells }) => ({ row, cells, raw: new Map<string, unknown>([...table.columns].map(([col, f]) => [f.name, cells[col - 1]])) }));
  return { headers: table.headers, columns: table.columns, rows };
}

/**
 * Spreadsheet imports as jobs stored in `import_jobs`: the request answers a job id at once, the job
 * validates every row (all problems of all rows reported), writes the good rows through the records'
 * normal write path (hooks and trail included; origin SYSTEM_IMPORT, or SYSTEM_IMPORT_UPDATE when a row
 * matches a record by an x-unique key), and offers the bad rows back as a workbook with an error column.
 * Mode `partial` commits the good rows in transactions of IMPORT_BATCH rows; mode `all` imports nothing
 * unless every row is good, in one transaction.
 */
export class ImportJobs {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly ctx: RuntimeContext,
    private readonly records: (module: string) => RecordService,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(m: RuntimeModule, upload: ImportUpload, actor: Actor): Promise<number> {
    const job = await this.ctx.db
      .insertInto('import_jobs')
      .values({ module: m.id, mode: upload.mode, status: TaskStatus.PREPARE, file_name: upload.fileName, user_id: actor.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run: Promise<void> = this.run(job.id, m, upload, actor)
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

  private async job(m: RuntimeModule, jobId: number, user: SessionUser) {
    const job = Number.isSafeInteger(jobId)
      ? await this.ctx.db.selectFrom('import_jobs').selectAll().where('id', '=', jobId).where('module', '=', m.id).executeTakeFirst()
      : undefined;
    // A job is its starter's (administrators see all).
    if (!job || (job.user_id !== user.id && !user.isSuper)) throw new HttpError(404, '导入任务不存在');
    return job;
  }

  async status(m: RuntimeModule, jobId: number, user: SessionUser): Promise<ImportStatus> {
    const job = await this.job(m, jobId, user);
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
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(job.report as never);
    return sendXlsx(reply, book, `${m.title}导入错误报告.xlsx`);
  }

  private progress(jobId: number, set: { status?: number; total?: number; processed?: number; imported?: number }) {
    return this.ctx.db.updateTable('import_jobs').set(set).where('id', '=', jobId).execute();
  }

  private finish(jobId: number, set: { status: number; message: string; processed?: number; imported?: number; errors?: ImportRowError[]; report?: Buffer | null }) {
    const { errors, ...rest } = set;
    return this.ctx.db
      .updateTable('import_jobs')
      .set({ ...rest, ...(errors && { errors: JSON.stringify(errors) }), finished_at: new Date() })
      .where('id', '=', jobId)
      .execute();
  }

  private async run(jobId: number, m: RuntimeModule, upload: ImportUpload, actor: Actor): Promise<void> {
    await this.progress(jobId, { status: TaskStatus.START });
    const book = new ExcelJS.Workbook();
    try {
      await book.xlsx.load(upload.buffer as never);
    } catch {
      await this.finish(jobId, { status: TaskStatus.ERROR, message: '文件无法读取，请上传 .xlsx 格式的文件' });
      return;
    }
    const sheet = firstVisibleSheet(book);
    const parsed = sheet && readSheet(sheet, importFields(m));
    if (!parsed) {
      await this.finish(jobId, { status: TaskStatus.ERROR, message: '未找到标题行，请使用导入模板填写' });
      return;
    }
    // The module's rows, then its children's from the sheets an export gives them (x-children).
    const sheets = [await this.prepare(m, parsed, actor)];
    for (const { link, service } of this.records(m.id).childServices()) {
      const name = childSheetName(link, service.module);
      const childSheet = book.worksheets.find((w) => w.name === name && w !== sheet && w.state === 'visible');
      const childParsed = childSheet && readSheet(childSheet, importFields(service.module));
      if (childParsed) sheets.push(await this.prepare(service.module, childParsed, actor, name));
    }
    const total = sheets.reduce((n, x) => n + x.parsed.rows.length, 0);
    const failedRows = () => sheets.reduce((n, x) => n + x.problems.size, 0);
    await this.progress(jobId, { total });

    if (upload.mode === 'all' && failedRows()) {
      await this.finishWithErrors(jobId, sheets, 0, `${failedRows()}行数据有误，未导入任何数据`);
      return;
    }

    let imported = 0;
    if (upload.mode === 'all') {
      try {
        await this.ctx.db.transaction().execute(async (trx) => {
          for (const x of sheets) {
            const good = x.good();
            for (let start = 0; start < good.length; start += IMPORT_BATCH) {
              await x.service.writeMany(trx, good.slice(start, start + IMPORT_BATCH).map(x.writeOf), actor, x.dicts);
            }
          }
        });
        imported = total;
      } catch (error) {
        // Name the rows that were refused, then undo everything.
        const undo = new Error('undo');
        await this.ctx.db
          .transaction()
          .execute(async (trx) => {
            for (const x of sheets) await this.oneByOne(trx, x, x.good(), actor);
            throw undo;
          })
          .catch((e: unknown) => {
            if (e !== undo) throw e;
          });
        if (!failedRows()) throw error;
        await this.finishWithErrors(jobId, sheets, 0, `${failedRows()}行数据有误，未导入任何数据`);
        return;
      }
    } else {
      let processed = 0;
      for (const x of sheets) {
        const good = x.good();
        const rows = x.parsed.rows.length;
        for (let start = 0; start < rows; start += IMPORT_BATCH) {
          const batch = good.filter((i) => i >= start && i < start + IMPORT_BATCH);
          if (batch.length) {
            try {
              await this.ctx.db.transaction().execute((trx) => x.service.writeMany(trx, batch.map(x.writeOf), actor, x.dicts));
              imported += batch.length;
            } catch {
              // Some row was refused after validation (a hook, a race on a unique key): this batch again, row by row.
              imported += await this.ctx.db.transaction().execute((trx) => this.oneByOne(trx, x, batch, actor));
            }
          }
          await this.progress(jobId, { processed: processed + Math.min(start + IMPORT_BATCH, rows), imported });
        }
        processed += rows;
      }
    }
    const failed = failedRows();
    const message = failed ? `导入完成：成功${imported}行，失败${failed}行` : `导入完成：成功${imported}行`;
    if (failed) await this.finishWithErrors(jobId, sheets, imported, message, imported ? TaskStatus.SUCCESS : TaskStatus.ERROR);
    else await this.finish(jobId, { status: TaskStatus.SUCCESS, message, processed: total, imported, errors: [] });
  }

  /**
   * One sheet of a module: cells → values, the existing record each row names (its 记录ID, else its first
   * filled-in x-unique key), validation, and the writes of the good rows. `sheetName` marks a child sheet's errors.
   */
  private async prepare(m: RuntimeModule, parsed: ParsedSheet, actor: Actor, sheetName?: string): Promise<PreparedSheet> {
    const { rows } = parsed;
    const service = this.records(m.id);
    const problems = new Map<number, ImportRowError[]>();
    const addProblem = (index: number, column: string, message: string) =>
      problems.set(index, [...(problems.get(index) ?? []), { row: rows[index].row, column, message, ...(sheetName && { sheet: sheetName }) }]);

    // Cells → values.
    const lookups = await this.lookups(m, parsed);
    const ids: (number | undefined)[] = [];
    const values = rows.map((r, i) => {
      const record: Record<string, unknown> = {};
      for (const [name, raw] of r.raw) {
        if (name === ID_KEY) {
          ids[i] = recordIdOf(raw, () => addProblem(i, RECORD_ID_COLUMN, `${RECORD_ID_COLUMN}“${rawText(raw)}”不正确`));
          continue;
        }
        const f = m.field(name)!;
        const result = parseCell(f, raw, lookups);
        if ('error' in result) addProblem(i, f.title, result.error);
        // An empty cell gives no value: a new record takes the default, an updated one keeps its value.
        else if (result.value !== null) record[name] = result.value;
      }
      return record;
    });

    // A row carrying a record id (an exported file) updates that record; other rows matching an existing
    // record by an x-unique key update it too.
    const matches = await this.matchExisting(m, values);
    const currents = await service.rowsByIds([...new Set([...ids, ...matches].filter((x): x is number => x !== undefined))]);
    ids.forEach((id, i) => {
      if (id === undefined) return;
      if (currents.has(id)) matches[i] = id;
      else addProblem(i, RECORD_ID_COLUMN, `${RECORD_ID_COLUMN}“${id}”的${m.title}记录不存在`);
    });
    const candidates: Candidate[] = values.map((v, i) => {
      const current = matches[i] !== undefined ? currents.get(matches[i]!) : undefined;
      return current ? { values: service.mergeForUpdate(current, v), currentId: current.id as number, stored: current } : { values: service.newRecord(v, actor) };
    });
    const results = await validateCandidates(this.ctx, m, candidates, actor);
    const updatedOutside = await outOfScope(this.ctx, m, candidates.map((c) => (c.currentId ? currents.get(c.currentId)! : {})), actor.scope);
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

    const writeOf = (i: number): PreparedWrite => {
      const c = candidates[i];
      return c.currentId
        ? { values: c.values, current: currents.get(c.currentId)!, origin: ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE }
        : { values: c.values, origin: ChangeRecordOrigin.SYSTEM_IMPORT };
    };
    const good = () => rows.map((_r, i) => i).filter((i) => !problems.has(i));
    return { m, parsed, service, problems, addProblem, writeOf, good, dicts: await dictSnapshot(this.ctx, m) };
  }

  /** Writes rows one at a time, each undone alone when a hook or the database refuses it; answers how many were written. */
  private async oneByOne(trx: Kysely<DB>, x: PreparedSheet, indices: number[], actor: Actor): Promise<number> {
    let done = 0;
    for (const i of indices) {
      await sql`SAVEPOINT import_row`.execute(trx);
      try {
        await x.service.writeMany(trx, [x.writeOf(i)], actor, x.dicts);
        await sql`RELEASE SAVEPOINT import_row`.execute(trx);
        done += 1;
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT import_row`.execute(trx);
        if (!(error instanceof HttpError)) this.log.error({ err: error, module: x.m.id, row: x.parsed.rows[i].row }, 'import row failed');
        x.addProblem(i, columnOf(x.m, error), messageOf(error));
      }
    }
    return done;
  }

  /** Dictionary labels and the reference names the sheet uses, read once for the whole file. */
  private async lookups(m: RuntimeModule, sheet: ParsedSheet): Promise<CellLookups> {
    const lookups: CellLookups = { dictValues: new Map(), refIds: new Map() };
    for (const f of sheet.columns.values()) {
      if (f.dict && !lookups.dictValues.has(f.dict)) {
        lookups.dictValues.set(f.dict, new Map((await this.ctx.dicts.entries(f.dict)).map((e) => [e.label, e.value])));
      }
      if (f.ref) {
        const names = [...new Set(sheet.rows.flatMap((r) => rawText(r.raw.get(f.name)).split(/[、,，;；\n]/).map((s) => s.trim())).filter((s) => s && !/^\d+$/.test(s)))];
        const found = new Map<string, number[]>();
        for (let i = 0; i < names.length; i += IMPORT_BATCH) {
          for (const [k, v] of await this.ctx.refIdsByName(f.ref, names.slice(i, i + IMPORT_BATCH))) found.set(k, v);
        }
        lookups.refIds.set(f.ref, new Map([...(lookups.refIds.get(f.ref) ?? []), ...found]));
      }
    }
    return lookups;
  }

  /** The id of the existing record each row names by the first x-unique key it fills in, if any. */
  private async matchExisting(m: RuntimeModule, values: Record<string, unknown>[]): Promise<(number | undefined)[]> {
    const matches: (number | undefined)[] = values.map(() => undefined);
    for (const set of m.uniqueSets) {
      const pending = values.map((v, i) => ({ i, key: set.map((f) => v[f.name]) })).filter((x) => matches[x.i] === undefined && x.key.every((k) => k !== null && k !== undefined));
      if (!pending.length) continue;
      const found = await findByKeys(this.ctx, m, set, pending.map((p) => p.key));
      for (const p of pending) matches[p.i] = found.get(JSON.stringify(p.key.map(String)));
    }
    return matches;
  }

  private async finishWithErrors(jobId: number, sheets: PreparedSheet[], imported: number, message: string, status: number = TaskStatus.ERROR) {
    const errors = sheets.flatMap((x) => [...x.problems.keys()].sort((p, q) => p - q).flatMap((i) => x.problems.get(i)!));
    const report = await this.report(sheets);
    const processed = sheets.reduce((n, x) => n + x.parsed.rows.length, 0);
    await this.finish(jobId, { status, message, processed, imported, errors, report });
  }

  /** The bad rows as they were typed, with their problems in an extra column: a sheet per imported sheet with bad rows. */
  private async report(sheets: PreparedSheet[]): Promise<Buffer> {
    const book = new ExcelJS.Workbook();
    for (const { m, parsed, problems } of sheets) {
      if (!problems.size) continue;
      const ws = book.addWorksheet(`${m.title}导入错误`.slice(0, 31));
      const header = ws.addRow([...parsed.headers, ERROR_COLUMN]);
      header.font = { bold: true };
      header.getCell(parsed.headers.length + 1).font = { bold: true, color: { argb: 'FFC00000' } };
      for (const i of [...problems.keys()].sort((a, b) => a - b)) {
        const text = problems.get(i)!.map((p) => `第${p.row}行${p.column ? `【${p.column}】` : ''}${p.message}`).join('；');
        ws.addRow([...parsed.rows[i].cells.map((c) => (c instanceof Date ? c : (c as ExcelJS.CellValue))), text]);
      }
      ws.columns.forEach((c) => (c.width = 16));
      ws.getColumn(parsed.headers.length + 1).width = 60;
    }
    return Buffer.from(await book.xlsx.writeBuffer());
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

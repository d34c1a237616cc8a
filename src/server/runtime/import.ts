import multipart from '@fastify/multipart';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin, TaskStatus, TaskStatusLabel } from '../../shared/constants.js';
import type { SessionUser } from '../core/auth/session-user.js';
import { sendXlsx } from '../core/xlsx.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { ERROR_COLUMN, firstVisibleSheet, importFields, normaliseHeader, parseCell, rawText, readTable, type CellLookups } from './cells.js';
import type { RuntimeContext } from './context.js';
import type { Actor } from './hooks.js';
import type { FieldInfo, RuntimeModule } from './module.js';
import type { PreparedWrite, RecordService } from './records.js';
import { outOfScope } from './scope.js';
import type { ImportMode, ImportRowError, ImportStatus } from '../../shared/module-schema/api.js';
import { dictSnapshot } from './trail.js';
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
    const fields = importFields(m);
    const book = new ExcelJS.Workbook();
    try {
      await book.xlsx.load(upload.buffer as never);
    } catch {
      await this.finish(jobId, { status: TaskStatus.ERROR, message: '文件无法读取，请上传 .xlsx 格式的文件' });
      return;
    }
    const sheet = firstVisibleSheet(book);
    const parsed = sheet && readSheet(sheet, fields);
    if (!parsed) {
      await this.finish(jobId, { status: TaskStatus.ERROR, message: '未找到标题行，请使用导入模板填写' });
      return;
    }
    const { rows } = parsed;
    await this.progress(jobId, { total: rows.length });
    const service = this.records(m.id);
    const problems = new Map<number, ImportRowError[]>();
    const addProblem = (index: number, column: string, message: string) => problems.set(index, [...(problems.get(index) ?? []), { row: rows[index].row, column, message }]);

    // Cells → values.
    const lookups = await this.lookups(m, parsed);
    const values = rows.map((r, i) => {
      const record: Record<string, unknown> = {};
      for (const [name, raw] of r.raw) {
        const f = m.field(name)!;
        const result = parseCell(f, raw, lookups);
        if ('error' in result) addProblem(i, f.title, result.error);
        // An empty cell gives no value: a new record takes the default, an updated one keeps its value.
        else if (result.value !== null) record[name] = result.value;
      }
      return record;
    });

    // Rows that name an existing record by an x-unique key update it.
    const matches = await this.matchExisting(m, values);
    const currents = await service.rowsByIds([...new Set(matches.filter((x): x is number => x !== undefined))]);
    const candidates: Candidate[] = values.map((v, i) => {
      const current = matches[i] !== undefined ? currents.get(matches[i]!) : undefined;
      return current ? { values: service.mergeForUpdate(current, v), currentId: current.id as number } : { values: service.newRecord(v, actor) };
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

    if (upload.mode === 'all' && problems.size) {
      await this.finishWithErrors(jobId, m, parsed, problems, 0, `${problems.size}行数据有误，未导入任何数据`);
      return;
    }

    const dicts = await dictSnapshot(this.ctx, m);
    const writeOf = (i: number): PreparedWrite => {
      const c = candidates[i];
      return c.currentId
        ? { values: c.values, current: currents.get(c.currentId)!, origin: ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE }
        : { values: c.values, origin: ChangeRecordOrigin.SYSTEM_IMPORT };
    };
    /** Writes rows one at a time, each undone alone when a hook or the database refuses it; answers how many were written. */
    const oneByOne = async (trx: Kysely<DB>, indices: number[]): Promise<number> => {
      let done = 0;
      for (const i of indices) {
        await sql`SAVEPOINT import_row`.execute(trx);
        try {
          await service.writeMany(trx, [writeOf(i)], actor, dicts);
          await sql`RELEASE SAVEPOINT import_row`.execute(trx);
          done += 1;
        } catch (error) {
          await sql`ROLLBACK TO SAVEPOINT import_row`.execute(trx);
          if (!(error instanceof HttpError)) this.log.error({ err: error, module: m.id, row: rows[i].row }, 'import row failed');
          addProblem(i, columnOf(m, error), messageOf(error));
        }
      }
      return done;
    };
    const good = rows.map((_r, i) => i).filter((i) => !problems.has(i));
    let imported = 0;
    if (upload.mode === 'all') {
      try {
        await this.ctx.db.transaction().execute(async (trx) => {
          for (let start = 0; start < good.length; start += IMPORT_BATCH) {
            await service.writeMany(trx, good.slice(start, start + IMPORT_BATCH).map(writeOf), actor, dicts);
          }
        });
        imported = good.length;
      } catch (error) {
        // Name the rows that were refused, then undo everything.
        const undo = new Error('undo');
        await this.ctx.db
          .transaction()
          .execute(async (trx) => {
            await oneByOne(trx, good);
            throw undo;
          })
          .catch((e: unknown) => {
            if (e !== undo) throw e;
          });
        if (!problems.size) throw error;
        await this.finishWithErrors(jobId, m, parsed, problems, 0, `${problems.size}行数据有误，未导入任何数据`);
        return;
      }
    } else {
      for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
        const batch = good.filter((i) => i >= start && i < start + IMPORT_BATCH);
        if (batch.length) {
          try {
            await this.ctx.db.transaction().execute((trx) => service.writeMany(trx, batch.map(writeOf), actor, dicts));
            imported += batch.length;
          } catch {
            // Some row was refused after validation (a hook, a race on a unique key): this batch again, row by row.
            imported += await this.ctx.db.transaction().execute((trx) => oneByOne(trx, batch));
          }
        }
        await this.progress(jobId, { processed: Math.min(start + IMPORT_BATCH, rows.length), imported });
      }
    }
    const failed = problems.size;
    const message = failed ? `导入完成：成功${imported}行，失败${failed}行` : `导入完成：成功${imported}行`;
    if (failed) await this.finishWithErrors(jobId, m, parsed, problems, imported, message, imported ? TaskStatus.SUCCESS : TaskStatus.ERROR);
    else await this.finish(jobId, { status: TaskStatus.SUCCESS, message, processed: rows.length, imported, errors: [] });
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

  private async finishWithErrors(jobId: number, m: RuntimeModule, sheet: ParsedSheet, problems: Map<number, ImportRowError[]>, imported: number, message: string, status: number = TaskStatus.ERROR) {
    const errors = [...problems.keys()].sort((a, b) => a - b).flatMap((i) => problems.get(i)!);
    const report = await this.report(m, sheet, problems);
    await this.finish(jobId, { status, message, processed: sheet.rows.length, imported, errors, report });
  }

  /** The bad rows as they were typed, with their problems in an extra column. */
  private async report(m: RuntimeModule, sheet: ParsedSheet, problems: Map<number, ImportRowError[]>): Promise<Buffer> {
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet(`${m.title}导入错误`.slice(0, 31));
    const header = ws.addRow([...sheet.headers, ERROR_COLUMN]);
    header.font = { bold: true };
    header.getCell(sheet.headers.length + 1).font = { bold: true, color: { argb: 'FFC00000' } };
    for (const i of [...problems.keys()].sort((a, b) => a - b)) {
      const text = problems.get(i)!.map((p) => `第${p.row}行${p.column ? `【${p.column}】` : ''}${p.message}`).join('；');
      ws.addRow([...sheet.rows[i].cells.map((c) => (c instanceof Date ? c : (c as ExcelJS.CellValue))), text]);
    }
    ws.columns.forEach((c) => (c.width = 16));
    ws.getColumn(sheet.headers.length + 1).width = 60;
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

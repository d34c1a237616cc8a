import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { TaskStatusLabel } from '../../shared/constants.js';
import { taskStatusOf, type JobDownload } from '../../shared/jobs.js';
import type { ImportMode, ImportRowError, ImportStatus } from '../../shared/module-schema/api.js';
import type { SessionUser } from '../core/auth/session-user.js';
import { sendXlsxBuffer } from '../core/xlsx.js';
import { UNREADABLE_MESSAGE, XlsxUnreadable } from '../core/xlsx-read.js';
import type { ImportUpload } from '../core/xlsx-upload.js';
import { HttpError } from '../errors.js';
import type { RuntimeContext } from './context.js';
import type { Actor } from './hooks.js';
import { oneByOne, openSheet, planSheets, prepareBatch, type SheetPlan } from './import-rows.js';
import { PassResult } from './import-report.js';
import { JobFailure, type JobControl, type JobRunner } from './jobs.js';
import type { RuntimeModule } from './module.js';
import type { RecordService } from './records.js';

// The upload is read in core (the user import reads it too); the routes of modules take it from here.
export { IMPORT_MAX_BYTES, readImportUpload, registerImportMultipart, type ImportUpload } from '../core/xlsx-upload.js';
export { IMPORT_LISTED_ERRORS } from './import-report.js';
export type { ImportMode };

/** Rows per batch read, validated and (mode `partial`) committed in one transaction, and per progress update. */
export const IMPORT_BATCH = 1000;

/** What an import answers when it ends (the job's result): its counts, and its error report if any. */
interface ImportOutcome {
  message: string;
  imported: number;
  failed: number;
  download?: JobDownload;
}

/** Thrown inside the single transaction of mode `all` to undo it. */
class Undo extends Error {}

/**
 * Spreadsheet imports, run as jobs of the runtime's job runner (runtime/jobs.ts: state, progress,
 * heartbeat, a stopped server's job failed, a message with a link to the module's page at the end);
 * `import_jobs` keeps what an import adds: module, mode, file, rows imported, row errors, error report.
 * The request checks the file (zip bombs, the row limit: 400 at once) and answers the job's id; the job
 * reads the sheets as streams, batch by batch (memory stays flat, and the server answers between
 * batches), validates every row (all problems of all rows reported), writes the good rows through the
 * records' normal write path (hooks and trail included; origin SYSTEM_IMPORT, or SYSTEM_IMPORT_UPDATE
 * when a row matches a record by its 记录ID or an x-unique key), and offers the bad rows back as a
 * workbook with an error column.
 * Mode `partial` commits the good rows batch by batch; mode `all` reads the file twice: first validating
 * only, then (no problem found) writing everything in one transaction.
 */
export class ImportJobs {
  constructor(
    private readonly ctx: RuntimeContext,
    private readonly records: (module: string) => RecordService,
    private readonly jobs: JobRunner,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts an import; `page` is where its owner's message leads (the page shows the job and its error report). */
  async start(m: RuntimeModule, upload: ImportUpload, actor: Actor, page: string | null): Promise<number> {
    const plans = upload.book ? planSheets(m, this.records, upload.book) : [];
    // Over the row limit: refused now, before a job exists (counted from the XML; read only near the limit).
    for (const p of plans) await upload.book!.assertRowLimit(p.sheet, p.byHeader, upload.maxRows);
    const title = `导入${m.title}“${upload.fileName}”`;
    await this.ctx.beforeTransaction();
    const jobId = await this.ctx.db.transaction().execute(async (trx) => {
      const id = await this.jobs.create({ kind: 'import', title, ownerId: actor.id }, trx);
      await trx.insertInto('import_jobs').values({ job_id: id, module: m.id, mode: upload.mode, file_name: upload.fileName }).execute();
      return id;
    });
    this.jobs.launch<ImportOutcome>(jobId, {
      kind: 'import',
      title,
      ownerId: actor.id,
      run: (job) => this.run(job, m, upload, plans, actor),
      done: (r) => r.message,
      // The module's page shows the job (its result, the error report to download).
      link: (_r, id) => (page ? `${page}?job=${id}` : null),
    });
    return jobId;
  }

  /** An import of this module the user may see (its starter's; administrators see all). */
  private async detail(m: RuntimeModule, jobId: number, user: SessionUser) {
    const row = Number.isSafeInteger(jobId)
      ? await this.ctx.db.selectFrom('import_jobs').selectAll().where('job_id', '=', jobId).where('module', '=', m.id).executeTakeFirst()
      : undefined;
    const owner = row ? await this.jobs.ownerOf(jobId) : undefined;
    if (!row || (owner !== user.id && !user.isSuper)) throw new HttpError(404, '导入任务不存在');
    return row;
  }

  async status(m: RuntimeModule, jobId: number, user: SessionUser): Promise<ImportStatus> {
    await this.detail(m, jobId, user);
    // The job first: once it reads finished, the details it ended with are stored.
    const job = (await this.jobs.get(jobId))!;
    const row = await this.detail(m, jobId, user);
    const status = taskStatusOf(job);
    return {
      id: job.id,
      status,
      statusLabel: TaskStatusLabel[status as 1 | 2 | 3 | 4] ?? '',
      mode: row.mode,
      fileName: row.file_name,
      total: job.total,
      processed: job.progress,
      imported: row.imported,
      errors: row.errors,
      message: job.message,
      reportUrl: row.report ? reportUrl(m, job.id) : null,
    };
  }

  async sendReport(reply: FastifyReply, m: RuntimeModule, jobId: number, user: SessionUser) {
    const row = await this.detail(m, jobId, user);
    if (!row.report) throw new HttpError(404, '该导入任务没有错误报告');
    return sendXlsxBuffer(reply, Buffer.from(row.report), `${m.title}导入错误报告.xlsx`);
  }

  /** Rows imported so far (the job's progress counts rows read). */
  private async noteImported(jobId: number, imported: number) {
    await this.ctx.db.updateTable('import_jobs').set({ imported }).where('job_id', '=', jobId).execute();
  }

  /**
   * The end of an import: its counts, row errors and report stored; a success answers its outcome, a
   * failure throws it (the job fails with the message, and still links to the report).
   */
  private async end(job: JobControl, m: RuntimeModule, result: PassResult | undefined, message: string, success: boolean): Promise<ImportOutcome> {
    const report = result?.failed ? await result.report.finish() : null;
    const errors: ImportRowError[] = result?.errors ?? [];
    await this.ctx.db
      .updateTable('import_jobs')
      .set({ imported: result?.imported ?? 0, errors: JSON.stringify(errors), report })
      .where('job_id', '=', job.id)
      .execute();
    if (result) await job.progress(result.rows, result.rows);
    const outcome: ImportOutcome = {
      message,
      imported: result?.imported ?? 0,
      failed: result?.failed ?? 0,
      ...(report && { download: { url: reportUrl(m, job.id), name: `${m.title}导入错误报告.xlsx` } }),
    };
    if (!success) throw new JobFailure(message, outcome);
    return outcome;
  }

  private async run(job: JobControl, m: RuntimeModule, upload: ImportUpload, plans: SheetPlan[], actor: Actor): Promise<ImportOutcome> {
    if (!upload.book) return this.end(job, m, undefined, UNREADABLE_MESSAGE, false);
    // Until the sheets are read, the rows holding values stand for the total (less a title row each).
    await job.progress(0, plans.reduce((n, p) => n + Math.max(0, p.sheet.valueRows - 1), 0));
    const result = new PassResult();
    try {
      return upload.mode === 'all' ? await this.runAll(job, m, upload, plans, actor, result) : await this.runPartial(job, m, upload, plans, actor, result);
    } catch (error) {
      // The file turned out unreadable, or over the limit, while it was read: say so, with what was done.
      if (!(error instanceof XlsxUnreadable || error instanceof HttpError)) throw error;
      const message = error instanceof HttpError ? error.message : UNREADABLE_MESSAGE;
      await job.progress(result.rows);
      await this.noteImported(job.id, result.imported);
      throw new JobFailure(result.imported ? `${message}（已导入${result.imported}行）` : message, { message, imported: result.imported, failed: result.failed });
    }
  }

  private noTitleRow(job: JobControl, m: RuntimeModule) {
    return this.end(job, m, undefined, '未找到标题行，请使用导入模板填写', false);
  }

  /** Mode `partial`: each batch validated and its good rows committed, one transaction per batch. */
  private async runPartial(job: JobControl, m: RuntimeModule, upload: ImportUpload, plans: SheetPlan[], actor: Actor, result: PassResult): Promise<ImportOutcome> {
    for (const [k, plan] of plans.entries()) {
      const run = await openSheet(this.ctx, plan, upload);
      if (!run) {
        if (k === 0) return this.noTitleRow(job, m);
        continue;
      }
      for await (const rows of run.table.batches(IMPORT_BATCH)) {
        const batch = await prepareBatch(this.ctx, run, rows, actor, this.ctx.db);
        const good = batch.good();
        if (good.length) {
          await this.ctx.beforeTransaction();
          try {
            await this.ctx.db.transaction().execute((trx) => plan.service.writeMany(trx, good.map(batch.writeOf), actor, plan.dicts!));
            result.imported += good.length;
          } catch {
            // Some row was refused after validation (a hook, a race on a unique key): this batch again, row by row.
            result.imported += await this.ctx.db.transaction().execute((trx) => oneByOne(this.log, trx, plan, batch, good, actor));
          }
        }
        await result.add(run, batch);
        await this.noteImported(job.id, result.imported);
        await job.progress(result.rows);
        await nextTurn();
      }
    }
    const message = result.failed ? `导入完成：成功${result.imported}行，失败${result.failed}行` : `导入完成：成功${result.imported}行`;
    return this.end(job, m, result, message, !result.failed || result.imported > 0);
  }

  /**
   * Mode `all`: a first pass validates every row and writes nothing; when no row is bad, a second pass
   * prepares each batch again inside one transaction (so it sees the rows written before it) and writes
   * it. A row refused there (a hook, a concurrent write) undoes everything, and every such row is named.
   */
  private async runAll(job: JobControl, m: RuntimeModule, upload: ImportUpload, plans: SheetPlan[], actor: Actor, first: PassResult): Promise<ImportOutcome> {
    for (const [k, plan] of plans.entries()) {
      const run = await openSheet(this.ctx, plan, upload);
      if (!run) {
        if (k === 0) return this.noTitleRow(job, m);
        continue;
      }
      for await (const rows of run.table.batches(IMPORT_BATCH)) {
        await first.add(run, await prepareBatch(this.ctx, run, rows, actor, this.ctx.db));
        await job.progress(first.rows);
        await nextTurn();
      }
    }
    if (first.failed) return this.end(job, m, first, `${first.failed}行数据有误，未导入任何数据`, false);

    const second = new PassResult();
    try {
      await this.ctx.beforeTransaction();
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const plan of plans) {
          const run = await openSheet(this.ctx, plan, upload);
          if (!run) continue;
          for await (const rows of run.table.batches(IMPORT_BATCH)) {
            const batch = await prepareBatch(this.ctx, run, rows, actor, trx);
            const good = batch.good();
            if (good.length) {
              await sql`SAVEPOINT import_batch`.execute(trx);
              try {
                await plan.service.writeMany(trx, good.map(batch.writeOf), actor, plan.dicts!);
                await sql`RELEASE SAVEPOINT import_batch`.execute(trx);
              } catch {
                await sql`ROLLBACK TO SAVEPOINT import_batch`.execute(trx);
                await oneByOne(this.log, trx, plan, batch, good, actor);
              }
            }
            await second.add(run, batch);
          }
        }
        if (second.failed) throw new Undo();
      });
    } catch (error) {
      if (!(error instanceof Undo)) throw error;
      return this.end(job, m, second, `${second.failed}行数据有误，未导入任何数据`, false);
    }
    second.imported = second.rows;
    return this.end(job, m, second, `导入完成：成功${second.rows}行`, true);
  }
}

const reportUrl = (m: RuntimeModule, jobId: number) => `/api/m/${m.id}/import/${jobId}/report`;

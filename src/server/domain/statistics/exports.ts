/**
 * Exports of queries and reports (export type custom 2, spec §4). Up to EXPORT_INLINE_MAX rows a query
 * downloads at once; beyond, it runs as a background job (runtime/jobs.ts) that stores the file and sends
 * its owner a message linking to it.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SessionUser } from '../../core/auth/session-user.js';
import { fileStoreOf } from '../../core/files/upload.js';
import { commitStreamedRow, neutraliseFormula, sendXlsx, streamXlsx } from '../../core/xlsx.js';
import { jobsOf, type JobControl } from '../../runtime/jobs.js';
import type { ReportResult } from '../../../shared/statistics.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { snapshotRecords } from './snapshots.js';
import { runQuery, type CompiledQuery } from './query.js';
import { resolvePath } from './where.js';

export const EXPORT_INLINE_MAX = 10_000;
const PAGE = 1000;
const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** The columns an export writes: the chosen ones, else the module's list columns. */
function exportColumns(app: FastifyInstance, q: CompiledQuery): { key: string; title: string }[] {
  const m = q.module;
  const chosen = [...q.own, ...q.paths.map((p) => p.path)];
  const names = chosen.length ? chosen : m.listFields;
  return names.map((n) => ({ key: n, title: m.field(n)?.title ?? (n === 'id' ? 'ID' : resolvePath(app.runtime.registry, m, n).title) }));
}

const cell = (r: Record<string, unknown>, key: string): ExcelJS.CellValue => {
  const v = r[`${key}Label`] ?? r[`${key}Name`] ?? r[key];
  if (v === null || v === undefined) return '';
  return neutraliseFormula(typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean)) as ExcelJS.CellValue;
};

async function writeRows(app: FastifyInstance, user: SessionUser, q: CompiledQuery, total: number, sheet: ExcelJS.Worksheet, job?: JobControl): Promise<void> {
  const columns = exportColumns(app, q);
  await commitStreamedRow(sheet, columns.map((c) => c.title), { bold: true });
  for (let page = 0; page * PAGE < total; page++) {
    const { content } = await runQuery(app.runtime, user, { ...q, query: { ...q.query, page, size: PAGE } });
    for (const r of content) await commitStreamedRow(sheet, columns.map((c) => cell(r, c.key)));
    await job?.progress(Math.min(total, (page + 1) * PAGE), total);
    if (content.length < PAGE) break;
  }
  sheet.commit();
}

/** Exports a query: a download, or (more than 10,000 rows) a job answered as 202 `{ jobId }`. */
export async function exportQuery(app: FastifyInstance, reply: FastifyReply, user: SessionUser, q: CompiledQuery, title: string): Promise<FastifyReply> {
  const { totalElements } = await runQuery(app.runtime, user, { ...q, query: { ...q.query, page: 0, size: 1 } });
  const filename = `${title}.xlsx`;
  if (totalElements <= EXPORT_INLINE_MAX) {
    return streamXlsx(reply, filename, async (book) => writeRows(app, user, q, totalElements, book.addWorksheet(title.slice(0, 31))));
  }
  const store = fileStoreOf(app);
  const jobId = await jobsOf(app).start({
    kind: 'export',
    title: `导出“${title}”`,
    ownerId: user.id,
    run: async (job) => {
      const stream = new PassThrough();
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
      const saved = store.save(stream, { originalName: filename, mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', moduleName: null, ownerId: user.id, maxBytes: MAX_FILE_BYTES });
      await writeRows(app, user, q, totalElements, book.addWorksheet(title.slice(0, 31)), job);
      await book.commit();
      const file = await saved;
      return { fileKey: file.access_key, name: filename, rows: totalElements, exportType: 2 };
    },
    link: (_r, id) => `/service/info/query?exportJob=${id}`,
    done: (r) => `导出“${title}”已完成（${r.rows}行），请点击下载`,
  });
  return reply.code(202).send({ jobId, totalElements });
}

/** A report's table as .xlsx: the columns, the rows and the totals. */
export async function exportReport(reply: FastifyReply, r: ReportResult): Promise<FastifyReply> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(r.title.slice(0, 31));
  const head = `${r.title}${r.snapshot ? `（数据快照：${r.snapshot.title}）` : ''}`;
  sheet.addRow([head]).font = { bold: true };
  sheet.addRow(r.columns.map((c) => c.title)).font = { bold: true };
  for (const row of r.rows) sheet.addRow([row.label, ...r.columns.slice(1).map((c) => row.values[c.key] ?? 0)]);
  sheet.addRow(['合计', ...r.columns.slice(1).map((c) => r.totals[c.key] ?? 0)]).font = { bold: true };
  sheet.columns.forEach((c, i) => {
    c.width = i === 0 ? 28 : 14;
    if (r.columns[i]?.unit === 'yuan') c.numFmt = '0.00';
  });
  return sendXlsx(reply, book, `${r.title}.xlsx`);
}

/** A snapshot's records of a module as .xlsx (the list's columns, by their labels), in the caller's scope. */
export async function exportSnapshot(app: FastifyInstance, reply: FastifyReply, user: SessionUser, id: number, m: RuntimeModule, title: string): Promise<FastifyReply> {
  const columns = m.listFields.map((n) => ({ key: n, title: m.field(n)!.title }));
  return streamXlsx(reply, `${title}-${m.title}.xlsx`, async (book, addRow) => {
    const sheet = book.addWorksheet(m.title.slice(0, 31));
    await addRow(sheet, columns.map((c) => c.title), { bold: true });
    for (let page = 0; ; page++) {
      const { content } = await snapshotRecords(app.runtime, user, id, m, [], page, PAGE);
      for (const r of content) await addRow(sheet, columns.map((c) => cell(r as Record<string, unknown>, c.key)));
      if (content.length < PAGE) break;
    }
    sheet.commit();
  });
}

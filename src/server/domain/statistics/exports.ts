/**
 * Exports of queries and reports (export type custom 2, spec §4). Up to `exportInlineMax` rows a query
 * downloads at once; beyond, it runs as a background job (runtime/export-job.ts) that stores the file and
 * sends its owner a message linking to 综合查询, which shows the job and its download.
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ExportType } from '../../../shared/constants.js';
import type { SessionUser } from '../../core/auth/session-user.js';
import { neutraliseFormula, sendXlsx, type AddStreamedRow } from '../../core/xlsx.js';
import { exportXlsx } from '../../runtime/export-job.js';
import { menuPageLink } from '../../runtime/workflow/links.js';
import type { ReportResult } from '../../../shared/statistics.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { snapshotRecords } from './snapshots.js';
import { runQuery, type CompiledQuery } from './query.js';
import { resolvePath } from './where.js';

const PAGE = 1000;

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

async function writeRows(app: FastifyInstance, user: SessionUser, address: string, q: CompiledQuery, total: number, sheet: ExcelJS.Worksheet, addRow: AddStreamedRow, progress: (done: number) => Promise<void>): Promise<void> {
  const columns = exportColumns(app, q);
  await addRow(sheet, columns.map((c) => c.title), { bold: true });
  for (let page = 0; page * PAGE < total; page++) {
    const { content } = await runQuery(app.runtime, user, { ...q, query: { ...q.query, page, size: PAGE } }, address);
    for (const r of content) await addRow(sheet, columns.map((c) => cell(r, c.key)));
    await progress((page + 1) * PAGE);
    if (content.length < PAGE) break;
  }
  sheet.commit();
}

/** Exports a query (export type custom 2): a download, or (over `exportInlineMax` rows) a job answered as 202 `{ jobId }`. */
export async function exportQuery(app: FastifyInstance, reply: FastifyReply, user: SessionUser, q: CompiledQuery, title: string, address: string): Promise<FastifyReply> {
  const { totalElements } = await runQuery(app.runtime, user, { ...q, query: { ...q.query, page: 0, size: 1 } }, address);
  return exportXlsx(app, reply, {
    filename: `${title}.xlsx`,
    title,
    rows: totalElements,
    ownerId: user.id,
    exportType: ExportType.CUSTOM,
    page: await menuPageLink(app.runtime.ctx, 'core:service-query'),
    fill: (book, addRow, progress) => writeRows(app, user, address, q, totalElements, book.addWorksheet(title.slice(0, 31)), addRow, progress),
  });
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

/** A snapshot's records of a module as .xlsx (the list's columns, by their labels), in the caller's scope; over `exportInlineMax` rows a job. */
export async function exportSnapshot(app: FastifyInstance, reply: FastifyReply, user: SessionUser, id: number, m: RuntimeModule, title: string): Promise<FastifyReply> {
  const columns = m.listFields.map((n) => ({ key: n, title: m.field(n)!.title }));
  const { totalElements } = await snapshotRecords(app.runtime, user, id, m, [], 0, 1);
  return exportXlsx(app, reply, {
    filename: `${title}-${m.title}.xlsx`,
    title: `${title}-${m.title}`,
    rows: totalElements,
    ownerId: user.id,
    exportType: ExportType.AUTO,
    page: await menuPageLink(app.runtime.ctx, 'core:stat-snapshot'),
    fill: async (book, addRow, progress) => {
      const sheet = book.addWorksheet(m.title.slice(0, 31));
      await addRow(sheet, columns.map((c) => c.title), { bold: true });
      for (let page = 0; ; page++) {
        const { content } = await snapshotRecords(app.runtime, user, id, m, [], page, PAGE);
        for (const r of content) await addRow(sheet, columns.map((c) => cell(r as Record<string, unknown>, c.key)));
        await progress((page + 1) * PAGE);
        if (content.length < PAGE) break;
      }
      sheet.commit();
    },
  });
}

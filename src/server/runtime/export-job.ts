/**
 * Every big export of the server (the runtime's list export, the forms' answers, 综合查询): up to
 * `exportInlineMax` rows (default 10,000) the .xlsx is written while it downloads; beyond, it runs as a
 * background job (runtime/jobs.ts) that streams the rows into a file of the file store (memory stays
 * flat), notes its progress, and tells its owner where to download it. The request then answers
 * 202 `{ jobId, totalElements }`.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ExportType, type ValueOf } from '../../shared/constants.js';
import type { JobDownload } from '../../shared/jobs.js';
import { fileStoreOf } from '../core/files/upload.js';
import { commitStreamedRow, streamXlsx, XLSX_TYPE, type AddStreamedRow } from '../core/xlsx.js';

/** The largest export file a job writes. */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** Writes the workbook: sheets and rows (through `addRow`), telling `progress` how many rows are done. */
export type FillWorkbook = (book: ExcelJS.stream.xlsx.WorkbookWriter, addRow: AddStreamedRow, progress: (done: number) => Promise<void>) => Promise<void>;

export interface XlsxExport {
  /** The download's file name, with `.xlsx`. */
  filename: string;
  /** What is exported, for the job's title and the owner's message (`导出“<title>”`). */
  title: string;
  /** The rows the export writes (its main sheet): beyond the setting, a job. */
  rows: number;
  ownerId: number | null;
  /** Export type (spec §4): auto 1 (a page's own export), custom 2 (a query the user built). */
  exportType: ValueOf<typeof ExportType>;
  /** The page that shows the job and its download (`?job=<id>` is added); null: the message has no link. */
  page: string | null;
  fill: FillWorkbook;
  /** Fonts and widths (a title row); without, exceljs writes faster. */
  useStyles?: boolean;
}

/** What an export job answers: the file to download, its rows and export type. */
export interface ExportResult {
  rows: number;
  exportType: number;
  download: JobDownload;
}

/** A download (rows within the setting) or a job answered as 202 `{ jobId, totalElements }`. */
export async function exportXlsx(app: FastifyInstance, reply: FastifyReply, e: XlsxExport): Promise<FastifyReply> {
  if (e.rows <= app.runtime.exportInlineMax) return streamXlsx(reply, e.filename, (book, addRow) => e.fill(book, addRow, async () => undefined), { useStyles: e.useStyles });
  const jobId = await startExportJob(app, e);
  return reply.code(202).send({ jobId, totalElements: e.rows });
}

/** Starts the export as a job writing the file to the file store; answers the job's id. */
export async function startExportJob(app: FastifyInstance, e: XlsxExport): Promise<number> {
  const store = fileStoreOf(app);
  return app.runtime.jobs.start<ExportResult>({
    kind: 'export',
    title: `导出“${e.title}”`,
    ownerId: e.ownerId,
    run: async (job) => {
      const stream = new PassThrough();
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: e.useStyles ?? false, useSharedStrings: false });
      const saved = store.save(stream, { originalName: e.filename, mime: XLSX_TYPE, moduleName: null, ownerId: e.ownerId, maxBytes: MAX_FILE_BYTES });
      // A failed write to disk ends the work at the next row instead of filling memory.
      let failed: unknown;
      saved.catch((error: unknown) => (failed = error));
      const addRow: AddStreamedRow = async (sheet, values, font) => {
        if (failed) throw failed;
        await commitStreamedRow(sheet, values, font);
        if (stream.writableNeedDrain) await once(stream, 'drain');
      };
      await job.progress(0, e.rows);
      try {
        await e.fill(book, addRow, (done) => job.progress(Math.min(done, e.rows), e.rows));
        await book.commit();
      } catch (error) {
        stream.destroy(error as Error);
        throw error;
      }
      const file = await saved;
      return { rows: e.rows, exportType: e.exportType, download: { url: '/api/file/download', params: { id: file.access_key }, name: e.filename } };
    },
    link: (_r, id) => (e.page ? `${e.page}${e.page.includes('?') ? '&' : '?'}job=${id}` : null),
    done: (r) => `导出“${e.title}”已完成（${r.rows}行），请点击下载`,
  });
}

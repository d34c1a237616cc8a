import type ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ExportType } from '../../shared/constants.js';
import type { AddStreamedRow } from '../core/xlsx.js';
import { RECORD_ID_COLUMN, childSheetName, exportCell, exportFields } from './cells.js';
import type { Actor } from './hooks.js';
import type { ListInput, RecordService } from './records.js';
import { exportXlsx } from './export-job.js';
import { maskRecords } from './sensitive.js';

/**
 * Records read and written per step. Small, so a batch's records and their XML are garbage before the
 * next young-generation GC instead of being promoted (100,000 rows: 1,000 per batch cost ~60 MB more at
 * peak than 500, 100 about as fast as 500 and a little leaner).
 */
const BATCH = 100;

/**
 * Streams the filtered list as .xlsx (export type auto 1): the matching ids are read in the list's order
 * first (one indexed query), then the records in batches by id, each row committed to exceljs's streaming
 * writer, so memory stays flat however many rows there are. Filter problems answer 400 before the
 * download starts. Over `exportInlineMax` rows it runs as a job (export-job.ts) and answers 202; `page`
 * is where its owner's message leads (the page the export was asked from).
 *
 * The last column is the record id (记录ID), so importing the file back updates these records instead of
 * adding copies. Each child module (x-children) follows on a sheet of its own: the children of the
 * exported records, their foreign key column holding the parent's record id.
 */
export async function streamExport(app: FastifyInstance, reply: FastifyReply, service: RecordService, input: ListInput, actor: Actor, page: string | null): Promise<FastifyReply> {
  const m = service.module;
  const ids = await service.matchingIds(input, actor);
  // No styles: exceljs looks a style up for every cell, which doubles the time of a big export. Dates
  // are written as 'YYYY-MM-DD' text, which needs no number format.
  return exportXlsx(app, reply, {
    filename: `${m.title}.xlsx`,
    title: m.title,
    rows: ids.length,
    ownerId: actor.id,
    exportType: ExportType.AUTO,
    page,
    fill: async (book, addRow, progress) => {
      await writeSheet(book, addRow, service, m.title, ids, undefined, progress);
      for (const { link, service: child } of service.childServices()) {
        const childIds = await child.idsOfChildren(link.foreignKey, ids);
        await writeSheet(book, addRow, child, childSheetName(link, child.module), childIds, link.foreignKey);
      }
    },
  });
}

/** One sheet: the module's export fields, then 记录ID; `parentKey` is written as the parent's id. */
async function writeSheet(book: ExcelJS.stream.xlsx.WorkbookWriter, addRow: AddStreamedRow, service: RecordService, name: string, ids: number[], parentKey?: string, progress?: (done: number) => Promise<void>) {
  const fields = exportFields(service.module);
  const sheet = book.addWorksheet(name.slice(0, 31));
  sheet.columns = [
    ...fields.map((f) => ({ header: f.title, key: f.name, width: Math.max(12, f.title.length * 2 + 4) })),
    { header: RECORD_ID_COLUMN, key: 'id', width: 10 },
  ];
  sheet.getRow(1).commit();
  for (let start = 0; start < ids.length; start += BATCH) {
    // Identity-card numbers leave masked; importing the file back keeps the stored ones (import.ts).
    const records = maskRecords(service.module, await service.recordsByIds(ids.slice(start, start + BATCH), fields));
    for (const record of records) {
      await addRow(sheet, [...fields.map((f) => (f.name === parentKey ? (record[f.name] as number) : exportCell(f, record))), record.id as number]);
    }
    await progress?.(start + records.length);
  }
  sheet.commit();
}

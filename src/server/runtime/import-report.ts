/**
 * What an import found while reading a file: counts, the first row problems (listed in the job's answer),
 * and the error report, a workbook of the bad rows as they were typed with their problems in an extra column.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ImportRowError } from '../../shared/module-schema/api.js';
import { commitStreamedRow } from '../core/xlsx.js';
import { ERROR_COLUMN } from './cells.js';
import type { PreparedBatch, SheetRun } from './import-rows.js';

/** Row problems listed in the job's answer; the error report holds them all. */
export const IMPORT_LISTED_ERRORS = 1000;

/**
 * The bad rows, a sheet per imported sheet with bad rows; written as the batches go (streaming writer),
 * so only the compressed file is kept.
 */
export class ErrorReport {
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
export class PassResult {
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

import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** RFC 5987 content-disposition so Chinese file names survive every browser. */
export function attachmentHeader(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Text that a spreadsheet could take for a formula when a user edits the cell or the sheet is saved as
 * CSV (`=`, `+`, `-`, `@`, tab, carriage return first) gets a leading apostrophe, as OWASP advises
 * against formula injection. Every download goes through sendXlsx or streamXlsx, which do it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export function neutraliseFormula<T>(value: T): T | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** The reverse, for a file exported here and imported back: the apostrophe before a formula character goes. */
export function restoreNeutralised(text: string): string {
  return text.length > 1 && text[0] === "'" && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** Neutralises every text cell of a workbook built in memory (formula cells are objects, left alone). */
function neutraliseBook(book: ExcelJS.Workbook): void {
  for (const sheet of book.worksheets) {
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (typeof cell.value === 'string' && FORMULA_START.test(cell.value)) cell.value = `'${cell.value}`;
      }),
    );
  }
}

export async function sendXlsx(reply: FastifyReply, book: ExcelJS.Workbook, filename: string) {
  neutraliseBook(book);
  return sendXlsxBuffer(reply, Buffer.from(await book.xlsx.writeBuffer()), filename);
}

/** Sends a workbook already written (and neutralised when it was). */
export function sendXlsxBuffer(reply: FastifyReply, buffer: Buffer, filename: string) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', attachmentHeader(filename))
    .header('access-control-expose-headers', 'content-disposition')
    .send(buffer);
}

/**
 * Adds a row to a streamed sheet and commits it (with its font: a committed row cannot be styled any
 * more), waiting while the zip or the client is behind.
 */
export type AddStreamedRow = (sheet: ExcelJS.Worksheet, values: ExcelJS.CellValue[], font?: Partial<ExcelJS.Font>) => Promise<void>;

/**
 * Starts an .xlsx download that is written while it is sent: `fill` adds sheets and rows (rows through
 * `addRow`, so memory stays flat however many there are); the workbook is committed after it. An error
 * after the answer has started is logged and cuts the download short.
 */
export function streamXlsx(
  reply: FastifyReply,
  filename: string,
  fill: (book: ExcelJS.stream.xlsx.WorkbookWriter, addRow: AddStreamedRow) => Promise<void>,
  options: { useStyles?: boolean } = {},
): FastifyReply {
  const stream = new PassThrough();
  reply.header('content-type', XLSX_TYPE).header('content-disposition', attachmentHeader(filename)).header('access-control-expose-headers', 'content-disposition').send(stream);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: options.useStyles ?? false, useSharedStrings: false });
  const addRow: AddStreamedRow = async (sheet, values, font) => {
    await commitStreamedRow(sheet, values, font);
    // And let the client read what is compressed.
    if (stream.writableNeedDrain) await once(stream, 'drain');
  };
  fill(book, addRow)
    .then(() => book.commit())
    .catch((error: unknown) => {
      reply.log.error({ err: error, filename }, 'xlsx download failed');
      stream.destroy(error as Error);
    });
  return reply;
}

/**
 * Adds a row (text neutralised) to a sheet of a streaming workbook writer and commits it, then lets the
 * zip compress what is written before more rows are made (this also gives the event loop a turn: the
 * embedded database answers without one).
 */
export async function commitStreamedRow(sheet: ExcelJS.Worksheet, values: ExcelJS.CellValue[], font?: Partial<ExcelJS.Font>): Promise<void> {
  const row = sheet.addRow(values.map(neutraliseFormula));
  if (font) row.font = font;
  row.commit();
  const zipInput = sheetZipInput(sheet);
  if (zipInput?._writableState?.needDrain) await once(zipInput, 'drain');
}

/**
 * The stream between a sheet and its zip entry. exceljs's sheet buffer writes into it without waiting, so
 * rows made faster than deflate compresses them queued there, up to the whole uncompressed sheet (~70 MB
 * for 100,000 rows); waiting for its 'drain' keeps it to one 64 KB chunk. exceljs 4.4 internals: without
 * them (another version) the download still works, only without this wait.
 */
function sheetZipInput(sheet: ExcelJS.Worksheet): (Writable & { _writableState?: { needDrain?: boolean } }) | undefined {
  return (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];
}

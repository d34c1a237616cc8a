/**
 * Uploaded workbooks read so that no file can exhaust the server: the zip is checked before anything is
 * parsed (declared and real inflated sizes, compression ratio: zip bombs), the rows of each sheet are
 * counted from its XML on the way (a file over the row limit is refused before any row is parsed), and a
 * sheet is read as a stream with exceljs' streaming reader, in batches, giving the event loop a turn
 * between batches. Every importer (module records, users, payroll) reads through here.
 */
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { HttpError } from '../errors.js';
import { restoreNeutralised } from './xlsx.js';
import { InflateLimit, inflate, storedEntry, zipEntries, zipStream, ZipUnreadable, type ZipEntry } from './xlsx-zip.js';
import { ownValue } from '../../shared/own.js';

/** The system setting holding the row limit of one import, and its default. */
export const IMPORT_MAX_ROWS_KEY = 'importMaxRows';
export const DEFAULT_IMPORT_MAX_ROWS = 100_000;

const MiB = 1024 * 1024;
/**
 * Bounds on what a workbook may inflate to. 100,000 rows of 60 columns as Excel writes them are about
 * 250 MB of sheet XML; the shared strings and the other parts are read whole into memory, so they get less.
 */
export const XLSX_LIMITS = {
  /** All parts read (workbook, relations, styles, shared strings, sheets) together. */
  total: 256 * MiB,
  sharedStrings: 64 * MiB,
  /** The workbook, its relations and the styles, each. */
  part: 16 * MiB,
  /** Inflated ÷ compressed size of a part above 1 MiB: sheet XML compresses about 10:1, deflate at most ~1000:1. */
  ratio: 200,
  /** One row's XML (16,384 cells of 32,767 characters cannot be a real import row). */
  row: 4 * MiB,
  entries: 10_000,
};

/** How many rows at the top of a sheet may hold the title row (templates put a note above it). */
export const HEADER_SEARCH_ROWS = 5;

/** The file is not an .xlsx workbook that can be read (importers answer '文件无法读取…'). */
export class XlsxUnreadable extends Error {}

export const UNREADABLE_MESSAGE = '文件无法读取，请上传 .xlsx 格式的文件';
const TOO_BIG = `文件解压后的内容过大（超过${XLSX_LIMITS.total / MiB}MB），请删除无关的工作表或拆分后分批导入`;
const ABNORMAL = '文件内容异常（压缩数据与声明不符或压缩比过高），请用 Excel 打开并重新保存后再导入';
const ROW_TOO_LONG = '文件中有一行的内容过长，请检查后重新导入';

export function tooManyRows(maxRows: number): HttpError {
  return new HttpError(400, `文件行数超过上限（最多${maxRows}行），请拆分后分批导入`);
}

/** One worksheet, in the workbook's tab order. */
export interface SheetInfo {
  name: string;
  hidden: boolean;
  /** Its part in the zip. */
  path: string;
  /** Rows holding at least one value, counted from the XML: an upper bound of its data rows. */
  valueRows: number;
}

/** A data row: its sheet row number (1-based) and raw cells (see cellRaw), one per title-row column. */
export interface TableRow {
  row: number;
  cells: unknown[];
}

/** A sheet read as a table: the title row found, then its data rows in batches (one pass). */
export interface StreamedTable<K> {
  headers: string[];
  /** Sheet column (1-based) → what it holds. */
  columns: Map<number, K>;
  batches(size: number): AsyncGenerator<TableRow[]>;
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const STYLES = 'xl/styles.xml';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
/** The sheet parts exceljs' streaming reader knows. */
const SHEET_PART = /^xl\/worksheets\/sheet\d+\.xml$/;
const EMPTY_SHARED_STRINGS = Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>');

/** An uploaded workbook whose container has been checked; sheets are read from it on demand, as streams. */
export class XlsxFile {
  private constructor(
    private readonly buffer: Buffer,
    private readonly parts: Map<string, ZipEntry>,
    readonly sheets: SheetInfo[],
  ) {}

  /**
   * Checks the container (HttpError 400 for a zip bomb, a row longer than any real one, or a sheet with
   * more than `maxRows` rows holding values, besides the few title rows, found as soon as it is counted)
   * and lists the sheets with their value rows; XlsxUnreadable when it is no .xlsx at all.
   */
  static async open(buffer: Buffer, maxRows = Number.MAX_SAFE_INTEGER): Promise<XlsxFile> {
    let entries: Map<string, ZipEntry>;
    try {
      entries = zipEntries(buffer);
    } catch (error) {
      if (error instanceof ZipUnreadable) throw new XlsxUnreadable(error.message);
      throw error;
    }
    if (!entries.has(WORKBOOK) || !entries.has(WORKBOOK_RELS)) throw new XlsxUnreadable('no workbook part');
    if (entries.size > XLSX_LIMITS.entries) throw new HttpError(400, ABNORMAL);
    const read = [...entries.values()].filter((e) => [WORKBOOK, WORKBOOK_RELS, STYLES, SHARED_STRINGS].includes(e.name) || SHEET_PART.test(e.name));
    // What the parts say about themselves, before inflating anything.
    let declared = 0;
    for (const e of read) {
      declared += e.size;
      if (declared > XLSX_LIMITS.total || e.size > limitOf(e.name)) throw new HttpError(400, TOO_BIG);
      if (e.size > MiB && e.size > e.compressedSize * XLSX_LIMITS.ratio) throw new HttpError(400, ABNORMAL);
    }
    // What they really inflate to: no part may exceed its declared size (that is the bound checked above).
    const texts = new Map<string, string>();
    const valueRows = new Map<string, number>();
    try {
      for (const e of read) {
        if (SHEET_PART.test(e.name)) {
          const scanner = new RowScanner(XLSX_LIMITS.row);
          await inflate(buffer, e, e.size, (chunk) => {
            scanner.push(chunk);
            if (scanner.valueRows > maxRows + HEADER_SEARCH_ROWS) throw tooManyRows(maxRows);
          });
          valueRows.set(e.name, scanner.valueRows);
        } else if (e.name === WORKBOOK || e.name === WORKBOOK_RELS) {
          const chunks: Buffer[] = [];
          await inflate(buffer, e, e.size, (chunk) => chunks.push(chunk));
          texts.set(e.name, Buffer.concat(chunks).toString('utf8'));
        } else {
          await inflate(buffer, e, e.size);
        }
      }
    } catch (error) {
      if (error instanceof InflateLimit) throw new HttpError(400, ABNORMAL);
      if (error instanceof ZipUnreadable) throw new XlsxUnreadable(error.message);
      throw error;
    }
    const targets = relationTargets(texts.get(WORKBOOK_RELS)!);
    const sheets: SheetInfo[] = [];
    for (const attrs of tagsOf(texts.get(WORKBOOK)!, 'sheet')) {
      const relId = [...attrs].find(([k]) => k === 'id' || k.endsWith(':id'))?.[1];
      const part = relId ? targets.get(relId) : undefined;
      if (!part || !valueRows.has(part)) continue;
      const state = attrs.get('state');
      sheets.push({ name: attrs.get('name') ?? '', hidden: state === 'hidden' || state === 'veryHidden', path: part, valueRows: valueRows.get(part)! });
    }
    return new XlsxFile(buffer, entries, sheets);
  }

  /** The first sheet a user sees (hidden sheets hold lists for drop-downs). */
  firstVisibleSheet(): SheetInfo | undefined {
    return this.sheets.find((s) => !s.hidden);
  }

  /**
   * Refuses a sheet with more than `maxRows` data rows. The rows counted from the XML decide at once but
   * for the few title rows: only a sheet within HEADER_SEARCH_ROWS of the limit is read to count exactly.
   */
  async assertRowLimit<K>(sheet: SheetInfo, byTitle: ReadonlyMap<string, K>, maxRows: number, tooMany = tooManyRows): Promise<void> {
    if (sheet.valueRows <= maxRows) return;
    const table = await this.openTable(sheet, byTitle, maxRows, tooMany);
    if (table) for await (const batch of table.batches(1000)) void batch;
  }

  /**
   * Opens a sheet as a table: finds the title row among the first HEADER_SEARCH_ROWS rows (the one naming
   * most distinct keys of `byTitle`, keyed by normalised title); undefined when no row names any key.
   * Reading more than `maxRows` data rows stops with the row-limit 400 (or the importer's own `tooMany`).
   */
  async openTable<K>(sheet: SheetInfo, byTitle: ReadonlyMap<string, K>, maxRows: number, tooMany = tooManyRows): Promise<StreamedTable<K> | undefined> {
    if (sheet.valueRows > maxRows + HEADER_SEARCH_ROWS) throw tooMany(maxRows);
    const rows = this.rowsOf(sheet);
    const top: ExcelJS.Row[] = [];
    let next: IteratorResult<ExcelJS.Row>;
    while (!(next = await rows.next()).done && next.value.number <= HEADER_SEARCH_ROWS) top.push(next.value);
    const pending = next.done ? undefined : next.value;

    let best: { row: number; columns: Map<number, K>; headers: string[] } | undefined;
    for (const row of top) {
      const columns = new Map<number, K>();
      const headers: string[] = [];
      row.eachCell((cell, col) => {
        const text = rawText(cellRaw(cell));
        headers[col - 1] = text;
        const key = byTitle.get(normaliseHeader(text));
        if (key !== undefined && ![...columns.values()].includes(key)) columns.set(col, key);
      });
      if (columns.size && columns.size > (best?.columns.size ?? 0)) best = { row: row.number, columns, headers };
    }
    if (!best) {
      await rows.return(undefined);
      return undefined;
    }
    const { row: headerRow } = best;
    const width = Math.max(best.headers.length, ...best.columns.keys());
    const toTableRow = (row: ExcelJS.Row): TableRow | undefined => {
      const cells = Array.from({ length: width }, (_x, i) => cellRaw(row.getCell(i + 1)));
      return cells.some((c) => c !== null) ? { row: row.number, cells } : undefined;
    };
    async function* batches(size: number): AsyncGenerator<TableRow[]> {
      let count = 0;
      let batch: TableRow[] = [];
      let chars = 0;
      const take = (row: ExcelJS.Row) => {
        const r = toTableRow(row);
        if (!r) return;
        if (++count > maxRows) throw tooMany(maxRows);
        batch.push(r);
        for (const c of r.cells) if (typeof c === 'string') chars += c.length;
      };
      try {
        for (const row of top) if (row.number > headerRow) take(row);
        if (pending) take(pending);
        for (let r = await rows.next(); !r.done; r = await rows.next()) {
          take(r.value);
          // A batch is also cut by size, so a few huge rows cannot pile up in memory.
          if (batch.length >= size || chars > 8 * MiB) {
            yield batch;
            batch = [];
            chars = 0;
            await nextTurn();
          }
        }
        if (batch.length) yield batch;
      } finally {
        await rows.return(undefined);
      }
    }
    return { headers: Array.from({ length: width }, (_x, i) => best.headers[i] ?? ''), columns: best.columns, batches };
  }

  /** The rows of one sheet through exceljs' streaming reader, given only the parts it needs, in the order it needs them. */
  private async *rowsOf(sheet: SheetInfo): AsyncGenerator<ExcelJS.Row> {
    const part = (name: string) => {
      const entry = this.parts.get(name);
      return entry && { entry, buffer: this.buffer };
    };
    const parts = [
      part(WORKBOOK)!,
      part(WORKBOOK_RELS)!,
      part(STYLES),
      // Without shared strings exceljs spools every sheet to a temporary file first: give it an empty part.
      part(SHARED_STRINGS) ?? storedEntry(SHARED_STRINGS, EMPTY_SHARED_STRINGS),
      part(sheet.path)!,
    ].filter((p) => p !== undefined);
    const input = zipStream(parts);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
    let last = 0;
    try {
      for await (const worksheet of reader) {
        for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
          // A row without its number (some writers): the one after the last.
          if (!Number.isSafeInteger(row.number)) Object.defineProperty(row, 'number', { value: last + 1 });
          last = row.number;
          yield row;
        }
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new XlsxUnreadable((error as Error).message);
    } finally {
      input.destroy();
    }
  }
}

const limitOf = (name: string) => (name === SHARED_STRINGS ? XLSX_LIMITS.sharedStrings : SHEET_PART.test(name) ? XLSX_LIMITS.total : XLSX_LIMITS.part);

/**
 * Counts the rows of sheet XML that hold a value (`<v>` or an inline string), chunk by chunk as it is
 * inflated, and refuses a row longer than `maxRow` bytes. A row cut by a chunk's end is carried over.
 */
export class RowScanner {
  valueRows = 0;
  private carry: Buffer | undefined;
  constructor(private readonly maxRow: number) {}

  push(chunk: Buffer): void {
    const data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = undefined;
    let pos = 0;
    for (;;) {
      const start = data.indexOf('<row', pos);
      if (start < 0) {
        // Keep what could be the start of a '<row' cut by the chunk's end.
        this.keep(data, Math.max(pos, data.length - 4));
        return;
      }
      if (start + 4 >= data.length) return this.keep(data, start);
      const after = data[start + 4];
      // '<rowBreaks' and the like are other elements.
      if (after !== 0x20 && after !== 0x3e && after !== 0x2f && after !== 0x09 && after !== 0x0a && after !== 0x0d) {
        pos = start + 4;
        continue;
      }
      const tagEnd = data.indexOf(0x3e, start);
      if (tagEnd < 0) return this.keep(data, start);
      if (data[tagEnd - 1] === 0x2f) {
        pos = tagEnd + 1; // <row .../>: no cells
        continue;
      }
      const end = data.indexOf('</row>', tagEnd);
      if (end < 0) return this.keep(data, start);
      if (end - start > this.maxRow) throw new HttpError(400, ROW_TOO_LONG);
      const body = data.subarray(tagEnd + 1, end);
      if (body.indexOf('<v>') >= 0 || body.indexOf('<v ') >= 0 || body.indexOf('<is>') >= 0 || body.indexOf('<is ') >= 0) this.valueRows++;
      pos = end + 6;
    }
  }

  private keep(data: Buffer, from: number): void {
    if (data.length - from > this.maxRow) throw new HttpError(400, ROW_TOO_LONG);
    this.carry = from < data.length ? Buffer.from(data.subarray(from)) : undefined;
  }
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (ownValue(XML_ENTITIES, e) ?? m),
  );

/** The attributes of every `<name ...>` element (any namespace prefix) of a small XML part. */
function tagsOf(xml: string, name: string): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  for (const tag of xml.matchAll(new RegExp(`<(?:[\\w.-]+:)?${name}\\b([^>]*)>`, 'g'))) {
    const attrs = new Map<string, string>();
    for (const a of tag[1].matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(a[1], decodeXml(a[2] ?? a[3]));
    out.push(attrs);
  }
  return out;
}

/** The workbook's relations: id → part path in the zip. */
function relationTargets(xml: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const attrs of tagsOf(xml, 'Relationship')) {
    const id = attrs.get('Id');
    const target = attrs.get('Target');
    if (!id || !target) continue;
    targets.set(id, target.startsWith('/') ? target.slice(1) : path.posix.normalize(`xl/${target}`));
  }
  return targets;
}

/** The plain value of a cell: rich text joined, formula results, hyperlink texts; strings trimmed (and un-neutralised). */
export function cellRaw(cell: ExcelJS.Cell | undefined): unknown {
  const v = cell?.value;
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return restoreNeutralised(v.trim()) || null;
  if (typeof v !== 'object' || v instanceof Date) return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if ('richText' in v) return restoreNeutralised(v.richText.map((r) => r.text).join('').trim()) || null;
  if ('result' in v) return (v as { result?: unknown }).result ?? null;
  if ('text' in v) return String((v as { text: unknown }).text).trim() || null;
  if ('error' in v) return null;
  return String(v);
}

/** The text of a raw cell value, for matching and for the error report. */
export function rawText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}

/** A header cell's text as matched against titles: the required-mark `*` and spaces dropped. */
export const normaliseHeader = (text: string) => text.replace(/[*＊\s]/g, '');

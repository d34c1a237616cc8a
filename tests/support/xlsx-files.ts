/**
 * Spreadsheet files for import tests: big workbooks written with exceljs' streaming writer, and zips put
 * together by hand (parts in any order, sizes that lie, sheets that inflate hugely: zip bombs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDeflateRaw, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { zipEntries } from '../../src/server/core/xlsx-zip.js';

/**
 * A workbook of `rows` identical data rows under a title row, written row by row with the streaming
 * writer into a temporary file (memory stays flat however many rows); answers the file's bytes.
 */
export async function streamedWorkbook(rows: number, titles: string[], values: (string | number)[], options: { sharedStrings?: boolean } = {}): Promise<Buffer> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-xlsx-')), 'big.xlsx');
  try {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: options.sharedStrings ?? true, useStyles: false });
    const sheet = book.addWorksheet('Sheet1');
    sheet.addRow(titles).commit();
    for (let i = 0; i < rows; i++) sheet.addRow(values).commit();
    sheet.commit();
    await book.commit();
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** A workbook built in memory by exceljs, as bytes. */
export async function bookBytes(fill: (book: ExcelJS.Workbook) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  fill(book);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** One part of a zip made here: its compressed bytes and what its headers say. */
export interface ZipPart {
  name: string;
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** The inflated size the headers declare (a lie when it is not the real one). */
  size: number;
}

/** The parts of a (small) zip, inflated, in their order. */
export function partsOf(zip: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of zipEntries(zip).values()) {
    const data = zip.subarray(e.dataStart, e.dataStart + e.compressedSize);
    out.set(e.name, e.method === 0 ? Buffer.from(data) : inflateRawSync(data));
  }
  return out;
}

export function deflatedPart(name: string, content: Buffer | string): ZipPart {
  const bytes = Buffer.from(content);
  return { name, method: 8, data: deflateRawSync(bytes), crc: crc32(bytes), size: bytes.length };
}

/**
 * A part whose content is `head`, then `unit` repeated to about `bytes` bytes, then `tail`, deflated as
 * a stream (nothing of that size is ever held in memory): a few hundred KB that inflate to `bytes`.
 */
export async function repeatedPart(name: string, head: string, unit: string, bytes: number, tail: string): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const block = Buffer.from(unit.repeat(Math.max(1, Math.floor((1024 * 1024) / unit.length))));
  let crc = crc32(head);
  let size = Buffer.byteLength(head);
  deflate.write(head);
  while (size < bytes) {
    if (!deflate.write(block)) await new Promise((r) => deflate.once('drain', r));
    crc = crc32(block, crc);
    size += block.length;
  }
  deflate.end(tail);
  crc = crc32(tail, crc);
  size += Buffer.byteLength(tail);
  await done;
  return { name, method: 8, data: Buffer.concat(chunks), crc, size };
}

/**
 * A part of `rows` generated rows between `head` and `tail`, deflated as a stream (level 6, as office
 * programs write): rows that differ (row numbers, cell addresses) compress like a real sheet.
 */
export async function generatedPart(name: string, head: string, rows: number, row: (i: number) => string, tail: string): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: 6 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  let size = 0;
  const write = async (text: string) => {
    const bytes = Buffer.from(text);
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(head);
  let block = '';
  for (let i = 0; i < rows; i++) {
    block += row(i);
    if (block.length > 256 * 1024) {
      await write(block);
      block = '';
    }
  }
  await write(block + tail);
  deflate.end();
  await done;
  return { name, method: 8, data: Buffer.concat(chunks), crc, size };
}

/** A zip of these parts in this order, with a central directory. */
export function zipOf(parts: ZipPart[]): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x800, 6);
    header.writeUInt16LE(p.method, 8);
    header.writeUInt32LE(p.crc >>> 0, 14);
    header.writeUInt32LE(p.data.length, 18);
    header.writeUInt32LE(p.size, 22);
    header.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x800, 8);
    cd.writeUInt16LE(p.method, 10);
    cd.writeUInt32LE(p.crc >>> 0, 16);
    cd.writeUInt32LE(p.data.length, 20);
    cd.writeUInt32LE(p.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    local.push(header, name, p.data);
    central.push(cd, name);
    offset += header.length + name.length + p.data.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cdBytes, end]);
}

/** A sheet part's XML around its rows. */
export const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';
/** One row of inline text cells, as XML; without a row number its cells have no address either (exceljs cannot read such a row, a zip bomb need not be read). */
export const inlineRow = (values: string[], r?: number) =>
  r === undefined
    ? `<row>${values.map((v) => `<c t="inlineStr"><is><t>${v}</t></is></c>`).join('')}</row>`
    : `<row r="${r}">${values.map((v, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${v}</t></is></c>`).join('')}</row>`;

/**
 * A zip bomb shaped as an .xlsx: the parts of a real small workbook, with its first sheet replaced by
 * one that inflates to `bytes` bytes of identical rows. `declare` says what the headers claim: the real
 * size, or a lie.
 */
export async function sheetBomb(bytes: number, options: { titles?: string[]; declare?: number; part?: string } = {}): Promise<Buffer> {
  const base = await bookBytes((book) => book.addWorksheet('Sheet1').addRow(options.titles ?? ['姓名']));
  const target = options.part ?? 'xl/worksheets/sheet1.xml';
  const bomb = await repeatedPart(target, SHEET_HEAD + inlineRow(options.titles ?? ['姓名']), inlineRow(['炸弹']), bytes, SHEET_TAIL);
  if (options.declare !== undefined) bomb.size = options.declare;
  const parts = [...partsOf(base)].map(([name, content]) => (name === target ? bomb : deflatedPart(name, content)));
  if (!parts.includes(bomb)) parts.push(bomb);
  return zipOf(parts);
}

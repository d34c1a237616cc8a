/**
 * Placeholders of document templates (模板管理, docs/work.md "Templates"): `{姓名}` or `{name}` in a Word
 * document (docxtemplater: runs Word split are joined; `{#rows}…{/rows}` repeats a table row or paragraph for
 * each row of a table-of-rows field) and in the cells of a spreadsheet (ExcelJS; a row whose cells name the
 * columns of a table-of-rows field, `{rows.col}`, is repeated for each of its rows).
 * Pure: the values come in as a `TemplateData` (see values.ts), the files as bytes.
 */
import Docxtemplater from 'docxtemplater';
import InspectModule from 'docxtemplater/js/inspect-module.js';
import ExcelJS from 'exceljs';
import PizZip from 'pizzip';
import { HttpError } from '../../errors.js';

/** Placeholder name → text; a table-of-rows field → its rows (column name → text). */
export type TemplateData = Record<string, string | Record<string, string>[]>;

export type TemplateKind = 'docx' | 'xlsx';

/** The placeholders a template uses: plain names, and for each loop its inner names. */
export interface TemplateTags {
  names: string[];
  loops: Record<string, string[]>;
}

const badFile = (kind: TemplateKind) => new HttpError(400, kind === 'docx' ? '模板文件不是有效的 Word 文档（.docx）' : '模板文件不是有效的 Excel 工作簿（.xlsx）', { errors: [{ field: 'file', message: '请上传有效的模板文件' }] });

function openDocx(bytes: Buffer, modules: unknown[] = []): Docxtemplater {
  let zip: PizZip;
  try {
    zip = new PizZip(bytes);
  } catch {
    throw badFile('docx');
  }
  if (!zip.file('word/document.xml')) throw badFile('docx');
  try {
    return new Docxtemplater(zip, { paragraphLoop: true, linebreaks: true, errorLogging: false, nullGetter: () => '', modules: modules as never[] });
  } catch (error) {
    throw syntaxError(error);
  }
}

/** docxtemplater's errors (an unclosed `{`, a loop never closed) in Chinese, each with the tag it is about. */
function syntaxError(error: unknown): HttpError {
  const errors = ((error as { properties?: { errors?: { properties?: { xtag?: string; explanation?: string } }[] } }).properties?.errors ?? []);
  const tags = errors.map((e) => e.properties?.xtag).filter(Boolean);
  const message = `模板中的占位符格式不正确${tags.length ? `：${[...new Set(tags)].join('、')}` : ''}（占位符写作 {字段}，循环写作 {#表格}…{/表格}）`;
  return new HttpError(400, message, { errors: [{ field: 'file', message }] });
}

/** The placeholders of a Word template. */
export function docxTags(bytes: Buffer): TemplateTags {
  const inspect = new InspectModule();
  openDocx(bytes, [inspect]);
  const tags: TemplateTags = { names: [], loops: {} };
  for (const [name, inner] of Object.entries(inspect.getAllTags())) {
    const children = Object.keys((inner ?? {}) as object);
    if (children.length) tags.loops[name] = children;
    else tags.names.push(name);
  }
  return tags;
}

/** A Word template filled with `data` (unknown placeholders become empty). */
export function renderDocx(bytes: Buffer, data: TemplateData): Buffer {
  const doc = openDocx(bytes);
  try {
    doc.render(data);
  } catch (error) {
    throw syntaxError(error);
  }
  return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

async function openXlsx(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw badFile('xlsx');
  }
  if (!book.worksheets.length) throw badFile('xlsx');
  return book;
}

const cellText = (cell: ExcelJS.Cell): string | undefined => (typeof cell.value === 'string' ? cell.value : undefined);

/** `{rows.col}` → ['rows', 'col'] when `rows` is a loop name. */
const loopPart = (name: string, loops: Set<string>) => {
  const dot = name.indexOf('.');
  return dot > 0 && loops.has(name.slice(0, dot)) ? [name.slice(0, dot), name.slice(dot + 1)] : undefined;
};

/**
 * The placeholders of a spreadsheet template. `loopNames` are the names that are tables of rows: `{表格.列}`
 * is then a column of that table (the row repeats), otherwise a name with a dot (a reference path).
 */
export async function xlsxTags(bytes: Buffer, loopNames: Iterable<string> = []): Promise<TemplateTags> {
  const book = await openXlsx(bytes);
  const loops = new Set(loopNames);
  const tags: TemplateTags = { names: [], loops: {} };
  for (const sheet of book.worksheets) {
    sheet.eachRow((row) => row.eachCell((cell) => {
      for (const [, raw] of (cellText(cell) ?? '').matchAll(PLACEHOLDER)) {
        const name = raw.trim();
        const inLoop = loopPart(name, loops);
        if (inLoop) (tags.loops[inLoop[0]] ??= []).includes(inLoop[1]) || tags.loops[inLoop[0]].push(inLoop[1]);
        else if (!tags.names.includes(name)) tags.names.push(name);
      }
    }));
  }
  return tags;
}

const fill = (text: string, lookup: (name: string) => string | undefined) => text.replace(PLACEHOLDER, (whole, raw: string) => lookup(raw.trim()) ?? '');

/** A spreadsheet template filled with `data`; a row naming a table's columns is repeated for each of its rows. */
export async function renderXlsx(bytes: Buffer, data: TemplateData): Promise<Buffer> {
  const book = await openXlsx(bytes);
  const loops = new Set(Object.keys(data).filter((k) => Array.isArray(data[k])));
  const scalar = (name: string) => (typeof data[name] === 'string' ? (data[name] as string) : undefined);
  for (const sheet of book.worksheets) {
    // Bottom-up, so inserted rows do not move the rows still to visit.
    for (let r = sheet.rowCount; r >= 1; r--) {
      const row = sheet.getRow(r);
      let table: string | undefined;
      row.eachCell((cell) => {
        for (const [, raw] of (cellText(cell) ?? '').matchAll(PLACEHOLDER)) table ??= loopPart(raw.trim(), loops)?.[0];
      });
      if (!table) {
        row.eachCell((cell) => {
          const text = cellText(cell);
          if (text?.includes('{')) cell.value = fill(text, scalar);
        });
        continue;
      }
      const rows = data[table] as Record<string, string>[];
      const template = new Map<number, string>();
      row.eachCell((cell, col) => void (cellText(cell) !== undefined && template.set(col, cellText(cell)!)));
      if (rows.length > 1) sheet.duplicateRow(r, rows.length - 1, true);
      const lookupIn = (item: Record<string, string>) => (name: string) => {
        const part = loopPart(name, loops);
        return part && part[0] === table ? (item[part[1]] ?? '') : scalar(name);
      };
      for (let i = 0; i < Math.max(rows.length, 1); i++) {
        const target = sheet.getRow(r + i);
        for (const [col, text] of template) target.getCell(col).value = fill(text, rows[i] ? lookupIn(rows[i]) : () => '');
      }
    }
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The placeholders of a template of either kind. */
export async function templateTags(kind: TemplateKind, bytes: Buffer, loopNames: Iterable<string> = []): Promise<TemplateTags> {
  return kind === 'docx' ? docxTags(bytes) : xlsxTags(bytes, loopNames);
}

/** A template of either kind filled with `data`. */
export async function renderTemplate(kind: TemplateKind, bytes: Buffer, data: TemplateData): Promise<Buffer> {
  return kind === 'docx' ? renderDocx(bytes, data) : renderXlsx(bytes, data);
}

/**
 * Spreadsheet cells ↔ field values, shared by export, template and import: which columns a module has
 * in a workbook, how a value is written, and how a typed-in cell becomes a value (labels to dictionary
 * values, names to reference ids, Excel dates to 'YYYY-MM-DD').
 */
import type ExcelJS from 'exceljs';
import { rawText } from '../core/xlsx-read.js';
import { formOrder, isRowTable } from '../../shared/module-schema/fields.js';
import { parseTime, toDate } from '../../shared/format.js';
import type { FieldInfo, RuntimeModule } from './module.js';

// How uploaded cells are read is the core's (every importer reads through it).
export { cellRaw, normaliseHeader, rawText } from '../core/xlsx-read.js';

export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const ERROR_COLUMN = '错误信息';
/** The last column of an export: the record's id, so an import of the file updates instead of duplicating. */
export const RECORD_ID_COLUMN = '记录ID';
const YES = ['是', 'true', '1', 'y', 'yes', '√'];
const NO = ['否', 'false', '0', 'n', 'no', '×'];
/** What separates the items of a multi-value cell. */
const ITEM_SEPARATOR = /[、,，;；\n]/;

/** Columns of an export: every visible field in form order (computed and read-only ones included). */
export function exportFields(m: RuntimeModule): FieldInfo[] {
  return formOrder(m.schema).map((n) => m.field(n)!);
}

/** The sheet a child module's records take in an export of its parent (and are imported back from). */
export function childSheetName(link: { title?: string }, child: RuntimeModule): string {
  return (link.title ?? child.title).slice(0, 31);
}

/** Columns of the template and of an import: the fields users type in, in form order. */
export function importFields(m: RuntimeModule): FieldInfo[] {
  // A table of rows does not fit one cell: its rows are filled on the form (fill-in forms export them on sheets of their own).
  return exportFields(m).filter((f) => f.writable && !isRowTable(f.schema));
}

export function isRequired(m: RuntimeModule, f: FieldInfo): boolean {
  return m.schema.required?.includes(f.name) ?? false;
}

/** The header text of a column: the title, marked `*` when required (templates). */
export function headerOf(m: RuntimeModule, f: FieldInfo, markRequired: boolean): string {
  return markRequired && isRequired(m, f) ? `${f.title}*` : f.title;
}

/** The cell value of a decorated record's field in an export: labels and names instead of codes and ids. */
export function exportCell(f: FieldInfo, record: Record<string, unknown>): ExcelJS.CellValue {
  const v = record[f.name];
  if (v === null || v === undefined) return null;
  if (f.dict || f.labels) return (record[`${f.name}Label`] as string) ?? String(v);
  if (f.ref) return (record[`${f.name}Name`] as string) || (Array.isArray(v) ? v.join('、') : (v as number));
  switch (f.kind) {
    case 'boolean':
      return v ? '是' : '否';
    case 'array':
      return isRowTable(f.schema) ? `${(v as unknown[]).length} 行` : (v as unknown[]).join('、');
    case 'date-time':
      return parseTime(v as string | Date);
    default:
      return v as ExcelJS.CellValue;
  }
}

/** Look-ups an import needs to read cells: labels of dictionaries and reference names. */
export interface CellLookups {
  /** dictionary code → label → value */
  dictValues: Map<string, Map<string, string>>;
  /** reference target → name → ids */
  refIds: Map<string, Map<string, number[]>>;
}

export type CellResult = { value: unknown } | { error: string };

const pad = (n: number) => String(n).padStart(2, '0');

function dateOf(raw: unknown): string | null {
  if (raw instanceof Date) return `${raw.getUTCFullYear()}-${pad(raw.getUTCMonth() + 1)}-${pad(raw.getUTCDate())}`;
  const m = /^(\d{4})[-/.年]?(\d{1,2})[-/.月]?(\d{1,2})日?$/.exec(rawText(raw));
  return m ? `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}` : null;
}

function scalar(f: FieldInfo, raw: unknown, lookups: CellLookups, itemType?: 'string' | 'integer'): CellResult {
  const text = rawText(raw);
  if (f.dict) {
    const byLabel = lookups.dictValues.get(f.dict);
    return { value: byLabel?.get(text) ?? text };
  }
  if (f.ref) {
    if (typeof raw === 'number' || /^\d+$/.test(text)) return { value: Number(text) };
    const ids = lookups.refIds.get(f.ref)?.get(text) ?? [];
    if (ids.length === 1) return { value: ids[0] };
    return { error: ids.length ? `${f.title}“${text}”有重名，请填写编号` : `${f.title}“${text}”不存在` };
  }
  const kind = itemType ?? f.kind;
  switch (kind) {
    case 'date': {
      const d = dateOf(raw);
      return d ? { value: d } : { error: `${f.title}的日期格式不正确，请填写如 2024-01-31` };
    }
    case 'date-time': {
      const d = raw instanceof Date ? raw : toDate(text);
      return !d ? { error: `${f.title}的时间格式不正确，请填写如 2024-01-31 08:30:00` } : { value: d.toISOString() };
    }
    case 'integer':
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(text);
      return text !== '' && Number.isFinite(n) ? { value: n } : { error: `${f.title}必须是数字` };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { value: raw };
      if (YES.includes(text.toLowerCase())) return { value: true };
      if (NO.includes(text.toLowerCase())) return { value: false };
      return { error: `${f.title}请填写“是”或“否”` };
    }
    default:
      return { value: raw instanceof Date ? dateOf(raw) : text };
  }
}

/** The field value of one typed-in cell (null for an empty cell). */
export function parseCell(f: FieldInfo, raw: unknown, lookups: CellLookups): CellResult {
  if (raw === null || raw === undefined || raw === '') return { value: null };
  if (f.kind !== 'array') return scalar(f, raw, lookups);
  const values: unknown[] = [];
  for (const item of rawText(raw).split(ITEM_SEPARATOR).map((s) => s.trim()).filter(Boolean)) {
    const r = scalar(f, item, lookups, f.schema.items?.type as 'string' | 'integer' | undefined);
    if ('error' in r) return r;
    values.push(r.value);
  }
  return { value: values };
}

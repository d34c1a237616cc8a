/**
 * A form's answers as one workbook (docs/forms.md): the first sheet one row per organisation with its
 * state and the form's single-value fields, then one sheet per table-of-rows field, a row per filled-in
 * row with its organisation. The collector's xlsx for one organisation (join type user import 2) is read
 * in the same layout: the first data row of the first sheet, and the table sheets' rows.
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { ExportType } from '../../../shared/constants.js';
import { isRowTable } from '../../../shared/module-schema/fields.js';
import type { RowFieldSchema } from '../../../shared/module-schema/types.js';
import { cellRaw, rawText } from '../../core/xlsx-read.js';
import { HttpError } from '../../errors.js';
import { exportCell, exportFields } from '../../runtime/cells.js';
import { exportXlsx } from '../../runtime/export-job.js';
import type { RuntimeModule } from '../../runtime/module.js';
import type { RecordService } from '../../runtime/records.js';
import { FORM_ORG_FIELD } from './schema.js';

/** Records read per step (as the runtime's export). */
const BATCH = 200;
const ORG_HEADER = '填报组织';

export interface ExportedFill {
  orgName: string;
  state: number;
  /** The state as the branch reads it (shared/form-fill.ts). */
  stateLabel: string;
  recordId: number | null;
}

const columnsOf = (f: { schema: { items?: { properties?: Record<string, RowFieldSchema> } } }) => Object.entries(f.schema.items?.properties ?? {});

function rowCell(column: RowFieldSchema, v: unknown): ExcelJS.CellValue {
  if (v === null || v === undefined) return null;
  if (column.type === 'boolean') return v ? '是' : '否';
  return v as ExcelJS.CellValue;
}

/**
 * Every answer of a form (export type auto 1): written while it downloads, or, over `exportInlineMax`
 * rows (an organisation per row on the first sheet, and every table row), as a job whose message leads
 * to `page`.
 */
export async function exportAnswers(app: FastifyInstance, reply: FastifyReply, title: string, records: RecordService, fills: ExportedFill[], ownerId: number | null, page: string | null): Promise<FastifyReply> {
  const m = records.module;
  const fields = exportFields(m).filter((f) => f.name !== FORM_ORG_FIELD);
  const scalars = fields.filter((f) => !isRowTable(f.schema));
  const tables = fields.filter((f) => isRowTable(f.schema));
  const filled = fills.filter((f) => f.recordId !== null);
  const rows = fills.length + (await tableRows(app, m, tables, filled));
  let written = 0;
  return exportXlsx(app, reply, { filename: `${title}.xlsx`, title, rows, ownerId, exportType: ExportType.AUTO, page, fill: async (book, rawAddRow, progress) => {
    const addRow: typeof rawAddRow = async (sheet, values, font) => {
      await rawAddRow(sheet, values, font);
      if (++written % 1000 === 0) await progress(written);
    };
    const main = book.addWorksheet('填报结果');
    main.columns = [ORG_HEADER, '状态', ...scalars.map((f) => f.title)].map((header) => ({ header, width: Math.max(12, header.length * 2 + 4) }));
    main.getRow(1).commit();
    const batches = async (each: (fill: ExportedFill, record: Record<string, unknown> | undefined) => Promise<void>, withRecords = true) => {
      if (!withRecords) {
        for (const fill of fills) await each(fill, undefined);
        return;
      }
      for (let start = 0; start < filled.length; start += BATCH) {
        const part = filled.slice(start, start + BATCH);
        const byId = new Map((await records.recordsByIds(part.map((f) => f.recordId!), fields)).map((r) => [r.id as number, r]));
        for (const fill of part) await each(fill, byId.get(fill.recordId!));
      }
    };
    // Every organisation on the first sheet, the ones without an answer with their state only.
    const answered = new Map<number, Record<string, unknown>>();
    await batches(async (fill, record) => {
      if (record) answered.set(fill.recordId!, Object.fromEntries(scalars.map((f) => [f.name, exportCell(f, record)])));
    });
    await batches(async (fill) => {
      const values = fill.recordId !== null ? answered.get(fill.recordId) : undefined;
      await addRow(main, [fill.orgName, fill.stateLabel, ...scalars.map((f) => (values?.[f.name] ?? null) as ExcelJS.CellValue)]);
    }, false);
    main.commit();
    answered.clear();
    for (const table of tables) {
      const columns = columnsOf(table);
      const sheet = book.addWorksheet(table.title.slice(0, 31));
      sheet.columns = [ORG_HEADER, '序号', ...columns.map(([, c]) => c.title)].map((header) => ({ header, width: Math.max(10, header.length * 2 + 4) }));
      sheet.getRow(1).commit();
      await batches(async (fill, record) => {
        const rows = (record?.[table.name] as Record<string, unknown>[] | null) ?? [];
        let n = 0;
        for (const row of rows) await addRow(sheet, [fill.orgName, ++n, ...columns.map(([name, c]) => rowCell(c, row[name]))]);
      });
      sheet.commit();
    }
  } });
}

/** The rows of the table-of-rows fields of the answers, counted in the database (jsonb array lengths). */
async function tableRows(app: FastifyInstance, m: RuntimeModule, tables: { column: string | null }[], filled: ExportedFill[]): Promise<number> {
  const columns = tables.map((t) => t.column).filter((c): c is string => !!c);
  if (!columns.length || !filled.length) return 0;
  const lengths = sql.join(columns.map((c) => sql`coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(${sql.ref(c)}::jsonb) = 'array' THEN ${sql.ref(c)}::jsonb END), 0)`), sql` + `);
  const ids = filled.map((f) => f.recordId!).join(',');
  const { rows } = await sql<{ n: number }>`SELECT coalesce(sum(${lengths}), 0)::int AS n FROM ${sql.table(m.table)} WHERE id = ANY(string_to_array(${ids}, ',')::int[])`.execute(app.services.database.db);
  return rows[0].n;
}

/** The values of one organisation's answer from a workbook in the export's layout (titles as headers). */
export async function readAnswer(m: RuntimeModule, buffer: Buffer): Promise<Record<string, unknown>> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw new HttpError(400, '无法读取该文件，请上传 .xlsx 文件', { errors: [{ field: 'file', message: '文件不是有效的 .xlsx' }] });
  }
  const headers = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).map((v) => rawText(v).replace(/\*$/, '').trim());
  const first = book.worksheets[0];
  if (!first || first.rowCount < 2) throw new HttpError(400, '文件中没有填报内容', { errors: [{ field: 'file', message: '第一个工作表的第2行应为填报内容' }] });
  const values: Record<string, unknown> = {};
  const head = headers(first);
  const row = first.getRow(2);
  const number = (v: unknown) => (typeof v === 'number' ? v : v === null || v === '' ? null : Number(rawText(v)));
  const typed = (type: string, raw: unknown) => {
    if (raw === null || raw === undefined || raw === '') return null;
    if (type === 'integer' || type === 'number') return number(raw);
    if (type === 'boolean') return ['是', 'true', '1'].includes(rawText(raw));
    if (raw instanceof Date) return raw.toISOString().slice(0, 10);
    return rawText(raw);
  };
  for (const f of m.writableFields) {
    if (f.name === FORM_ORG_FIELD) continue;
    if (isRowTable(f.schema)) {
      const sheet = book.worksheets.find((s) => s.name === f.title.slice(0, 31));
      if (!sheet) continue;
      const cols = headers(sheet);
      const rows: Record<string, unknown>[] = [];
      sheet.eachRow((r, n) => {
        if (n === 1) return;
        const item: Record<string, unknown> = {};
        for (const [name, c] of columnsOf(f)) {
          const at = cols.indexOf(c.title);
          if (at > 0) {
            const v = typed(c.type, cellRaw(r.getCell(at)));
            if (v !== null) item[name] = v;
          }
        }
        if (Object.keys(item).length) rows.push(item);
      });
      values[f.name] = rows;
      continue;
    }
    const at = head.indexOf(f.title);
    if (at <= 0) continue;
    const v = typed(f.kind === 'integer' || f.kind === 'number' || f.kind === 'boolean' ? f.kind : 'string', cellRaw(row.getCell(at)));
    if (v !== null) values[f.name] = v;
  }
  return values;
}

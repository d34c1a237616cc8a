/**
 * 工资表导入: the payroll spreadsheet, one row per person (ID number or staff number, and either the
 * base itself in a “党费基数” column or the payroll columns of the school's base formula), sets the
 * standards of a year. Every row is checked and every problem reported; the good rows are written in
 * chunks (each chunk whole or not at all) with a change record each, or none (mode `all`) when any is bad.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { ImportRowError } from '../../../shared/module-schema/api.js';
import { applyFormula, BASE_COLUMN, formulaText, type BaseFormula } from '../../../shared/dues/formula.js';
import { parseYuan } from '../../../shared/dues/money.js';
import { categoryOfMember, DuesCategoryLabel, isDuesCategory, needsBase } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { rawText, UNREADABLE_MESSAGE, type TableRow } from '../../core/xlsx-read.js';
import type { ImportUpload } from '../../core/xlsx-upload.js';
import { inScope, type Caller, type Dues } from './context.js';
import { duesSettings } from './settings.js';
import { STANDARD_SOURCE } from './standard-values.js';
import { writeStandards, type StandardInput } from './standard-writer.js';
import { categoryLabels } from './standards.js';
import type { PayrollResult } from '../../../shared/dues/api.js';

/** A hard cap whatever the import row limit setting says (the rows are kept: duplicates are checked across the file). */
export const PAYROLL_MAX_ROWS = 200_000;
const ID_CARD = '身份证号';
const STAFF_NO = '工号';
const NAME = '姓名';

/** The template: a note with the formula, then 身份证号, 工号, 姓名, the formula's columns and 党费基数. */
export function payrollTemplate(formula: BaseFormula, year: number): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(`${year}年工资表`);
  const columns = [ID_CARD, STAFF_NO, NAME, ...formula.terms.map((t) => t.column), BASE_COLUMN];
  sheet.addRow([`说明：每行一人，填身份证号或工号（二选一）；金额单位为元。填写“${BASE_COLUMN}”时直接采用，否则按本校公式计算：${formulaText(formula)}。学生党员和无固定收入党员按定额交纳，无需导入。`]);
  sheet.mergeCells(1, 1, 1, columns.length);
  sheet.getRow(1).font = { color: { argb: 'FFC0392B' } };
  sheet.getRow(1).alignment = { wrapText: true };
  sheet.getRow(1).height = 45;
  sheet.addRow(columns).font = { bold: true };
  sheet.columns = columns.map((c) => ({ width: c === ID_CARD ? 22 : Math.max(12, c.length * 2 + 4) }));
  sheet.getColumn(1).numFmt = '@';
  sheet.getColumn(2).numFmt = '@';
  return book;
}

interface ParsedRow {
  row: number;
  idCard: string;
  staffNo: string;
  baseCents?: number;
  error?: { column: string; message: string };
}

/** The rows of an uploaded payroll sheet, read as a stream (only what each row gives is kept); 400 when it is not one. */
async function readPayroll(upload: ImportUpload, formula: BaseFormula): Promise<ParsedRow[]> {
  if (!upload.book) throw new HttpError(400, UNREADABLE_MESSAGE);
  const keys = new Map<string, string>([[ID_CARD, 'idCard'], ['公民身份号码', 'idCard'], [STAFF_NO, 'staffNo'], ['学号/工号', 'staffNo'], ['职工号', 'staffNo'], [NAME, 'name'], [BASE_COLUMN, 'base']]);
  for (const t of formula.terms) keys.set(t.column.replace(/[*＊\s]/g, ''), `f:${t.column}`);
  const sheet = upload.book.firstVisibleSheet();
  const table = sheet && (await upload.book.openTable(sheet, keys, Math.min(PAYROLL_MAX_ROWS, upload.maxRows)));
  const found = new Set(table?.columns.values());
  if (!table || (!found.has('idCard') && !found.has('staffNo'))) throw new HttpError(400, `未找到“${ID_CARD}”或“${STAFF_NO}”列，请使用导入模板填写`);
  const formulaColumns = formula.terms.filter((t) => found.has(`f:${t.column}`));
  if (!found.has('base') && !formulaColumns.length) throw new HttpError(400, `未找到“${BASE_COLUMN}”列，也未找到公式中的工资项目（${formula.terms.map((t) => t.column).join('、')}）`);
  const colOf = new Map([...table.columns].map(([col, key]) => [key, col]));
  const cell = (cells: unknown[], key: string) => (colOf.has(key) ? cells[colOf.get(key)! - 1] : null);
  const parseRow = ({ row, cells }: TableRow): ParsedRow => {
    const parsed: ParsedRow = { row, idCard: rawText(cell(cells, 'idCard')).trim().toUpperCase(), staffNo: rawText(cell(cells, 'staffNo')).trim() };
    const direct = cell(cells, 'base');
    if (direct !== null && direct !== undefined && rawText(direct).trim() !== '') {
      const cents = parseYuan(direct as string | number, { round: true });
      if (cents === undefined) parsed.error = { column: BASE_COLUMN, message: `${BASE_COLUMN}“${rawText(direct)}”不是有效的金额` };
      else parsed.baseCents = cents;
      return parsed;
    }
    const values = new Map<string, number>();
    for (const t of formulaColumns) {
      const raw = cell(cells, `f:${t.column}`);
      if (raw === null || raw === undefined || rawText(raw).trim() === '') continue;
      const cents = parseYuan(raw as string | number, { round: true, negative: true });
      if (cents === undefined) {
        parsed.error = { column: t.column, message: `${t.column}“${rawText(raw)}”不是有效的金额` };
        return parsed;
      }
      values.set(t.column, cents);
    }
    if (!values.size) {
      parsed.error = { column: BASE_COLUMN, message: `没有${BASE_COLUMN}，也没有公式中的工资项目` };
      return parsed;
    }
    const result = applyFormula(formula, values);
    if ('error' in result) parsed.error = { column: BASE_COLUMN, message: result.error };
    else parsed.baseCents = result.baseCents;
    return parsed;
  };
  const rows: ParsedRow[] = [];
  for await (const batch of table.batches(1000)) for (const r of batch) rows.push(parseRow(r));
  if (!rows.length) throw new HttpError(400, '文件中没有数据');
  return rows;
}

/** Imports a payroll spreadsheet into the standards of `year`; answers the counts and every row's problem. */
export async function importPayroll(dues: Dues, caller: Caller, upload: ImportUpload, year: number): Promise<PayrollResult> {
  const { mode } = upload;
  const settings = await duesSettings(dues.services.database.db, dues.school);
  const rows = await readPayroll(upload, settings.baseFormula);
  const idCards = [...new Set(rows.map((r) => r.idCard).filter(Boolean))];
  const staffNos = [...new Set(rows.map((r) => r.staffNo).filter(Boolean))];
  const members = (await sql<{ id: number; name: string; orgId: number | null; idCard: string | null; personNo: string | null; category: string | null; standardCategory: string | null }>`
    SELECT m.id, m.name, m.org_id AS "orgId", upper(m.id_card) AS "idCard", m.person_no AS "personNo", m.category, s.category AS "standardCategory"
    FROM m_member m LEFT JOIN m_dues_standard s ON s.member_id = m.id AND s.year = ${year}
    WHERE m.id IN (SELECT x.id FROM m_member x JOIN unnest(${idCards}::text[]) AS k(v) ON upper(x.id_card) = k.v
                   UNION SELECT x.id FROM m_member x JOIN unnest(${staffNos}::text[]) AS k(v) ON x.person_no = k.v)`.execute(dues.db)).rows;
  const byIdCard = new Map(members.filter((m) => m.idCard).map((m) => [m.idCard!, m]));
  const byStaffNo = new Map<string, (typeof members)[number][]>();
  for (const m of members) if (m.personNo) byStaffNo.set(m.personNo, [...(byStaffNo.get(m.personNo) ?? []), m]);

  const errors: ImportRowError[] = [];
  const inputs: StandardInput[] = [];
  const seen = new Map<number, number>();
  for (const r of rows) {
    const fail = (column: string, message: string) => errors.push({ row: r.row, column, message });
    if (r.error) {
      fail(r.error.column, r.error.message);
      continue;
    }
    const sameNo = r.staffNo ? (byStaffNo.get(r.staffNo) ?? []) : [];
    const member = r.idCard ? byIdCard.get(r.idCard) : sameNo.length === 1 ? sameNo[0] : undefined;
    if (!member) {
      if (!r.idCard && !r.staffNo) fail(ID_CARD, '身份证号和工号不能都为空');
      else if (!r.idCard && sameNo.length > 1) fail(STAFF_NO, `工号“${r.staffNo}”对应多名党员，请填写身份证号`);
      else fail(r.idCard ? ID_CARD : STAFF_NO, `未找到${r.idCard ? `身份证号为“${r.idCard}”` : `工号为“${r.staffNo}”`}的党员`);
      continue;
    }
    if (member.orgId === null) {
      fail(NAME, `党员“${member.name}”没有所在党支部`);
      continue;
    }
    if (!inScope(caller.scope, member.orgId)) {
      fail(NAME, `党员“${member.name}”不在您的管理范围内`);
      continue;
    }
    const category = isDuesCategory(member.standardCategory) ? member.standardCategory : categoryOfMember(member.category);
    if (!needsBase(category)) {
      fail(NAME, `党员“${member.name}”为${DuesCategoryLabel[category]}，按定额交纳，无需导入工资`);
      continue;
    }
    if (seen.has(member.id)) {
      fail(r.idCard ? ID_CARD : STAFF_NO, `与第${seen.get(member.id)}行是同一名党员`);
      continue;
    }
    seen.set(member.id, r.row);
    inputs.push({ member: { id: member.id, name: member.name, orgId: member.orgId }, category, baseCents: r.baseCents!, source: STANDARD_SOURCE.IMPORT });
  }
  // Mode `all`: nothing unless every row is good.
  const write = mode === 'all' && errors.length ? [] : inputs;
  const counts = await writeStandards(dues.runtime, dues.school, year, write, settings.bands, caller.runtimeActor, { imported: true, categoryLabels: await categoryLabels(dues) });
  return { ...counts, total: rows.length, failed: errors.length, formulaText: settings.formulaText, errors };
}

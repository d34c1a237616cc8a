import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { sendXlsx } from '../core/xlsx.js';
import { DATETIME_FORMAT, DATE_FORMAT, headerOf, importFields, isRequired } from './cells.js';
import type { RuntimeContext } from './context.js';
import type { FieldInfo, RuntimeModule } from './module.js';

/** Rows of the template that carry drop-downs and formats. */
export const TEMPLATE_ROWS = 5000;
const FIRST_DATA_ROW = 3;
const LISTS_SHEET = '选项';

function columnLetter(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/** The choices of a field for its drop-down: enabled dictionary labels, enum values, 是/否. */
async function choicesOf(ctx: RuntimeContext, f: FieldInfo): Promise<string[] | undefined> {
  if (f.dict) return (await ctx.dicts.entries(f.dict)).filter((e) => !e.disabled).map((e) => e.label);
  const enumValues = f.schema.enum ?? f.schema.items?.enum;
  if (enumValues) return enumValues.map(String);
  if (f.kind === 'boolean') return ['是', '否'];
  return undefined;
}

/**
 * The import template: a note row, the column titles (required ones marked *), drop-downs for
 * dictionary, enum and yes/no columns (lists kept on a hidden sheet, so long dictionaries work), date
 * columns formatted as dates and text columns as text (so ID numbers keep every digit).
 */
export async function buildTemplate(ctx: RuntimeContext, m: RuntimeModule): Promise<ExcelJS.Workbook> {
  const fields = importFields(m);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(m.title.slice(0, 31));
  const lists = book.addWorksheet(LISTS_SHEET, { state: 'hidden' });
  const required = fields.filter((f) => isRequired(m, f)).map((f) => f.title);
  sheet.getCell(1, 1).value =
    `填写说明：从第${FIRST_DATA_ROW}行起每行一条${m.title}记录；带 * 的列必须填写${required.length ? `（${required.join('、')}）` : ''}；` +
    '日期请填写如 2024-01-31；带下拉箭头的列请从列表中选择；多个值用“、”分隔；请勿修改标题行。';
  sheet.getCell(1, 1).alignment = { wrapText: true, vertical: 'top' };
  sheet.getRow(1).height = 48;
  if (fields.length > 1) sheet.mergeCells(1, 1, 1, fields.length);
  const header = sheet.getRow(2);
  let listColumn = 0;
  for (const [i, f] of fields.entries()) {
    const col = i + 1;
    const letter = columnLetter(col);
    header.getCell(col).value = headerOf(m, f, true);
    header.getCell(col).font = { bold: true, color: isRequired(m, f) ? { argb: 'FFC00000' } : undefined };
    const column = sheet.getColumn(col);
    column.width = Math.max(14, f.title.length * 2 + 6);
    const range = `${letter}${FIRST_DATA_ROW}:${letter}${TEMPLATE_ROWS + FIRST_DATA_ROW - 1}`;
    const validations = (sheet as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }).dataValidations;
    const choices = await choicesOf(ctx, f);
    if (choices?.length) {
      listColumn += 1;
      const listLetter = columnLetter(listColumn);
      choices.forEach((c, n) => (lists.getCell(n + 1, listColumn).value = c));
      validations.add(range, {
        type: 'list',
        allowBlank: true,
        // Multi-value columns take free text ("a、b"): the list only suggests.
        showErrorMessage: f.kind !== 'array',
        errorTitle: '输入错误',
        error: `请从列表中选择${f.title}`,
        formulae: [`'${LISTS_SHEET}'!$${listLetter}$1:$${listLetter}$${choices.length}`],
      });
    }
    if (f.kind === 'date' || f.kind === 'date-time') {
      column.numFmt = f.kind === 'date' ? DATE_FORMAT : DATETIME_FORMAT;
      validations.add(range, { type: 'date', operator: 'greaterThan', allowBlank: true, showErrorMessage: true, error: `${f.title}请填写日期，如 2024-01-31`, formulae: [new Date(Date.UTC(1900, 0, 1))] });
    } else if (f.kind === 'string' && !choices) {
      column.numFmt = '@';
    }
  }
  sheet.views = [{ state: 'frozen', ySplit: 2 }];
  return book;
}

export async function sendTemplate(reply: FastifyReply, ctx: RuntimeContext, m: RuntimeModule) {
  return sendXlsx(reply, await buildTemplate(ctx, m), `${m.title}导入模板.xlsx`);
}

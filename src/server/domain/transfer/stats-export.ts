import ExcelJS from 'exceljs';
import type { TransferStats } from '../../../shared/transfer/stats.js';

/** The statistics panel of a year as a spreadsheet: the kinds, the months, and transfers out by reason and letter kind. */
export function statsWorkbook(stats: TransferStats): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(`${stats.year}年转接统计`);
  const bold = (row: ExcelJS.Row) => (row.font = { bold: true });
  bold(sheet.addRow([`${stats.year}年组织关系转接统计`]));
  sheet.addRow([]);
  bold(sheet.addRow(['类别', '本年发起', '本年办结', '正在办理']));
  for (const k of stats.kinds) sheet.addRow([k.title, k.started, k.completed, k.underway]);
  sheet.addRow([]);
  bold(sheet.addRow(['月份（办结）', ...stats.kinds.map((k) => k.title)]));
  for (const m of stats.byMonth) sheet.addRow([m.month, ...stats.kinds.map((k) => m.counts[k.key] ?? 0)]);
  for (const [title, rows] of [['转出原因', stats.outReasons], ['介绍信类别', stats.outKinds]] as const) {
    sheet.addRow([]);
    bold(sheet.addRow([title, '人数']));
    for (const r of rows) sheet.addRow([r.label, r.count]);
  }
  sheet.columns.forEach((c) => (c.width = 18));
  return book;
}

/**
 * Pieces every analysis page's server side shares (党员数据分析, 干部队伍结构分析, 干部绩效分析): age-like
 * bands counted in SQL, and the .xlsx of an analysis's figures.
 */
import ExcelJS from 'exceljs';
import { sql, type RawBuilder } from 'kysely';
import type { Analysis } from '../../shared/member-analysis.js';

/** A band of full years: [key, label, lower bound inclusive, upper bound exclusive]. */
export type Band = [key: string, label: string, lo: number, hi: number];

/** Full years from a date column to today. */
export const yearsSince = (column: string): RawBuilder<number> => sql<number>`date_part('year', age(current_date, ${sql.ref(column)}))::int`;

/** The band key of a date column's full years ('unknown' when empty). */
export function bandCase(column: string, bands: readonly Band[]): RawBuilder<string> {
  const years = yearsSince(column);
  const whens = bands.map(([key, , lo, hi]) => sql`WHEN ${years} >= ${lo} AND ${years} < ${hi} THEN ${key}`);
  return sql<string>`CASE WHEN ${sql.ref(column)} IS NULL THEN 'unknown' ${sql.join(whens, sql` `)} END`;
}

/** The condition "the column's full years fall in the band" (a drill-down into one slice). */
export function inBand(column: string, bands: readonly Band[], key: string): RawBuilder<boolean> {
  if (key === 'unknown') return sql<boolean>`${sql.ref(column)} IS NULL`;
  const band = bands.find(([k]) => k === key);
  if (!band) return sql<boolean>`false`;
  const years = yearsSince(column);
  return sql<boolean>`(${years} >= ${band[2]} AND ${years} < ${band[3]})`;
}

/** One sheet of an analysis: the total, then per dimension its slices with count and share. */
export function analysisWorkbook(title: string, totalLabel: string, analysis: Analysis): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(title);
  sheet.addRow([`${totalLabel}：${analysis.total}`]).font = { bold: true };
  for (const d of analysis.dimensions) {
    sheet.addRow([]);
    sheet.addRow([d.title, '人数', '占比']).font = { bold: true };
    for (const s of d.slices) sheet.addRow([s.label, s.count, analysis.total ? `${((s.count / analysis.total) * 100).toFixed(1)}%` : '0%']);
  }
  sheet.columns.forEach((c) => (c.width = 22));
  return book;
}

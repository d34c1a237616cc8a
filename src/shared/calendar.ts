/**
 * Calendar arithmetic on local dates written 'YYYY-MM-DD' (what date fields hold) and months 'YYYY-MM'.
 * Pure and time-zone free: the dates are days of the school's calendar, never instants.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A 'YYYY-MM' month. */
export const MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';

export function isDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function isMonth(value: unknown): value is string {
  return typeof value === 'string' && MONTH.test(value);
}

const parts = (date: string) => date.split('-').map(Number) as [number, number, number];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const write = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `date` plus `days` (negative: minus). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return write(new Date(Date.UTC(y, m - 1, d + days)));
}

/**
 * `date` plus whole calendar months; a day the target month lacks becomes its last day
 * (08-31 + 6 months = 02-28, or 02-29 in a leap year).
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, daysIn(year, month)))}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [a, b] = [parts(from), parts(to)];
  return Math.round((Date.UTC(b[0], b[1] - 1, b[2]) - Date.UTC(a[0], a[1] - 1, a[2])) / 86_400_000);
}

/** The month of a date, 'YYYY-MM'. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** The year of a date. */
export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

/** 'YYYY年M月D日' as letters and notices write dates. */
export function chineseDate(date: string | null | undefined): string {
  if (!date || !isDate(date)) return '';
  const [y, m, d] = parts(date);
  return `${y}年${m}月${d}日`;
}

/** 'YYYY年M月' for a 'YYYY-MM' month. */
export function chineseMonth(month: string | null | undefined): string {
  if (!month || !isMonth(month)) return '';
  const [y, m] = month.split('-').map(Number);
  return `${y}年${m}月`;
}

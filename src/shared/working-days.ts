/**
 * Working days of the national calendar: Monday to Friday, less the public holidays (放假), plus the
 * make-up working days (调休上班) on a weekend. The holidays come from the yearly calendar an
 * administrator keeps (module `holiday-calendar`, 系统管理 → 节假日安排); every working-day rule
 * counts through this one helper. Dates are 'YYYY-MM-DD' calendar dates.
 */
import { addDays } from './calendar.js';

export interface WorkingCalendar {
  /** Days off on what would be a working day (and weekend days of a holiday period: harmless). */
  holidays: ReadonlySet<string>;
  /** Weekend days worked instead (调休上班). */
  workdays: ReadonlySet<string>;
}

/** A period of the yearly calendar: kind 'holiday' (放假) or 'workday' (调休上班), both dates included. */
export interface CalendarPeriod {
  kind: string;
  startDate: string;
  endDate: string;
}

export const HOLIDAY_KIND = { HOLIDAY: 'holiday', WORKDAY: 'workday' } as const;

/** No holidays known: Monday to Friday. */
export const WEEKDAYS_ONLY: WorkingCalendar = { holidays: new Set(), workdays: new Set() };

export function calendarOf(periods: readonly CalendarPeriod[]): WorkingCalendar {
  const holidays = new Set<string>();
  const workdays = new Set<string>();
  for (const p of periods) {
    const into = p.kind === HOLIDAY_KIND.WORKDAY ? workdays : p.kind === HOLIDAY_KIND.HOLIDAY ? holidays : undefined;
    if (!into || !(p.startDate <= p.endDate)) continue;
    for (let d = p.startDate; d <= p.endDate; d = addDays(d, 1)) into.add(d);
  }
  return { holidays, workdays };
}

export function isWorkingDay(date: string, calendar: WorkingCalendar = WEEKDAYS_ONLY): boolean {
  if (calendar.workdays.has(date)) return true;
  if (calendar.holidays.has(date)) return false;
  const [y, m, d] = date.split('-').map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/** Working days from start to end, both included (0 when end is before start). */
export function workingDaysBetween(start: string, end: string, calendar: WorkingCalendar = WEEKDAYS_ONLY): number {
  let count = 0;
  for (let d = start; d <= end; d = addDays(d, 1)) if (isWorkingDay(d, calendar)) count++;
  return count;
}

/**
 * The working day `n` working days after `date` (n > 0), or before it (n < 0); n = 0 gives `date`
 * itself when it is a working day, else the next one. For deadlines counted in working days.
 */
export function addWorkingDays(date: string, n: number, calendar: WorkingCalendar = WEEKDAYS_ONLY): string {
  let d = date;
  if (n === 0) {
    while (!isWorkingDay(d, calendar)) d = addDays(d, 1);
    return d;
  }
  const step = n > 0 ? 1 : -1;
  for (let left = Math.abs(n); left > 0; ) {
    d = addDays(d, step);
    if (isWorkingDay(d, calendar)) left--;
  }
  return d;
}

/** A period as the calendar's seed writes it (name shown in the list). */
export interface PublishedPeriod extends CalendarPeriod {
  year: number;
  name: string;
  remark?: string;
}

const holiday = (year: number, name: string, startDate: string, endDate: string, remark?: string): PublishedPeriod => ({ year, name, kind: HOLIDAY_KIND.HOLIDAY, startDate, endDate, ...(remark && { remark }) });
const workday = (year: number, name: string, date: string): PublishedPeriod => ({ year, name, kind: HOLIDAY_KIND.WORKDAY, startDate: date, endDate: date, remark: '调休上班' });

const NOTICE_2026 = '国务院办公厅关于2026年部分节假日安排的通知（2025年11月4日）';
const STATUTORY_2027 = '《全国年节及纪念日放假办法》规定的法定节假日；放假调休安排以国务院办公厅通知为准，公布后请补充调休日期';

/**
 * What the calendar is seeded with on first start: 2026 as the State Council published it; 2027's
 * statutory holidays only (the notice for 2027 was not available; the administrator adds its make-up days).
 */
export const PUBLISHED_SCHEDULE: readonly PublishedPeriod[] = [
  holiday(2026, '元旦', '2026-01-01', '2026-01-03', NOTICE_2026),
  workday(2026, '元旦', '2026-01-04'),
  holiday(2026, '春节', '2026-02-15', '2026-02-23', NOTICE_2026),
  workday(2026, '春节', '2026-02-14'),
  workday(2026, '春节', '2026-02-28'),
  holiday(2026, '清明节', '2026-04-04', '2026-04-06', NOTICE_2026),
  holiday(2026, '劳动节', '2026-05-01', '2026-05-05', NOTICE_2026),
  workday(2026, '劳动节', '2026-05-09'),
  holiday(2026, '端午节', '2026-06-19', '2026-06-21', NOTICE_2026),
  holiday(2026, '中秋节', '2026-09-25', '2026-09-27', NOTICE_2026),
  holiday(2026, '国庆节', '2026-10-01', '2026-10-07', NOTICE_2026),
  workday(2026, '国庆节', '2026-09-20'),
  workday(2026, '国庆节', '2026-10-10'),
  holiday(2027, '元旦', '2027-01-01', '2027-01-01', STATUTORY_2027),
  holiday(2027, '春节', '2027-02-05', '2027-02-08', STATUTORY_2027),
  holiday(2027, '清明节', '2027-04-05', '2027-04-05', STATUTORY_2027),
  holiday(2027, '劳动节', '2027-05-01', '2027-05-02', STATUTORY_2027),
  holiday(2027, '端午节', '2027-06-09', '2027-06-09', STATUTORY_2027),
  holiday(2027, '中秋节', '2027-09-15', '2027-09-15', STATUTORY_2027),
  holiday(2027, '国庆节', '2027-10-01', '2027-10-03', STATUTORY_2027),
];

/**
 * The working-day calendar of the installation, read from the module `holiday-calendar` (系统管理 →
 * 节假日安排). Every working-day rule on the server counts through this (with src/shared/working-days.ts):
 * a guard passes its step's transaction, so it reads what that transaction sees.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { addDays } from '../../shared/calendar.js';
import { calendarOf, WEEKDAYS_ONLY, type CalendarPeriod, type WorkingCalendar } from '../../shared/working-days.js';

export const HOLIDAY_MODULE = 'holiday-calendar';

/**
 * The holidays and make-up days between two dates (periods overlapping them). A database without the
 * module's table (a school that removed it) counts Monday to Friday.
 */
export async function workingCalendar(db: Kysely<DB>, from: string, to: string): Promise<WorkingCalendar> {
  const exists = (await sql<{ t: string | null }>`SELECT to_regclass('m_holiday_calendar')::text AS t`.execute(db)).rows[0]?.t;
  if (!exists) return WEEKDAYS_ONLY;
  const rows = await sql<CalendarPeriod>`SELECT kind, start_date AS "startDate", end_date AS "endDate" FROM m_holiday_calendar
    WHERE start_date <= ${to}::date AND end_date >= ${from}::date`.execute(db);
  return calendarOf(rows.rows);
}

/** The calendar around a span counted in working days from `from` (generous: holidays make it longer). */
export function workingCalendarFrom(db: Kysely<DB>, from: string, workingDays: number): Promise<WorkingCalendar> {
  const reach = Math.ceil(Math.abs(workingDays) * 2) + 30;
  return workingCalendar(db, addDays(from, -reach), addDays(from, reach));
}

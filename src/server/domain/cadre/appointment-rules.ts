/**
 * The rules of cadre selection and appointment (《党政领导干部选拔任用工作条例》, 2019; "《条例》" below) as
 * pure functions: the workflow guards of `appointment` (appointment-guards.ts) call them, the unit tests
 * hold them at their boundaries.
 */
import { addDays, isDate } from '../../../shared/calendar.js';
import { WEEKDAYS_ONLY, workingDaysBetween, type WorkingCalendar } from '../../../shared/working-days.js';

/** 《条例》第四十二条: 实行党政领导干部任职前公示制度 … 公示期不少于五个工作日. */
export const RULE_PUBLICITY = '讨论决定后、任职前进行任前公示，公示期不少于五个工作日，公示期满后方可任职（《党政领导干部选拔任用工作条例》第四十二条）';
/** 《条例》第四十五条: 提拔担任非选举产生的领导职务的，实行任职试用期制度。试用期为一年. */
export const RULE_PROBATION = '提拔任职的试用期为一年，试用期满后经考核胜任的正式任职（《党政领导干部选拔任用工作条例》第四十五条）';

/**
 * The 公示: start and end given, at least `workdays` working days (holiday calendar), and — when the
 * appointment's date is known — the 任职 after the last day of the publicity.
 */
export function publicityProblem(
  start: unknown,
  end: unknown,
  appointDate: string | undefined,
  workdays = 5,
  calendar: WorkingCalendar = WEEKDAYS_ONLY,
): string | undefined {
  if (!isDate(start) || !isDate(end)) return `尚未记录任前公示起止日期。${RULE_PUBLICITY}`;
  if (end < start) return `公示结束日期（${end}）早于开始日期（${start}）`;
  const days = workingDaysBetween(start, end, calendar);
  if (days < workdays) return `任前公示${start}至${end}共${days}个工作日，不足${workdays}个工作日。${RULE_PUBLICITY}`;
  if (appointDate !== undefined && appointDate <= end) return `任职（${appointDate}）须在任前公示期满（${end}）之后。${RULE_PUBLICITY}`;
  return undefined;
}

/** The first day of the 任职: the day after the publicity's last day. */
export const appointFromOf = (publicityEnd: string): string => addDays(publicityEnd, 1);

/** 试用期满日期: `years` after the appointment (the same calendar day; 02-29 becomes 02-28). */
export function probationEndOf(appointDate: string, years = 1): string {
  const [y, m, d] = appointDate.split('-').map(Number);
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${y + years}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Confirmation or dismissal only once the probation is over (the day it ends counts as over). */
export function probationProblem(probationEnd: unknown, on: string): string | undefined {
  if (!isDate(probationEnd)) return `该任用没有试用期。${RULE_PROBATION}`;
  return on < probationEnd ? `试用期至${probationEnd}届满，${on}尚未期满。${RULE_PROBATION}` : undefined;
}

/** The procedure's dates in its order (《条例》: 动议 → 民主推荐 → 考察 → 讨论决定 → 任前公示 → 任职 → 试用期满). */
export const DATE_ORDER: [field: string, title: string][] = [
  ['proposeDate', '动议日期'],
  ['recommendDate', '民主推荐日期'],
  ['inspectDate', '考察日期'],
  ['decisionDate', '讨论决定日期'],
  ['publicityStart', '任前公示开始日期'],
  ['appointDate', '任职日期'],
  ['confirmDate', '转正日期'],
];
/** Dates that may lie ahead: the publicity is announced before it runs. */
const FUTURE_ALLOWED = new Set(['publicityStart', 'publicityEnd']);

/** Each date given not in the future (the publicity aside) and none before the step before it. */
export function dateProblems(record: Record<string, unknown>, given: readonly string[], today: string): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const field of given) {
    const value = record[field];
    if (!isDate(value)) continue;
    const title = DATE_ORDER.find(([f]) => f === field)?.[1] ?? field;
    if (!FUTURE_ALLOWED.has(field) && value > today) problems.push({ field, message: `${title}（${value}）不能晚于今天` });
    const at = DATE_ORDER.findIndex(([f]) => f === field);
    for (let i = at - 1; i >= 0; i--) {
      const [before, beforeTitle] = DATE_ORDER[i];
      if (isDate(record[before])) {
        if (value < (record[before] as string)) problems.push({ field, message: `${title}（${value}）不能早于${beforeTitle}（${record[before]}）` });
        break;
      }
    }
  }
  return problems;
}

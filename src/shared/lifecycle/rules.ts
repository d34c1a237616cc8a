/**
 * The date rules of a member's life in the party (issue 41, docs/member-lifecycle.md), pure so the server
 * guards and the tests read one definition. The numbers are x-workflow params of the modules whose guards
 * read them; the defaults here are the regulations' own.
 */
import { addDays, addMonths } from '../calendar.js';

/**
 * 留党察看 (党章第四十条: 留党察看最长不超过两年): the last day of the period of `years` from the decision.
 * Decided 2026-03-10 for one year: the member is under probation up to and including 2027-03-09.
 */
export function probationEndOf(decidedOn: string, years: number): string {
  return addDays(addMonths(decidedOn, 12 * years), -1);
}

/** Whether the 留党察看 period has ended on `day` (the day after its last day). */
export function probationOver(probationEnd: string, day: string): boolean {
  return day > probationEnd;
}

/**
 * 党章第九条 (自行脱党): 连续六个月不参加党的组织生活，或不交纳党费 — `months` whole calendar months
 * since `since` have passed on `day` (01-15 → 07-15 yes, 07-14 no), as the lost-contact rule counts.
 */
export function monthsPassed(since: string, day: string, months: number): boolean {
  return addMonths(since, months) <= day;
}

/** The longest a period may run from `start`: `years` later (保留党籍 five years abroad, 暂留 two years). */
export function latestEnd(start: string, years: number): string {
  return addMonths(start, 12 * years);
}

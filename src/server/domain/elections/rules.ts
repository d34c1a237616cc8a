/**
 * The election rules a guard or effect applies, as pure functions (中国共产党基层组织选举工作条例, 2020;
 * 中国共产党章程). The counting itself is src/shared/ballot.ts.
 */
import { addDays, addMonths } from '../../../shared/calendar.js';

/** Organisation types (DJ_DZZ_LB): 1 党委, 2 党总支, 3 党支部, 4 联合党支部, 5 临时党支部. */
export const COMMITTEE_TYPE = '1';

/**
 * 条例: 党的基层委员会每届任期五年，总支部委员会、支部委员会每届任期三年. Some schools let certain branches
 * (student branches) serve two years: x-workflow.params.minBranchTermYears.
 */
export function termYearsProblem(orgType: string | null, years: number, minBranchYears: number): string | undefined {
  if (orgType === COMMITTEE_TYPE) return years === 5 ? undefined : '党的基层委员会每届任期五年（《中国共产党基层组织选举工作条例》）';
  const min = Math.min(3, Math.max(2, minBranchYears));
  if (years >= min && years <= 3) return undefined;
  return min === 3 ? '党总支、党支部委员会每届任期三年（《中国共产党基层组织选举工作条例》）' : `党总支、党支部委员会每届任期${min}至3年（《中国共产党基层组织选举工作条例》及本校规定）`;
}

/** The default term of an organisation type. */
export const defaultTermYears = (orgType: string | null): number => (orgType === COMMITTEE_TYPE ? 5 : 3);

/** The body an organisation elects (选举产生) by its type. */
export const bodyOf = (orgType: string | null): string => (orgType === COMMITTEE_TYPE ? '党的委员会' : orgType === '2' ? '党总支委员会' : '党支部委员会');

/** 党章第七条: 预备党员没有表决权、选举权和被选举权. */
export const probationaryRefusal = (name: string, as: '选举权' | '被选举权') =>
  `“${name}”是预备党员，没有表决权、选举权和被选举权，不能列入${as === '选举权' ? '有选举权的党员名册' : '候选人'}（《中国共产党章程》第七条）`;

/** A term due for election within `months` of `today`, or overdue. */
export function termDue(termEnd: string, today: string, months: number): { due: boolean; overdue: boolean } {
  return { due: termEnd <= addMonths(today, months), overdue: termEnd < today };
}

/** The new term: from the assembly's day, `years` long (ends the day before the same date `years` later). */
export function newTermOf(start: string, years: number): { termStart: string; termEnd: string } {
  return { termStart: start, termEnd: addDays(addMonths(start, years * 12), -1) };
}

/**
 * Rules of members' daily management as pure functions (docs/organisation-life.md), cited from
 * 《中国共产党支部工作条例（试行）》(2018) and 《中国共产党党员教育管理工作条例》(2019).
 */

import type { GradeCounts } from '../ballot.js';

/** The grades of 民主评议党员 (dictionary DJ_PY_DC), best first, with the field of `appraisal-result` holding each one's votes. */
export const APPRAISAL_GRADES = [
  { value: '1', label: '优秀', votes: 'votesExcellent' },
  { value: '2', label: '合格', votes: 'votesQualified' },
  { value: '3', label: '基本合格', votes: 'votesBasic' },
  { value: '4', label: '不合格', votes: 'votesUnqualified' },
] as const;
export type AppraisalGrade = (typeof APPRAISAL_GRADES)[number]['value'];
export const EXCELLENT: AppraisalGrade = '1';
export const APPRAISAL_GRADE_VALUES: readonly AppraisalGrade[] = APPRAISAL_GRADES.map((g) => g.value);

/** A result row's votes as typed (`votesExcellent`, ...). */
export type AppraisalVotes = Partial<Record<(typeof APPRAISAL_GRADES)[number]['votes'], number | null>>;

/** A result row's votes as counts per grade, the shape the ballot component (src/shared/ballot.ts) counts and checks. */
export function appraisalCounts(votes: AppraisalVotes): GradeCounts<AppraisalGrade> {
  return Object.fromEntries(APPRAISAL_GRADES.map((g) => [g.value, votes[g.votes] ?? 0])) as GradeCounts<AppraisalGrade>;
}

/**
 * The most members a branch may grade 优秀: the school's cap as a share of the members appraised, rounded down
 * (党员教育管理工作条例 2019 第二十九条 leaves the share to the level above; schools set it, e.g. 30%).
 */
export const excellentCap = (members: number, capPercent: number): number => Math.floor((members * capPercent) / 100 + 1e-9);

/** The cap's refusal, or nothing when `excellent` is within it (exactly the cap passes, one more is refused). */
export function excellentCapProblem(excellent: number, members: number, capPercent: number): string | undefined {
  const cap = excellentCap(members, capPercent);
  return excellent > cap
    ? `评定为“优秀”的党员（${excellent}名）超过比例上限：参评${members}名的${capPercent}%，最多${cap}名（《党员教育管理工作条例》第二十九条，学校设定的优秀比例）`
    : undefined;
}

/** The calendar year of a date 'YYYY-MM-DD' as its first and last day (a talk on 12-31 counts for that year). */
export function yearBounds(year: number): [string, string] {
  return [`${year}-01-01`, `${year}-12-31`];
}

/** Names of a branch's committee as the organisation record lists them (书记, 副书记, 委员会成员: separated by 、，, ; or spaces). */
export function committeeNames(org: { secretary?: string | null; deputySecretary?: string | null; committee?: string | null }): { secretary: string[]; committee: string[] } {
  const split = (s?: string | null) => (s ?? '').split(/[、，,；;\s]+/).map((x) => x.trim()).filter(Boolean);
  const secretary = split(org.secretary);
  const committee = [...new Set([...secretary, ...split(org.deputySecretary), ...split(org.committee)])];
  return { secretary, committee };
}

export interface TalkFact {
  talkerId: number;
  memberId: number;
}
export interface CoverageMember {
  id: number;
  name: string;
}

/**
 * 谈心谈话 coverage of one branch in one year (支部工作条例 第十六条: 支部委员会成员和党员之间每年至少谈心谈话一次；
 * 党支部书记与每名支委每年至少谈一次): the members no committee member talked with, and the committee members
 * the secretary did not talk with. Committee members themselves count as covered by the secretary's talk.
 */
export function talkCoverage(members: CoverageMember[], committeeIds: Set<number>, secretaryIds: Set<number>, talks: TalkFact[]) {
  const byCommittee = new Set<number>();
  const bySecretary = new Set<number>();
  for (const t of talks) {
    if (committeeIds.has(t.talkerId)) byCommittee.add(t.memberId);
    if (secretaryIds.has(t.talkerId)) bySecretary.add(t.memberId);
  }
  const uncovered = members.filter((m) => !committeeIds.has(m.id) && !byCommittee.has(m.id));
  const committeeMissed = members.filter((m) => committeeIds.has(m.id) && !secretaryIds.has(m.id) && !bySecretary.has(m.id));
  const required = members.length - (secretaryIds.size && members.some((m) => secretaryIds.has(m.id)) ? 1 : 0);
  const covered = required - uncovered.length - committeeMissed.length;
  return { members: members.length, required, covered, uncovered, committeeMissed, rate: required > 0 ? covered / required : 1 };
}

/** The secretary post is vacant over the limit from the day after `since` + `months` (软弱涣散 default: 3 months; on the day itself it is not yet over). */
export const secretaryVacantTooLong = (since: string, today: string, months: number): boolean => addMonths(since, months) < today;

/** `date` plus `months`, a day the month lacks becoming its last (08-31 + 6 = 02-28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = (total % 12) + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${ny}-${String(nm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Weighted total of an assessment: Σ score/maxScore × weight, two decimals. */
export function weightedTotal(scores: { score: number; maxScore: number; weight: number }[]): number {
  const total = scores.reduce((s, x) => s + (x.maxScore > 0 ? (x.score / x.maxScore) * x.weight : 0), 0);
  return Math.round(total * 100) / 100;
}

/** Ranks with ties (1, 2, 2, 4) by a value, highest first. */
export function rankBy<T>(rows: T[], value: (r: T) => number): (T & { rank: number })[] {
  const sorted = [...rows].sort((a, b) => value(b) - value(a));
  let rank = 0;
  return sorted.map((r, i) => {
    if (i === 0 || value(r) !== value(sorted[i - 1])) rank = i + 1;
    return { ...r, rank };
  });
}

/**
 * The share of required meetings held in each quarter of a year (0–1), from compliance periods
 * ('2026-01' months, '2026-Q1' quarters; a year's period belongs to no quarter); null for a quarter with
 * nothing due yet (its periods still open and not met).
 */
export function quarterRates(periods: { period: string; compliant: boolean; open: boolean }[]): (number | null)[] {
  return [1, 2, 3, 4].map((q) => {
    const due = periods.filter((p) => {
      const m = /^\d{4}-(?:(\d{2})|Q(\d))$/.exec(p.period);
      if (!m) return false;
      const quarter = m[1] ? Math.ceil(Number(m[1]) / 3) : Number(m[2]);
      return quarter === q && (!p.open || p.compliant);
    });
    return due.length ? due.filter((p) => p.compliant).length / due.length : null;
  });
}

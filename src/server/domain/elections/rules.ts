/**
 * The election rules a guard or effect applies, as pure functions (中国共产党基层组织选举工作条例, 2020;
 * 中国共产党章程). The counting itself is src/shared/ballot.ts.
 */
import { addDays, addMonths } from '../../../shared/calendar.js';

/** Organisation types (DJ_DZZ_LB): 1 党委, 2 党总支, 3 党支部, 4 联合党支部, 5 临时党支部. */
export const COMMITTEE_TYPE = '1';

/**
 * 条例: 党的基层委员会每届任期五年，总支部委员会、支部委员会每届任期三年 — within 党章第三十条's range (基层委员会
 * 三年至五年, 总支部、支部委员会两年或三年), so a school may set them (x-workflow.params committeeTermYears,
 * branchTermYears, and minBranchTermYears to let certain branches, e.g. students', serve two years).
 */
export function termYearsProblem(orgType: string | null, years: number, minBranchYears: number, committeeYears = 5, branchYears = 3): string | undefined {
  if (orgType === COMMITTEE_TYPE) {
    const want = Math.min(5, Math.max(3, committeeYears));
    return years === want ? undefined : `党的基层委员会每届任期${want === 5 ? '五' : want === 4 ? '四' : '三'}年（《中国共产党基层组织选举工作条例》，《中国共产党章程》第三十条）`;
  }
  const max = Math.min(3, Math.max(2, branchYears));
  const min = Math.min(max, Math.max(2, minBranchYears));
  if (years >= min && years <= max) return undefined;
  return min === max ? `党总支、党支部委员会每届任期${max === 3 ? '三' : '两'}年（《中国共产党基层组织选举工作条例》）` : `党总支、党支部委员会每届任期${min}至${max}年（《中国共产党基层组织选举工作条例》及本校规定）`;
}

/** The body of a 纪委 term (org-term.body): its own term beside the 党委's. */
export const DISCIPLINE_BODY = '纪委';

/** The term body (org-term.body: 党委, 纪委, 总支, 支部) an election's body makes. */
export function termBodyOf(electionBody: string, orgType: string | null): string {
  if (electionBody === '纪律检查委员会') return DISCIPLINE_BODY;
  if (electionBody === '党的委员会') return '党委';
  if (electionBody === '党总支委员会') return '总支';
  if (electionBody === '党支部委员会') return '支部';
  return orgType === COMMITTEE_TYPE ? '党委' : orgType === '2' ? '总支' : '支部';
}

export interface SeatsFacts {
  body: string;
  seats: number;
  /** Full members of the branch with their rights. */
  fullMembers: number;
  seatsApproved: number | null;
  minMembers: number;
  minSeats: number;
  maxSeats: number;
}

/**
 * Committee size: a 支部 with fewer than `minMembers` (7) full members sets no committee and elects a
 * secretary (and, when needed, a deputy): 1 or 2 seats; with 7 or more its committee has `minSeats` (3) to
 * `maxSeats` (7) (支部委员会由3至5人组成，一般不超过7人); a 党委, 总支 or 纪委 the seats approved by the level above.
 */
export function seatsProblem(f: SeatsFacts): string | undefined {
  if (f.body === '党代会代表') return undefined;
  if (f.body !== '党支部委员会') {
    return f.seatsApproved !== null && f.seats !== f.seatsApproved ? `应选委员名额应为上级党组织批准的${f.seatsApproved}名` : undefined;
  }
  if (f.fullMembers < f.minMembers) {
    return f.seats <= 2 ? undefined : `正式党员不足${f.minMembers}人（现${f.fullMembers}人）的党支部不设支部委员会，只选举书记1名，必要时副书记1名：应选名额为1或2`;
  }
  return f.seats >= f.minSeats && f.seats <= f.maxSeats ? undefined : `有正式党员${f.minMembers}人以上的党支部设支部委员会，由${f.minSeats}至5人组成，一般不超过${f.maxSeats}人：应选名额应为${f.minSeats}至${f.maxSeats}`;
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

/**
 * The delegate number allocated to electoral units by their member count (largest remainder), every unit
 * with members getting at least one when the number allows. The sum is the number.
 */
export function allocateDelegates(quota: number, units: readonly { id: number; members: number }[]): Map<number, number> {
  const total = units.reduce((n, u) => n + u.members, 0);
  const out = new Map<number, number>(units.map((u) => [u.id, 0]));
  if (!total || quota <= 0) return out;
  const shares = units.map((u) => ({ id: u.id, exact: (quota * u.members) / total }));
  for (const s of shares) out.set(s.id, Math.floor(s.exact));
  let left = quota - shares.reduce((n, s) => n + Math.floor(s.exact), 0);
  for (const s of [...shares].sort((a, b) => b.exact - Math.floor(b.exact) - (a.exact - Math.floor(a.exact)) || a.id - b.id)) {
    if (left <= 0) break;
    out.set(s.id, out.get(s.id)! + 1);
    left--;
  }
  const withMembers = units.filter((u) => u.members > 0);
  if (quota >= withMembers.length) {
    for (const u of withMembers) {
      if (out.get(u.id)! > 0) continue;
      const richest = [...out].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
      out.set(richest[0], richest[1] - 1);
      out.set(u.id, 1);
    }
  }
  return out;
}

export interface StructureFacts {
  gender: string | null;
  ethnicity: string | null;
  birthDate: string | null;
  frontLine: boolean | null;
}

export const AGE_BANDS = ['35岁及以下', '36至45岁', '46至55岁', '56岁及以上'] as const;

function ageBand(birthDate: string | null, today: string): (typeof AGE_BANDS)[number] | null {
  if (!birthDate) return null;
  let age = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4));
  if (today.slice(5) < birthDate.slice(5)) age--;
  return age <= 35 ? AGE_BANDS[0] : age <= 45 ? AGE_BANDS[1] : age <= 55 ? AGE_BANDS[2] : AGE_BANDS[3];
}

const share = (n: number, of: number) => (of ? Math.round((n * 1000) / of) / 10 : 0);

/** The structure of a set of people: women, minorities (not 汉族 01), front line, age bands; counts and percentages. */
export function structureOf(people: readonly StructureFacts[], today: string) {
  const n = people.length;
  const women = people.filter((p) => p.gender === '2').length;
  const minorities = people.filter((p) => p.ethnicity && p.ethnicity !== '01').length;
  const frontLine = people.filter((p) => p.frontLine).length;
  const ages = Object.fromEntries(AGE_BANDS.map((b) => [b, 0])) as Record<(typeof AGE_BANDS)[number], number>;
  for (const p of people) {
    const band = ageBand(p.birthDate, today);
    if (band) ages[band]++;
  }
  return {
    total: n,
    women: { count: women, percent: share(women, n) },
    minorities: { count: minorities, percent: share(minorities, n) },
    frontLine: { count: frontLine, percent: share(frontLine, n) },
    ages: AGE_BANDS.map((band) => ({ band, count: ages[band], percent: share(ages[band], n) })),
  };
}

/**
 * What the structure check flags: women and minorities below their share among the members, front-line
 * delegates not a majority (the common requirement of 党代会 notices: 一线党员代表一般不少于代表总数的一半…).
 */
export function structureWarnings(delegates: ReturnType<typeof structureOf>, members: ReturnType<typeof structureOf>): string[] {
  const warnings: string[] = [];
  if (!delegates.total) return warnings;
  if (delegates.women.percent < members.women.percent) warnings.push(`女性代表比例${delegates.women.percent}%，低于党员中女性比例${members.women.percent}%`);
  if (members.minorities.count && delegates.minorities.percent < members.minorities.percent) warnings.push(`少数民族代表比例${delegates.minorities.percent}%，低于党员中少数民族比例${members.minorities.percent}%`);
  if (delegates.frontLine.percent < 50) warnings.push(`一线党员代表比例${delegates.frontLine.percent}%，一般应不少于代表总数的一半`);
  return warnings;
}

/**
 * Pure functions that derive a read-only field from other fields of the same record (`x-computed`).
 * The server computes them on every read; the web form may call the same function to show the value
 * while the user types. Computed values are never stored, so they cannot be filtered or sorted on.
 */
import { addDays, addMonths, isDate } from '../calendar.js';
import { ownValue } from '../own.js';
import { quorumOf } from '../meetings/rules.js';

export interface ComputedFunction {
  /** Chinese description for docs and tooling. */
  description: string;
  /** How many field arguments it takes. */
  arity: number;
  /** The JSON type of the result; a computed field must declare the same type. */
  result: 'integer' | 'number' | 'string' | 'boolean';
  compute(args: unknown[], today: string): unknown;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** Full years from a 'YYYY-MM-DD' date to `today` ('YYYY-MM-DD'); null for an empty or future date. */
export function fullYearsBetween(from: unknown, today: string): number | null {
  if (typeof from !== 'string') return null;
  const a = DATE.exec(from);
  const b = DATE.exec(today);
  if (!a || !b) return null;
  let years = Number(b[1]) - Number(a[1]);
  if (b[2] + b[3] < a[2] + a[3]) years -= 1;
  return years >= 0 ? years : null;
}

/** The local calendar date as 'YYYY-MM-DD' (the server's time zone: the school's). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export const COMPUTED_FUNCTIONS: Readonly<Record<string, ComputedFunction>> = {
  age: {
    description: '年龄：出生日期到今天的周岁',
    arity: 1,
    result: 'integer',
    compute: ([birthDate], today) => fullYearsBetween(birthDate, today),
  },
  partyAge: {
    description: '党龄：入党日期到今天的整年数',
    arity: 1,
    result: 'integer',
    compute: ([joinDate], today) => fullYearsBetween(joinDate, today),
  },
  probationStatus: {
    description: '预备期：预备党员入党一年内为“预备期内”，期满仍未转正为“预备期已满，待转正”',
    arity: 3,
    result: 'string',
    compute: ([memberType, joinDate, fullDate], today) => {
      if (memberType !== '2' || !isDate(joinDate) || isDate(fullDate)) return null;
      return addMonths(joinDate, 12) < today ? '预备期已满，待转正' : '预备期内';
    },
  },
  meetingQuorum: {
    description: '会议到会情况：支委会到会须超过委员半数，表决的支部党员大会到会须超过应到会有表决权人数的半数（src/shared/meetings/rules.ts）',
    arity: 5,
    result: 'string',
    compute: ([type, attendeeIds, committeeSize, entitled, votes]) => quorumOf({ type, attendeeIds, committeeSize, entitled, votes }).text || null,
  },
  addDays: {
    description: '日期加天数：如介绍信开具日期加有效天数得到有效期至',
    arity: 2,
    result: 'string',
    compute: ([date, days]) => (isDate(date) && typeof days === 'number' && Number.isInteger(days) ? addDays(date, days) : null),
  },
  difference: {
    description: '两数之差：如收回票数减无效票数得到有效票数（任一为空时为空）',
    arity: 2,
    result: 'integer',
    compute: ([a, b]) => (Number.isInteger(a) && Number.isInteger(b) ? (a as number) - (b as number) : null),
  },
};

export interface ComputedSpec {
  fn: string;
  args: string[];
}

/** The value of one computed field for a record (null when the function is unknown or inputs are missing). */
export function computeField(spec: ComputedSpec, record: Record<string, unknown>, today: string = localToday()): unknown {
  const fn = ownValue(COMPUTED_FUNCTIONS, spec.fn);
  if (!fn) return null;
  return fn.compute(spec.args.map((a) => record[a]), today) ?? null;
}

/**
 * Statutory retirement ages (constants, not school settings): 《全国人民代表大会常务委员会关于实施渐进式延迟法定
 * 退休年龄的决定》(2024-09-13, in force 2025-01-01) and its 《国务院关于渐进式延迟法定退休年龄的办法》 附件1
 * (男职工) and 附件2 (原法定退休年龄55周岁的女职工): from the birth month 1965-01 (men) and 1970-01 (women),
 * one month later for every four months of birth, 36 months at most — men 60 → 63 from birth 1976-09,
 * women cadres 55 → 58 from birth 1981-09. Women cadres at 处级 (正处 05, 副处 06) and above, and women with a
 * senior professional title (正高/副高), retire at 60 (组通字〔2015〕14号《关于机关事业单位县处级女干部和具有高级职称的
 * 女性专业技术人员退休年龄问题的通知》), or at the statutory age of women if they chose to (申请提前).
 */
import { addMonths, isDate } from '../calendar.js';

export const RETIREMENT_DECISION = '《全国人民代表大会常务委员会关于实施渐进式延迟法定退休年龄的决定》（2024年）及《国务院关于渐进式延迟法定退休年龄的办法》';
export const RETIREMENT_FEMALE_CADRES = '组通字〔2015〕14号';

/** The schedule of one original age: from which birth month the delay starts, one more month per `every`, at most `max`. */
export interface DelaySchedule {
  original: number;
  fromYear: number;
  fromMonth: number;
  every: number;
  max: number;
}

export const MEN: DelaySchedule = { original: 60, fromYear: 1965, fromMonth: 1, every: 4, max: 36 };
export const WOMEN_CADRES: DelaySchedule = { original: 55, fromYear: 1970, fromMonth: 1, every: 4, max: 36 };
/** 组通字〔2015〕14号: 60, the same age men had; the decision delays only the 50 and 55 lines of women and men's 60. */
export const FEMALE_SENIOR_AGE = 60;

/** GB_JBXX_XZJB codes at 处级 and above (正部 01 … 副处 06). */
const CHU_AND_ABOVE = new Set(['01', '02', '03', '04', '05', '06']);
/** GB_JBXX_ZYJSZC: 正高 1, 副高 2 and their titles 1xx, 2xx. */
export const isSeniorTitle = (title: unknown) => typeof title === 'string' && /^[12]/.test(title);

/** Months of delay for a birth month (YYYY-MM-DD or YYYY-MM). */
export function delayMonths(birthDate: string, s: DelaySchedule): number {
  const k = (Number(birthDate.slice(0, 4)) - s.fromYear) * 12 + (Number(birthDate.slice(5, 7)) - s.fromMonth);
  return k < 0 ? 0 : Math.min(s.max, Math.floor(k / s.every) + 1);
}

export interface RetirementInput {
  birthDate?: unknown;
  /** DJ_COMM_XB: 1 男, 2 女. */
  gender?: unknown;
  rank?: unknown;
  title?: unknown;
  /** A woman entitled to 60 who chose the statutory age of women. */
  retireEarly?: unknown;
}

/** The statutory retirement age in months, or null without birth date. */
export function retirementAgeMonths(c: RetirementInput): number | null {
  if (!isDate(c.birthDate)) return null;
  if (c.gender !== '2') return MEN.original * 12 + delayMonths(c.birthDate, MEN);
  const women = WOMEN_CADRES.original * 12 + delayMonths(c.birthDate, WOMEN_CADRES);
  const entitled = (typeof c.rank === 'string' && CHU_AND_ABOVE.has(c.rank)) || isSeniorTitle(c.title);
  return entitled && c.retireEarly !== true ? FEMALE_SENIOR_AGE * 12 : women;
}

/** The day the age is reached (a birthday the month lacks: its last day). */
export function statutoryRetireDate(c: RetirementInput): string | null {
  const months = retirementAgeMonths(c);
  return months === null ? null : addMonths(c.birthDate as string, months);
}

/** 60岁3个月 */
export const ageLabel = (months: number) => `${Math.floor(months / 12)}岁${months % 12 ? `${months % 12}个月` : ''}`;

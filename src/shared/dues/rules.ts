/**
 * The party dues standard: who pays how much a month.
 *
 * Source: 中共中央组织部《关于中国共产党党费收缴、使用和管理的规定》（中组发〔2008〕3号）:
 * - 第二条 在职党员以每月工资收入（税后）为计算基数: 3000元以下（含3000元）交纳0.5%; 3000元以上至5000元
 *   （含5000元）交纳1%; 5000元以上至10000元（含10000元）交纳1.5%; 10000元以上交纳2%.
 *   The rate applies to the whole base by band, not marginally.
 * - 第四条 离退休干部、职工党员: 离退休费总额5000元以下（含5000元）交纳0.5%; 5000元以上交纳1%.
 * - 第五条 学生党员、下岗失业的党员、依靠抚恤或救济生活的党员、领取当地最低生活保障金的党员, 每月交纳党费0.2元.
 * - 第八条 预备党员从支部大会通过其为预备党员之日起交纳党费 (probationary members pay as full members do).
 * - 第十条 党员自愿多交党费不限; 自愿一次多交纳1000元以上的党费, 全部上缴中央.
 * - 第十一条 党员应当按月交纳党费; 因特殊原因经党组织同意可以按季交纳或补交, 补交时间一般不超过6个月.
 * - 《中国共产党章程》第九条: 党员没有正当理由, 连续六个月不交纳党费, 就被认为是自行脱党.
 * Amounts are yuan with two decimals, rounded half up at the cent, computed in whole cents (money.ts).
 */
import { formatCents, mulDivRound } from './money.js';

export const DUES_RULE_SOURCE = '中组发〔2008〕3号';

export const DUES_CATEGORIES = ['in-service', 'retired', 'student', 'unemployed'] as const;
export type DuesCategory = (typeof DUES_CATEGORIES)[number];

export const DuesCategoryLabel: Readonly<Record<DuesCategory, string>> = {
  'in-service': '在职党员',
  retired: '离退休党员',
  student: '学生党员',
  unemployed: '无固定收入党员',
};

export function isDuesCategory(value: unknown): value is DuesCategory {
  return typeof value === 'string' && (DUES_CATEGORIES as readonly string[]).includes(value);
}

/** Whether the category's standard is a share of a base (in-service, retired) or a flat amount. */
export const needsBase = (category: DuesCategory) => category === 'in-service' || category === 'retired';

/** One band: bases up to `upToCents` (inclusive; null = no upper bound) pay `basisPoints` / 10,000 of the base. */
export interface Band {
  upToCents: number | null;
  basisPoints: number;
}

/** The national bands (中组发〔2008〕3号 第二条, 第四条). */
export const NATIONAL_BANDS: Readonly<Record<'in-service' | 'retired', readonly Band[]>> = {
  'in-service': [
    { upToCents: 300_000, basisPoints: 50 },
    { upToCents: 500_000, basisPoints: 100 },
    { upToCents: 1_000_000, basisPoints: 150 },
    { upToCents: null, basisPoints: 200 },
  ],
  retired: [
    { upToCents: 500_000, basisPoints: 50 },
    { upToCents: null, basisPoints: 100 },
  ],
};

/** Students and members without income: 0.20 yuan a month (第五条). */
export const FLAT_MONTHLY_CENTS = 20;

/** A single payment of this much or more goes to the Centre in full (第十条). */
export const LARGE_PAYMENT_CENTS = 100_000;

/** Back payment covers at most this many months (第十一条). */
export const MAX_BACK_PAY_MONTHS = 6;

/**
 * Whether a closed month left unpaid may be paid back (补缴) with a started month: within six months
 * (第十一条: 经党组织同意…补交, 一般不超过6个月), or at any time when the branch deferred it for a proper reason
 * (经批准缓交, 生活困难: `justified`) — that deferral put the payment off, it did not forgive it, so the member
 * can always settle it (and transfer out afterwards). A month unpaid without a proper reason for longer is
 * the branch's case under 党章第九条, not a back payment.
 */
export function backPayAllowed(lastMonth: string, targetFirstMonth: string, justified: boolean): boolean {
  return justified || monthsBetween(lastMonth, targetFirstMonth) <= MAX_BACK_PAY_MONTHS;
}

/** Unpaid this many consecutive months without a proper reason: a 自行脱党 candidate (党章第九条). */
export const LAPSE_MONTHS = 6;

export const isLargePayment = (cents: number) => cents >= LARGE_PAYMENT_CENTS;

/** "1.5%" from basis points. */
export function rateText(basisPoints: number): string {
  return `${(basisPoints / 100).toString()}%`;
}

export interface DuesStandard {
  category: DuesCategory;
  /** The base in cents (in-service, retired); null for the flat categories. */
  baseCents: number | null;
  /** Basis points of the base; null for the flat categories. */
  basisPoints: number | null;
  /** The monthly amount in cents. */
  dueCents: number;
  /** "1.5%", or "定额" for the flat categories. */
  rate: string;
  /** The rule applied, in the regulation's words. */
  rule: string;
}

const yuan = (cents: number) => formatCents(cents).replace(/\.00$/, '');

function bandRule(category: 'in-service' | 'retired', bands: readonly Band[], index: number): string {
  const band = bands[index];
  const lower = index > 0 ? bands[index - 1].upToCents : null;
  const what = category === 'in-service' ? '在职党员每月工资收入（税后）' : '离退休党员离退休费总额';
  const range =
    band.upToCents === null
      ? `${yuan(lower ?? 0)}元以上`
      : lower === null
        ? `${yuan(band.upToCents)}元以下（含${yuan(band.upToCents)}元）`
        : `${yuan(lower)}元以上至${yuan(band.upToCents)}元（含${yuan(band.upToCents)}元）`;
  return `${what}${range}，按${rateText(band.basisPoints)}交纳`;
}

/** The band a base falls in: the first whose upper bound it does not exceed. */
export function bandIndex(bands: readonly Band[], baseCents: number): number {
  const i = bands.findIndex((b) => b.upToCents === null || baseCents <= b.upToCents);
  return i < 0 ? bands.length - 1 : i;
}

/**
 * The monthly standard of a member of `category` with `baseCents` (ignored for the flat categories).
 * Throws a RangeError with a Chinese message for a missing or negative base.
 */
export function calculateDues(category: DuesCategory, baseCents: number | null, bands: Readonly<Record<'in-service' | 'retired', readonly Band[]>> = NATIONAL_BANDS): DuesStandard {
  if (!needsBase(category)) {
    const rule = category === 'student' ? '学生党员每月交纳党费0.2元' : '下岗失业、依靠抚恤或救济生活、领取最低生活保障金的党员每月交纳党费0.2元';
    return { category, baseCents: null, basisPoints: null, dueCents: FLAT_MONTHLY_CENTS, rate: '定额', rule };
  }
  if (baseCents === null || !Number.isSafeInteger(baseCents)) throw new RangeError(`${DuesCategoryLabel[category]}须填写党费计算基数`);
  if (baseCents < 0) throw new RangeError('党费计算基数不能为负数');
  const own = bands[category as 'in-service' | 'retired'];
  const i = bandIndex(own, baseCents);
  const basisPoints = own[i].basisPoints;
  return { category, baseCents, basisPoints, dueCents: mulDivRound(baseCents, basisPoints, 10_000), rate: rateText(basisPoints), rule: bandRule(category as 'in-service' | 'retired', own, i) };
}

/** The rule texts of every band, for the page that shows members how their standard is worked out. */
export function ruleTable(bands: Readonly<Record<'in-service' | 'retired', readonly Band[]>> = NATIONAL_BANDS): { category: DuesCategory; label: string; rules: string[] }[] {
  return DUES_CATEGORIES.map((category) => ({
    category,
    label: DuesCategoryLabel[category],
    rules: needsBase(category) ? bands[category as 'in-service' | 'retired'].map((_b, i) => bandRule(category as 'in-service' | 'retired', bands[category as 'in-service' | 'retired'], i)) : [calculateDues(category, null).rule],
  }));
}

/** Checks a school's bands: ascending upper bounds, the last one open, rates between 0.01% and 100%. */
export function bandsProblem(bands: readonly Band[]): string | undefined {
  if (!bands.length) return '至少需要一个档次';
  for (const [i, b] of bands.entries()) {
    if (!Number.isInteger(b.basisPoints) || b.basisPoints < 1 || b.basisPoints > 10_000) return `第${i + 1}档的比例不正确`;
    const last = i === bands.length - 1;
    if (last !== (b.upToCents === null)) return last ? '最后一档不能设上限' : `第${i + 1}档须设上限`;
    if (!last && (!Number.isSafeInteger(b.upToCents) || (i > 0 && b.upToCents! <= bands[i - 1].upToCents!))) return `第${i + 1}档的上限须大于上一档`;
  }
  return undefined;
}

/** Which dues category a member's 人员类别 (DJ_DY_RYLBXX) suggests; a standard may say otherwise. */
export function categoryOfMember(memberCategory: string | null | undefined): DuesCategory {
  switch (memberCategory) {
    case '2':
      return 'retired';
    case '3':
    case '4':
    case '5':
      return 'student';
    default:
      return 'in-service';
  }
}

// ---------------------------------------------------------------- months

/** "2026-11" → "2026年11月". */
export function monthLabel(month: string): string {
  return `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`;
}

export const isMonth = (text: unknown): text is string => typeof text === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(text);

/** The month `n` months after `month` (negative: before). */
export function addMonths(month: string, n: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Months from `a` to `b` (b − a); 0 for the same month. */
export function monthsBetween(a: string, b: string): number {
  return Number(b.slice(0, 4)) * 12 + Number(b.slice(5, 7)) - (Number(a.slice(0, 4)) * 12 + Number(a.slice(5, 7)));
}

/** The months a batch of `count` months starting at `first` covers. */
export function monthsOf(first: string, count: number): string[] {
  return Array.from({ length: count }, (_x, i) => addMonths(first, i));
}

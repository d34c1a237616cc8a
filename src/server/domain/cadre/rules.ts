/**
 * The cadre base's rules as pure functions (docs/cadres.md): the work record's continuity, the retirement
 * age by rank and gender, a term's end, and a unit's staffing against its approved posts. The hooks of
 * base.ts, resume.ts and staffing.ts and the reminder dates call them; tests/unit/cadre-rules.test.ts
 * holds them at their boundaries.
 */
import { addDays, addMonths, isDate } from '../../../shared/calendar.js';
import { statutoryRetireDate, type RetirementInput } from '../../../shared/cadre/retirement.js';

/** 干部人事档案工作条例 (2018) 第十六条 and 干部履历 practice: the work record is continuous from first employment. */
export const RULE_RESUME = '干部简历应从参加工作起连续记载，全职经历之间不得断档或重叠（《干部人事档案工作条例》）';
/** 党政领导干部选拔任用工作条例 (2019) 第五十二条. */
export const RULE_STAFFING = '不得超职数配备干部（《党政领导干部选拔任用工作条例》第五十二条）；确需超出核定职数的，须说明理由';

export interface ResumeEntry {
  id?: number;
  startDate: string;
  endDate?: string | null;
  text?: string;
  fullTime?: boolean | null;
}

/** Months are what a résumé counts in (1998.07—2002.06): an index of a date's month. */
const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
const ym = (date: string) => `${date.slice(0, 4)}.${date.slice(5, 7)}`;

/**
 * What breaks the work record's continuity, in the order of the entries: an end before its start; two
 * full-time entries overlapping (the next starting in a month before the previous one ended; the month
 * one ends may be the month the next starts); a gap between consecutive full-time entries longer than
 * `gapMonths` whole months (0: the next starts in the month after the previous ended, at the latest);
 * an open entry (至今) followed by another. Part-time entries (兼任, 挂职) may overlap anything.
 */
export function resumeProblems(entries: ResumeEntry[], gapMonths = 0): string[] {
  const problems: string[] = [];
  for (const e of entries) if (e.endDate && e.endDate < e.startDate) problems.push(`经历“${e.text ?? ''}”的结束日期（${e.endDate}）早于开始日期（${e.startDate}）`);
  const full = entries.filter((e) => e.fullTime !== false && isDate(e.startDate)).sort((a, b) => a.startDate.localeCompare(b.startDate) || (a.id ?? 0) - (b.id ?? 0));
  for (let i = 1; i < full.length; i++) {
    const prev = full[i - 1];
    const next = full[i];
    if (!prev.endDate) {
      problems.push(`经历“${prev.text ?? ''}”（${ym(prev.startDate)}至今）之后还有经历“${next.text ?? ''}”（${ym(next.startDate)}起）：至今的经历应为最后一段。${RULE_RESUME}`);
      continue;
    }
    const gap = monthIndex(next.startDate) - monthIndex(prev.endDate) - 1;
    if (gap < -1) problems.push(`经历“${next.text ?? ''}”（${ym(next.startDate)}起）与“${prev.text ?? ''}”（至${ym(prev.endDate)}）重叠。${RULE_RESUME}`);
    else if (gap > gapMonths) problems.push(`经历“${prev.text ?? ''}”（至${ym(prev.endDate)}）与“${next.text ?? ''}”（${ym(next.startDate)}起）之间断档${gap}个月${gapMonths ? `，超过允许的${gapMonths}个月` : ''}。${RULE_RESUME}`);
  }
  return problems;
}

/**
 * The day a cadre reaches the statutory retirement age (the 2025 decision's table by birth month, and
 * 组通字〔2015〕14号 for women at 处级 or with a senior title: src/shared/cadre/retirement.ts). The ages are
 * statute, not school settings.
 */
export function retirementDateOf(c: RetirementInput): string | null {
  return statutoryRetireDate(c);
}

/** 在任 and 试用期 are serving (GB_JBXX_RZZT 1, 2): the age reminder covers both. */
export const isServing = (tenureStatus: unknown) => tenureStatus === '1' || tenureStatus === '2';

/** A term's end: `years` after the post's start (5 by default, a setting per post). */
export function termEndOf(startDate: unknown, years: unknown, defaultYears = 5): string | null {
  if (!isDate(startDate)) return null;
  const y = typeof years === 'number' && years > 0 ? years : defaultYears;
  return addMonths(startDate, 12 * y);
}

export type StaffingStatus = '空缺' | '满编' | '超编';

/** A unit's posts of one rank against the approved number. */
export function staffingFigures(approved: number, occupied: number): { occupied: number; vacant: number; excess: number; status: StaffingStatus } {
  return {
    occupied,
    vacant: Math.max(0, approved - occupied),
    excess: Math.max(0, occupied - approved),
    status: occupied < approved ? '空缺' : occupied === approved ? '满编' : '超编',
  };
}

export interface RankStep {
  rank: string;
  /** The dictionary's label of the rank, when the record carries it. */
  rankLabel?: string;
  /** The day the cadre first held a 职务 post of this rank. */
  since: string;
  /** The post that reached it. */
  postId: number;
  postTitle: string | null;
  /** The rank's last day: the day before the next rank was reached; null while it is the current one. */
  until: string | null;
}

/**
 * Rank history (任职级经历) from a cadre's posts: the 职务 posts in order of start, a step each time the rank
 * changes (a return to a former rank after a probation's dismissal is a step too), titles left out.
 */
export function rankHistory(posts: Record<string, unknown>[]): RankStep[] {
  const held = posts
    .filter((p) => p.kind !== '职称' && typeof p.rank === 'string' && p.rank && isDate(p.startDate))
    .sort((a, b) => String(a.startDate).localeCompare(String(b.startDate)) || Number(a.id) - Number(b.id));
  const steps: RankStep[] = [];
  for (const p of held) {
    const last = steps.at(-1);
    if (last && last.rank === p.rank) continue;
    if (last) last.until = addDays(String(p.startDate), -1);
    const label = p.rankLabel;
    steps.push({ rank: p.rank as string, ...(typeof label === 'string' && { rankLabel: label }), since: p.startDate as string, postId: Number(p.id), postTitle: (p.postTitle as string | null) ?? null, until: null });
  }
  return steps;
}

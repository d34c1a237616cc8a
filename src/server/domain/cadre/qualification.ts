/**
 * 任职资格 of a promotion (提任) as pure functions, checked at 动议 and again at 讨论决定 (appointment-checks.ts):
 * 《党政领导干部选拔任用工作条例》(2019) 第八条 — (一) 提任县处级领导职务的，应当具有五年以上工龄和两年以上基层
 * 工作经历; (三) 由副职提任正职的，应当在副职岗位工作两年以上，由下级正职提任上级副职的，应当在下级正职岗位工作
 * 三年以上; (四) 一般应当具有大学专科以上文化程度，其中厅局级以上领导干部一般应当具有大学本科以上文化程度.
 * 第九条: 破格提拔 — passes only with its reason and approval recorded. The years are `x-workflow.params` of
 * `appointment` (deputyToChiefYears 2, chiefToDeputyYears 3, countyWorkYears 5, grassrootsYears 2).
 */
import { addMonths, isDate } from '../../../shared/calendar.js';

export const RULE_QUALIFICATION = '《党政领导干部选拔任用工作条例》第八条';
export const RULE_EXCEPTION = '破格提拔须记录破格理由和批准情况（《党政领导干部选拔任用工作条例》第九条）';

export interface QualificationParams {
  deputyToChiefYears: number;
  chiefToDeputyYears: number;
  countyWorkYears: number;
  grassrootsYears: number;
}
export const DEFAULT_QUALIFICATION: QualificationParams = { deputyToChiefYears: 2, chiefToDeputyYears: 3, countyWorkYears: 5, grassrootsYears: 2 };

/** GB_JBXX_XZJB: the levels and their 正/副 codes (厅 03/04, 处 05/06, 科 07/08). */
const LEVELS: { level: string; chief: string; deputy: string }[] = [
  { level: '部级', chief: '01', deputy: '02' },
  { level: '厅级', chief: '03', deputy: '04' },
  { level: '处级', chief: '05', deputy: '06' },
  { level: '科级', chief: '07', deputy: '08' },
];
const levelOf = (rank: string) => LEVELS.findIndex((l) => l.chief === rank || l.deputy === rank);
const isChief = (rank: string) => LEVELS.some((l) => l.chief === rank);

export interface PostSpan {
  rank: string | null;
  startDate: string | null;
  endDate: string | null;
}

export interface QualificationInput {
  /** The cadre's current rank and its date (任现职级时间) when no post of that rank is recorded. */
  rank: string | null;
  rankDate: string | null;
  /** 参加工作时间: the archive's confirmed date (三龄) where set, else the cadre's. */
  workStart: string | null;
  grassrootsYears: number | null;
  /** GB_JBXX_XL code of the highest education. */
  education: string | null;
  posts: PostSpan[];
}

/** Whether the days spent in posts of `rank` up to `on` (overlaps counted once) make `years` years. */
export function servedYears(posts: PostSpan[], rank: string, on: string, years: number, fallbackStart: string | null): boolean {
  const spans = posts
    .filter((p) => p.rank === rank && isDate(p.startDate) && p.startDate <= on)
    .map((p) => [p.startDate as string, p.endDate && p.endDate < on ? p.endDate : on] as [string, string])
    .sort((a, b) => a[0].localeCompare(b[0]));
  if (!spans.length && isDate(fallbackStart)) spans.push([fallbackStart, on]);
  const day = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / 86_400_000;
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of spans) {
    const from = Math.max(day(s), end);
    if (day(e) > from) total += day(e) - from;
    end = Math.max(end, day(e));
  }
  return total >= day(on) - day(addMonths(on, -12 * years));
}

/** The education first digit: 1 研究生, 2 本科, 3 专科, 4+ below. */
const educationLevel = (code: string | null) => (code && /^\d/.test(code) ? Number(code[0]) : 9);

/** What keeps the cadre from the promotion to `target` on `on`: each a sentence naming its rule. */
export function qualificationProblems(c: QualificationInput, target: string, on: string, p: QualificationParams = DEFAULT_QUALIFICATION): string[] {
  const problems: string[] = [];
  const to = levelOf(target);
  const from = c.rank ? levelOf(c.rank) : -1;
  if (to >= 0 && from >= 0 && c.rank) {
    if (from === to && !isChief(c.rank) && isChief(target) && !servedYears(c.posts, c.rank, on, p.deputyToChiefYears, c.rankDate)) {
      problems.push(`由副职提任正职，应当在副职岗位工作${p.deputyToChiefYears}年以上（${RULE_QUALIFICATION}第三项）`);
    }
    if (from === to + 1 && isChief(c.rank) && !isChief(target) && !servedYears(c.posts, c.rank, on, p.chiefToDeputyYears, c.rankDate)) {
      problems.push(`由下级正职提任上级副职，应当在下级正职岗位工作${p.chiefToDeputyYears}年以上（${RULE_QUALIFICATION}第三项）`);
    }
  }
  if (LEVELS[2].chief === target || LEVELS[2].deputy === target) {
    if (!isDate(c.workStart) || addMonths(c.workStart, 12 * p.countyWorkYears) > on) problems.push(`提任县处级领导职务，应当具有${p.countyWorkYears}年以上工龄（${RULE_QUALIFICATION}第一项）`);
    if ((c.grassrootsYears ?? 0) < p.grassrootsYears) problems.push(`提任县处级领导职务，应当具有${p.grassrootsYears}年以上基层工作经历（${RULE_QUALIFICATION}第一项）`);
  }
  const needed = to >= 0 && to <= 1 ? 2 : 3;
  if (to >= 0 && educationLevel(c.education) > needed) problems.push(`${needed === 2 ? '厅局级以上领导干部一般应当具有大学本科以上' : '一般应当具有大学专科以上'}文化程度（${RULE_QUALIFICATION}第四项）`);
  return problems;
}

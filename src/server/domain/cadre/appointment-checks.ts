/**
 * The checks of an appointment before its 讨论决定 (guards of `appointment`'s x-workflow):
 * - 凡提四查 (中共中央办公厅《关于进一步从严管理干部的意见》 and 《条例》第二十六条 考察): 干部人事档案, 个人有关事项报告,
 *   纪检监察机关意见, 信访举报 — each recorded (who, when, conclusion, attachment); `decide` is refused naming the
 *   missing check, or the one that concluded 不宜提拔.
 * - 民主推荐 results are valid for one year (《条例》第十九条 and the 2019 practice: 民主推荐结果在一年内有效;
 *   `params.recommendValidYears`); votes cannot exceed participants.
 * - 任职资格 of a promotion at 动议 and 讨论决定 (qualification.ts, 《条例》第八条), a 破格 (第九条) with its reason
 *   and approval recorded.
 */
import { sql } from 'kysely';
import { addMonths, isDate } from '../../../shared/calendar.js';
import { registerGuard, type GuardContext, type GuardResult } from '../../runtime/index.js';
import { DEFAULT_QUALIFICATION, RULE_EXCEPTION, qualificationProblems, type QualificationParams } from './qualification.js';

export const PROMOTION_KIND = '提拔任职';
export const NOT_FIT = '不宜提拔';

/** The four checks: field prefix and title. */
export const FOUR_CHECKS: [prefix: string, title: string][] = [
  ['checkArchive', '干部人事档案'],
  ['checkReport', '个人有关事项报告'],
  ['checkDiscipline', '纪检监察机关意见'],
  ['checkPetition', '信访举报'],
];
export const RULE_FOUR_CHECKS = '凡提四查：干部人事档案“凡提必审”、个人有关事项报告“凡提必核”、纪检监察机关意见“凡提必听”、线索具体的信访举报“凡提必查”';

const num = (ctx: GuardContext, key: string, fallback: number) => (typeof ctx.params[key] === 'number' ? (ctx.params[key] as number) : fallback);
const dateOf = (ctx: GuardContext, field: string) => (isDate(ctx.values[field]) ? (ctx.values[field] as string) : isDate(ctx.next[field]) ? (ctx.next[field] as string) : ctx.today);

/** 凡提四查 before 讨论决定. */
registerGuard('appointment.fourChecks', (ctx): GuardResult => {
  const problems: { field: string; message: string }[] = [];
  for (const [prefix, title] of FOUR_CHECKS) {
    const r = ctx.next;
    const missing = ['By', 'Date', 'Result'].filter((s) => r[`${prefix}${s}`] === null || r[`${prefix}${s}`] === undefined || r[`${prefix}${s}`] === '');
    if (missing.length) problems.push({ field: `${prefix}Result`, message: `尚未记录“${title}”的核查（核查人、日期和结论）。${RULE_FOUR_CHECKS}` });
    else if (r[`${prefix}Result`] === NOT_FIT) problems.push({ field: `${prefix}Result`, message: `“${title}”的核查结论为不宜提拔，不能讨论决定。${RULE_FOUR_CHECKS}` });
  }
  return problems.length ? { problems } : undefined;
});

/** 民主推荐: votes within participants (at 民主推荐), and its result valid for a year (at 讨论决定). */
registerGuard('appointment.recommendation', (ctx): GuardResult => {
  const r = ctx.next;
  if (typeof r.recommendVotes === 'number' && typeof r.recommendParticipants === 'number' && r.recommendVotes > r.recommendParticipants) {
    return { problems: [{ field: 'recommendVotes', message: `得票数（${r.recommendVotes}）不能超过参加推荐人数（${r.recommendParticipants}）` }] };
  }
  if (ctx.transition.id !== 'decide' || !isDate(r.recommendDate)) return undefined;
  const years = num(ctx, 'recommendValidYears', 1);
  const on = dateOf(ctx, 'decisionDate');
  if (on > addMonths(r.recommendDate, 12 * years)) {
    return { problems: [{ field: 'decisionDate', message: `民主推荐（${r.recommendDate}）的结果已超过${years}年有效期，须重新进行民主推荐（《党政领导干部选拔任用工作条例》第十九条）` }] };
  }
  return undefined;
});

/** 任职资格 of a promotion at 动议 and 讨论决定; a 破格 passes with its reason and approval, as a warning. */
registerGuard('appointment.qualification', async (ctx): Promise<GuardResult> => {
  const r = ctx.next;
  if (r.kind !== PROMOTION_KIND || typeof r.cadreId !== 'number' || typeof r.rank !== 'string') return undefined;
  const on = dateOf(ctx, ctx.transition.id === 'decide' ? 'decisionDate' : 'proposeDate');
  const cadre = (await sql<{ rank: string | null; rank_date: string | null; work_start: string | null; grassroots_years: number | null; education: string | null }>`
    SELECT c.rank, c.rank_date::text, COALESCE(
        (SELECT a.work_start_confirmed FROM m_cadre_archive a WHERE a.cadre_id = c.id AND a.work_start_confirmed IS NOT NULL ORDER BY a.review_date DESC NULLS LAST, a.id DESC LIMIT 1),
        c.work_start_date)::text AS work_start, c.grassroots_years, c.education
    FROM m_cadre c WHERE c.id = ${r.cadreId}`.execute(ctx.trx)).rows[0];
  if (!cadre) return undefined;
  const posts = (await sql<{ rank: string | null; startDate: string | null; endDate: string | null }>`
    SELECT rank, start_date::text AS "startDate", end_date::text AS "endDate" FROM m_cadre_post WHERE cadre_id = ${r.cadreId} AND kind = '职务'`.execute(ctx.trx)).rows;
  const params = Object.fromEntries(Object.entries(DEFAULT_QUALIFICATION).map(([k, v]) => [k, num(ctx, k, v)])) as unknown as QualificationParams;
  const problems = qualificationProblems({ rank: cadre.rank, rankDate: cadre.rank_date, workStart: cadre.work_start, grassrootsYears: cadre.grassroots_years, education: cadre.education, posts }, r.rank, on, params);
  if (!problems.length) return undefined;
  const reason = typeof r.exceptionReason === 'string' ? r.exceptionReason.trim() : '';
  const approval = typeof r.exceptionApproval === 'string' ? r.exceptionApproval.trim() : '';
  if (reason && approval) return { warnings: problems.map((p) => `破格提拔：${p}（理由：${reason}；批准：${approval}）`) };
  return { problems: problems.map((message) => ({ field: 'rank', message: `${message}；确需破格的，${RULE_EXCEPTION}` })) };
});

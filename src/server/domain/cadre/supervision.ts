/**
 * The supervision records a 组织部 keeps per cadre (issue 39 §5, docs/cadres.md): 干部请假 (`cadre-leave`),
 * 干部兼职 (`cadre-parttime`), 个人有关事项报告 (`cadre-report`) and 考察对象 (`cadre-inspect`). Each record
 * carries the cadre's name and unit as they are when it is written (the list's columns and the data scope,
 * `x-scope: unitId`, read them). The numbers the rules use are rule parameters declared in the schemas
 * (`x-workflow.params`, `x-params`), read where the rule applies, never literals here.
 *
 * - 干部请假: 《党政领导干部选拔任用工作条例》(2019) 纪律和监督 asks that cadres be managed and supervised; the
 *   school's 干部请假报告制度 sets who approves — no national article fixes a number of days, so the days
 *   above which 校党委 approves is the school's rule parameter `cadre-leave.committeeDays` (default 5).
 * - 干部兼职: 中共中央组织部《关于进一步规范党政领导干部在企业兼职（任职）问题的意见》(2013, 中组发〔2013〕18号)
 *   and the 高校 rules (《关于加强高等学校领导人员兼职管理的意见》 and the 问答 on 高校、科研院所领导人员兼职管理):
 *   a part-time post needs approval, in 社会团体 their number is limited — `cadre-parttime.maxSocialPosts`
 *   (default 3, a school default), counted among the cadre's approved posts not ended when the new one starts.
 * - 个人有关事项报告: 《领导干部报告个人有关事项规定》(2017) — 每年1月31日前集中报告一次上一年度的事项
 *   (`cadre-report.dueMonth`, `cadre-report.dueDay`) — and 《领导干部个人有关事项报告查核结果处理办法》: a check
 *   that finds the report not true to the facts (漏报, 瞒报) is dealt with (处理意见). One record per cadre and
 *   year; serving cadres of 县处级副职 and above without the current year's are reminded (expected-record source).
 * - 考察对象: 《党政领导干部选拔任用工作条例》(2019) 第四章 考察 — the 考察对象 come from the 民主推荐 (and its
 *   result): a record names an appointment past 民主推荐, once per cadre and appointment.
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths, daysBetween, isDate, yearOf } from '../../../shared/calendar.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, registerHook, type GuardContext, type GuardResult, type Runtime, type WriteHookContext } from '../../runtime/index.js';
import { numberParamOn } from '../../runtime/params/registry.js';
import { paramRule } from '../../runtime/params/refusal.js';
import { registerExpectedSource } from '../../runtime/reminders/model.js';
import { unitsOf } from '../../runtime/scope.js';
import { menuPagePath } from '../../runtime/workflow/links.js';
import { cadreOf } from './abroad.js';

let runtime: Runtime | undefined;

/** The runtime, for the report's reminders recomputed in its write's transaction (cadreArea sets it). */
export function useRuntimeForSupervision(r: Runtime): void {
  runtime = r;
  // A deleted report: its cadre is expected again; an import of several: once more after the commit (the
  // transaction's first batch recomputed them in the write, see cadreReport.remind). The daily run finds both as well.
  r.events.on('write', (e) => {
    const m = e.module === REPORT && (e.action === 'delete' || e.ids.length > 1) ? r.module(REPORT) : undefined;
    if (m) void r.reminders.expectedChanged(m).catch(() => undefined);
  });
}

const REPORT = 'cadre-report';
const invalid = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });
const refuse = (field: string, message: string): GuardResult => ({ problems: [{ field, message }] });

/** The cadre's name and unit on the record, when it is new or names another cadre. */
async function placeByCadre(ctx: WriteHookContext): Promise<Record<string, unknown>> {
  const r = ctx.record;
  const prev = ctx.previous ?? {};
  if (ctx.action === 'create' || (r.cadreId !== undefined && r.cadreId !== prev.cadreId)) {
    const cadre = await cadreOf(ctx.trx, r.cadreId ?? prev.cadreId);
    Object.assign(r, { name: cadre.name, unitId: cadre.unit_id });
  }
  return { ...prev, ...r };
}

// ------------------------------------------------------------------ 干部请假

export const LEAVE_APPROVER = { orgDept: '党委组织部', committee: '校党委' } as const;
const COMMITTEE_DAYS = 'committeeDays';
const DEFAULT_COMMITTEE_DAYS = 5;

/** The days of a leave, both ends counted (a leave of one day starts and ends on it). */
export const leaveDays = (start: string, end: string): number => daysBetween(start, end) + 1;

/** Who approves a leave of `days` days: 校党委 above `committeeDays`, else 党委组织部 (the school's rule). */
export const leaveApproverOf = (days: number, committeeDays: number): string => (days > committeeDays ? LEAVE_APPROVER.committee : LEAVE_APPROVER.orgDept);

registerHook('cadreLeave.write', async (ctx) => {
  if (ctx.action === 'delete') return;
  const next = await placeByCadre(ctx);
  if (!isDate(next.startDate) || !isDate(next.endDate)) return;
  if (next.endDate < next.startDate) throw invalid('endDate', `结束日期（${next.endDate}）不能早于开始日期（${next.startDate}）`);
  const days = leaveDays(next.startDate, next.endDate);
  const limit = await numberParamOn(`cadre-leave.${COMMITTEE_DAYS}`, DEFAULT_COMMITTEE_DAYS);
  Object.assign(ctx.record, { days, approver: leaveApproverOf(days, limit) });
});

const paramNumber = (ctx: GuardContext, name: string, fallback: number) => (typeof ctx.params[name] === 'number' ? (ctx.params[name] as number) : fallback);

/** 党委组织部审批 up to committeeDays days, 校党委审批 above them (the parameter in force on the step's day). */
registerGuard('cadreLeave.approver', (ctx) => {
  const days = ctx.next.days;
  if (typeof days !== 'number') return;
  const limit = paramNumber(ctx, COMMITTEE_DAYS, DEFAULT_COMMITTEE_DAYS);
  const approver = leaveApproverOf(days, limit);
  const wants = ctx.transition.id === 'approveCommittee' ? LEAVE_APPROVER.committee : LEAVE_APPROVER.orgDept;
  if (approver === wants) return;
  const name = String(ctx.next.name ?? '');
  const text = approver === LEAVE_APPROVER.committee ? `${name}请假${days}天，超过${limit}天，应由校党委审批` : `${name}请假${days}天，未超过${limit}天，由党委组织部审批`;
  return refuse('days', paramRule(ctx.module, COMMITTEE_DAYS, text));
});

/** The approval's date (today unless given) and the body that approved. */
registerEffect('cadreLeave.approved', (ctx) => ({
  approveDate: isDate(ctx.values.approveDate) ? ctx.values.approveDate : ctx.today,
  approver: ctx.transition.id === 'approveCommittee' ? LEAVE_APPROVER.committee : LEAVE_APPROVER.orgDept,
}));

// ------------------------------------------------------------------ 干部兼职

export const SOCIAL_ORGANISATION = '社会团体';
const MAX_SOCIAL = 'maxSocialPosts';
const DEFAULT_MAX_SOCIAL = 3;
const APPROVED = 1;
const RULE_PARTTIME = '经批准可兼任与本单位或本人教学科研领域相关的社会团体职务，兼职数量应当控制（中组发〔2013〕18号、高校领导人员兼职管理的规定）';

registerHook('cadreParttime.write', async (ctx) => {
  if (ctx.action === 'delete') return;
  const next = await placeByCadre(ctx);
  if (isDate(next.startDate) && isDate(next.endDate) && next.endDate < next.startDate) {
    throw invalid('endDate', `兼职结束日期（${next.endDate}）不能早于兼职开始日期（${next.startDate}）`);
  }
  if (next.paid !== true) {
    if (next.remuneration != null && next.remuneration !== '') ctx.record.remuneration = null; // 报酬 only of a paid post
  } else if (next.remuneration == null || next.remuneration === '') throw invalid('remuneration', '取酬的兼职请填写报酬');
});

/** The cadre's approved posts in 社会团体 not ended when `from` begins, other than record `id`. */
export async function currentSocialPosts(trx: Kysely<DB>, cadreId: number, from: string, id: number): Promise<number> {
  return (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_parttime WHERE cadre_id = ${cadreId} AND category = ${SOCIAL_ORGANISATION}
    AND state = ${APPROVED} AND id <> ${id} AND (end_date IS NULL OR end_date >= ${from}::date)`.execute(trx)).rows[0].n;
}

/** At submission and approval: at most maxSocialPosts approved, current posts in 社会团体, this one counted. */
registerGuard('cadreParttime.count', async (ctx) => {
  const r = ctx.next;
  if (r.category !== SOCIAL_ORGANISATION || typeof r.cadreId !== 'number') return;
  const limit = paramNumber(ctx, MAX_SOCIAL, DEFAULT_MAX_SOCIAL);
  const held = await currentSocialPosts(ctx.trx, r.cadreId, isDate(r.startDate) ? r.startDate : ctx.today, r.id as number);
  if (held + 1 <= limit) return;
  return refuse('category', paramRule(ctx.module, MAX_SOCIAL, `${String(r.name ?? '')}经批准、尚未结束的社会团体兼职已有${held}个，社会团体兼职不得超过${limit}个。${RULE_PARTTIME}`));
});

registerEffect('cadreParttime.approved', (ctx) => ({ approveDate: isDate(ctx.values.approveDate) ? ctx.values.approveDate : ctx.today }));

/** 结束兼职: not before the post began. */
registerGuard('cadreParttime.finish', (ctx) => {
  const { startDate, endDate } = ctx.next;
  if (isDate(startDate) && isDate(endDate) && endDate < startDate) return refuse('endDate', `兼职结束日期（${endDate}）不能早于兼职开始日期（${startDate}）`);
});

// ------------------------------------------------------------------ 个人有关事项报告

const NOT_CHECKED = '未核查';
const NOT_SAMPLED = '未抽查';
const NOT_TRUE = ['不一致（漏报）', '不一致（瞒报）'];
/** 县处级副职以上 (GB_JBXX_XZJB 01–06) report: 《领导干部报告个人有关事项规定》第二条. */
const REPORTING_RANKS = ['01', '02', '03', '04', '05', '06'];

/** The due day of a year's report: month and day of the parameters, a day the month lacks its last (02-30 → 02-28/29). */
export function reportDueDate(year: number, month: number, day: number): string {
  const first = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
  const last = addDays(addMonths(first, 1), -1);
  return addDays(first, Math.min(Math.max(day, 1), Number(last.slice(8))) - 1);
}

/** The due day of the report of the year `today` falls in, the parameters in force on `today`. */
export async function reportDueOn(today: string): Promise<string> {
  return reportDueDate(yearOf(today), await numberParamOn('cadre-report.dueMonth', 1, today), await numberParamOn('cadre-report.dueDay', 31, today));
}

registerHook('cadreReport.write', async (ctx) => {
  if (ctx.action === 'delete') return;
  const next = await placeByCadre(ctx);
  if (typeof next.year === 'number' && typeof next.cadreId === 'number') {
    const twin = (await sql<{ id: number }>`SELECT id FROM m_cadre_report WHERE cadre_id = ${next.cadreId} AND year = ${next.year} AND id <> ${ctx.id ?? 0} LIMIT 1`.execute(ctx.trx)).rows[0];
    if (twin) throw invalid('year', `${String(next.name ?? '该干部')}${next.year}年度的个人有关事项报告已存在`);
  }
  if (next.checkMethod === NOT_SAMPLED && next.checkResult && next.checkResult !== NOT_CHECKED) throw invalid('checkResult', `核查方式为“${NOT_SAMPLED}”时，核查结果应为“${NOT_CHECKED}”`);
  if (NOT_TRUE.includes(String(next.checkResult)) && !String(next.handling ?? '').trim()) {
    throw invalid('handling', `核查结果为“${String(next.checkResult)}”时请填写处理意见（《领导干部个人有关事项报告查核结果处理办法》）`);
  }
});

/** Transactions whose reports' reminders were recomputed already (a batch runs its afterWrite hooks after all its rows' SQL). */
const recomputedIn = new WeakSet<object>();

/** A report written: its cadre is no longer expected (in the write's transaction, so a refusal leaves the reminder as it was). */
registerHook('cadreReport.remind', async (ctx) => {
  if (ctx.action === 'delete' || !runtime || recomputedIn.has(ctx.trx)) return;
  if (ctx.trx.isTransaction) recomputedIn.add(ctx.trx);
  await runtime.reminders.computer.recomputeExpected(ctx.trx, ctx.module, localToday());
});

/**
 * The year's publication (`today`'s year, due on the parameters' day) and the serving cadres of 县处级副职 and
 * above without a report of that year: one reminder each, in the cadre's unit, named after the cadre.
 */
registerExpectedSource('cadreReport.unreported', async (m, db, today) => {
  const year = yearOf(today);
  const cadres = (await sql<{ id: number; name: string; unit_id: number | null }>`SELECT c.id, c.name, c.unit_id FROM m_cadre c
    WHERE (c.tenure_status IS NULL OR c.tenure_status IN ('1', '2')) AND c.rank = ANY(${REPORTING_RANKS}::text[])
      AND NOT EXISTS (SELECT 1 FROM m_cadre_report r WHERE r.cadre_id = c.id AND r.year = ${year}) ORDER BY c.id`.execute(db)).rows;
  const link = await menuPagePath(`module:${m.id}`, db);
  return [{ id: year, name: `${year}年度个人有关事项报告`, date: await reportDueOn(today), link, missing: cadres.map((c) => ({ unitId: c.unit_id, key: c.id, name: c.name })) }];
});

// ------------------------------------------------------------------ 考察对象

/** States of `appointment` past 民主推荐 (已民主推荐 and every state after it, the dismissal after probation included). */
export const pastRecommendation = (state: number): boolean => state >= 1 || state === -3;

interface AppointmentFacts {
  cadre_id: number;
  name: string | null;
  state: number;
  post: string | null;
  recommend_date: string | null;
}

registerHook('cadreInspect.write', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const prev = ctx.previous ?? {};
  const next = { ...prev, ...r };
  const a = typeof next.appointmentId === 'number'
    ? (await sql<AppointmentFacts>`SELECT cadre_id, name, state, post, recommend_date::text AS recommend_date FROM m_appointment WHERE id = ${next.appointmentId}`.execute(ctx.trx)).rows[0]
    : undefined;
  if (!a) throw invalid('appointmentId', '所选选拔任用不存在');
  if (ctx.action === 'create' || next.appointmentId !== prev.appointmentId) {
    if (!pastRecommendation(a.state)) {
      const title = runtime?.module('appointment')?.workflow?.schema.states[String(a.state)]?.title ?? String(a.state);
      throw invalid('appointmentId', `${a.name ?? ''}的选拔任用尚未经过民主推荐（当前状态：${title}），不能确定为考察对象（《党政领导干部选拔任用工作条例》第四章：考察对象在民主推荐的基础上确定）`);
    }
    const cadre = await cadreOf(ctx.trx, a.cadre_id, 'appointmentId');
    // The cadre's unit becomes the record's scope: the writer must hold it, as for any unit a write names.
    const units = unitsOf(ctx.actor);
    if (units !== 'all' && (cadre.unit_id === null || !units.includes(cadre.unit_id))) throw new HttpError(403, `${cadre.name}不在您管理的单位范围内`);
    Object.assign(r, { cadreId: a.cadre_id, name: cadre.name, unitId: cadre.unit_id, post: a.post });
    Object.assign(next, r);
  }
  if (isDate(a.recommend_date) && isDate(next.inspectDate) && next.inspectDate < a.recommend_date) {
    throw invalid('inspectDate', `考察时间（${next.inspectDate}）不能早于民主推荐日期（${a.recommend_date}）`);
  }
  const twin = (await sql<{ id: number }>`SELECT id FROM m_cadre_inspect WHERE appointment_id = ${next.appointmentId as number} AND cadre_id = ${next.cadreId as number}
    AND id <> ${ctx.id ?? 0} LIMIT 1`.execute(ctx.trx)).rows[0];
  if (twin) throw invalid('appointmentId', `${String(next.name ?? '该干部')}已是该选拔任用的考察对象`);
});

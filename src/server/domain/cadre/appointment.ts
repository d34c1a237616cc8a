/**
 * Selection and appointment (选拔任用, module `appointment`): the guards, effects and hook its x-workflow
 * and x-hooks name. The rules themselves are the pure functions of appointment-rules.ts; the staffing
 * check is the cadre base's (staffing.ts). Importing this file registers them.
 */
import { paramRule } from '../../runtime/params/refusal.js';
import { sql } from 'kysely';
import { addDays, isDate } from '../../../shared/calendar.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, registerHook, type EffectContext, type GuardContext, type GuardResult } from '../../runtime/index.js';
import { workingCalendar } from '../../runtime/working-calendar.js';
import { appointFromOf, dateProblems, probationEndOf, probationProblem, publicityProblem } from './appointment-rules.js';
import { RULE_STAFFING } from './rules.js';
import { staffingCheck } from './staffing.js';
import { TENURE, dispatchByNumber, writeLine } from './dispatch.js';
import { cataloguePost, dictLabelIn, catalogueProblem } from './unit-post.js';

export const PROMOTION = '提拔任职';

const param = (ctx: GuardContext | EffectContext, key: string, fallback: number) => (typeof ctx.params[key] === 'number' ? (ctx.params[key] as number) : fallback);
/** A date of the step: the value given, else (previewing the open steps) today. */
const stepDate = (ctx: GuardContext, field: string) => (isDate(ctx.values[field]) ? (ctx.values[field] as string) : isDate(ctx.next[field]) ? (ctx.next[field] as string) : ctx.today);
const refuse = (field: string, message: string | undefined): GuardResult => (message ? { problems: [{ field, message }] } : undefined);

/** The cadre's name on the record (the list and the to-dos name the appointment by it). */
registerHook('appointment.fromCadre', async (ctx) => {
  if (ctx.action === 'delete') return;
  const cadreId = ctx.record.cadreId;
  if (typeof cadreId !== 'number') return;
  const cadre = (await sql<{ name: string }>`SELECT name FROM m_cadre WHERE id = ${cadreId}`.execute(ctx.trx)).rows[0];
  if (!cadre) throw new HttpError(400, '所选干部不存在', { errors: [{ field: 'cadreId', message: '所选干部不存在' }] });
  ctx.record.name = cadre.name;
});

/** Every dated step: not in the future (the publicity aside), not before the step before it. */
registerGuard('appointment.dates', (ctx) => {
  if (ctx.preview) return;
  const given = Object.keys(ctx.values).filter((f) => isDate(ctx.values[f]));
  const problems = dateProblems(ctx.next, given, ctx.today);
  return problems.length ? { problems } : undefined;
});

/**
 * 任前公示 (《条例》第四十二条): after the 讨论决定 and before the 任职通知, at least five working days by the
 * holiday calendar; at 任职 the appointment date after its last day.
 */
registerGuard('appointment.publicity', async (ctx) => {
  const [start, end] = [ctx.next.publicityStart, ctx.next.publicityEnd];
  const appointing = ctx.transition.id === 'appoint' || ctx.transition.id === 'appointDirect';
  const calendar = isDate(start) && isDate(end) && start <= end ? await workingCalendar(ctx.trx, start, end) : undefined;
  // The working days in force when the 公示 started.
  const workdays = isDate(start) ? Number(ctx.paramsOn(start as string).publicityWorkdays ?? 5) : param(ctx, 'publicityWorkdays', 5);
  const problem = publicityProblem(start, end, appointing ? stepDate(ctx, 'appointDate') : undefined, workdays, calendar);
  return refuse(appointing ? 'appointDate' : 'publicityEnd', problem && problem.includes('工作日') ? paramRule(ctx.module, 'publicityWorkdays', problem) : problem);
});

/** 任职 with probation only for a promotion (《条例》第四十五条); other kinds take 任职 without it. */
registerGuard('appointment.kind', (ctx) => {
  const promotion = ctx.next.kind === PROMOTION;
  if (ctx.transition.id === 'appoint' && !promotion) return refuse('kind', `“${String(ctx.next.kind ?? '')}”不设试用期，请办理“任职”`);
  if (ctx.transition.id === 'appointDirect' && promotion) return refuse('kind', '提拔任职的须实行一年试用期，请办理“任职（试用期一年）”');
});

/** Staffing (职数): over the approved number the step warns, and without a reason it refuses. */
registerGuard('appointment.staffing', async (ctx) => {
  const r = ctx.next;
  if (typeof r.unitId !== 'number' || typeof r.rank !== 'string') return;
  // The cadre's own current post of the same unit and rank is the one this appointment replaces.
  const own = (await sql<{ id: number }>`
    SELECT id FROM m_cadre_post WHERE cadre_id = ${r.cadreId as number} AND unit_id = ${r.unitId} AND rank = ${r.rank} AND end_date IS NULL LIMIT 1`.execute(ctx.trx)).rows[0];
  const check = await staffingCheck(ctx.trx, { unitId: r.unitId, rank: r.rank, excludePostId: own?.id, today: stepDate(ctx, 'appointDate') });
  if (!check.over) return;
  const warning = check.message ?? RULE_STAFFING;
  const reason = typeof ctx.next.overReason === 'string' ? ctx.next.overReason.trim() : '';
  if (!reason && !ctx.preview) return { problems: [{ field: 'overReason', message: `${warning}；请填写超职数任用理由` }] };
  return { warnings: [reason ? `${warning}（理由：${reason}）` : warning] };
});

registerGuard('appointment.probationEnded', (ctx) => refuse('confirmDate', probationProblem(ctx.next.probationEnd, stepDate(ctx, 'confirmDate'))));

registerEffect('appointment.appointFrom', (ctx) => (isDate(ctx.next.publicityEnd) ? { appointFrom: appointFromOf(ctx.next.publicityEnd) } : undefined));

/**
 * 任职, in the step's transaction: the dispatch named by `dispatchNo` (else the decision's number) is
 * picked or created and gets the 任 line with the new post (its term, its catalogue post's title and, for a
 * promotion, the one-year probation). The posts it replaces get 免 lines (ending the day before) — but for
 * a promotion the former post is kept until the probation is confirmed (《条例》第四十五条: 不胜任的，免去
 * 试用职务，一般按照试用前职级安排工作), so a dismissal leaves the cadre in it.
 */
registerEffect('appointment.writePost', async (ctx) => {
  const r = ctx.next;
  const appointDate = r.appointDate as string;
  const w = writeAs(ctx);
  const dispatchNo = dispatchNoOf(r);
  const dispatchId = await dispatchByNumber(w, dispatchNo, appointDate, `关于${String(r.name ?? '')}等同志职务任免的通知`);
  const probationEnd = r.kind === PROMOTION ? probationEndOf(appointDate, param(ctx, 'probationYears', 1)) : null;
  if (!probationEnd) for (const p of await formerPosts(ctx, appointDate)) await writeLine(w, { dispatchId, action: '免', cadreId: r.cadreId as number, postId: p.id, lineDate: addDays(appointDate, -1), appointmentId: ctx.record.id as number });
  const described = await describePost(ctx, r);
  const post = await ctx.records('cadre-post').create(
    { cadreId: r.cadreId, unitId: r.unitId, unitPostId: r.unitPostId ?? undefined, post: r.post, rank: r.rank, startDate: appointDate, termYears: r.termYears ?? undefined, probationEnd: probationEnd ?? undefined, ...described, ...postExtras(r, dispatchNo) },
    ctx.actor,
    { trx: ctx.trx, source: ctx.source },
  );
  await writeLine(w, { dispatchId, action: '任', cadreId: r.cadreId as number, postId: post.id as number, lineDate: appointDate, appointmentId: ctx.record.id as number });
  await updateCadre(ctx, {
    unitId: r.unitId, post: r.post, rank: r.rank, postDate: appointDate, rankDate: appointDate,
    postTitle: described.postTitle, postAttr: described.postAttr, category: categoryOf(r.rank as string),
    tenureStatus: probationEnd ? TENURE.probation : TENURE.serving,
  });
  return { postId: post.id, probationEnd, dispatchNo };
});

const writeAs = (ctx: EffectContext) => ({ actor: ctx.actor, trx: ctx.trx, source: ctx.source });
const dispatchNoOf = (r: Record<string, unknown>) => String((typeof r.dispatchNo === 'string' && r.dispatchNo.trim()) || r.decisionDocNo || '').trim();

/** The cadre's open full-time 职务 posts started before `date`, the appointment's own post left out (a 职称 or a part-time post is not replaced). */
async function formerPosts(ctx: EffectContext, date: string): Promise<{ id: number; unit_id: number; post: string | null; rank: string | null; post_title: string | null; post_attr: string | null; start_date: string }[]> {
  return (await sql<{ id: number; unit_id: number; post: string | null; rank: string | null; post_title: string | null; post_attr: string | null; start_date: string }>`
    SELECT id, unit_id, post, rank, post_title, post_attr, start_date::text FROM m_cadre_post
    WHERE cadre_id = ${ctx.next.cadreId as number} AND kind = '职务' AND COALESCE(full_time, true) AND end_date IS NULL AND (start_date IS NULL OR start_date < ${date})
      AND id <> ${typeof ctx.next.postId === 'number' ? ctx.next.postId : 0} ORDER BY start_date DESC NULLS LAST, id DESC`.execute(ctx.trx)).rows;
}

/**
 * The new post's 职务全称 (the unit's name and the catalogue post's title, else the post's label) and 职务属性
 * (GB_JBXX_ZWSX: 1 正职 for the 正 ranks 01/03/05/07, 2 副职 otherwise; the catalogue's 正/副 when named).
 */
async function describePost(ctx: EffectContext, r: Record<string, unknown>): Promise<{ postTitle: string; postAttr: string }> {
  const unit = (await sql<{ name: string }>`SELECT name FROM m_unit WHERE id = ${r.unitId as number}`.execute(ctx.trx)).rows[0]?.name ?? '';
  const catalogue = typeof r.unitPostId === 'number' ? await cataloguePost(ctx.trx, r.unitPostId) : undefined;
  const head = catalogue?.head;
  const label = catalogue?.title ?? (await dictLabelIn(ctx.trx, 'GB_JBXX_ZW', String(r.post))) ?? '';
  const chief = head ? head === '正职' : ['01', '03', '05', '07'].includes(String(r.rank));
  return { postTitle: `${unit}${label}`, postAttr: chief ? '1' : '2' };
}

/** 干部类别 (GB_JBXX_GBLB) by rank: 处级 and above 中层领导干部 (2), below 科级干部 (3) — the demo's categories. */
const categoryOf = (rank: string) => (rank <= '06' ? '2' : '3');

/** The cadre's own record follows its current post (现任职务, 职级, 任现职时间, 任职状态). */
async function updateCadre(ctx: EffectContext, values: Record<string, unknown>): Promise<void> {
  const cadres = ctx.records('cadre');
  const cadre = await cadres.readRow(ctx.next.cadreId as number, ctx.trx);
  if (!cadre) return;
  const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== undefined && cadre[k] !== v));
  if (changed.rank === undefined) delete changed.rankDate;
  if (Object.keys(changed).length) await cadres.update({ id: cadre.id, version: cadre.version, ...changed }, ctx.actor, { trx: ctx.trx, source: ctx.source });
}

/** What the post records of the appointment besides the contract's fields: a full-time leading post, its document and the staffing reason. */
function postExtras(r: Record<string, unknown>, dispatchNo: string): Record<string, unknown> {
  return { kind: '职务', fullTime: true, appointDocNo: dispatchNo || undefined, overReason: r.overReason ?? undefined };
}

/** Writes one field of the appointment's post (the post the appointment created). */
async function updatePost(ctx: EffectContext, values: Record<string, unknown>): Promise<void> {
  const postId = ctx.next.postId;
  if (typeof postId !== 'number') return;
  const posts = ctx.records('cadre-post');
  const post = await posts.readRow(postId, ctx.trx);
  if (post) await posts.update({ id: postId, version: post.version, ...values }, ctx.actor, { trx: ctx.trx, source: ctx.source });
}

/** The dispatch of a later step (转正, 免职): the step's number, else the appointment's. */
const laterDispatch = (ctx: EffectContext, date: string) => dispatchByNumber(writeAs(ctx), dispatchNoOf(ctx.next), date, `关于${String(ctx.next.name ?? '')}同志职务任免的通知`);

/**
 * 试用期满转正: the post records the confirmation (its probation reminder ends with it), and the former
 * posts kept through the probation end the day before, each with its 免 line.
 */
registerEffect('appointment.confirmPost', async (ctx) => {
  const confirmDate = (ctx.next.confirmDate as string | undefined) ?? ctx.today;
  await updatePost(ctx, { confirmDate });
  const former = await formerPosts(ctx, ctx.next.appointDate as string);
  if (former.length) {
    const dispatchId = await laterDispatch(ctx, confirmDate);
    for (const p of former) await writeLine(writeAs(ctx), { dispatchId, action: '免', cadreId: ctx.next.cadreId as number, postId: p.id, lineDate: addDays(confirmDate, -1), appointmentId: ctx.record.id as number });
  }
  await updateCadre(ctx, { tenureStatus: TENURE.serving });
});

/**
 * 试用期不合格: the post on probation ends on the day of the decision (免去试用职务) with its 免 line; the
 * former post, kept through the probation, is current again and the cadre's record follows it.
 */
registerEffect('appointment.endPost', async (ctx) => {
  const date = (ctx.next.confirmDate as string | undefined) ?? ctx.today;
  if (typeof ctx.next.postId === 'number') {
    const dispatchId = await laterDispatch(ctx, date);
    await writeLine(writeAs(ctx), { dispatchId, action: '免', cadreId: ctx.next.cadreId as number, postId: ctx.next.postId, lineDate: date, appointmentId: ctx.record.id as number });
  }
  const [former] = await formerPosts(ctx, ctx.next.appointDate as string);
  if (!former) return updateCadre(ctx, { tenureStatus: TENURE.removed });
  await updateCadre(ctx, {
    unitId: former.unit_id, post: former.post ?? undefined, rank: former.rank ?? undefined, postDate: former.start_date, rankDate: await rankSince(ctx, former.rank),
    postTitle: former.post_title ?? undefined, postAttr: former.post_attr ?? undefined, category: former.rank ? categoryOf(former.rank) : undefined, tenureStatus: TENURE.serving,
  });
});

/** The day the cadre first reached `rank` by its posts (任现职级时间 back at the former rank). */
async function rankSince(ctx: EffectContext, rank: string | null): Promise<string | undefined> {
  if (!rank) return undefined;
  const row = (await sql<{ since: string | null }>`SELECT min(start_date)::text AS since FROM m_cadre_post WHERE cadre_id = ${ctx.next.cadreId as number} AND kind = '职务' AND rank = ${rank}`.execute(ctx.trx)).rows[0];
  return row?.since ?? undefined;
}

/**
 * 职位目录: the appointment's catalogue post (when named) must be the unit's, open on the step's date, and
 * of the rank proposed (unit-post.ts: a rank above or below the post's is refused naming both).
 */
registerGuard('appointment.postRank', async (ctx) => {
  if (typeof ctx.next.unitPostId !== 'number') return;
  const p = await cataloguePost(ctx.trx, ctx.next.unitPostId);
  if (!p) return refuse('unitPostId', '所选职位不存在');
  const field = ctx.transition.id === 'propose' ? 'proposeDate' : ctx.transition.id === 'decide' ? 'decisionDate' : 'appointDate';
  const problem = await catalogueProblem(ctx.trx, p, { unitId: ctx.next.unitId, rank: ctx.next.rank, date: stepDate(ctx, field) });
  return problem ? { problems: [problem] } : undefined;
});

/** An appointment naming a catalogue post: its unit and 职务 follow the catalogue's. */
registerHook('appointment.fromCatalogue', async (ctx) => {
  if (ctx.action === 'delete') return;
  const id = ctx.record.unitPostId ?? ctx.previous?.unitPostId;
  if (typeof id !== 'number' || ctx.record.unitPostId === undefined) return;
  const p = await cataloguePost(ctx.trx, id);
  if (!p) throw new HttpError(400, '所选职位不存在', { errors: [{ field: 'unitPostId', message: '所选职位不存在' }] });
  ctx.record.unitId = p.unitId;
  if (p.post) ctx.record.post = p.post;
});

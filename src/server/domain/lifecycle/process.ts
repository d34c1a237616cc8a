/**
 * Guards and effects of the lifecycle processes (出党, 停止/恢复党籍, 党纪处分, 出国（境）, 暂留): the rules a
 * step must satisfy, each with its article, and the change of the member's 党籍状态 in the step's
 * transaction — the only writes of that read-only field besides the transfers' (WriteOptions.set).
 */
import { chineseDate, isDate } from '../../../shared/calendar.js';
import { latestEnd, monthsPassed, probationOver } from '../../../shared/lifecycle/rules.js';
import { ACTIVE_MEMBER_STATUS } from '../../../shared/party-members.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, type EffectContext, type GuardResult } from '../../runtime/index.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { lastContactOfMember } from '../transfer/lost-contact.js';
import { lapseEvidence, longestRun, memberFacts } from './facts.js';
import { evidenceValues } from './hooks.js';

export const STATUS = { normal: '1', lost: '2', stopped: '3', left: '4', dead: '5' } as const;
const problem = (message: string, field?: string): GuardResult => ({ problems: [{ message, ...(field && { field }) }] });
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const dayOf = (v: unknown, fallback: string) => (isDate(v) ? v : fallback);

/** Sets the member's 党籍状态 through the member module (trail with the process as the source). */
export async function setPartyStatus(ctx: EffectContext, memberId: number, status: string): Promise<void> {
  const members = ctx.records('member');
  const row = await members.readRow(memberId, ctx.trx);
  if (!row) throw new HttpError(400, '该党员的档案不存在');
  // The step's actor acts; their scope is widened only by the record's own branch (the engine checked it).
  const actor = ctx.actor.scope === 'all' ? ctx.actor : { ...ctx.actor, scope: [...ctx.actor.scope, ctx.record.orgId as number] };
  await members.update({ id: memberId, version: row.version }, actor, { trx: ctx.trx, source: ctx.source, set: { partyStatus: status } });
}

export function registerLifecycleProcess(modules: () => { transferIn?: RuntimeModule; floating?: RuntimeModule }): void {
  /** The member is on the roster (正常) — a member who left, died or was stopped is not processed again. */
  registerGuard('lifecycle.onRoster', async (ctx) => {
    const m = await memberFacts(ctx.trx, ctx.next.memberId);
    if (!m) return problem('该党员的档案不存在', 'memberId');
    if (m.partyStatus !== ACTIVE_MEMBER_STATUS && !(ctx.module.id === 'member-quit' && m.partyStatus === STATUS.stopped)) {
      return problem(`${m.name}的党籍状态已不是“正常”，不能办理`, 'memberId');
    }
  });

  /**
   * The basis of leaving, by kind. 除名 (党章第九条): 连续六个月 (params.lapseMonths) 不参加党的组织生活或
   * 不交纳党费 — six whole months since the last organisation life attended (or, never attending, since
   * joining), or that many consecutive months of dues unpaid, on the branch meeting's date. 开除党籍: an
   * approved discipline record of 开除党籍, or a 留党察看 whose end decided 开除党籍. 死亡: the date is not ahead.
   */
  registerGuard('lifecycle.quitBasis', async (ctx) => {
    const r = ctx.next;
    const day = dayOf(r.meetingDate, ctx.today);
    if (day > ctx.today) return problem('支部大会日期不能晚于今天', 'meetingDate');
    if (r.kind === '2') {
      const months = num(ctx.params.lapseMonths, 6);
      const m = await memberFacts(ctx.trx, r.memberId);
      const e = await lapseEvidence(ctx.trx, r.memberId as number, day);
      const since = e.lastMeetingDate ?? m?.joinDate ?? null;
      const absent = since !== null && monthsPassed(since, day, months);
      const unpaid = longestRun(e.months) >= months;
      if (!absent && !unpaid) {
        return problem(
          `不符合自行脱党的条件：须连续${months}个月不参加组织生活或不交纳党费（党章第九条）。${since ? `最后参加组织生活为${chineseDate(since)}` : ''}${e.months.length ? `，欠缴党费${e.months.length}个月` : '，无欠缴党费'}`,
          'kind',
        );
      }
    }
    if (r.kind === '3') {
      const d = typeof r.disciplineId === 'number' ? await ctx.records('member-discipline').readRow(r.disciplineId, ctx.trx) : undefined;
      const expelled = d && d.memberId === r.memberId && ((d.kind === '5' && d.state === 1) || (d.kind === '4' && d.endDecision === '开除党籍'));
      if (!expelled) return problem('开除党籍须依据该党员已批准的开除党籍处分（或留党察看期满决定开除党籍）', 'disciplineId');
    }
    if (r.kind === '4' && isDate(r.deathDate) && r.deathDate > ctx.today) return problem('死亡日期不能晚于今天', 'deathDate');
  });

  /** The evidence is taken again when the branch meeting decides (the record shows what it decided on). */
  registerEffect('lifecycle.quitEvidence', async (ctx) => evidenceValues(ctx.trx, ctx.next.memberId as number, dayOf(ctx.next.meetingDate, ctx.today)));

  /**
   * 上级党委审批: the member leaves the party from the leave date — the approval's date, or the date of
   * death — 出党 (4) or 死亡 (5), in the step's transaction.
   */
  registerEffect('lifecycle.memberQuits', async (ctx) => {
    const r = ctx.next;
    const leaveDate = r.kind === '4' ? (r.deathDate as string) : dayOf(r.approveDate, ctx.today);
    await setPartyStatus(ctx, r.memberId as number, r.kind === '4' ? STATUS.dead : STATUS.left);
    return { leaveDate };
  });

  /**
   * 停止党籍 (《中国共产党党员教育管理工作条例》; 2014年《关于加强和改进流动党员管理工作的意见》): only for a
   * member out of touch six months or more (params.lostContactMonths) on the branch meeting's date;
   * 恢复党籍 only for a member whose membership is stopped.
   */
  registerGuard('lifecycle.suspendBasis', async (ctx) => {
    const r = ctx.next;
    const m = await memberFacts(ctx.trx, r.memberId);
    if (!m) return problem('该党员的档案不存在', 'memberId');
    const day = dayOf(r.meetingDate, ctx.today);
    if (day > ctx.today) return problem('支部大会日期不能晚于今天', 'meetingDate');
    if (r.kind === '恢复党籍') {
      if (m.partyStatus !== STATUS.stopped) return problem(`${m.name}的党籍状态不是“停止党籍”，无需恢复`, 'kind');
      return;
    }
    if (m.partyStatus !== STATUS.normal && m.partyStatus !== STATUS.lost) return problem(`${m.name}的党籍状态不是“正常”或“失联”，不能停止党籍`, 'kind');
    const months = num(ctx.params.lostContactMonths, 6);
    const last = await lastContactOfMember(ctx.trx, m.id, modules());
    if (!last || !monthsPassed(last, day, months)) {
      return problem(`${m.name}最后联系日期为${chineseDate(last)}，失去联系未满${months}个月，不能停止党籍`, 'kind');
    }
  });

  registerEffect('lifecycle.suspendStatus', async (ctx) => {
    await setPartyStatus(ctx, ctx.next.memberId as number, ctx.next.kind === '恢复党籍' ? STATUS.normal : STATUS.stopped);
  });

  /** 留党察看期满处理: from the day after the last day of the period (党章第四十条), not on it. */
  registerGuard('lifecycle.probationEnded', (ctx) => {
    const r = ctx.next;
    if (r.kind !== '4' || !isDate(r.probationEnd)) return problem('只有留党察看处分有察看期满处理', 'endDecision');
    const day = dayOf(r.endDecidedOn, ctx.today);
    if (day > ctx.today) return problem('期满处理日期不能晚于今天', 'endDecidedOn');
    if (!ctx.preview && !probationOver(r.probationEnd, day)) return problem(`留党察看期至${chineseDate(r.probationEnd)}届满，期满后方可处理`, 'endDecidedOn');
  });

  /**
   * 党员出国（境）: abroad over six months (params.minMonths) the branch decides 保留党籍 — for at most five
   * years (params.keepYears) — or 停止党籍 (中组部《关于出国（境）学习研究的党员管理的规定》).
   */
  registerGuard('lifecycle.abroadPlan', (ctx) => {
    const r = ctx.next;
    if (!isDate(r.leaveDate)) return problem('请填写出国（境）日期', 'leaveDate');
    const long = !isDate(r.expectedReturnDate) || monthsPassed(r.leaveDate, r.expectedReturnDate, num(ctx.params.minMonths, 6));
    if (!long) return;
    if (!r.decision) return problem(`出国（境）${num(ctx.params.minMonths, 6)}个月以上的，须决定保留党籍或停止党籍`, 'decision');
    if (r.decision === '保留党籍') {
      const latest = latestEnd(r.leaveDate, num(ctx.params.keepYears, 5));
      if (!isDate(r.keptUntil)) return problem('保留党籍须填写保留期限', 'keptUntil');
      if (r.keptUntil > latest) return problem(`保留党籍最长不超过${num(ctx.params.keepYears, 5)}年，即至${chineseDate(latest)}`, 'keptUntil');
    }
  });

  /** Approved: 停止党籍 takes effect now; 保留党籍 keeps the member on the roster. */
  registerEffect('lifecycle.abroadStatus', async (ctx) => {
    if (ctx.next.decision === '停止党籍') await setPartyStatus(ctx, ctx.next.memberId as number, STATUS.stopped);
  });

  /** 回国: a member whose membership was stopped abroad is restored (恢复党籍) after the branch's check. */
  registerEffect('lifecycle.abroadBack', async (ctx) => {
    const m = await memberFacts(ctx.trx, ctx.next.memberId);
    if (m?.partyStatus === STATUS.stopped) await setPartyStatus(ctx, m.id, STATUS.normal);
    return { returnDate: dayOf(ctx.values.returnDate, ctx.today) };
  });

  /**
   * 毕业生组织关系暂留 (《关于加强新形势下发展党员和党员管理工作的意见》, 毕业生党员组织关系管理): at most two
   * years (params.stayYears) from graduation: the last day allowed is graduation + 2 years.
   */
  registerGuard('lifecycle.stayPeriod', (ctx) => {
    const r = ctx.next;
    if (!isDate(r.graduationDate)) return problem('请填写毕业日期', 'graduationDate');
    if (!isDate(r.stayUntil)) return problem('请填写暂留期限', 'stayUntil');
    const latest = latestEnd(r.graduationDate, num(ctx.params.stayYears, 2));
    if (r.stayUntil > latest) return problem(`组织关系暂留最长不超过${num(ctx.params.stayYears, 2)}年，即至${chineseDate(latest)}`, 'stayUntil');
    if (r.stayUntil < r.graduationDate) return problem('暂留期限不能早于毕业日期', 'stayUntil');
  });
}

/**
 * Guards of the transfer workflows (x-workflow guards): the rules a step must satisfy, each refusing with
 * the rule's own words. Registered by `registerTransferGuards`.
 */
import { chineseDate, isDate } from '../../../shared/calendar.js';
import { duesRefusal, letterRefusal } from '../../../shared/transfer/rules.js';
import { registerGuard, type GuardContext, type GuardResult } from '../../runtime/index.js';
import { duesStanding } from './dues-source.js';
import { BRANCH_TYPES, STATUS_NORMAL, memberFacts, orgFacts } from './facts.js';

const problem = (message: string, field?: string): GuardResult => ({ problems: [{ message, ...(field && { field }) }] });

/** The field holding the member's branch on a transfer record. */
const memberOrgField = (ctx: GuardContext) => (ctx.module.id === 'transfer-internal' ? 'fromOrgId' : 'orgId');

export function registerTransferGuards(): void {
  /**
   * The member is still on the roster, in good standing, in the branch the transfer starts from (a member
   * moved or stopped meanwhile cannot be transferred on an old application).
   */
  registerGuard('transfer.memberOnRoster', async (ctx) => {
    const member = await memberFacts(ctx.trx, ctx.next.memberId);
    if (!member) return problem('该党员的档案不存在', 'memberId');
    if (member.partyStatus !== STATUS_NORMAL) return problem(`${member.name}的党籍状态已不是“正常”，不能办理组织关系转接`, 'memberId');
    const from = ctx.next[memberOrgField(ctx)];
    if (member.orgId !== from) {
      const now = await orgFacts(ctx.trx, member.orgId);
      return problem(`${member.name}现所在党支部为“${now?.name ?? '未知'}”，与申请时不同，请退回后重新申请`, 'memberId');
    }
  });

  /** 校内转接: the receiving organisation is a branch, and not the member's own (《中国共产党党员组织关系介绍信》管理). */
  registerGuard('transfer.internalTarget', async (ctx) => {
    const to = await orgFacts(ctx.trx, ctx.next.toOrgId);
    if (!to || !BRANCH_TYPES.has(to.type ?? '')) return problem('转入党组织须为党支部（联合党支部、临时党支部）', 'toOrgId');
    const member = await memberFacts(ctx.trx, ctx.next.memberId);
    if (member && member.orgId === to.id) return problem('转入党支部不能是党员当前所在的党支部', 'toOrgId');
  });

  /**
   * 《关于中国共产党党费收缴、使用和管理的规定》(2008): 党员转移组织关系时, 应交清党费 — refused while the
   * dues area knows of unpaid months; passes when the dues area has no record of the member.
   */
  registerGuard('transfer.duesPaid', async (ctx) => {
    const standing = await duesStanding(ctx.trx, ctx.next.memberId as number);
    const refusal = standing ? duesRefusal(standing.unpaidMonths) : null;
    if (refusal) return problem(refusal, 'duesPaidTo');
  });

  /**
   * 组织关系介绍信有效期: a letter is received up to its issue date plus its validity in days; an expired
   * letter is refused, naming the day it expired. Received on the step's arrival date, else today.
   */
  registerGuard('transfer.letterValid', async (ctx) => {
    const day = isDate(ctx.values.arriveDate) ? ctx.values.arriveDate : ctx.today;
    if (day > ctx.today) return problem('转入日期不能晚于今天', 'arriveDate');
    const refusal = letterRefusal(ctx.next.issueDate, ctx.next.validDays, day);
    if (refusal) return problem(refusal, 'issueDate');
  });

  /** 校外转入: the member is received by a branch, one the deciding committee manages. */
  registerGuard('transfer.branchAssigned', async (ctx) => {
    const org = await orgFacts(ctx.trx, ctx.next.toOrgId);
    if (!org || !BRANCH_TYPES.has(org.type ?? '')) return problem('请分配接收的党支部（须为党支部）', 'toOrgId');
    const scope = ctx.actor.scope;
    if (scope !== 'all' && !scope.includes(org.id)) return problem('只能分配到本单位所属的党支部', 'toOrgId');
  });

  /** A receipt comes back after the letter went out (or the member arrived), and not in the future. */
  registerGuard('transfer.receiptDate', async (ctx) => {
    const date = ctx.values.receiptDate;
    if (!isDate(date)) return;
    if (date > ctx.today) return problem('回执日期不能晚于今天', 'receiptDate');
    const since = (ctx.next.issueDate ?? ctx.next.arriveDate) as string | null;
    if (isDate(since) && date < since) return problem(`回执日期不能早于${chineseDate(since)}`, 'receiptDate');
  });

  /** The end of floating: not before it began, not in the future. */
  registerGuard('transfer.returnDate', async (ctx) => {
    const date = ctx.values.returnDate;
    if (!isDate(date)) return;
    if (date > ctx.today) return problem('返回日期不能晚于今天', 'returnDate');
    if (isDate(ctx.next.leaveDate) && date < ctx.next.leaveDate) return problem(`返回日期不能早于外出（流入）日期${chineseDate(ctx.next.leaveDate)}`, 'returnDate');
  });
}

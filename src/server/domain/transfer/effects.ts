/**
 * Effects of the transfer workflows: what a step changes besides the transfer itself, in the step's
 * transaction. The member's branch or status changes exactly once, on the last step, through the member
 * module (validated, trailed with the transfer as the change's source).
 */
import { isDate, isMonth, yearOf } from '../../../shared/calendar.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import { registerEffect, type EffectContext } from '../../runtime/index.js';
import { duesStanding } from './dues-source.js';
import { STATUS_NORMAL, STATUS_TRANSFERRED_OUT } from './facts.js';
import { cancelLetters, issueLetterNumber } from './letters.js';
import { memberToReadmit } from './takeover.js';

/**
 * Writes to the member act with the scope of the step's actor (issue 25.3), widened only by the
 * organisations the transfer itself names (its sending and receiving branch, which the engine checked
 * when they were written) and, for a member who left the school and comes back, their last branch.
 */
function processActor(ctx: EffectContext, extra: (number | null)[] = []): Actor {
  const { scope } = ctx.actor;
  if (scope === 'all') return ctx.actor;
  const named = [ctx.next.fromOrgId, ctx.next.toOrgId, ctx.next.orgId, ...extra].filter((id): id is number => typeof id === 'number');
  return { ...ctx.actor, scope: [...new Set([...scope, ...named])] };
}

const dateOr = (value: unknown, fallback: string) => (isDate(value) ? value : fallback);

async function updateMember(ctx: EffectContext, memberId: number, values: Record<string, unknown>, extraOrgs: (number | null)[] = [], set?: Record<string, unknown>): Promise<void> {
  const members = ctx.records('member');
  const member = await members.readRow(memberId, ctx.trx);
  if (!member) throw new HttpError(400, '该党员的档案不存在');
  await members.update({ id: memberId, version: member.version, ...values }, processActor(ctx, extraOrgs), { trx: ctx.trx, source: ctx.source, set });
}

export function registerTransferEffects(school: () => string): void {
  /** 校内转接, the last step: the member's branch becomes the receiving one. */
  registerEffect('transfer.moveMember', async (ctx) => {
    await updateMember(ctx, ctx.next.memberId as number, { orgId: ctx.next.toOrgId });
    return { completeDate: dateOr(ctx.values.completeDate, ctx.today) };
  });

  /** 开具介绍信: the next number of the year's series, the issue date, the validity and the dues month. */
  async function issue(ctx: EffectContext) {
    const letter = await issueLetterNumber(ctx.trx, { school: school(), year: yearOf(ctx.today), transferId: ctx.id, issuedOn: ctx.today, issuedBy: ctx.actor.id });
    const standing = isMonth(ctx.next.duesPaidTo) ? null : await duesStanding(ctx.trx, ctx.next.memberId as number);
    return {
      letterNo: letter.letterNo,
      issueDate: ctx.today,
      validDays: ctx.next.validDays ?? ctx.params.letterValidDays ?? 30,
      duesPaidTo: ctx.next.duesPaidTo ?? standing?.paidUpTo ?? null,
    };
  }
  registerEffect('transfer.issueLetter', issue);

  /** 重开介绍信: the letter issued is cancelled (its number stays cancelled), a new number is given. */
  registerEffect('transfer.reissueLetter', async (ctx) => {
    await cancelLetters(ctx.trx, ctx.id, '重开介绍信，原介绍信作废');
    return issue(ctx);
  });

  /** A transfer sent back or refused after its letter was issued: the letter is cancelled (作废). */
  registerEffect('transfer.cancelLetter', async (ctx) => {
    if (!ctx.record.letterNo) return;
    await cancelLetters(ctx.trx, ctx.id, ctx.transition.result === 'reject' ? '转出未通过，介绍信作废' : '退回重办，介绍信作废');
    return { letterNo: null, issueDate: null };
  });

  /**
   * 办结转出: with a formal letter the member leaves the roster (party status 转出, kept for history) on
   * the leave date; a temporary letter keeps the member on the roster until its end date.
   */
  registerEffect('transfer.memberLeaves', async (ctx) => {
    if (ctx.next.kind !== '临时组织关系') await updateMember(ctx, ctx.next.memberId as number, {}, [], { partyStatus: STATUS_TRANSFERRED_OUT });
    return { leaveDate: dateOr(ctx.values.leaveDate, ctx.today) };
  });

  /**
   * 接收入册: the member record is re-activated (same ID number: a member who left and comes back) or
   * created, in the receiving branch, with the standing the letter gives (probation dates included).
   */
  registerEffect('transfer.admitMember', async (ctx) => {
    const r = ctx.next;
    const values = {
      name: r.name,
      gender: r.gender,
      ethnicity: r.ethnicity,
      idCard: r.idCard,
      category: r.category,
      phone: r.phone,
      memberType: r.memberType,
      joinDate: r.joinDate,
      fullDate: r.memberType === '1' ? r.fullDate : null,
      orgId: r.toOrgId,
    };
    const set = { partyStatus: STATUS_NORMAL };
    // Only a member who left the school, or one the receiving side already sees (checked again: the status may have changed since the letter was registered).
    const existing = await memberToReadmit(ctx.trx, r.idCard as string, ctx.actor);
    let memberId: number;
    if (existing) {
      await updateMember(ctx, existing.id, values, [existing.orgId], set);
      memberId = existing.id;
    } else {
      memberId = (await ctx.records('member').create(values, processActor(ctx), { trx: ctx.trx, source: ctx.source, set })).id;
    }
    return { memberId, arriveDate: dateOr(ctx.values.arriveDate, ctx.today) };
  });
}

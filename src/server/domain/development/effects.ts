/**
 * The effects of the development workflow: what a step changes besides the application itself, in the
 * step's transaction (a failure undoes the step). Admission creates the probationary member record,
 * 转正 makes it a full member; a return or refusal after admission takes it back.
 */
import { ChangeRecordOrigin } from '../../../shared/constants.js';
import { addMonths, isDate, probationEndOf } from '../../../shared/development/rules.js';
import { completedStep, nextDue, stageOfState } from '../../../shared/development/steps.js';
import { HttpError } from '../../errors.js';
import { registerEffect, type EffectContext } from '../../runtime/index.js';
import { allocateBookNumber } from './book-numbers.js';

const param = (ctx: EffectContext, key: string) => (typeof ctx.params[key] === 'number' ? (ctx.params[key] as number) : undefined);

/** After every step: the stage, the furthest step completed, and the next deadline. */
registerEffect('development.progress', (ctx) => {
  const stage = stageOfState(ctx.to);
  const due = nextDue(ctx.next, { talk: param(ctx, 'talkWithinMonths'), assess: param(ctx, 'assessEveryMonths'), approve: param(ctx, 'approveWithinMonths') });
  return { ...(stage && { stage }), step: completedStep(ctx.next) ?? ctx.next.step ?? null, dueDate: due.dueDate, dueItem: due.dueItem };
});

/** The 入党志愿书 number, when the application has none yet (at 填写入党志愿书, or at the meeting). */
registerEffect('development.bookNumber', async (ctx) => {
  if (ctx.next.volunteerBookNo) return;
  const on = [ctx.values.bookDate, ctx.values.meetingDate, ctx.today].find(isDate) as string;
  return { volunteerBookNo: await allocateBookNumber(ctx.trx, ctx.id, Number(on.slice(0, 4))) };
});

/**
 * 支部大会接收预备党员: the probation runs a year from the meeting's resolution (admitDate, by default the
 * meeting's date); the member record is created, probationary, in the applicant's branch.
 */
registerEffect('development.admitMember', async (ctx) => {
  const r = ctx.next;
  const admitDate = (isDate(r.admitDate) ? r.admitDate : r.meetingDate) as string;
  const member = await ctx.records('member').create(
    {
      name: r.name,
      gender: r.gender,
      ethnicity: r.ethnicity,
      birthDate: r.birthDate,
      idCard: r.idCard,
      education: r.education,
      category: r.category,
      memberType: '2',
      partyStatus: '1',
      applyDate: r.applyDate,
      joinDate: admitDate,
      orgId: r.orgId,
      unitId: r.unitId,
      personNo: r.personNo,
      phone: r.phone,
    },
    ctx.actor,
    { trx: ctx.trx, origin: ChangeRecordOrigin.USER_CREATE },
  );
  return { admitDate, probationEnd: probationEndOf(admitDate), memberId: member.id };
});

registerEffect('development.extendProbation', (ctx) => {
  const end = ctx.record.probationEnd;
  if (!isDate(end)) throw new HttpError(400, '尚未记录预备期满日期，不能延长预备期');
  return { probationEnd: addMonths(end, ctx.values.extendMonths as number) };
});

async function memberOf(ctx: EffectContext): Promise<Record<string, unknown> | undefined> {
  const id = ctx.next.memberId;
  return typeof id === 'number' ? ctx.records('member').readRow(id, ctx.trx) : undefined;
}

/** 转正: the member record becomes a full member from the 转正 date (party age counts from it). */
registerEffect('development.fullMember', async (ctx) => {
  const member = await memberOf(ctx);
  if (!member) throw new HttpError(400, '找不到该预备党员的党员记录，无法转正');
  await ctx.records('member').update({ id: member.id, version: member.version, memberType: '1', fullDate: ctx.next.fullDate }, ctx.actor, { trx: ctx.trx });
});

/**
 * A return or refusal after admission: before the committee approved it the member record goes (the
 * admission did not stand); a probationary member refused 转正 (取消预备党员资格) leaves the party: 出党.
 */
registerEffect('development.revoke', async (ctx) => {
  const member = await memberOf(ctx);
  if (!member) return;
  if (ctx.from <= 6) {
    await ctx.records('member').remove([member.id as number], ctx.actor, { trx: ctx.trx });
    return { memberId: null, probationEnd: null };
  }
  await ctx.records('member').update({ id: member.id, version: member.version }, ctx.actor, { trx: ctx.trx, set: { partyStatus: '4' } });
});

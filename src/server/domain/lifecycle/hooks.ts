/**
 * Write hooks of the lifecycle modules (x-hooks): what a record takes from the member it is about, and the
 * rules that hold whenever one is saved. The steps are guarded in guards.ts.
 */
import { chineseDate, isDate } from '../../../shared/calendar.js';
import { probationEndOf } from '../../../shared/lifecycle/rules.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { HttpError } from '../../errors.js';
import type { Actor, WriteHookContext } from '../../runtime/hooks.js';
import { lastContactOfMember } from '../transfer/lost-contact.js';
import { lapseEvidence, memberFacts } from './facts.js';

/** A 400 naming the field, as validation answers. */
export function refuse(field: string, message: string): never {
  throw new HttpError(400, message, { errors: [{ field, message }] });
}

const inScope = (actor: Actor, orgId: number | null) => actor.scope === 'all' || (orgId !== null && actor.scope.includes(orgId));

/**
 * Every lifecycle record: the member in the writer's scope; their name and branch copied onto it (the
 * branch is the record's scope, so it stays with the record after the member leaves).
 */
export async function fromMemberHook(ctx: WriteHookContext): Promise<void> {
  const r = ctx.record;
  if (ctx.action === 'create' || r.memberId !== ctx.previous?.memberId) {
    const member = await memberFacts(ctx.trx, r.memberId);
    if (!member) refuse('memberId', '所选党员不存在');
    if (!inScope(ctx.actor, member.orgId)) refuse('memberId', '只能为本组织的党员办理');
    Object.assign(r, { name: member.name, orgId: member.orgId });
  } else if (ctx.previous) {
    r.orgId = ctx.previous.orgId;
    r.name = ctx.previous.name;
  }
}

/**
 * 党纪处分 (党章第四十条): 留党察看 names its period, one or two years (x-workflow.params.maxProbationYears),
 * and its last day follows from the decision; the other kinds have no period.
 */
export function disciplineHook(maxYears: () => number) {
  return async (ctx: WriteHookContext): Promise<void> => {
    const r = ctx.record;
    if (isDate(r.decidedOn) && r.decidedOn > localToday()) refuse('decidedOn', '处分决定日期不能晚于今天');
    if (r.kind !== '4') {
      Object.assign(r, { probationYears: null, probationEnd: null });
      return;
    }
    const years = Number(r.probationYears);
    if (!Number.isInteger(years) || years < 1) refuse('probationYears', '留党察看须填写察看期限（一年或两年）');
    if (years > maxYears()) refuse('probationYears', `留党察看最长不超过${maxYears()}年（党章第四十条）`);
    r.probationEnd = probationEndOf(r.decidedOn as string, years);
  };
}

/** 出党 (除名): the evidence the product holds (last organisation life attended, dues standing), refreshed on every save. */
export async function quitEvidenceHook(ctx: WriteHookContext): Promise<void> {
  const r = ctx.record;
  if (r.kind === '4' && !isDate(r.deathDate)) refuse('deathDate', '请填写死亡日期');
  if (r.kind === '3' && typeof r.disciplineId !== 'number') refuse('disciplineId', '开除党籍须选择已批准的开除党籍处分');
  Object.assign(r, await evidenceValues(ctx.trx, r.memberId as number, localToday()));
}

export async function evidenceValues(db: WriteHookContext['trx'], memberId: number, day: string): Promise<Record<string, unknown>> {
  const e = await lapseEvidence(db, memberId, day);
  const parts = [
    e.lastMeetingDate ? `最后参加组织生活：${chineseDate(e.lastMeetingDate)}` : '无参加组织生活的记录',
    e.duesPaidTo ? `党费交至${e.duesPaidTo.replace('-', '年')}月` : '无交纳党费的记录',
    e.unpaidMonths ? `欠缴${e.unpaidMonths}个月（${e.months.slice(0, 12).join('、')}${e.months.length > 12 ? '等' : ''}）` : '无欠缴',
  ];
  return { lastMeetingDate: e.lastMeetingDate, duesPaidTo: e.duesPaidTo, unpaidMonths: e.unpaidMonths, evidence: parts.join('；') };
}

/** 停止/恢复党籍: the member's last contact (the transfers area's lost-contact rules) shown on the record. */
export function lastContactHook(modules: () => Parameters<typeof lastContactOfMember>[2]) {
  return async (ctx: WriteHookContext): Promise<void> => {
    ctx.record.lastContact = await lastContactOfMember(ctx.trx, ctx.record.memberId as number, modules());
  };
}

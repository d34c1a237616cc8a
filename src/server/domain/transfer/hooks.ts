/**
 * Write hooks of the transfer modules (x-hooks): what a record takes from the member it is about, and the
 * rules that hold whenever one is saved. The steps of the processes are guarded in guards.ts.
 */
import { chineseDate } from '../../../shared/calendar.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { probationEnd } from '../../../shared/transfer/rules.js';
import { HttpError } from '../../errors.js';
import type { Actor, WriteHookContext } from '../../runtime/hooks.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { BRANCH_TYPES, STATUS_NORMAL, memberFacts, openTransfersOf, orgFacts, type MemberFacts } from './facts.js';
import { memberToReadmit } from './takeover.js';

/** The modules a member's transfers live in: one open transfer at a time across them. */
export const TRANSFER_MODULES = ['transfer-internal', 'transfer-out'];

/** A 400 naming the field, as validation answers. */
export function refuse(field: string, message: string): never {
  throw new HttpError(400, message, { errors: [{ field, message }] });
}

const inScope = (actor: Actor, orgId: number | null) => actor.scope === 'all' || (orgId !== null && actor.scope.includes(orgId));

/** Whether a write touches the member: a new record, or a changed member. */
const memberChanged = (ctx: WriteHookContext) => ctx.action === 'create' || ctx.record.memberId !== ctx.previous?.memberId;

/** The member a record is about, in the writer's scope. */
async function memberFor(ctx: WriteHookContext, field = 'memberId'): Promise<MemberFacts> {
  const member = await memberFacts(ctx.trx, ctx.record[field]);
  if (!member) refuse(field, '所选党员不存在');
  if (!inScope(ctx.actor, member.orgId)) refuse(field, '只能为本组织的党员办理');
  return member;
}

/** What a transfer records of the member's party standing; a probationary member's transfer carries the probation dates. */
function standingOf(member: MemberFacts): Record<string, unknown> {
  return {
    name: member.name,
    memberType: member.memberType,
    joinDate: member.joinDate,
    probationEnd: member.memberType === '2' && member.joinDate ? probationEnd(member.joinDate) : null,
  };
}

/** 《中国共产党党员组织关系介绍信》管理: a member has one transfer under way at a time. */
export async function refuseSecondTransfer(ctx: WriteHookContext, modules: RuntimeModule[], memberId: number): Promise<void> {
  const open = await openTransfersOf(ctx.trx, modules, memberId, { module: ctx.module.id, id: ctx.id });
  if (open.length) refuse('memberId', `该党员已有正在办理的${open[0].title}，办结后才能再次申请`);
}

/**
 * transfer-internal and transfer-out: the member (in the writer's scope, on the roster in good standing),
 * their branch and standing copied onto the record, one transfer at a time, and (within the school) a
 * receiving branch that is a branch and not the member's own.
 */
export function fromMemberHook(modules: () => RuntimeModule[]) {
  return async (ctx: WriteHookContext): Promise<void> => {
    const r = ctx.record;
    const scopeField = ctx.module.id === 'transfer-internal' ? 'fromOrgId' : 'orgId';
    if (memberChanged(ctx)) {
      const member = await memberFor(ctx);
      if (member.partyStatus !== STATUS_NORMAL) refuse('memberId', `${member.name}的党籍状态不是“正常”，不能办理组织关系转接`);
      Object.assign(r, standingOf(member), { [scopeField]: member.orgId });
      await refuseSecondTransfer(ctx, modules(), member.id);
    } else if (ctx.previous) {
      // The member's branch is the record's: it cannot be edited away from it.
      r[scopeField] = ctx.previous[scopeField];
    }
    r.applyDate ??= localToday();
    if (ctx.module.id === 'transfer-internal' && r.toOrgId !== undefined && r.toOrgId !== null) {
      const to = await orgFacts(ctx.trx, r.toOrgId);
      if (!to || !BRANCH_TYPES.has(to.type ?? '')) refuse('toOrgId', '转入党组织须为党支部（联合党支部、临时党支部）');
      if (to.id === r.fromOrgId) refuse('toOrgId', '转入党支部不能是党员当前所在的党支部');
    }
    if (ctx.module.id === 'transfer-out' && r.kind === '临时组织关系' && !r.endDate) refuse('endDate', '临时组织关系须填写截止日期');
  };
}

/** transfer-in: the registration date, the probation dates of a probationary member, and no duplicate of a member on the roster. */
export function incomingLetterHook() {
  return async (ctx: WriteHookContext): Promise<void> => {
    const r = ctx.record;
    r.registerDate ??= localToday();
    r.probationEnd = r.memberType === '2' && typeof r.joinDate === 'string' ? probationEnd(r.joinDate) : null;
    if (r.memberType === '1' && !r.fullDate) refuse('fullDate', '正式党员须填写转正日期');
    if (typeof r.idCard === 'string' && (ctx.action === 'create' || r.idCard !== ctx.previous?.idCard)) {
      await memberToReadmit(ctx.trx, r.idCard, ctx.actor);
    }
  };
}

/**
 * floating: an outflow is about a member of the school (name, ID, phone and branch from the member's
 * record, one outflow under way at a time); an inflow names the branch the member joins.
 */
export function floatingMemberHook(module: () => RuntimeModule | undefined) {
  return async (ctx: WriteHookContext): Promise<void> => {
    const r = ctx.record;
    if (r.type === 'out') {
      if (typeof r.memberId !== 'number') refuse('memberId', '外出流动须选择本校党员');
      if (memberChanged(ctx) || r.type !== ctx.previous?.type) {
        const member = await memberFor(ctx);
        Object.assign(r, { name: member.name, idCard: r.idCard ?? member.idCard, phone: r.phone ?? member.phone, orgId: member.orgId });
        const m = module();
        if (m) {
          const open = await openTransfersOf(ctx.trx, [m], member.id, { module: m.id, id: ctx.id });
          if (open.length) refuse('memberId', `${member.name}已有未结束的流动党员登记`);
        }
      } else if (ctx.previous) r.orgId = ctx.previous.orgId;
    } else {
      // Only an outflow takes its name and branch from the member record; an inflow states them.
      if (typeof r.name !== 'string' || !r.name.trim()) refuse('name', '流入党员须填写姓名');
      const org = await orgFacts(ctx.trx, r.orgId);
      if (!org || !BRANCH_TYPES.has(org.type ?? '')) refuse('orgId', '流入党员须编入党支部');
    }
    if (typeof r.expectedReturnDate === 'string' && typeof r.leaveDate === 'string' && r.expectedReturnDate < r.leaveDate) {
      refuse('expectedReturnDate', `预计返回日期不能早于${chineseDate(r.leaveDate)}`);
    }
  };
}

/** member-contact: the member's branch, and where they went when away. */
export function contactOrgHook() {
  return async (ctx: WriteHookContext): Promise<void> => {
    const r = ctx.record;
    if (memberChanged(ctx)) r.orgId = (await memberFor(ctx)).orgId;
    else if (ctx.previous) r.orgId = ctx.previous.orgId;
    if (r.away === true && !r.awaySince) refuse('awaySince', '外出的党员须填写外出日期');
  };
}

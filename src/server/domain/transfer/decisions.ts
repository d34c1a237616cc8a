/**
 * Decisions on the party standing of a member out of touch: 停止党籍 (stop), with a date and a reason, and
 * its reversal (restore) when the member is found again.
 *
 * 《中国共产党党员教育管理工作条例》(2019): 失去联系6个月以上、通过各种方式查找仍然没有取得联系的,
 * 予以停止党籍; 停止党籍后, 党员主动与党组织取得联系、要求恢复党籍的, 应当对其进行教育帮助, 符合条件的
 * 按照规定程序恢复党籍.
 */
import type { Kysely } from 'kysely';
import { chineseDate, isDate } from '../../../shared/calendar.js';
import { sixMonthsPassed } from '../../../shared/transfer/rules.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import type { Runtime } from '../../runtime/index.js';
import { memberFacts } from './facts.js';
import { refuse } from './hooks.js';
import { lastContactOfMember } from './lost-contact.js';

export const STATUS_STOPPED = '3';
const ACTIVE = new Set(['1', '2']);

export interface DecisionInput {
  decidedOn: unknown;
  reason: unknown;
}

function readInput(input: DecisionInput, today: string): { decidedOn: string; reason: string } {
  const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
  if (!isDate(input.decidedOn)) refuse('decidedOn', '请填写决定日期');
  if (input.decidedOn > today) refuse('decidedOn', '决定日期不能晚于今天');
  if (!reason) refuse('reason', '请填写理由');
  if (reason.length > 500) refuse('reason', '理由不能超过500个字');
  return { decidedOn: input.decidedOn, reason };
}

async function memberInScope(trx: Kysely<DB>, memberId: number, actor: Actor) {
  const member = await memberFacts(trx, memberId);
  if (!member || (actor.scope !== 'all' && (member.orgId === null || !actor.scope.includes(member.orgId)))) throw new HttpError(404, '党员不存在');
  return member;
}

async function setStatus(runtime: Runtime, trx: Kysely<DB>, memberId: number, status: string, actor: Actor): Promise<void> {
  const members = runtime.records('member');
  const current = await members.get(memberId, actor, trx);
  await members.update({ id: memberId, version: current.version }, actor, { trx, set: { partyStatus: status } });
}

/** 停止党籍: only for a member six months or more out of touch on the decision date. */
export async function stopMembership(runtime: Runtime, db: Kysely<DB>, memberId: number, input: DecisionInput, actor: Actor, today: string): Promise<void> {
  const { decidedOn, reason } = readInput(input, today);
  const modules = { transferIn: runtime.module('transfer-in'), floating: runtime.module('floating') };
  await db.transaction().execute(async (trx) => {
    const member = await memberInScope(trx, memberId, actor);
    if (!ACTIVE.has(member.partyStatus ?? '')) throw new HttpError(400, `${member.name}的党籍状态不是“正常”或“失联”，不能停止党籍`);
    const last = (await lastContactOfMember(trx, memberId, modules))!;
    if (!sixMonthsPassed(last, decidedOn)) {
      throw new HttpError(400, `${member.name}最后联系日期为${chineseDate(last)}，失去联系未满6个月，不能停止党籍`);
    }
    await trx.insertInto('party_status_decisions').values({ member_id: memberId, kind: 'stop', decided_on: decidedOn, reason, previous_status: member.partyStatus, user_id: actor.id, username: actor.username }).execute();
    await setStatus(runtime, trx, memberId, STATUS_STOPPED, actor);
  });
}

/** 恢复党籍: back to 正常, with the contact regained recorded. */
export async function restoreMembership(runtime: Runtime, db: Kysely<DB>, memberId: number, input: DecisionInput, actor: Actor, today: string): Promise<void> {
  const { decidedOn, reason } = readInput(input, today);
  await db.transaction().execute(async (trx) => {
    const member = await memberInScope(trx, memberId, actor);
    if (member.partyStatus !== STATUS_STOPPED) throw new HttpError(400, `${member.name}的党籍状态不是“停止党籍”，无需恢复`);
    const stop = await trx.selectFrom('party_status_decisions').select(['previous_status', 'decided_on']).where('member_id', '=', memberId).orderBy('id', 'desc').executeTakeFirst();
    if (stop && decidedOn < stop.decided_on) refuse('decidedOn', `恢复日期不能早于停止党籍的日期${chineseDate(stop.decided_on)}`);
    await trx.insertInto('party_status_decisions').values({ member_id: memberId, kind: 'restore', decided_on: decidedOn, reason, previous_status: STATUS_STOPPED, user_id: actor.id, username: actor.username }).execute();
    await setStatus(runtime, trx, memberId, '1', actor);
    if (runtime.module('member-contact')) {
      await runtime.records('member-contact').create({ memberId, contactDate: decidedOn, way: '其他', note: `恢复党籍：${reason}` }, actor, { trx });
    }
  });
}

export interface Decision {
  id: number;
  memberId: number;
  kind: 'stop' | 'restore';
  decidedOn: string;
  reason: string;
  username: string;
  at: Date;
}

export async function decisionsOf(db: Kysely<DB>, memberId: number): Promise<Decision[]> {
  const rows = await db.selectFrom('party_status_decisions').selectAll().where('member_id', '=', memberId).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, memberId: r.member_id, kind: r.kind, decidedOn: r.decided_on, reason: r.reason, username: r.username, at: r.at }));
}

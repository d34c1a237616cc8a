/**
 * 党员信息修改申请 (`member-change-request`, issue 31): a member asks to change a field of their own record
 * (我的档案 › 申请修改 on the phone, or the desktop list); the branch checks it; its approval writes the member
 * record in the step's transaction.
 *
 * Rule: the branch keeps its members' records (《中国共产党党员教育管理工作条例》: 党支部负责党员信息的采集、
 * 更新和维护), so a member changes nothing directly — every change passes the branch. The fields a member may
 * ask for are the schema's `field` enum: personal and contact details, named by the member field's own title.
 * 身份证号, 入党日期 and the other 党籍 fields are not among them: the organisation changes those from the
 * archive's documents (入党志愿书, 审批材料), never on a member's word.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, registerHook } from '../../runtime/index.js';
import type { FieldInfo } from '../../runtime/module.js';
import type { Runtime } from '../../runtime/index.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { memberOfUser } from './accounts.js';

const refuse = (field: string, message: string): never => {
  throw new HttpError(400, message, { errors: [{ field, message }] });
};

let runtime: Runtime | undefined;
/** The member module, read when a request is checked (the runtime has started by then). */
export function useRuntimeForChangeRequests(r: Runtime): void {
  runtime = r;
}
const memberModule = () => {
  const m = runtime?.module('member');
  if (!m) throw new HttpError(500, '党员模块不存在');
  return m;
};

/** The member field a request's `field` (its title, an enum value of the schema) names. */
export function memberFieldTitled(title: string): FieldInfo | undefined {
  return [...memberModule().fields.values()].find((f) => f.title === title && f.writable);
}

async function dictEntries(db: Kysely<DB>, code: string) {
  return db.selectFrom('dict_details').select(['value', 'label']).where('dict_code', '=', code).where('disabled', '=', false).execute();
}

/** A stored member value as the member reads it (a dictionary's label). */
async function textOf(db: Kysely<DB>, f: FieldInfo, value: unknown): Promise<string> {
  if (value === null || value === undefined || value === '') return '';
  if (f.dict) return (await dictEntries(db, f.dict)).find((e) => e.value === String(value))?.label ?? String(value);
  return String(value);
}

/** The value to store for a requested text (a dictionary's value for its label), or a refusal in the field's words. */
export async function storedValueOf(db: Kysely<DB>, f: FieldInfo, text: string): Promise<string> {
  if (f.dict) {
    const entry = (await dictEntries(db, f.dict)).find((e) => e.label === text || e.value === text);
    if (!entry) refuse('newValue', `${f.title}“${text}”不是有效的选项`);
    return entry!.value;
  }
  const errors = memberModule().validate({ [f.name]: text }).filter((e) => e.instancePath === `/${f.name}`);
  if (errors.length) refuse('newValue', `${f.title}“${text}”的格式不正确`);
  return text;
}

async function memberRow(db: Kysely<DB>, memberId: number) {
  return runtime!.records('member').readRow(memberId, db);
}

/**
 * beforeWrite: the request is the caller's own (their account's member record, its branch), names a field a
 * member may ask for, and asks for a valid value other than the one on record; the old value is read from the record.
 */
registerHook('member.changeRequest', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  if (ctx.action === 'create') {
    const member = ctx.actor.id === null ? undefined : await memberOfUser(ctx.trx, ctx.actor.id);
    if (!member) refuse('memberId', '您的账号没有关联党员档案，不能申请修改党员信息');
    Object.assign(r, { memberId: member!.id, orgId: member!.orgId, userId: ctx.actor.id, applyDate: localToday() });
  } else {
    const p = ctx.previous!;
    Object.assign(r, { memberId: p.memberId, orgId: p.orgId, userId: p.userId, applyDate: p.applyDate });
  }
  const f = memberFieldTitled(String(r.field));
  if (!f) return refuse('field', `“${String(r.field)}”不能申请修改，请联系所在党支部`);
  const row = await memberRow(ctx.trx, r.memberId as number);
  if (!row) return refuse('memberId', '党员档案不存在');
  const text = String(r.newValue ?? '').trim();
  const stored = await storedValueOf(ctx.trx, f, text);
  if (String(row[f.name] ?? '') === stored) refuse('newValue', `新值与档案中的${f.title}相同，无需修改`);
  r.newValue = text;
  r.oldValue = await textOf(ctx.trx, f, row[f.name]);
});

/** Approving: the record still holds the value the member saw (else the branch returns it, and the member asks again). */
registerGuard('member.changeStillApplies', async (ctx) => {
  const f = memberFieldTitled(String(ctx.record.field));
  const row = f && (await memberRow(ctx.trx, ctx.record.memberId as number));
  if (!f || !row) return { problems: [{ field: 'memberId', message: '党员档案不存在' }] };
  const now = await textOf(ctx.trx, f, row[f.name]);
  if (now !== String(ctx.record.oldValue ?? '')) return { problems: [{ field: 'oldValue', message: `档案中的${f.title}已改为“${now}”，与申请时的原值不同，请退回后重新申请` }] };
});

/** Approved: the member record takes the new value in the step's transaction (trail names the request as its source). */
registerEffect('member.applyChange', async (ctx) => {
  const f = memberFieldTitled(String(ctx.record.field))!;
  const members = ctx.records('member');
  const row = (await members.readRow(ctx.record.memberId as number, ctx.trx))!;
  const value = await storedValueOf(ctx.trx, f, String(ctx.record.newValue));
  await members.update({ id: row.id, version: row.version, [f.name]: value }, ctx.actor, { trx: ctx.trx, source: ctx.source });
});

/**
 * 因私出国（境） (docs/cadres.md): the hooks, guards, effects and reminder date that `cadre-passport` and
 * `cadre-abroad` name. A passport's state follows the trips: 领取 (only on an approved application, the permit
 * in custody, the trip within its validity) sets 已领取, 交回 sets 集中保管 again; 注销/遗失 are recorded by hand.
 * The rules are the pure functions of abroad-rules.ts. Importing this file registers them.
 */
import { sql } from 'kysely';
import { addDays, isDate } from '../../../shared/calendar.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, registerHook, type EffectContext, type GuardContext, type GuardResult } from '../../runtime/index.js';
import { numberParamOn } from '../../runtime/params/registry.js';
import { registerReminderDate } from '../../runtime/reminders/model.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { APPROVER, RULE_APPROVER, RULE_LEND, approverOf, custodyFromOf, expiryNoticeOf, tripProblem } from './abroad-rules.js';

const IN_CUSTODY = '集中保管';
const LENT = '已领取';

interface CadreFacts {
  name: string;
  unit_id: number | null;
  rank: string | null;
  post_date: string | null;
}
interface PassportFacts {
  id: number;
  cadre_id: number;
  number: string;
  expires: string | null;
  state: string | null;
  disposal: string | null;
  version: number;
}

/** The facts of the cadre a record names (the runtime checked the writer may read it). */
export async function cadreOf(trx: Kysely<DB>, cadreId: unknown, field = 'cadreId'): Promise<CadreFacts> {
  const row = typeof cadreId === 'number' ? (await sql<CadreFacts>`SELECT name, unit_id, rank, post_date::text AS post_date FROM m_cadre WHERE id = ${cadreId}`.execute(trx)).rows[0] : undefined;
  if (!row) throw new HttpError(400, '所选干部不存在', { errors: [{ field, message: '所选干部不存在' }] });
  return row;
}

async function passportOf(trx: Kysely<DB>, passportId: unknown): Promise<PassportFacts | undefined> {
  if (typeof passportId !== 'number') return undefined;
  return (await sql<PassportFacts>`SELECT id, cadre_id, number, expires::text AS expires, state, disposal, version FROM m_cadre_passport WHERE id = ${passportId}`.execute(trx)).rows[0];
}

const invalid = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

/**
 * A passport's write: the cadre's name, unit and appointment date copied; expiry after issue; the custody
 * period's first day (the later of issue and appointment); the state derived unless a trip's step sets it.
 */
registerHook('cadrePassport.write', async (ctx) => {
  if (ctx.action === 'delete') {
    const lent = ctx.records.find((r) => r.state === LENT);
    if (lent) throw new HttpError(400, `证件${String(lent.number ?? '')}已领取，交回后方可删除`);
    return;
  }
  const r = ctx.record;
  const prev = ctx.previous ?? {};
  if (ctx.action === 'create' || (r.cadreId !== undefined && r.cadreId !== prev.cadreId)) {
    const cadre = await cadreOf(ctx.trx, r.cadreId ?? prev.cadreId);
    Object.assign(r, { name: cadre.name, unitId: cadre.unit_id, appointedOn: cadre.post_date });
  }
  const next = { ...prev, ...r };
  if (isDate(next.issued) && isDate(next.expires) && next.expires <= next.issued) throw invalid('expires', `有效期至（${next.expires}）须晚于签发日期（${next.issued}）`);
  r.custodyFrom = custodyFromOf(next.issued, next.appointedOn);
  if (r.state !== undefined) return; // set by a trip's step (领取, 交回)
  if (prev.state === LENT) {
    if (next.disposal) throw invalid('disposal', '证件已领取，交回后方可登记注销或遗失');
    return;
  }
  r.state = next.disposal ? next.disposal : isDate(next.custodyDate) ? IN_CUSTODY : null;
});

/** An application's write: the cadre's name, unit, rank and approving body; the permit is the cadre's, usable, valid for the trip. */
registerHook('cadreAbroad.write', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const prev = ctx.previous ?? {};
  if (ctx.action === 'create' || (r.cadreId !== undefined && r.cadreId !== prev.cadreId)) {
    const cadre = await cadreOf(ctx.trx, r.cadreId ?? prev.cadreId);
    Object.assign(r, { name: cadre.name, unitId: cadre.unit_id, rank: cadre.rank, approver: approverOf(cadre.rank) });
  }
  const next = { ...prev, ...r };
  const problem = await tripCheck(ctx.trx, next);
  if (problem) throw invalid(problem.field, problem.message);
});

async function tripCheck(trx: Kysely<DB>, r: Record<string, unknown>): Promise<{ field: string; message: string } | undefined> {
  const passport = await passportOf(trx, r.passportId);
  if (!passport) return { field: 'passportId', message: '请选择使用的证件' };
  if (passport.cadre_id !== r.cadreId) return { field: 'passportId', message: `证件${passport.number}不是该干部的证件` };
  if (passport.disposal) return { field: 'passportId', message: `证件${passport.number}已${passport.disposal === '遗失' ? '登记遗失' : '注销'}，不能使用` };
  return tripProblem(r.startDate, r.endDate, passport.expires);
}

const refuse = (p: { field: string; message: string } | undefined): GuardResult => (p ? { problems: [p] } : undefined);

/** Submitted, approved and lent only for a trip within the permit's validity (the permit may have been changed since). */
registerGuard('cadreAbroad.trip', async (ctx) => refuse(await tripCheck(ctx.trx, ctx.next)));

/** The body that approves by rank (干部管理权限): 校级 by 校党委 (approveCommittee), the others by 党委组织部 (approve). */
registerGuard('cadreAbroad.approver', (ctx) => {
  const approver = approverOf(ctx.next.rank);
  const wants = ctx.transition.id === 'approveCommittee' ? APPROVER.committee : APPROVER.orgDept;
  if (approver !== wants) return refuse({ field: 'rank', message: `${String(ctx.next.name ?? '')}的因私出国（境）应由${approver}审批。${RULE_APPROVER}` });
});

const stepDate = (ctx: GuardContext, field: string) => (isDate(ctx.values[field]) ? (ctx.values[field] as string) : ctx.today);

/** 领取: the permit in custody (not lent on another trip, not cancelled or lost), on a day not in the future. */
registerGuard('cadreAbroad.lend', async (ctx) => {
  const passport = await passportOf(ctx.trx, ctx.next.passportId);
  if (passport && passport.state !== IN_CUSTODY) return refuse({ field: 'passportId', message: `证件${passport.number}当前状态为“${passport.state ?? '未交存'}”，不能领取。${RULE_LEND}` });
  const day = stepDate(ctx, 'lendDate');
  if (!ctx.preview && day > ctx.today) return refuse({ field: 'lendDate', message: `领取日期（${day}）不能晚于今天` });
});

/** 交回: not before the permit was lent, not in the future. */
registerGuard('cadreAbroad.giveBack', (ctx) => {
  if (ctx.preview) return;
  const day = stepDate(ctx, 'returnDate');
  if (day > ctx.today) return refuse({ field: 'returnDate', message: `交回日期（${day}）不能晚于今天` });
  if (isDate(ctx.next.lendDate) && day < ctx.next.lendDate) return refuse({ field: 'returnDate', message: `交回日期（${day}）早于领取日期（${ctx.next.lendDate}）` });
});

/** The permit's state, set through the record service in the step's transaction (trailed with the trip as its source). */
async function setPassport(ctx: EffectContext, state: string, values: Record<string, unknown> = {}): Promise<void> {
  const passport = await passportOf(ctx.trx, ctx.next.passportId);
  if (!passport) throw new HttpError(400, '所用证件不存在');
  await ctx.records('cadre-passport').update({ id: passport.id, version: passport.version, ...values }, ctx.actor, { trx: ctx.trx, source: ctx.source, set: { state } });
}

/** 领取: the permit is lent; the return is due returnDays after the trip's end (the reminder's date). */
registerEffect('cadreAbroad.lend', async (ctx) => {
  await setPassport(ctx, LENT);
  const days = typeof ctx.params.returnDays === 'number' ? ctx.params.returnDays : 7;
  return { dueDate: addDays(ctx.next.endDate as string, days) };
});

/** 交回: back in custody. */
registerEffect('cadreAbroad.giveBack', async (ctx) => {
  await setPassport(ctx, IN_CUSTODY);
});

/** The expiry reminder starts expiryMonths before the permit expires (the parameter in force today). */
registerReminderDate('cadrePassport.expiryNotice', async (record) => expiryNoticeOf(record.expires, await numberParamOn('cadre-passport.expiryMonths', 6)));

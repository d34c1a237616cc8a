/**
 * The party congress and its delegates (党代会, 党代表选举): the rules a schema cannot say.
 * - A congress is held by a 党委 with 500 members or more (条例: 党员人数五百人以上的，召开党员代表大会；
 *   otherwise a member assembly elects); the delegate number is set by the level above, at most 300.
 * - A congress sits with more than 4/5 of its delegates present.
 * - Delegates are full members of their electoral unit (党章第七条: 预备党员没有被选举权); the structure facts
 *   (gender, ethnicity, age, front line) are copied from the member so the register can be checked.
 * - A delegate election is an `election` of body 党代会代表 (the same counting); its report writes the elected
 *   into the register (effect `election.delegates`).
 */
import { paramRule } from '../../runtime/params/refusal.js';
import { sql, type Kysely } from 'kysely';
import { hasQuorum, quorumMinimum } from '../../../shared/ballot.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, registerHook, type GuardResult } from '../../runtime/index.js';
import { FULL_MEMBER, idList, membersOf, orgOf, withSubtree } from './facts.js';
import { COMMITTEE_TYPE, probationaryRefusal } from './rules.js';
import { membersWithoutElectionRights } from '../member/rights.js';
import { localToday } from '../../../shared/module-schema/computed.js';

export const DELEGATE_BODY = '党代会代表';
/** 人员类别 (DJ_DY_RYLBXX) counted as front-line by default: in-service staff and students. */
const FRONT_LINE_CATEGORIES = new Set(['1', '3', '4', '5']);

const refuse = (field: string, message: string): GuardResult => ({ problems: [{ field, message }] });

/** Party members (正常) in an organisation and everything under it. */
export async function memberCountUnder(db: Kysely<DB>, orgId: number): Promise<number> {
  const rows = await sql<{ n: number }>`
    ${withSubtree(orgId)}
    SELECT count(*)::int AS n FROM m_member WHERE org_id IN (SELECT id FROM sub) AND party_status = '1'`.execute(db);
  return rows.rows[0]?.n ?? 0;
}

registerHook('congress.prepare', async (ctx) => {
  if (ctx.action === 'delete' || typeof ctx.record.orgId !== 'number') return;
  ctx.record.memberCount = await memberCountUnder(ctx.trx, ctx.record.orgId);
});

registerGuard('congress.size', async (ctx) => {
  const org = await orgOf(ctx.trx, ctx.next.orgId as number);
  const min = typeof ctx.params.minMembers === 'number' ? ctx.params.minMembers : 500;
  const max = typeof ctx.params.maxDelegates === 'number' ? ctx.params.maxDelegates : 300;
  if (org && org.type !== COMMITTEE_TYPE) return refuse('orgId', '党员代表大会由党的基层委员会（党委）召开');
  const members = org ? await memberCountUnder(ctx.trx, org.id) : 0;
  if (members < min) return refuse('orgId', paramRule(ctx.module, 'minMembers', `党员人数${min}人以上的党委方可召开党员代表大会（现有党员${members}人），否则召开党员大会（《中国共产党基层组织选举工作条例》）`));
  const quota = Number(ctx.next.delegateQuota);
  if (!ctx.preview && !(quota >= 1 && quota <= max)) return refuse('delegateQuota', paramRule(ctx.module, 'maxDelegates', `代表名额由上级党组织确定，最多不超过${max}名`));
});

/** Delegates elected to the congress (当选代表). */
async function electedDelegates(db: Kysely<DB>, congressId: number): Promise<number> {
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_delegate WHERE congress_id = ${congressId} AND status = '当选代表'`.execute(db);
  return rows.rows[0]?.n ?? 0;
}

registerGuard('congress.quorum', async (ctx) => {
  const entitled = await electedDelegates(ctx.trx, ctx.record.id as number);
  if (!entitled) return refuse('delegatesPresent', '尚无当选代表，不能召开大会');
  const present = Number(ctx.next.delegatesPresent);
  if (ctx.preview && !present) return;
  if (present > entitled) return refuse('delegatesPresent', `实到代表（${present}）不能多于当选代表（${entitled}）`);
  if (!hasQuorum(present, entitled)) return refuse('delegatesPresent', `到会代表须超过应到会代表的五分之四：应到${entitled}名，至少须到${quorumMinimum(entitled)}名，实到${present}名`);
});

registerHook('delegate.fromMember', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const unit = typeof r.unitOrgId === 'number' ? r.unitOrgId : null;
  const facts = await membersOf(ctx.trx, idList([r.memberId]), unit);
  const m = facts.get(r.memberId as number);
  if (!m) return;
  const errors: { field: string; message: string }[] = [];
  if (m.memberType !== FULL_MEMBER) errors.push({ field: 'memberId', message: probationaryRefusal(m.name, '被选举权').replace('候选人', '代表人选') });
  else {
    const lost = (await membersWithoutElectionRights(ctx, [m.id], localToday())).get(m.id);
    if (lost) errors.push({ field: 'memberId', message: `“${m.name}”${lost}，没有被选举权，不能列为代表人选` });
  }
  if (!m.inside) errors.push({ field: 'memberId', message: `“${m.name}”不是该选举单位的党员` });
  const congress = (await sql<{ org_id: number }>`SELECT org_id FROM m_congress WHERE id = ${r.congressId as number}`.execute(ctx.trx)).rows[0];
  if (congress && unit !== null) {
    const inside = await sql<{ ok: boolean }>`
      ${withSubtree(congress.org_id)}
      SELECT ${unit}::int IN (SELECT id FROM sub) AS ok`.execute(ctx.trx);
    if (!inside.rows[0]?.ok) errors.push({ field: 'unitOrgId', message: '选举单位不属于召开党代会的党组织' });
  }
  if (errors.length) throw new HttpError(400, errors[0]!.message, { errors });
  const row = (await sql<{ name: string; gender: string | null; ethnicity: string | null; birth_date: string | null; category: string | null }>`
    SELECT name, gender, ethnicity, birth_date, category FROM m_member WHERE id = ${m.id}`.execute(ctx.trx)).rows[0]!;
  Object.assign(r, { name: row.name, gender: row.gender, ethnicity: row.ethnicity, birthDate: row.birth_date });
  if (r.frontLine === undefined || r.frontLine === null) r.frontLine = FRONT_LINE_CATEGORIES.has(row.category ?? '');
});

registerGuard('election.delegateBody', (ctx) => {
  if (ctx.next.body !== DELEGATE_BODY) return refuse('body', '委员会选举须经委员会第一次全体会议选举书记、副书记后再报告结果');
  if (typeof ctx.next.congressId !== 'number') return refuse('congressId', '请选择本次代表选举所属的党代会');
});

registerGuard('election.notDelegates', (ctx) => (ctx.next.body === DELEGATE_BODY ? refuse('body', '党代会代表选举不选举书记、副书记，请直接报告选举结果') : undefined));

/** The elected become 当选代表 of the congress (their nomination records updated, or new ones); the others 未当选. */
registerEffect('election.delegates', async (ctx) => {
  const r = ctx.next;
  const elected = new Set(idList(r.electedIds));
  const delegates = ctx.records('delegate');
  for (const memberId of idList(r.candidateIds)) {
    const status = elected.has(memberId) ? '当选代表' : '未当选';
    const found = (await sql<{ id: number; version: number }>`SELECT id, version FROM m_delegate WHERE congress_id = ${r.congressId as number} AND member_id = ${memberId}`.execute(ctx.trx)).rows[0];
    if (found) await delegates.update({ id: found.id, version: found.version, status, electionId: ctx.id }, ctx.actor, { trx: ctx.trx, source: ctx.source });
    else await delegates.create({ congressId: r.congressId, unitOrgId: r.orgId, memberId, status, round: '三下三上', electionId: ctx.id }, ctx.actor, { trx: ctx.trx, source: ctx.source });
  }
});

/**
 * Write hooks of the members' daily management modules (docs/organisation-life.md): each names the rule
 * it holds. Reads go through the write's transaction (`ctx.trx`).
 */
import { sql } from 'kysely';
import { validBallots, votesProblem } from '../../../shared/ballot.js';
import { appraisalCounts, type AppraisalVotes } from '../../../shared/evaluation/rules.js';
import { HttpError } from '../../errors.js';
import { registerHook, type Actor, type WriteHookContext } from '../../runtime/index.js';

export function refuse(field: string, message: string): never {
  throw new HttpError(400, message, { errors: [{ field, message }] });
}

const inScope = (actor: Actor, orgId: number | null) => actor.scope === 'all' || (orgId !== null && actor.scope.includes(orgId));

async function memberOrg(ctx: WriteHookContext, id: unknown): Promise<{ name: string; orgId: number | null } | undefined> {
  if (typeof id !== 'number') return undefined;
  const rows = await sql<{ name: string; orgId: number | null }>`SELECT name, org_id AS "orgId" FROM m_member WHERE id = ${id}`.execute(ctx.trx);
  return rows.rows[0];
}

/**
 * The record belongs to the member's branch: `orgId` follows `memberId` (the data scope of the member's
 * branch then governs it), and only members in the writer's scope may be chosen.
 */
registerHook('evaluation.memberOrg', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  if (ctx.action === 'create' || r.memberId !== ctx.previous?.memberId) {
    const member = await memberOrg(ctx, r.memberId);
    if (!member) refuse('memberId', '所选党员不存在');
    if (!inScope(ctx.actor, member.orgId)) refuse('memberId', '只能为本组织的党员登记');
    r.orgId = member.orgId;
  } else if (ctx.previous) r.orgId = ctx.previous.orgId;
});

/** A talk is between two people, and not in the future (a record of what took place). */
registerHook('evaluation.talk', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  if (r.talkerId !== undefined && r.talkerId === r.memberId) refuse('memberId', '谈话对象不能是谈话人本人');
  if (typeof r.talkerId === 'number' && !(await memberOrg(ctx, r.talkerId))) refuse('talkerId', '所选谈话人不存在');
});

/** A manual points record names a manual item (computed items are never typed twice) and stays within its score's sign. */
registerHook('evaluation.pointsItem', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const rows = await sql<{ name: string; source: string; enabled: boolean | null; score: number }>`
    SELECT name, source, enabled, score FROM m_member_points_item WHERE id = ${Number(r.itemId)}`.execute(ctx.trx);
  const item = rows.rows[0];
  if (!item) refuse('itemId', '所选积分项目不存在');
  if (item.source !== 'manual') refuse('itemId', `“${item.name}”由系统根据业务记录自动计算，不能手工录入`);
  if (item.enabled === false) refuse('itemId', `积分项目“${item.name}”已停用`);
  if (typeof r.score === 'number' && item.score !== 0 && Math.sign(r.score) !== Math.sign(item.score)) {
    refuse('score', item.score < 0 ? `“${item.name}”是扣分项目，分值须为负数` : `“${item.name}”是加分项目，分值须为正数`);
  }
});

/** The weights of a plan's indicators add up to at most 100%. */
registerHook('evaluation.indicatorWeights', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const rows = await sql<{ total: number | null }>`
    SELECT sum(weight)::float8 AS total FROM m_assess_plan_indicator WHERE plan_id = ${Number(r.planId)} AND id <> ${ctx.id ?? 0}`.execute(ctx.trx);
  const total = (rows.rows[0]?.total ?? 0) + Number(r.weight ?? 0);
  if (total > 100 + 1e-9) refuse('weight', `考核指标的权重合计不能超过100%（已有${rows.rows[0]?.total ?? 0}%，本项${r.weight}%）`);
});

/**
 * A score: of a branch under the plan's issuing organisation, for an indicator of the plan, not above its
 * full marks, and given by the level above: nobody scores their own branch.
 */
registerHook('evaluation.assessScore', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const rows = await sql<{ name: string; maxScore: number; planId: number; planOrg: number }>`
    SELECT i.name, i.max_score AS "maxScore", i.plan_id AS "planId", p.org_id AS "planOrg"
    FROM m_assess_plan_indicator i JOIN m_assess_plan p ON p.id = i.plan_id WHERE i.id = ${Number(r.indicatorId)}`.execute(ctx.trx);
  const ind = rows.rows[0];
  if (!ind || ind.planId !== r.planId) refuse('indicatorId', '所选考核指标不属于本考核方案');
  if (typeof r.score === 'number' && r.score > ind.maxScore) refuse('score', `“${ind.name}”的得分不能超过满分${ind.maxScore}分`);
  const orgId = Number(r.orgId);
  const under = await sql<{ ok: boolean }>`
    WITH RECURSIVE up AS (SELECT id, parent_id FROM m_org WHERE id = ${orgId} UNION ALL SELECT o.id, o.parent_id FROM m_org o JOIN up ON o.id = up.parent_id)
    SELECT EXISTS (SELECT 1 FROM up WHERE id = ${ind.planOrg} AND id <> ${orgId}) AS ok`.execute(ctx.trx);
  if (!under.rows[0]?.ok) refuse('orgId', '被考核党组织须是考核方案制定单位的下属党组织');
  // 由上级评分: an actor whose own organisation is the branch scored (a branch secretary) may not score it.
  if (ctx.actor.scope !== 'all' && ctx.actor.orgId === orgId) refuse('orgId', '考核评分由上级党组织进行，不能为本组织评分');
});

/** An appraisal result names a member of the round's branch; the votes cannot exceed the valid ballots once counted. */
registerHook('evaluation.appraisalResult', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const round = await sql<{ orgId: number; state: number; issued: number | null; returned: number | null; void: number | null }>`
    SELECT org_id AS "orgId", state, ballots_issued AS issued, ballots_returned AS returned, ballots_void AS void FROM m_appraisal WHERE id = ${Number(r.appraisalId)}`.execute(ctx.trx);
  const a = round.rows[0];
  if (!a) refuse('appraisalId', '评议不存在');
  // An approved round's results are closed (a conflict with the record's state, as the workflow's edit lock answers).
  if (a.state >= 3) throw new HttpError(409, '评议结果已审核，不能再修改');
  const member = await memberOrg(ctx, r.memberId);
  if (!member) refuse('memberId', '所选党员不存在');
  if (member.orgId !== a.orgId) refuse('memberId', `${member.name}不是本支部的党员`);
  if (a.returned !== null) {
    const problem = votesProblem(member.name, appraisalCounts(r as AppraisalVotes), validBallots({ issued: a.issued ?? 0, returned: a.returned ?? 0, void: a.void ?? 0 }));
    if (problem) refuse('votesExcellent', problem);
  }
});

/**
 * Endpoints of members' daily management beyond the module API (docs/organisation-life.md):
 * - `GET /api/evaluation/talks/coverage?orgId=&year=`     谈心谈话 coverage per branch, the members nobody talked to
 * - `GET /api/evaluation/points/ranking?orgId=&year=`     党员积分 ranking of a branch (or all branches under orgId)
 * - `GET /api/evaluation/points/history?memberId=&year=`  one member's points by item (the member may read their own)
 * - `GET /api/evaluation/assist/totals?orgId=&year=`      党员帮扶 amounts per branch
 * - `GET /api/evaluation/assess/:id/results`              考核方案 results and ranking per branch
 * - `GET /api/evaluation/weak/candidates?orgId=&year=`    软弱涣散 candidates with their reasons
 * - `GET /api/evaluation/member/:id`                      a member's rewards, appraisal grades, talks, assistance
 */
import { localToday } from '../../../shared/module-schema/computed.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { currentUser, LOGIN, perm } from '../../core/auth/guard.js';
import { hasAnyPermission } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import { assessResults, assistTotals, memberEvaluation, pointsOf, rankPoints, scopedOrgs, talkCoverageOf, weakCandidates, yearOf, type WeakParams } from './read.js';

const idParam = (raw: unknown, title: string) => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, `${title}不正确`);
  return id;
};

export async function evaluationRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const db = app.services.database.db;
  type Q = { orgId?: string; year?: string; memberId?: string };

  app.get('/api/evaluation/talks/coverage', { config: perm('member-talk:list') }, async (req) => {
    const year = yearOf(req.query as Q);
    const branches = await scopedOrgs(req, { branchesOnly: true });
    return { year, branches: await talkCoverageOf(app, branches, year) };
  });

  app.get('/api/evaluation/points/ranking', { config: perm('member-points:list') }, async (req) => {
    const year = yearOf(req.query as Q);
    const branches = await scopedOrgs(req, { branchesOnly: true });
    const { rows, items } = await pointsOf(app, { orgIds: branches.map((b) => b.id) }, year);
    return { year, items, content: rankPoints(rows) };
  });

  // A member reads their own history (党员 see their points); others need the page and the member in scope.
  app.get('/api/evaluation/points/history', { config: LOGIN }, async (req) => {
    const q = req.query as Q;
    const year = yearOf(q);
    const memberId = idParam(q.memberId, '党员');
    const user = currentUser(req);
    const linked = (await sql<{ memberId: number | null }>`SELECT member_id AS "memberId" FROM users WHERE id = ${user.id}`.execute(db)).rows[0];
    if (linked?.memberId !== memberId) {
      if (!hasAnyPermission(user, ['member-points:list'])) throw new HttpError(403, '没有访问权限');
      const actor = await runtime.actorOf(user);
      const row = (await sql<{ orgId: number | null }>`SELECT org_id AS "orgId" FROM m_member WHERE id = ${memberId}`.execute(db)).rows[0];
      if (!row || (actor.scope !== 'all' && (row.orgId === null || !actor.scope.includes(row.orgId)))) throw new HttpError(404, '党员不存在');
    }
    const { rows, items } = await pointsOf(app, { memberId }, year);
    const manual = await sql`
      SELECT p.id, to_char(p.date, 'YYYY-MM-DD') AS date, p.score, p.reason, p.state, i.name AS "itemName" FROM m_member_points p JOIN m_member_points_item i ON i.id = p.item_id
      WHERE p.member_id = ${memberId} AND extract(year FROM p.date) = ${year} ORDER BY p.date DESC`.execute(db);
    return { year, items, points: rows[0] ?? null, manual: manual.rows };
  });

  app.get('/api/evaluation/assist/totals', { config: perm('member-assist:list') }, async (req) => {
    const year = yearOf(req.query as Q);
    return { year, content: await assistTotals(app, await scopedOrgs(req), year) };
  });

  app.get('/api/evaluation/assess/:id/results', { config: perm('service-assess-plan:list') }, async (req) => {
    const id = idParam((req.params as { id: string }).id, '考核方案');
    const plan = await runtime.records('assess-plan').get(id, await runtime.actorOf(currentUser(req)));
    return { plan: { id: plan.id, title: plan.title, year: plan.year, orgId: plan.orgId }, content: await assessResults(app, id) };
  });

  // The 优秀 cap an appraisal is judged by: the value in force on the day its grades were decided (else today),
  // so last year's round still shows the share it was decided under after the school changes it.
  app.get('/api/evaluation/appraisal/:id/cap', { config: perm('service-appraisal:list') }, async (req) => {
    const id = idParam((req.params as { id: string }).id, '评议');
    const round = await runtime.records('appraisal').get(id, await runtime.actorOf(currentUser(req)));
    const date = typeof round.gradeDate === 'string' ? round.gradeDate : localToday();
    const { value, source } = await runtime.params.valueOn('appraisal.excellentCapPercent', date);
    return { id, year: round.year, date, excellentCapPercent: value, source };
  });

  app.get('/api/evaluation/weak/candidates', { config: perm('org-weak:list') }, async (req) => {
    const year = yearOf(req.query as Q);
    const m = runtime.module('org-weak');
    // The rule parameters in force today (系统管理 → 规则参数).
    const inForce = m ? (await runtime.params.snapshot()).moduleValues(m, localToday()) : {};
    const params = { secretaryVacantMonths: 3, complianceThreshold: 0.8, complianceQuarters: 2, lastInAssessment: true, ...inForce } as WeakParams;
    const branches = await scopedOrgs(req, { branchesOnly: true });
    return { year, rules: params, content: await weakCandidates(app, branches, year, params) };
  });

  app.get('/api/evaluation/member/:id', { config: perm('member:list', 'member-reward:list') }, async (req) => {
    const id = idParam((req.params as { id: string }).id, '党员');
    await runtime.records('member').get(id, await runtime.actorOf(currentUser(req)));
    return memberEvaluation(app, id);
  });
}

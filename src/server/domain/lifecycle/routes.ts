/**
 * Endpoints of the lifecycle area: the members behind a cell of the yearly change table (drill-down),
 * read through the member module's list (the caller's data scope, masking and labels apply).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { CHANGE_COLUMNS, memberChangeRows } from './member-change.js';

export async function lifecycleRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  /**
   * `GET /api/lifecycle/member-change/members?year&measure&orgId&page&size`: the members counted in a cell
   * of 党员增减变化 (`measure` one of its columns; `orgId` the row's organisation, its subtree).
   */
  app.get('/api/lifecycle/member-change/members', { config: perm('member:list') }, async (req) => {
    const q = req.query as { year?: string; measure?: string; orgId?: string; page?: string; size?: string };
    const year = Number(q.year ?? new Date().getFullYear());
    if (!Number.isInteger(year) || year < 1921 || year > 2200) throw new HttpError(400, '统计年度不正确');
    const column = CHANGE_COLUMNS.find(([name]) => name === q.measure);
    if (!column) throw new HttpError(400, `统计项“${q.measure ?? ''}”不存在`);
    const orgIds = q.orgId ? await runtime.ctx.orgTree.subtreeIds([Number(q.orgId)]) : null;
    const rows = memberChangeRows(runtime.ctx.school, year);
    const cell = sql<number>`(SELECT c.member_id FROM ${rows} AS c WHERE ${sql.ref(`c.${column[1]}`)} <> 0 ${orgIds ? sql`AND c.org_id IN (${sql.join(orgIds.length ? orgIds : [0])})` : sql``})`;
    return runtime.records('member').list(
      { filter: {}, query: { page: q.page ?? '0', size: q.size ?? '20', sort: 'name,asc' }, conditions: [(eb) => eb('id', 'in', cell)] },
      await runtime.actorOf(currentUser(req)),
    );
  });
}

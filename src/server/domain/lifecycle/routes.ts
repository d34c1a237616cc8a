/**
 * Endpoints of the lifecycle area: the members behind a cell of the yearly change table (drill-down),
 * read through the member module's list (the caller's data scope, masking and labels apply).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { serveRecords } from '../../runtime/read-policy.js';
import { attachmentHeader } from '../../core/xlsx.js';
import { letterData } from '../transfer/letter-print.js';
import { letterTexts, lettersPdf } from './graduate-letters.js';
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
    const actor = await runtime.actorOf(currentUser(req));
    const page = await runtime.records('member').list(
      { filter: {}, query: { page: q.page ?? '0', size: q.size ?? '20', sort: 'name,asc' }, conditions: [(eb) => eb('id', 'in', cell)] },
      actor,
    );
    // A list answer: identity numbers masked as in every list (the runtime's read policy, list mode).
    await serveRecords(runtime.ctx, runtime.module('member')!, actor, page.content, { mode: 'list', address: req.ip });
    return page;
  });

  if (!runtime.module('graduate-batch') || !runtime.module('transfer-out')) return;
  /**
   * `GET /api/graduate-batches/{id}/letters.pdf`: the letters of the transfers a graduate batch created, one PDF,
   * in number order; the batch and the transfers are read through their modules (the caller's scope).
   */
  app.get('/api/graduate-batches/:id/letters.pdf', { config: perm('graduate-batch:list') }, async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, '批次编号不正确');
    const actor = await runtime.actorOf(currentUser(req));
    const batch = await runtime.records('graduate-batch').get(id, actor);
    const transfers: Record<string, unknown>[] = [];
    for (let page = 0; ; page++) {
      const chunk = await runtime.records('transfer-out').list({ filter: { batchId: id }, query: { page: String(page), size: '1000', sort: 'letterNo,asc', count: 'false' }, allFields: true }, actor);
      transfers.push(...chunk.content);
      if (chunk.content.length < 1000) break;
    }
    if (!transfers.length) throw new HttpError(404, '该批次尚未转出，没有介绍信');
    // A document of records: sensitive values whole only where the caller may edit the transfer, and logged.
    await serveRecords(runtime.ctx, runtime.module('transfer-out')!, actor, transfers, { address: req.ip });
    const sources = { db: app.services.database.db, dicts: app.services.dicts, config: app.services.config };
    const letters = [];
    for (const t of transfers) {
      const d = await letterData(sources, t);
      letters.push({ texts: letterTexts(d), cancelled: d.status === 'cancelled', no: d.letterNo });
    }
    letters.sort((a, b) => a.no.localeCompare(b.no));
    const bytes = await lettersPdf(letters, `${String(batch.title)} 组织关系介绍信`);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachmentHeader(`组织关系介绍信-${String(batch.title)}.pdf`))
      .header('access-control-expose-headers', 'content-disposition')
      .send(Buffer.from(bytes));
  });
}

/**
 * The cadre area's endpoints besides the module API (docs/cadres.md):
 * - `GET /api/common/gbjbxx?page=&size=&name=&unitId=…`  cadres in the caller's unit scope (spec §7 lookup)
 * - `GET /api/common/ldbzxx?page=&size=&name=&unitId=…`  leadership teams in scope, each with its members
 * - `GET /api/cadre/{id}/profile?showType=full|basic|posts|resume`  one cadre with the sections of the show type
 * - `GET /api/cadre/teams/{id}`  a team's members and structure against the unit's staffing
 * - `GET /api/cadre/{id}/ranks`  rank history: when the cadre reached each rank, derived from its posts
 * (the uKey's routes and the guard of every cadre route: ukey.ts)
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { CADRE_SHOW_TYPES, DEFAULT_CADRE_SHOW_TYPE, isCadreShowType } from '../../../shared/cadre/show-types.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { lookup } from '../member/lookups.js';
import { serveRecords } from '../../runtime/read-policy.js';
import { TEAM_RANKS, teamDetail } from './teams.js';
import { rankHistory } from './rules.js';

import { CADRE_READERS } from './ukey.js';

export async function cadreRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const idOf = (params: unknown) => {
    const id = Number((params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, '记录不存在');
    return id;
  };

  app.get('/api/common/gbjbxx', { config: perm(...CADRE_READERS) }, (req) => lookup(req, 'cadre'));

  app.get('/api/common/ldbzxx', { config: perm('cadre-leadership:list', 'cadre-info:list') }, async (req) => {
    const page = await lookup(req, 'leader-team');
    const unitIds = page.content.map((t) => t.unitId as number).filter((u) => typeof u === 'number');
    const members = unitIds.length
      ? (await sql<{ unitId: number; cadreId: number; name: string; postTitle: string | null }>`
          SELECT DISTINCT p.unit_id AS "unitId", c.id AS "cadreId", c.name, p.post_title AS "postTitle" FROM m_cadre_post p JOIN m_cadre c ON c.id = p.cadre_id
          WHERE p.unit_id = ANY(${unitIds}::int[]) AND p.kind = '职务' AND coalesce(p.full_time, true) AND (p.end_date IS NULL OR p.end_date > current_date) AND p.rank = ANY(${TEAM_RANKS}::text[])
          ORDER BY c.id`.execute(app.services.database.db)).rows
      : [];
    return { ...page, content: page.content.map((t) => ({ ...t, members: members.filter((m) => m.unitId === t.unitId).map(({ cadreId, name, postTitle }) => ({ cadreId, name, postTitle })) })) };
  });

  app.get('/api/cadre/:id/profile', { config: perm('cadre-info:list') }, async (req) => {
    const id = idOf(req.params);
    const q = req.query as { showType?: string };
    const showType = q.showType === undefined || q.showType === '' ? DEFAULT_CADRE_SHOW_TYPE : q.showType;
    if (!isCadreShowType(showType)) throw new HttpError(400, `显示方式“${showType}”不正确，应为 ${Object.keys(CADRE_SHOW_TYPES).join('、')} 之一`);
    const actor = await runtime.actorOf(currentUser(req));
    // Read through the runtime's read policy (issue 38.8): the number whole only for who may edit the cadre, logged.
    const [cadre] = await serveRecords(runtime.ctx, runtime.module('cadre')!, actor, [await runtime.records('cadre').get(id, actor)], { address: req.ip });
    const sections: Record<string, unknown[]> = {};
    for (const module of CADRE_SHOW_TYPES[showType].modules) {
      const page = await runtime.records(module).list({ filter: { cadreId: id }, query: { size: 1000, fields: 'all' } }, actor);
      sections[module] = await serveRecords(runtime.ctx, runtime.module(module)!, actor, page.content, { mode: 'list', address: req.ip });
    }
    return { showType, showTypeTitle: CADRE_SHOW_TYPES[showType].title, cadre, sections };
  });

  // Rank history (issue 39): read through the read policy (the cadre in scope, its posts by the record service).
  app.get('/api/cadre/:id/ranks', { config: perm('cadre-info:list') }, async (req) => {
    const id = idOf(req.params);
    const actor = await runtime.actorOf(currentUser(req));
    await runtime.records('cadre').get(id, actor);
    const page = await runtime.records('cadre-post').list({ filter: { cadreId: id }, query: { size: 1000, fields: 'all' } }, actor);
    const posts = await serveRecords(runtime.ctx, runtime.module('cadre-post')!, actor, page.content, { mode: 'list', address: req.ip });
    return { cadreId: id, ranks: rankHistory(posts) };
  });

  app.get('/api/cadre/teams/:id', { config: perm('cadre-leadership:list') }, async (req) => {
    const actor = await runtime.actorOf(currentUser(req));
    const team = await runtime.records('leader-team').get(idOf(req.params), actor);
    return { team, ...(await teamDetail(app.services.database.db, team.unitId as number)) };
  });
}

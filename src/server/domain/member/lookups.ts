import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { containsText } from '../../db/text-search.js';
import { MEMBER_STATUS_FIELD } from '../../../shared/party-members.js';
import { memberStatusOf } from './members.js';
import { filterFromQuery } from '../../runtime/query.js';
import { serveRecords } from '../../runtime/read-policy.js';

const PAGING_KEYS = new Set(['page', 'size', 'sort', 'count']);

/**
 * The spec's common lookups (`/api/common/*`): a module's list through the runtime (filters, data scope,
 * paging), with the query string as the filter. Only the module's declared filters are accepted.
 */
export async function lookup(req: FastifyRequest, moduleId: string, extra: Record<string, unknown> = {}) {
  const { runtime } = req.server;
  const m = runtime.module(moduleId);
  if (!m) throw new HttpError(404, `模块“${moduleId}”不存在`);
  const query = req.query as Record<string, unknown>;
  const given: Record<string, unknown> = {};
  const paging: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === '' || value === undefined) continue;
    if (PAGING_KEYS.has(key)) paging[key] = value;
    else given[key] = value;
  }
  // A query string carries text: numbers, lists and ranges are read as the filter's field needs them.
  const filter = { ...extra, ...filterFromQuery(m, given) };
  const actor = await runtime.actorOf(currentUser(req));
  const page = await runtime.records(moduleId).list({ filter, query: paging }, actor);
  // A list answer: every sensitive value masked (the runtime's read policy, list mode).
  await serveRecords(runtime.ctx, m, actor, page.content, { mode: 'list', address: req.ip });
  return page;
}

/** A member lookup lists an organisation's members (members.ts): `partyStatus` defaults to 正常, `all` lifts it. */
function memberLookup(req: FastifyRequest, extra: Record<string, unknown> = {}) {
  const query = req.query as Record<string, unknown>;
  const status = memberStatusOf(query[MEMBER_STATUS_FIELD]);
  delete query[MEMBER_STATUS_FIELD];
  return lookup(req, 'member', { ...extra, ...(status && { [MEMBER_STATUS_FIELD]: status }) });
}

export async function memberLookupRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/common/dyjbxx', { config: perm('member:list') }, (req) => memberLookup(req));
  // The cadre lookups (gbjbxx, ldbzxx) are the cadre area's: domain/cadre/routes.ts.
  // Units and their leaders (names, phones) are for those who may list units, not for any account.
  app.get('/api/common/getDwInfo', { config: perm('unit:list') }, (req) => lookup(req, 'unit'));
  app.get('/api/common/getBjInfo', { config: perm('class:list', 'student:list') }, (req) => lookup(req, 'class'));
  app.get('/api/common/xsjbxx', { config: perm('student:list') }, (req) => lookup(req, 'student'));
  app.get('/api/common/jsjbxx', { config: perm('teacher:list') }, (req) => lookup(req, 'teacher'));

  // Students and teachers in one list: name, number, kind and unit.
  app.get('/api/common/xsjsxx', { config: perm('student:list', 'teacher:list') }, async (req) => {
    const q = req.query as { name?: string; page?: string; size?: string };
    const page = Math.max(0, Number(q.page ?? 0) || 0);
    const size = Math.min(1000, Math.max(1, Number(q.size ?? 10) || 10));
    // Searched through the name columns' character indexes (db/text-search.ts).
    const name = q.name ?? '';
    const union = sql`
      SELECT id, name, student_no AS "no", '学生' AS kind, unit_id AS "unitId" FROM m_student WHERE ${containsText('name', name)}
      UNION ALL
      SELECT id, name, staff_no AS "no", '教职工' AS kind, unit_id AS "unitId" FROM m_teacher WHERE ${containsText('name', name)}`;
    const db = app.services.database.db;
    const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${union}) t`.execute(db);
    const rows = await sql`SELECT * FROM (${union}) t ORDER BY name, kind, id LIMIT ${size} OFFSET ${page * size}`.execute(db);
    return { content: rows.rows, totalElements: total.rows[0].n };
  });
}

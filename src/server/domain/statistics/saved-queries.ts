/** Saved queries of 综合查询: each user's own, and those shared with everyone who may read the module. */
import { sql, type Kysely } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { QueryRequest, SavedQuery } from '../../../shared/statistics.js';
import { compileQuery } from './query.js';

interface Row {
  id: number;
  title: string;
  module: string;
  definition: QueryRequest;
  shared: boolean;
  owner_id: number | null;
  owner_name: string | null;
}

const toSaved = (r: Row, user: SessionUser): SavedQuery => ({
  id: r.id, title: r.title, module: r.module, definition: r.definition, shared: r.shared, ownerId: r.owner_id, ownerName: r.owner_name ?? '', mine: r.owner_id === user.id,
});

export async function listSaved(db: Kysely<DB>, runtime: Runtime, user: SessionUser): Promise<SavedQuery[]> {
  const { rows } = await sql<Row>`SELECT q.*, coalesce(nullif(u.nick_name, ''), u.username) AS owner_name FROM stat_saved_query q LEFT JOIN users u ON u.id = q.owner_id
    WHERE q.owner_id = ${user.id} OR q.shared ORDER BY (q.owner_id = ${user.id}) DESC, q.updated_at DESC`.execute(db);
  // A shared query over a module the user may not read is not theirs to see.
  return rows.filter((r) => r.owner_id === user.id || hasAnyPermission(user, [runtime.module(r.module)?.permissions.list ?? '-'])).map((r) => toSaved(r, user));
}

interface SaveBody {
  title?: unknown;
  shared?: unknown;
  definition?: unknown;
}

async function checked(runtime: Runtime, user: SessionUser, body: SaveBody): Promise<{ title: string; shared: boolean; definition: QueryRequest }> {
  const title = typeof body?.title === 'string' ? body.title.trim() : '';
  if (!title || title.length > 60) throw new HttpError(400, '请填写查询名称（不超过60个字）', { errors: [{ field: 'title', message: '请填写查询名称（不超过60个字）' }] });
  // A query is saved only when it would run: the same checks as running it.
  await compileQuery(runtime, user, body.definition);
  const d = body.definition as QueryRequest;
  const definition: QueryRequest = { module: d.module, where: d.where, columns: d.columns, sort: d.sort, size: d.size, ...(d.snapshot ? { snapshot: d.snapshot } : {}) };
  return { title, shared: body.shared === true, definition };
}

export async function saveQuery(db: Kysely<DB>, runtime: Runtime, user: SessionUser, body: SaveBody, id?: number): Promise<SavedQuery> {
  const q = await checked(runtime, user, body);
  if (id !== undefined) {
    const { rows } = await sql<Row>`UPDATE stat_saved_query SET title = ${q.title}, module = ${q.definition.module}, definition = ${JSON.stringify(q.definition)}::jsonb, shared = ${q.shared}, updated_at = now()
      WHERE id = ${id} AND owner_id = ${user.id} RETURNING *, NULL AS owner_name`.execute(db);
    if (!rows[0]) throw new HttpError(404, '查询不存在或不是您保存的');
    return toSaved(rows[0], user);
  }
  const { rows } = await sql<Row>`INSERT INTO stat_saved_query (title, module, definition, shared, owner_id)
    VALUES (${q.title}, ${q.definition.module}, ${JSON.stringify(q.definition)}::jsonb, ${q.shared}, ${user.id}) RETURNING *, NULL AS owner_name`.execute(db);
  return toSaved(rows[0], user);
}

export async function deleteSaved(db: Kysely<DB>, user: SessionUser, id: number): Promise<void> {
  const r = await sql`DELETE FROM stat_saved_query WHERE id = ${id} AND owner_id = ${user.id}`.execute(db);
  if (!Number(r.numAffectedRows ?? 0)) throw new HttpError(404, '查询不存在或不是您保存的');
}

/**
 * 文件下载 for readers (docs/work.md): the documents published to the caller, by category and search, newest
 * first, and the download that counts itself. The documents are records of the module `document`, kept by
 * holders of `document:manage` on the same page; a reader sees a document while it is 发布中 and published
 * to them: to every party branch's users (全部党支部), to an organisation at or above theirs (指定组织), or to
 * one of their roles (指定角色).
 * - `GET /api/work/documents?q=&category=&page=&size=`  { content, totalElements, categories }
 * - `GET /api/work/documents/newest?limit=`             the newest few (the workbench)
 * - `GET /api/work/documents/:id/download`              the file as an attachment; downloads + 1
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type SqlBool, type Expression } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { sendStoredFile } from '../../core/files/serve.js';
import { fileRefToken } from '../../core/files/store.js';
import { fileStoreOf } from '../../core/files/upload.js';
import { ownValue } from '../../../shared/own.js';
import { HttpError } from '../../errors.js';

export const DOCUMENT_READ = 'service-download:list';
export const DOCUMENT_MANAGE = 'document:manage';
/** Spec §4 share type codes of the module's labels. */
export const SHARE_TYPE_CODE: Record<string, number> = { 指定组织: 1, 指定角色: 2, 全部党支部: 3 };

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** Who the caller is for publication: the organisations at and above theirs, and their role ids. */
async function audienceOf(app: FastifyInstance, user: SessionUser) {
  const db = app.services.database.db;
  const path = user.orgId ? ((await app.services.orgTree.pathOf?.(user.orgId)) ?? [{ id: user.orgId, parentId: null, type: null }]) : [];
  const roles = (await db.selectFrom('user_roles').select('role_id').where('user_id', '=', user.id).execute()).map((r) => Number(r.role_id));
  return { orgIds: path.map((o) => o.id), roleIds: roles };
}

/** The condition that keeps the documents published to the caller (everything for managers). */
async function visibleTo(app: FastifyInstance, user: SessionUser): Promise<Expression<SqlBool>> {
  if (hasAnyPermission(user, [DOCUMENT_MANAGE])) return sql<SqlBool>`true`;
  const { orgIds, roleIds } = await audienceOf(app, user);
  const orgs = JSON.stringify(orgIds);
  const roles = JSON.stringify(roleIds);
  return sql<SqlBool>`d.share_state = '发布中' AND (
    (d.share_type = '全部党支部' AND ${orgIds.length > 0})
    OR (d.share_type = '指定组织' AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(d.org_ids, '[]'::jsonb)) e WHERE e @> ANY (SELECT jsonb_array_elements(${orgs}::jsonb))))
    OR (d.share_type = '指定角色' AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(d.role_ids, '[]'::jsonb)) e WHERE e @> ANY (SELECT jsonb_array_elements(${roles}::jsonb)))))`;
}

const fileNameOf = (ref: unknown) => {
  const m = /[?&]name=([^&]*)/.exec(String(ref ?? ''));
  return m ? decodeURIComponent(m[1]) : null;
};

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.database.db as unknown as AnyDb;
  const store = fileStoreOf(app);
  const columns = sql`d.id, d.title, d.category, d.description, d.share_type AS "shareType", d.publish_date AS "publishDate", coalesce(d.downloads, 0)::int AS downloads, d.file`;
  const dto = (r: Record<string, unknown>) => ({
    id: Number(r.id), title: r.title, category: r.category, description: r.description ?? null,
    shareType: ownValue(SHARE_TYPE_CODE, String(r.shareType)) ?? null, publishDate: r.publishDate ?? null, downloads: Number(r.downloads), fileName: fileNameOf(r.file),
  });

  app.get('/api/work/documents', { config: perm(DOCUMENT_READ, DOCUMENT_MANAGE) }, async (req) => {
    const q = req.query as { q?: string; category?: string; page?: string; size?: string };
    const size = Math.min(Math.max(Number(q.size) || 20, 1), 200);
    const page = Math.max(Number(q.page) || 1, 1);
    const visible = await visibleTo(app, currentUser(req));
    const text = (q.q ?? '').trim();
    const where = sql<SqlBool>`${visible}
      ${text ? sql`AND (d.title ILIKE ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} OR coalesce(d.description, '') ILIKE ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})` : sql``}`;
    const byCategory = q.category ? sql<SqlBool>`AND d.category = ${q.category}` : sql``;
    const rows = (await sql<Record<string, unknown>>`SELECT ${columns} FROM m_document d WHERE ${where} ${byCategory}
      ORDER BY d.publish_date DESC NULLS LAST, d.id DESC LIMIT ${size} OFFSET ${(page - 1) * size}`.execute(db)).rows;
    const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_document d WHERE ${where} ${byCategory}`.execute(db)).rows[0].n;
    const categories = (await sql<{ category: string; n: number }>`SELECT d.category, count(*)::int AS n FROM m_document d WHERE ${where} GROUP BY d.category ORDER BY d.category`.execute(db)).rows;
    return { content: rows.map(dto), totalElements: total, categories };
  });

  app.get('/api/work/documents/newest', { config: perm(DOCUMENT_READ, DOCUMENT_MANAGE) }, async (req) => {
    const limit = Math.min(Math.max(Number((req.query as { limit?: string }).limit) || 5, 1), 20);
    const visible = await visibleTo(app, currentUser(req));
    return (await sql<Record<string, unknown>>`SELECT ${columns} FROM m_document d WHERE ${visible} ORDER BY d.publish_date DESC NULLS LAST, d.id DESC LIMIT ${limit}`.execute(db)).rows.map(dto);
  });

  // The count goes up when the file is handed out; a document not published to the caller reads as missing.
  app.get('/api/work/documents/:id/download', { config: perm(DOCUMENT_READ, DOCUMENT_MANAGE) }, async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, '文件编号不正确');
    const visible = await visibleTo(app, currentUser(req));
    const row = (await sql<{ file: string | null }>`UPDATE m_document d SET downloads = coalesce(d.downloads, 0) + 1 WHERE d.id = ${id} AND ${visible} RETURNING d.file`.execute(db)).rows[0];
    if (!row) throw new HttpError(404, '文件不存在或未向您发布');
    const token = fileRefToken(row.file);
    if (!token) throw new HttpError(404, '该文件尚未上传附件');
    return sendStoredFile(req, reply, store, await store.get(token), 'attachment');
  });
}

import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { escapeHtml } from '../../shared/format.js';
import { HttpError } from '../errors.js';
import { LOGIN, PUBLIC, TOKEN_COOKIE, currentUser, perm, type AuthRequirement } from './auth/guard.js';
import { SUPERUSER_PERMISSION, hasAnyPermission } from './auth/session-user.js';
import { IMAGE_TYPES, OPERATIONS_TYPES } from '../../shared/file-types.js';
import { sendStoredFile } from './files/serve.js';
import { fileDto } from './files/store.js';
import { fileStoreOf, receiveUpload, registerMultipart, type UploadOptions } from './files/upload.js';
import { idsOf } from './ids.js';
import { parsePaging } from './paging.js';

interface RouteEntry {
  method: string;
  url: string;
  auth: AuthRequirement | undefined;
}

const API_PATH = /^\/(api|auth|websocket)(\/|$)/;

/**
 * The remaining paths of spec section 7 "Common data and files": aliases of the file API, the operations
 * uploads, the API index (/doc.html) and the database status page (/druid).
 *
 * Registered through fastify-plugin so its route index hook sits on the root: listed first in routes.ts,
 * it sees every route registered after it. The routes themselves live in an encapsulated child.
 */
export const miscRoutes = fp(
  async function miscRoutes(app: FastifyInstance) {
    const index: RouteEntry[] = [];
    app.addHook('onRoute', (route) => {
      if (!API_PATH.test(route.url)) return;
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        if (method !== 'HEAD') index.push({ method, url: route.url, auth: route.config?.auth });
      }
    });
    await app.register(miscChildRoutes, { index });
  },
  { name: 'misc-routes' },
);

async function miscChildRoutes(app: FastifyInstance, opts: { index: RouteEntry[] }): Promise<void> {
  const { database } = app.services;
  const store = fileStoreOf(app);
  await registerMultipart(app);

  const upload = (extra: Omit<UploadOptions, 'ownerId'> = {}) => async (req: FastifyRequest) =>
    fileDto((await receiveUpload(req, store, { ownerId: currentUser(req).id, ...extra })).file);

  const listOwn = (types?: Readonly<Record<string, string>>) => async (req: FastifyRequest) => {
    const paging = parsePaging(req.query, {}, []);
    const blurry = String((req.query as { blurry?: unknown }).blurry ?? '').trim();
    return store.listOwn(currentUser(req).id, { offset: paging.offset, limit: paging.limit, blurry, types });
  };

  const deleteOwn = async (req: FastifyRequest) => {
    const ids = idsOf(req.body);
    const rows = await database.db.selectFrom('files').selectAll().where('id', 'in', ids).where('owner_id', '=', currentUser(req).id).execute();
    if (rows.length !== new Set(ids).size) throw new HttpError(404, '文件不存在或不是您上传的');
    await store.remove(rows);
    return { status: 200, message: '删除成功' };
  };

  // Operations uploads: the package or dump is only stored; applying it is done by operations staff on the
  // server, never by this process.
  for (const kind of ['deploy', 'database'] as const) {
    app.post(`/api/${kind}/upload`, { config: perm('admin') }, async (req) => {
      const file = await upload({ moduleName: kind, types: OPERATIONS_TYPES })(req);
      return { status: 200, message: `文件已上传（编号${file.id}），请联系运维人员在服务器上执行${kind === 'deploy' ? '部署' : '数据库导入'}`, file };
    });
  }

  app.get('/api/pictures', { config: LOGIN }, listOwn(IMAGE_TYPES));
  app.post('/api/pictures', { config: LOGIN }, upload({ types: IMAGE_TYPES, moduleName: 'pictures' }));
  app.delete('/api/pictures', { config: LOGIN }, deleteOwn);

  // Cloud storage of the original system; files are stored locally here.
  app.get('/api/qiNiuContent', { config: LOGIN }, listOwn());

  app.post('/api/upload', { config: LOGIN }, upload());

  app.get('/api/localStorage', { config: LOGIN }, listOwn());
  app.post('/api/localStorage', { config: LOGIN }, upload());
  app.delete('/api/localStorage', { config: LOGIN }, deleteOwn);

  app.get('/api/archivesShareFile/viewFile', { config: LOGIN }, async (req, reply) =>
    sendStoredFile(req, reply, store, await store.readable(currentUser(req), (req.query as { fileId?: unknown }).fileId), 'view'),
  );

  /**
   * The route and permission map and the database page are for administrators only. A browser opens them
   * by navigation, which sends no Authorization header: the web app's token cookie is accepted as well.
   */
  const administrator = async (req: FastifyRequest) => {
    const token = req.user ? undefined : cookieValue(req.headers.cookie, TOKEN_COOKIE);
    const user = req.user ?? (token ? await app.services.sessions.resolve(token) : null);
    if (!user) throw new HttpError(401, '登录状态已过期，请重新登录');
    if (!hasAnyPermission(user, [SUPERUSER_PERMISSION])) throw new HttpError(403, '没有访问权限');
  };

  // PUBLIC for the guard (which reads no cookie here); `administrator` decides.
  app.get('/doc.html', { config: PUBLIC, onRequest: administrator }, async (_req, reply) => sendHtml(reply, '接口文档', apiIndex(opts.index)));

  app.get('/druid', { config: PUBLIC, onRequest: administrator }, async (_req, reply) => {
    const started = performance.now();
    let ok = true;
    try {
      await sql`SELECT 1`.execute(database.db);
    } catch {
      ok = false;
    }
    const latency = performance.now() - started;
    const migrations = ok ? (await sql<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`.execute(database.db)).rows[0]?.n : undefined;
    const rows: [string, string][] = [
      ['数据库类型', database.kind === 'pglite' ? 'PGlite（内嵌 PostgreSQL）' : 'PostgreSQL'],
      ['连接状态', ok ? '正常' : '异常'],
      ['SELECT 1 耗时', `${latency.toFixed(2)} ms`],
      ['已执行迁移', migrations === undefined ? '-' : String(migrations)],
      ['检查时间', new Date().toISOString()],
    ];
    return sendHtml(reply, '数据库监控', `<table><tbody>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`);
  });
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('=')) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function authText(auth: AuthRequirement | undefined): string {
  if (auth === 'public') return '公开';
  if (auth === 'login') return '登录';
  if (auth) return auth.any.join(' 或 ');
  return '-';
}

function apiIndex(index: RouteEntry[]): string {
  const rows = [...index].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  return `<p>共 ${rows.length} 个接口。“登录”表示需要登录；其余为所需权限之一（超级管理员拥有全部权限）。</p>
<table><thead><tr><th>方法</th><th>路径</th><th>权限</th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${escapeHtml(r.method)}</td><td><code>${escapeHtml(r.url)}</code></td><td>${escapeHtml(authText(r.auth))}</td></tr>`).join('\n')}
</tbody></table>`;
}

function sendHtml(reply: FastifyReply, title: string, body: string) {
  return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#303133}table{border-collapse:collapse}th,td{border:1px solid #dcdfe6;padding:4px 10px;text-align:left}th{background:#f5f7fa}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`);
}

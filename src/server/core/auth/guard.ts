import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../errors.js';
import { hasAnyPermission, type SessionUser } from './session-user.js';
import type { SessionService } from './sessions.js';

/** What a route needs: nothing, a session, or at least one of these permissions. */
export type AuthRequirement = 'public' | 'login' | { any: string[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

/** Route config shorthands: `{ config: perm('member:list') }`, `{ config: LOGIN }`, `{ config: PUBLIC }`. */
export const PUBLIC = { auth: 'public' as const };
export const LOGIN = { auth: 'login' as const };
export const perm = (...any: string[]) => ({ auth: { any } });

const GUARDED = /^\/(api|auth|websocket)(\/|$)/;

export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  // The websocket cannot send headers from a browser: it carries ?token= (spec section 7).
  const query = req.query as { token?: unknown } | undefined;
  if (req.url.startsWith('/websocket') && typeof query?.token === 'string') return query.token;
  // <img>, <video> and download links cannot send headers either: reading a file may use the session
  // cookie the web app keeps (same site, read-only GET requests only).
  if (req.method === 'GET' && FILE_READS.test(req.url)) return cookieToken(req.headers.cookie);
  return undefined;
}

const FILE_READS = /^\/api\/(file\/(view|play|download)|archivesShareFile\/viewFile|pschool\/media\/\d+)(\?|$)/;
/** The web app's token cookie (src/web/core/auth/token.ts TOKEN_KEY). */
export const TOKEN_COOKIE = 'DJ-TOKEN';

export function cookieToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join('=')) || undefined;
  }
  return undefined;
}

/** The signed-in caller; throws 401 when there is none (for handlers of LOGIN or perm routes). */
export function currentUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new HttpError(401, '登录状态已过期，请重新登录');
  return req.user;
}

/**
 * Every /api, /auth and /websocket route must declare what it needs (the app refuses to start otherwise);
 * the check runs before the body is parsed, so an unauthorised request costs nothing.
 */
export const authGuard = fp(async function authGuard(app: FastifyInstance, opts: { sessions: SessionService }) {
  app.decorateRequest('user', null);
  app.addHook('onRoute', (route) => {
    if (GUARDED.test(route.url) && !route.config?.auth) {
      throw new Error(`route ${route.method} ${route.url} declares no permission: add config PUBLIC, LOGIN or perm(...)`);
    }
  });
  app.addHook('onRequest', async (req) => {
    const auth = req.routeOptions.config?.auth;
    const token = bearerToken(req);
    if (token) req.user = await opts.sessions.resolve(token);
    if (!auth || auth === 'public') return;
    if (!req.user) throw new HttpError(401, '登录状态已过期，请重新登录');
    if (auth !== 'login' && !hasAnyPermission(req.user, auth.any)) throw new HttpError(403, '没有访问权限');
  });
});

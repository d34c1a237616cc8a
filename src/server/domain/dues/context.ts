import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { currentUser } from '../../core/auth/guard.js';
import type { SessionUser } from '../../core/auth/session-user.js';
import type { CoreServices } from '../../core/services.js';
import { HttpError } from '../../errors.js';
import type { Actor, Runtime } from '../../runtime/index.js';
import { DuesLevels } from './levels.js';
import { duesDb, type DuesActor, type DuesDb } from './tables.js';

/** What the batch and payment services need: the database, the school, the organisation levels. */
export interface DuesCore {
  school: string;
  db: DuesDb;
  levels: DuesLevels;
}

/** ... and the app's services and schema runtime, for what reads settings, dictionaries or module records. */
export interface Dues extends DuesCore {
  services: CoreServices;
  runtime: Runtime;
}

export function duesOf(app: FastifyInstance): Dues {
  const { services } = app;
  return { services, runtime: app.runtime, school: services.appConfig.school, db: duesDb(services.database.db), levels: DuesLevels.of(services) };
}

/** The caller of a dues route: who (for entries and logs) and which organisations they may touch. */
export interface Caller {
  user: SessionUser;
  actor: DuesActor;
  /** The runtime actor (record API, trail). */
  runtimeActor: Actor;
  scope: number[] | 'all';
}

export async function callerOf(req: FastifyRequest): Promise<Caller> {
  const user = currentUser(req);
  const runtimeActor = await req.server.runtime.actorOf(user);
  return { user, actor: { id: user.id, name: user.nickName || user.username }, runtimeActor, scope: runtimeActor.scope };
}

export const inScope = (scope: number[] | 'all', orgId: number) => scope === 'all' || scope.includes(orgId);

/** `column IN (scope)` as SQL, true for everything. */
export function scopeSql(scope: number[] | 'all', column: string): RawBuilder<boolean> {
  if (scope === 'all') return sql<boolean>`true`;
  if (!scope.length) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(column)} = ANY(${scope}::int[])`;
}

/**
 * The organisations a report covers: the subtree of `orgId` within the caller's scope (or the whole
 * scope without one); 403 when the chosen organisation is outside it.
 */
export async function coveredOrgs(dues: DuesCore, caller: Caller, orgId: number | undefined): Promise<number[] | 'all'> {
  if (orgId === undefined) return caller.scope;
  if (!inScope(caller.scope, orgId)) throw new HttpError(403, '所选党组织不在您的管理范围内');
  return dues.levels.subtree([orgId]);
}

/** A positive integer from a query or body value; 400 with `message` otherwise (undefined when absent and optional). */
export function idParam(value: unknown, message: string): number;
export function idParam(value: unknown, message: string, optional: true): number | undefined;
export function idParam(value: unknown, message: string, optional = false): number | undefined {
  if ((value === undefined || value === null || value === '') && optional) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new HttpError(400, message);
  return n;
}

/** Paging of the dues lists: page (0-based) and size (1–1000). */
export function pageParams(query: unknown): { page: number; size: number; offset: number } {
  const q = (query ?? {}) as { page?: unknown; size?: unknown };
  const page = q.page === undefined || q.page === '' ? 0 : Number(q.page);
  const size = q.size === undefined || q.size === '' ? 20 : Number(q.size);
  if (!Number.isInteger(page) || page < 0) throw new HttpError(400, '页码必须是不小于0的整数');
  if (!Number.isInteger(size) || size < 1 || size > 1000) throw new HttpError(400, '每页条数必须是1到1000之间的整数');
  return { page, size, offset: page * size };
}

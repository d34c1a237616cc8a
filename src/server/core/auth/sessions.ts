import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ConfigStore } from '../sysconfig/store.js';
import { SessionCache } from './session-cache.js';
import { DEFAULT_ROLE, SUPERUSER_PERMISSION, type DataScope, type SessionUser } from './session-user.js';

const RENEW_AFTER_MS = 60_000;
const ACCESS_CACHE_TTL_MS = 30_000;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

interface Access {
  roles: string[];
  isSuper: boolean;
  dataScope: DataScope;
  at: number;
}

/** The data scope a user's roles give (the roots of the organisations they see). */
export function dataScopeOf(roles: { data_scope: string; scope_org_ids: number[]; unit_scope?: string; scope_unit_ids?: number[] }[], orgId: number | null, isSuper: boolean): DataScope {
  if (isSuper || roles.some((r) => r.data_scope === 'all')) return { kind: 'all' };
  const units = roles.some((r) => r.unit_scope === 'all') ? 'all' : [...new Set(roles.flatMap((r) => r.scope_unit_ids ?? []))].sort((a, b) => a - b);
  const orgIds = new Set<number>();
  for (const r of roles) {
    if (r.data_scope === 'own' && orgId !== null) orgIds.add(orgId);
    if (r.data_scope === 'custom') r.scope_org_ids.forEach((id) => orgIds.add(id));
  }
  // A user without roles still sees their own organisation's records.
  if (roles.length === 0 && orgId !== null) orgIds.add(orgId);
  return { kind: 'orgs', orgIds: [...orgIds].sort((a, b) => a - b), ...((units === 'all' || units.length) && { units }) };
}

/** The invalidation topic of the session lookup caches (key: a user id, or none for all). */
export const SESSIONS_TOPIC = 'sessions';
/** The invalidation topic of the cached permissions and data scopes (all users at once). */
export const ACCESS_TOPIC = 'access';

/**
 * Carries cache invalidations to every app server: the cluster invalidation bus (LISTEN/NOTIFY) fits it.
 * Without one, invalidations stay in this process (the embedded engine has one process anyway).
 */
export interface InvalidationCarrier {
  on(topic: string, handler: (key: string | number | undefined) => void): unknown;
  invalidate(topic: string, key?: string | number): Promise<void>;
}

type SessionRow = Omit<SessionUser, 'roles' | 'isSuper' | 'dataScope'> & { enabled: boolean; hasLeft: boolean; lastSeenAt: Date; expiresAt: Date };

/**
 * Sessions and each user's effective permissions. Permissions are computed once and cached per user
 * (30 s, cleared at once on any role or user change, on every app server once a bus is connected). Session lookups are cached
 * briefly (session-cache.ts) and forgotten on logout, password change, role and user changes.
 */
export class SessionService {
  private access = new Map<number, Access>();
  private readonly sessions = new SessionCache<SessionRow>();
  /** Forgets cached sessions here; on every app server once `relayInvalidations` connects a bus. */
  private publish: (userId?: number) => Promise<void> = async (userId) => this.sessions.forget(userId);
  private publishAccess: () => Promise<void> = async () => this.access.clear();

  constructor(
    private readonly database: Database,
    private readonly config: ConfigStore,
  ) {}

  /** Sends session invalidations through the cluster bus, and applies those of other servers. */
  relayInvalidations(bus: InvalidationCarrier): void {
    bus.on(SESSIONS_TOPIC, (key) => this.sessions.forget(key === undefined ? undefined : Number(key)));
    bus.on(ACCESS_TOPIC, () => this.access.clear());
    this.publish = (userId) => bus.invalidate(SESSIONS_TOPIC, userId);
    this.publishAccess = () => bus.invalidate(ACCESS_TOPIC);
  }

  /**
   * The entry point for everything that changes what a session lookup answers (logout, password, the
   * user's record, roles): forgets the cached sessions of one user, or of everyone.
   */
  async forgetSessions(userId?: number): Promise<void> {
    await this.publish(userId);
  }

  private async idleMs(): Promise<number> {
    return (await this.config.number('sessionIdleMinutes', 120)) * 60_000;
  }

  async create(userId: number, meta: { ip?: string; userAgent?: string; terminal?: number }): Promise<{ token: string; sessionId: number }> {
    const token = crypto.randomBytes(32).toString('base64url');
    const row = await this.database.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        ip: meta.ip ?? null,
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
        terminal: meta.terminal ?? 1,
        expires_at: new Date(Date.now() + (await this.idleMs())),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { token, sessionId: row.id };
  }

  /** The caller behind a token, or null when the token is unknown, expired, or its user may no longer log in. */
  async resolve(token: string): Promise<SessionUser | null> {
    const tokenHash = hashToken(token);
    const row = this.sessions.get(tokenHash) ?? (await this.lookUp(tokenHash));
    if (!row || !row.enabled || row.hasLeft) return null;
    if (Date.now() - row.lastSeenAt.getTime() > RENEW_AFTER_MS) {
      row.lastSeenAt = new Date();
      await this.database.db
        .updateTable('sessions')
        .set({ last_seen_at: row.lastSeenAt, expires_at: new Date(Date.now() + (await this.idleMs())) })
        .where('id', '=', row.sessionId)
        .execute();
    }
    const access = await this.accessOf(row.id, row.orgId);
    const { enabled: _enabled, hasLeft: _hasLeft, lastSeenAt: _lastSeenAt, expiresAt: _expiresAt, ...user } = row;
    return { ...user, roles: access.roles, isSuper: access.isSuper, dataScope: access.dataScope };
  }

  /** The session and its user from the database, kept in the cache. */
  private async lookUp(tokenHash: string): Promise<SessionRow | undefined> {
    const stamp = this.sessions.stamp;
    const r = await this.database.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id as session_id', 's.last_seen_at', 's.expires_at', 'u.id', 'u.username', 'u.nick_name', 'u.email', 'u.phone', 'u.gender',
        'u.avatar', 'u.use_ukey', 'u.org_id', 'u.enabled', 'u.has_left'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!r) return undefined;
    const row: SessionRow = {
      id: r.id,
      username: r.username,
      nickName: r.nick_name,
      email: r.email,
      phone: r.phone,
      gender: r.gender,
      avatar: r.avatar,
      useUkey: r.use_ukey,
      orgId: r.org_id,
      sessionId: r.session_id,
      enabled: r.enabled,
      hasLeft: r.has_left,
      lastSeenAt: new Date(r.last_seen_at),
      expiresAt: new Date(r.expires_at),
    };
    this.sessions.set(tokenHash, row, row.expiresAt, stamp);
    return row;
  }

  async accessOf(userId: number, orgId: number | null): Promise<Access> {
    const cached = this.access.get(userId);
    if (cached && Date.now() - cached.at < ACCESS_CACHE_TTL_MS) return cached;
    const roles = await this.database.db
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['r.permissions', 'r.data_scope', 'r.scope_org_ids', 'r.unit_scope', 'r.scope_unit_ids'])
      .where('ur.user_id', '=', userId)
      .execute();
    const permissions = [...new Set(roles.flatMap((r) => r.permissions))].sort();
    const isSuper = permissions.includes(SUPERUSER_PERMISSION);
    const dataScope = dataScopeOf(roles, orgId, isSuper);
    const access: Access = { roles: permissions.length ? permissions : [DEFAULT_ROLE], isSuper, dataScope, at: Date.now() };
    this.access.set(userId, access);
    return access;
  }

  /** Call after any change to roles, role grants or a user's record (organisation, state). */
  async invalidateAccess(): Promise<void> {
    await this.publishAccess();
    await this.forgetSessions();
  }

  async end(sessionIds: number[]): Promise<number> {
    if (!sessionIds.length) return 0;
    const ended = await this.database.db.deleteFrom('sessions').where('id', 'in', sessionIds).returning('user_id').execute();
    for (const userId of new Set(ended.map((r) => r.user_id))) await this.forgetSessions(userId);
    return ended.length;
  }

  async endAllOf(userIds: number[], exceptSessionId?: number): Promise<void> {
    if (!userIds.length) return;
    let q = this.database.db.deleteFrom('sessions').where('user_id', 'in', userIds);
    if (exceptSessionId !== undefined) q = q.where('id', '<>', exceptSessionId);
    await q.execute();
    const users = [...new Set(userIds)];
    if (users.length > 20) await this.forgetSessions();
    else for (const userId of users) await this.forgetSessions(userId);
  }
}

import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ConfigStore } from '../sysconfig/store.js';
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
export function dataScopeOf(roles: { data_scope: string; scope_org_ids: number[] }[], orgId: number | null, isSuper: boolean): DataScope {
  if (isSuper || roles.some((r) => r.data_scope === 'all')) return { kind: 'all' };
  const orgIds = new Set<number>();
  for (const r of roles) {
    if (r.data_scope === 'own' && orgId !== null) orgIds.add(orgId);
    if (r.data_scope === 'custom') r.scope_org_ids.forEach((id) => orgIds.add(id));
  }
  // A user without roles still sees their own organisation's records.
  if (roles.length === 0 && orgId !== null) orgIds.add(orgId);
  return { kind: 'orgs', orgIds: [...orgIds].sort((a, b) => a - b) };
}

/**
 * Sessions and each user's effective permissions. Permissions are computed once and cached per user
 * (30 s, cleared at once on any role or user change in this process).
 */
export class SessionService {
  private access = new Map<number, Access>();
  constructor(
    private readonly database: Database,
    private readonly config: ConfigStore,
  ) {}

  private async idleMs(): Promise<number> {
    return (await this.config.number('sessionIdleMinutes', 120)) * 60_000;
  }

  async create(userId: number, meta: { ip?: string; userAgent?: string }): Promise<{ token: string; sessionId: number }> {
    const token = crypto.randomBytes(32).toString('base64url');
    const row = await this.database.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        ip: meta.ip ?? null,
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
        expires_at: new Date(Date.now() + (await this.idleMs())),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { token, sessionId: row.id };
  }

  /** The caller behind a token, or null when the token is unknown, expired, or its user may no longer log in. */
  async resolve(token: string): Promise<SessionUser | null> {
    const row = await this.database.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id as session_id', 's.last_seen_at', 'u.id', 'u.username', 'u.nick_name', 'u.email', 'u.phone', 'u.gender', 'u.avatar',
        'u.use_ukey', 'u.org_id', 'u.enabled', 'u.has_left'])
      .where('s.token_hash', '=', hashToken(token))
      .where('s.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!row || !row.enabled || row.has_left) return null;
    if (Date.now() - new Date(row.last_seen_at).getTime() > RENEW_AFTER_MS) {
      await this.database.db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(), expires_at: new Date(Date.now() + (await this.idleMs())) })
        .where('id', '=', row.session_id)
        .execute();
    }
    const access = await this.accessOf(row.id, row.org_id);
    return {
      id: row.id,
      username: row.username,
      nickName: row.nick_name,
      email: row.email,
      phone: row.phone,
      gender: row.gender,
      avatar: row.avatar,
      useUkey: row.use_ukey,
      orgId: row.org_id,
      roles: access.roles,
      isSuper: access.isSuper,
      dataScope: access.dataScope,
      sessionId: row.session_id,
    };
  }

  async accessOf(userId: number, orgId: number | null): Promise<Access> {
    const cached = this.access.get(userId);
    if (cached && Date.now() - cached.at < ACCESS_CACHE_TTL_MS) return cached;
    const roles = await this.database.db
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['r.permissions', 'r.data_scope', 'r.scope_org_ids'])
      .where('ur.user_id', '=', userId)
      .execute();
    const permissions = [...new Set(roles.flatMap((r) => r.permissions))].sort();
    const isSuper = permissions.includes(SUPERUSER_PERMISSION);
    const dataScope = dataScopeOf(roles, orgId, isSuper);
    const access: Access = { roles: permissions.length ? permissions : [DEFAULT_ROLE], isSuper, dataScope, at: Date.now() };
    this.access.set(userId, access);
    return access;
  }

  /** Call after any change to roles, role grants or a user's organisation. */
  invalidateAccess(): void {
    this.access.clear();
  }

  async end(sessionIds: number[]): Promise<number> {
    if (!sessionIds.length) return 0;
    const result = await this.database.db.deleteFrom('sessions').where('id', 'in', sessionIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async endAllOf(userIds: number[], exceptSessionId?: number): Promise<void> {
    if (!userIds.length) return;
    let q = this.database.db.deleteFrom('sessions').where('user_id', 'in', userIds);
    if (exceptSessionId !== undefined) q = q.where('id', '<>', exceptSessionId);
    await q.execute();
  }
}

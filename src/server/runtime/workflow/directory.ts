/**
 * The people of a workflow: the caller as a participant, and who may take a step (the recipients of
 * its to-dos): users holding the step's permission, at the step's level, with the acting organisation
 * in their data scope. Superusers act everywhere but get no to-dos.
 */
import { sql, type Kysely } from 'kysely';
import { scopeOrgIds, type OrgTree } from '../../core/auth/org-scope.js';
import { dataScopeOf } from '../../core/auth/sessions.js';
import { SUPERUSER_PERMISSION, type SessionUser } from '../../core/auth/session-user.js';
import type { DB } from '../../db/types.js';
import type { Actor } from '../hooks.js';
import type { OrgLevels, Participant } from './levels.js';

export async function participantOf(user: SessionUser, actor: Actor, levels: OrgLevels): Promise<Participant> {
  return {
    userId: user.id,
    name: user.nickName || user.username,
    roles: user.roles,
    isSuper: user.isSuper,
    orgId: user.orgId,
    level: await levels.userLevel(user.orgId, actor.scope),
    scope: actor.scope,
    units: actor.units ?? (actor.scope === 'all' ? 'all' : []),
  };
}

/** Holders of a permission, looked up once per directory (one step, or one batch of steps). */
export class Directory {
  private readonly byPermission = new Map<string, Promise<Participant[]>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly levels: OrgLevels,
    private readonly tree: () => OrgTree,
  ) {}

  /** `db`: the transaction a step runs in, when called inside one (on the embedded database a query outside it would wait). */
  holders(permission: string, db: Kysely<DB> = this.db): Promise<Participant[]> {
    let found = this.byPermission.get(permission);
    if (!found) {
      found = this.load(permission, db);
      this.byPermission.set(permission, found);
    }
    return found;
  }

  private async load(permission: string, db: Kysely<DB>): Promise<Participant[]> {
    const rows = await db
      .selectFrom('users as u')
      .innerJoin('user_roles as ur', 'ur.user_id', 'u.id')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['u.id', 'u.username', 'u.nick_name', 'u.org_id', 'r.permissions', 'r.data_scope', 'r.scope_org_ids', 'r.unit_scope', 'r.scope_unit_ids'])
      .where('u.enabled', '=', true)
      .where('u.has_left', '=', false)
      .where('u.id', 'in', (eb) =>
        eb.selectFrom('user_roles as ur2').innerJoin('roles as r2', 'r2.id', 'ur2.role_id').select('ur2.user_id').where(sql<boolean>`${permission} = ANY(r2.permissions)`),
      )
      .execute();
    const byUser = new Map<number, typeof rows>();
    for (const r of rows) byUser.set(r.id, [...(byUser.get(r.id) ?? []), r]);
    const out: Participant[] = [];
    for (const [userId, roles] of byUser) {
      const permissions = [...new Set(roles.flatMap((r) => r.permissions))];
      if (permissions.includes(SUPERUSER_PERMISSION)) continue;
      const first = roles[0];
      const dataScope = dataScopeOf(roles, first.org_id, false);
      const scope = await scopeOrgIds(this.tree(), dataScope);
      const units = dataScope.kind === 'all' ? 'all' : (dataScope.units ?? []);
      out.push({ userId, name: first.nick_name || first.username, roles: permissions, isSuper: false, orgId: first.org_id, level: await this.levels.userLevel(first.org_id, scope), scope, units });
    }
    return out;
  }
}

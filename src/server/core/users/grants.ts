/**
 * What a user or role administrator may hand out and whom they may manage. Without these rules an
 * administrator limited to one branch could grant themselves the organisation department's role, move
 * themselves to the root, reset a higher account's password and sign in as it.
 *
 * - A role is within the caller's power when the caller holds every one of its permissions and its data
 *   scope lies inside the caller's (a role scoped to "own organisation" covers the organisation of the
 *   user who holds it).
 * - Users are placed in, and moved out of, organisations inside the caller's scope only.
 * - Nobody changes their own roles or organisation.
 * - An account holding a role beyond the caller's power is not edited, reset, unlocked, disabled or deleted
 *   by the caller.
 * A superuser may do all of it.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { scopeOrgIds, type OrgTree } from '../auth/org-scope.js';
import type { SessionUser } from '../auth/session-user.js';

export interface RoleRights {
  name: string;
  permissions: string[];
  dataScope: string;
  scopeOrgIds: number[];
  /** Units of a unit-scoped module's records ('all' or the custom list `scopeUnitIds`). */
  unitScope?: string;
  scopeUnitIds?: number[];
}

type Caller = Pick<SessionUser, 'id' | 'roles' | 'isSuper' | 'dataScope'>;

const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

export class Grants {
  private scope?: Promise<number[] | 'all'>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly orgTree: OrgTree,
    private readonly caller: Caller,
  ) {}

  /** The organisations the caller's data scope covers (their subtrees), or 'all'. */
  callerScope(): Promise<number[] | 'all'> {
    this.scope ??= scopeOrgIds(this.orgTree, this.caller.dataScope);
    return this.scope;
  }

  async orgWithin(orgId: number | null | undefined): Promise<boolean> {
    const scope = await this.callerScope();
    return scope === 'all' || (orgId != null && scope.includes(orgId));
  }

  /** Whether the caller may hand out a role with these rights to a user of `holderOrgId`. */
  async roleWithin(role: RoleRights, holderOrgId: number | null): Promise<boolean> {
    if (this.caller.isSuper) return true;
    if (!role.permissions.every((p) => this.caller.roles.includes(p))) return false;
    const scope = await this.callerScope();
    if (scope === 'all') return true;
    if (role.dataScope === 'all' || !this.unitsWithin(role)) return false;
    if (role.dataScope === 'own') return holderOrgId === null || scope.includes(holderOrgId);
    const covered = role.scopeOrgIds.length ? await this.orgTree.subtreeIds(role.scopeOrgIds) : [];
    return covered.every((id) => scope.includes(id));
  }

  /** Whether the role's units lie within the caller's (a caller seeing every organisation sees every unit). */
  private unitsWithin(role: RoleRights): boolean {
    const mine = this.caller.dataScope.kind === 'all' ? 'all' : (this.caller.dataScope.units ?? []);
    if (mine === 'all') return true;
    if (role.unitScope === 'all') return false;
    return (role.scopeUnitIds ?? []).every((id) => mine.includes(id));
  }

  /** Refuses a user's new place unless it lies inside the caller's scope. */
  async assertPlacement(orgId: number | null | undefined): Promise<void> {
    if (!(await this.orgWithin(orgId))) throw fieldError('orgId', '只能将用户放在您管理范围内的组织中');
  }

  /** Refuses roles beyond the caller's power for a user of `holderOrgId`. */
  async assertCanGrant(roleIds: number[], holderOrgId: number | null): Promise<void> {
    if (this.caller.isSuper || !roleIds.length) return;
    for (const role of await this.rolesById(roleIds)) {
      if (!(await this.roleWithin(role, holderOrgId))) throw fieldError('roles', `无权分配角色“${role.name}”：它的权限或数据范围超出了您自己的`);
    }
  }

  /** Refuses to manage accounts that hold a role beyond the caller's power. */
  async assertCanManage(userIds: number[]): Promise<void> {
    if (this.caller.isSuper || !userIds.length) return;
    const rows = await this.db
      .selectFrom('users as u')
      .innerJoin('user_roles as ur', 'ur.user_id', 'u.id')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['u.id', 'u.username', 'u.org_id', 'r.name', 'r.permissions', 'r.data_scope', 'r.scope_org_ids', 'r.unit_scope', 'r.scope_unit_ids'])
      .where('u.id', 'in', [...new Set(userIds)])
      .execute();
    for (const r of rows) {
      if (r.id === this.caller.id) continue; // one's own roles are within one's power by definition
      const role = { name: r.name, permissions: r.permissions, dataScope: r.data_scope, scopeOrgIds: r.scope_org_ids, unitScope: r.unit_scope, scopeUnitIds: r.scope_unit_ids };
      if (!(await this.roleWithin(role, r.org_id))) throw new HttpError(400, `无权管理用户“${r.username}”：其角色“${r.name}”的权限超出了您自己的`);
    }
  }

  /** Refuses a change of one's own roles or organisation. */
  async assertNotOwnAccess(userId: number, change: { roleIds?: number[]; orgId?: number | null }): Promise<void> {
    if (userId !== this.caller.id) return;
    const me = await this.db.selectFrom('users').select('org_id').where('id', '=', userId).executeTakeFirstOrThrow();
    if (change.orgId !== undefined && change.orgId !== me.org_id) throw fieldError('orgId', '不能修改自己的所属组织');
    if (change.roleIds !== undefined) {
      const mine = (await this.db.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).execute()).map((r) => r.role_id);
      const same = mine.length === change.roleIds.length && mine.every((id) => change.roleIds!.includes(id));
      if (!same) throw fieldError('roles', '不能修改自己的角色');
    }
  }

  /** Refuses a role definition (new, or an existing role after the edit) beyond the caller's power. */
  async assertRoleDefinition(role: RoleRights): Promise<void> {
    if (this.caller.isSuper) return;
    const missing = role.permissions.filter((p) => !this.caller.roles.includes(p));
    if (missing.length) throw fieldError('permissions', `不能授予您自己没有的权限：${missing.slice(0, 5).join('、')}${missing.length > 5 ? '等' : ''}`);
    if (!(await this.roleWithin(role, null))) throw fieldError('dataScope', '角色的数据范围不能超出您自己的数据范围');
  }

  private async rolesById(ids: number[]): Promise<RoleRights[]> {
    const rows = await this.db.selectFrom('roles').select(['name', 'permissions', 'data_scope', 'scope_org_ids', 'unit_scope', 'scope_unit_ids']).where('id', 'in', ids).execute();
    return rows.map((r) => ({ name: r.name, permissions: r.permissions, dataScope: r.data_scope, scopeOrgIds: r.scope_org_ids, unitScope: r.unit_scope, scopeUnitIds: r.scope_unit_ids }));
  }
}

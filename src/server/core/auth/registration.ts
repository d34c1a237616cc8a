import type { Database } from '../../db/database.js';
import { HttpError } from '../../errors.js';
import type { ConfigStore } from '../sysconfig/store.js';
import type { OrgTree } from './org-scope.js';
import { SUPERUSER_PERMISSION } from './session-user.js';

/**
 * Self-registration (/auth/register): off unless an administrator sets `registerEnabled` to true (no page
 * of the product registers; an always-open door let any stranger get an account). An account registered
 * gets the role `registerRoleId` and the organisation `registerOrgId` (both optional); without them it is
 * role-less and sees only its own profile.
 */
export interface Registration {
  roleId: number | null;
  orgId: number | null;
}

export const REGISTRATION_CLOSED = '系统未开放注册';
const MISCONFIGURED = '自助注册设置有误，请联系管理员';

/** Throws 403 while registration is off. */
export async function assertRegistrationOpen(config: ConfigStore): Promise<void> {
  if (!(await config.flag('registerEnabled', false))) throw new HttpError(403, REGISTRATION_CLOSED);
}

const idOf = (value: string): number | null | undefined => {
  const v = value.trim();
  if (!v) return null;
  return /^[1-9]\d{0,9}$/.test(v) ? Number(v) : undefined;
};

/**
 * The role and organisation a new account gets. A setting that names nothing, or a role with the
 * superuser permission (a stranger must never become an administrator), refuses registration (503).
 */
export async function registrationGrants(database: Database, config: ConfigStore, orgTree: OrgTree): Promise<Registration> {
  const roleId = idOf(await config.get('registerRoleId'));
  const orgId = idOf(await config.get('registerOrgId'));
  if (roleId === undefined || orgId === undefined) throw new HttpError(503, MISCONFIGURED);
  if (roleId !== null) {
    const role = await database.db.selectFrom('roles').select('permissions').where('id', '=', roleId).executeTakeFirst();
    if (!role || role.permissions.includes(SUPERUSER_PERMISSION)) throw new HttpError(503, MISCONFIGURED);
  }
  if (orgId !== null && orgTree.pathOf && !(await orgTree.pathOf(orgId)).length) throw new HttpError(503, MISCONFIGURED);
  return { roleId, orgId };
}

/** Which organisations a user's queries may touch: everything, or these organisations and their subtrees. */
export type DataScope = { kind: 'all' } | { kind: 'orgs'; orgIds: number[] };

/** The authenticated caller, resolved once per request from the session token. */
export interface SessionUser {
  id: number;
  username: string;
  nickName: string;
  email: string | null;
  phone: string | null;
  gender: string | null;
  avatar: string | null;
  useUkey: boolean;
  orgId: number | null;
  /** Permission strings from the user's roles; `ROLE_SYSTEM_DEFAULT` alone when the user has none. */
  roles: string[];
  isSuper: boolean;
  dataScope: DataScope;
  sessionId: number;
}

export { DEFAULT_ROLE, SUPERUSER_PERMISSION } from '../../../shared/constants-auth.js';

export function hasAnyPermission(user: Pick<SessionUser, 'roles' | 'isSuper'>, required: string[]): boolean {
  return user.isSuper || required.some((p) => user.roles.includes(p));
}

/** The user object sent to the client (login, auth/info): no secrets. */
export function publicUser(user: SessionUser) {
  const { sessionId: _sessionId, ...rest } = user;
  return rest;
}

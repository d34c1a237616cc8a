import type { PublicUser } from '../../../shared/session-user.js';

export type { DataScope } from '../../../shared/session-user.js';

/** The authenticated caller, resolved once per request from the session token. */
export interface SessionUser extends PublicUser {
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

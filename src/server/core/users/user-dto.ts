import type { Selectable } from 'kysely';
import type { UsersTable } from '../tables.js';

/** A user as the admin pages see it: never the password hash. */
export function userDto(u: Selectable<UsersTable>, roles: { id: number; name: string }[] = []) {
  return {
    id: u.id,
    username: u.username,
    nickName: u.nick_name,
    email: u.email,
    phone: u.phone,
    gender: u.gender,
    avatar: u.avatar,
    useUkey: u.use_ukey,
    enabled: u.enabled,
    orgId: u.org_id,
    hasLeft: u.has_left,
    passwordWeak: u.password_weak,
    locked: !!u.locked_until && new Date(u.locked_until).getTime() > Date.now(),
    lastLoginAt: u.last_login_at,
    createTime: u.created_at,
    updateTime: u.updated_at,
    roles,
  };
}

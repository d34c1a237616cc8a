import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { LOGIN, currentUser, perm } from '../auth/guard.js';
import { consumeCode, sendCode } from '../auth/codes.js';
import { scopeOrgIds } from '../auth/org-scope.js';
import { isWeakPassword, passwordPolicy } from '../auth/password-policy.js';
import { decryptPassword } from '../auth/rsa.js';
import { idsOf } from '../ids.js';
import { likeContains, parsePaging } from '../paging.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { sendXlsx } from '../xlsx.js';
import { userImportRoutes, userTemplate } from './import.js';
import { userDto } from './user-dto.js';
import { Grants } from './grants.js';
import { issueOneTimePasswords, oneTimeColumns } from './one-time-password.js';
import { EMAIL_PATTERN } from '../../../shared/validators.js';
import { PHONE_TAKEN, takenValues, userFields, usernameTaken } from './user-rules.js';

/** How long after a login its session may set a new password without repeating the current one. */
const FRESH_LOGIN_MS = 15 * 60_000;

const SORTABLE = { id: 'u.id', username: 'u.username', nickName: 'u.nick_name', createTime: 'u.created_at', lastLoginAt: 'u.last_login_at', enabled: 'u.enabled' };

interface UserFilter {
  blurry?: string;
  enabled?: boolean;
  orgId?: number;
  roleId?: number;
  createTime?: [string, string];
}

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const { database, sessions, keys, config, sender, orgTree } = app.services;
  const { db } = database;

  /** Ids of users the caller may see and change: their data scope, by the users' organisations. */
  async function scopeCondition(req: FastifyRequest) {
    const ids = await scopeOrgIds(orgTree, currentUser(req).dataScope);
    return (eb: ExpressionBuilder<DB & { u: DB['users'] }, 'u'>) => (ids === 'all' ? eb.val(true) : ids.length ? eb('u.org_id', 'in', ids) : eb.val(false));
  }

  async function assertInScope(req: FastifyRequest, userIds: number[], on: Kysely<DB> = db) {
    const cond = await scopeCondition(req);
    const visible = await on.selectFrom('users as u').select('u.id').where('u.id', 'in', userIds).where(cond).execute();
    // A user outside the caller's data scope does not exist for them (404, as for a missing one).
    if (visible.length !== new Set(userIds).size) throw new HttpError(404, '所选用户不存在或不在您的管理范围内');
  }

  async function rolesOf(userIds: number[]) {
    if (!userIds.length) return new Map<number, { id: number; name: string }[]>();
    const rows = await db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id').select(['ur.user_id', 'r.id', 'r.name']).where('ur.user_id', 'in', userIds).orderBy('r.level').execute();
    const map = new Map<number, { id: number; name: string }[]>();
    for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), { id: r.id, name: r.name }]);
    return map;
  }

  /** The role ids of a request's `roles`, checked before anything is written; undefined when not given. */
  async function checkedRoleIds(roles: unknown[] | undefined, caller: ReturnType<typeof currentUser>): Promise<number[] | undefined> {
    if (roles === undefined) return undefined;
    const roleIds = [...new Set(roles.map((r) => (typeof r === 'object' && r ? Number((r as { id: number }).id) : Number(r))))];
    if (roleIds.length) {
      const found = await db.selectFrom('roles').select(['id', 'permissions']).where('id', 'in', roleIds).execute();
      if (found.length !== roleIds.length) throw new HttpError(400, '所选角色不存在', { errors: [{ field: 'roles', message: '所选角色不存在' }] });
      // Only a superuser may hand out the superuser role.
      if (!caller.isSuper && found.some((r) => r.permissions.includes('admin'))) throw new HttpError(400, '只有超级管理员可以分配超级管理员角色', { errors: [{ field: 'roles', message: '只有超级管理员可以分配超级管理员角色' }] });
    }
    return roleIds;
  }

  async function writeRoles(trx: Kysely<DB>, userId: number, roleIds: number[] | undefined) {
    if (roleIds === undefined) return;
    await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    if (roleIds.length) await trx.insertInto('user_roles').values(roleIds.map((role_id) => ({ user_id: userId, role_id }))).execute();
  }

  const grantsOf = (req: FastifyRequest) => new Grants(db, orgTree, currentUser(req));

  /** Users in the caller's scope whose roles are within the caller's power (see grants.ts). */
  async function assertManageable(req: FastifyRequest, userIds: number[]) {
    await assertInScope(req, userIds);
    await grantsOf(req).assertCanManage(userIds);
  }

  /** The four list variants share one query: filter body, scope, paging, and an extra condition. */
  function listRoute(path: string, extra?: (eb: ExpressionBuilder<DB & { u: DB['users'] }, 'u'>) => ReturnType<typeof eb.val<boolean>> | ReturnType<typeof eb<'u.has_left', '=', boolean>>) {
    app.post(path, { config: perm('user:list') }, async (req) => {
      const paging = parsePaging(req.query, SORTABLE, [['u.id', 'desc']]);
      const f = (req.body ?? {}) as UserFilter;
      const inScope = await scopeCondition(req);
      let q = db.selectFrom('users as u').where(inScope);
      if (extra) q = q.where(extra as never);
      if (f.blurry?.trim()) {
        const like = likeContains(f.blurry.trim());
        q = q.where((eb) => eb.or([eb('u.username', 'ilike', like), eb('u.nick_name', 'ilike', like), eb('u.phone', 'ilike', like), eb('u.email', 'ilike', like)]));
      }
      if (typeof f.enabled === 'boolean') q = q.where('u.enabled', '=', f.enabled);
      if (Number.isInteger(f.orgId)) q = q.where('u.org_id', 'in', await orgTree.subtreeIds([f.orgId!]));
      if (Number.isInteger(f.roleId)) q = q.where('u.id', 'in', (eb) => eb.selectFrom('user_roles').select('user_id').where('role_id', '=', f.roleId!));
      if (Array.isArray(f.createTime) && f.createTime.length === 2) q = q.where('u.created_at', '>=', new Date(f.createTime[0])).where('u.created_at', '<=', new Date(f.createTime[1]));
      const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
      let rows = q.selectAll('u');
      for (const [column, dir] of paging.order) rows = rows.orderBy(sql.ref(column), dir);
      const users = await rows.limit(paging.limit).offset(paging.offset).execute();
      const roles = await rolesOf(users.map((u) => u.id));
      return { content: users.map((u) => userDto(u, roles.get(u.id))), totalElements: total };
    });
  }
  listRoute('/api/users/list');
  listRoute('/api/users/listWeakPasswordPeople', (eb) => eb('u.password_weak', '=', true));
  listRoute('/api/users/listNoEnterUser', (eb) => eb('u.last_login_at', 'is', null));
  listRoute('/api/users/listHasLeftUser', (eb) => eb('u.has_left', '=', true));

  app.post('/api/users', { config: perm('user:add'), schema: { body: { type: 'object', required: ['username', 'nickName'], properties: userFields } } }, async (req, reply) => {
    const caller = currentUser(req);
    const b = req.body as Record<string, never>;
    if ((await takenValues(db, 'username', [b.username])).size) throw new HttpError(400, usernameTaken(b.username));
    if (b.phone && (await takenValues(db, 'phone', [b.phone])).size) throw new HttpError(400, PHONE_TAKEN);
    const policy = await passwordPolicy(config);
    const roleIds = await checkedRoleIds(b.roles, caller);
    const orgId: number | null = b.orgId ?? caller.orgId;
    const grants = grantsOf(req);
    await grants.assertPlacement(orgId);
    if (roleIds) await grants.assertCanGrant(roleIds, orgId);
    const oneTime = await oneTimeColumns(policy);
    // One transaction: a user outside the caller's scope or a refused role leaves nothing behind.
    const created = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({ username: b.username, nick_name: b.nickName, email: b.email || null, phone: b.phone || null, gender: b.gender ?? null, org_id: orgId, enabled: b.enabled ?? true, use_ukey: b.useUkey ?? false, ...oneTime.columns })
        .returning('id')
        .executeTakeFirstOrThrow();
      await assertInScope(req, [row.id], trx);
      await writeRoles(trx, row.id, roleIds);
      return row.id;
    });
    if (roleIds) await sessions.invalidateAccess();
    // The one-time password is answered this once, for the administrator to hand over.
    return reply.code(201).send({ id: created, password: oneTime.plain, expiresAt: oneTime.columns.password_expires_at });
  });

  app.put('/api/users', { config: perm('user:edit'), schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, ...userFields } } } }, async (req) => {
    const caller = currentUser(req);
    const b = req.body as Record<string, never> & { id: number; orgId?: number | null };
    await assertManageable(req, [b.id]);
    if (b.username && (await takenValues(db, 'username', [b.username], b.id)).size) throw new HttpError(400, usernameTaken(b.username));
    if (b.phone && (await takenValues(db, 'phone', [b.phone], b.id)).size) throw new HttpError(400, PHONE_TAKEN);
    const set: Record<string, unknown> = { updated_at: new Date() };
    const map: Record<string, string> = { username: 'username', nickName: 'nick_name', email: 'email', phone: 'phone', gender: 'gender', orgId: 'org_id', enabled: 'enabled', useUkey: 'use_ukey', hasLeft: 'has_left' };
    for (const [k, col] of Object.entries(map)) if (k in b) set[col] = b[k] === '' ? null : b[k];
    const roleIds = await checkedRoleIds(b.roles, caller);
    const grants = grantsOf(req);
    await grants.assertNotOwnAccess(b.id, { roleIds, orgId: 'orgId' in b ? b.orgId : undefined });
    if ('orgId' in b) await grants.assertPlacement(b.orgId);
    if (roleIds) {
      const holderOrg = 'orgId' in b ? (b.orgId ?? null) : (await db.selectFrom('users').select('org_id').where('id', '=', b.id).executeTakeFirstOrThrow()).org_id;
      await grants.assertCanGrant(roleIds, holderOrg);
    }
    if (b.id === caller.id && (set.enabled === false || set.has_left === true)) throw new HttpError(400, '不能禁用当前登录的用户');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set(set).where('id', '=', b.id).execute();
      await writeRoles(trx, b.id, roleIds);
    });
    if (set.enabled === false || set.has_left === true) await sessions.endAllOf([b.id]);
    await sessions.invalidateAccess();
    return { status: 200, message: '修改成功' };
  });

  app.delete('/api/users', { config: perm('user:delete') }, async (req) => {
    const ids = idsOf(req.body);
    const caller = currentUser(req);
    if (ids.includes(caller.id)) throw new HttpError(400, '不能删除当前登录的用户');
    await assertManageable(req, ids);
    const admins = await db.selectFrom('users').select('username').where('id', 'in', ids).where('username', '=', 'admin').execute();
    if (admins.length) throw new HttpError(400, '不能删除系统管理员 admin');
    await sessions.endAllOf(ids); // on every app server, before the rows go
    await db.deleteFrom('users').where('id', 'in', ids).execute();
    return { status: 200, message: '删除成功' };
  });

  app.put('/api/users/center', { config: LOGIN, schema: { body: { type: 'object', properties: { nickName: userFields.nickName, phone: userFields.phone, gender: userFields.gender } } } }, async (req) => {
    const me = currentUser(req);
    const b = req.body as { nickName?: string; phone?: string | null; gender?: string | null };
    if (b.phone && (await takenValues(db, 'phone', [b.phone], me.id)).size) throw new HttpError(400, PHONE_TAKEN);
    const set: Record<string, unknown> = { updated_at: new Date() };
    if (b.nickName !== undefined) set.nick_name = b.nickName;
    if (b.phone !== undefined) set.phone = b.phone || null;
    if (b.gender !== undefined) set.gender = b.gender;
    await db.updateTable('users').set(set).where('id', '=', me.id).execute();
    await sessions.forgetSessions(me.id);
    return { status: 200, message: '保存成功' };
  });

  /**
   * Checks a new password against the rule and stores it. The user's own choice ends a one-time password;
   * one an administrator sets for someone else is one-time itself (known to two people, changed at first login).
   */
  async function changePassword(userId: number, plain: string, setByAdministrator = false) {
    const policy = await passwordPolicy(config);
    if (policy.pattern && !policy.pattern.test(plain)) throw new HttpError(400, policy.tip, { errors: [{ field: 'newPass', message: policy.tip }] });
    if (plain === policy.initPassword) throw new HttpError(400, '新密码不能与初始密码相同', { errors: [{ field: 'newPass', message: '新密码不能与初始密码相同' }] });
    const oneTime = setByAdministrator ? { password_weak: true, password_expires_at: new Date(Date.now() + policy.oneTimeHours * 3_600_000) } : { password_weak: isWeakPassword(plain, policy), password_expires_at: null };
    await db.updateTable('users').set({ password_hash: await hashPassword(plain), ...oneTime, password_changed_at: new Date(), locked_until: null, updated_at: new Date() }).where('id', '=', userId).execute();
  }

  const passBody = { type: 'object', required: ['newPass'], properties: { username: { type: 'string', title: '用户名' }, oldPass: { type: 'string', title: '旧密码' }, newPass: { type: 'string', title: '新密码' } } };

  // Own password, with the current one. The forced change of a weak or one-time password right after login
  // has no old-password field (spec S5.V4c): there the login that just checked the current password is the
  // proof, for FRESH_LOGIN_MS only — a session stolen or left open later is not enough to take the account.
  app.post('/api/users/updatePass', { config: LOGIN, schema: { body: passBody } }, async (req) => {
    const me = currentUser(req);
    const b = req.body as { oldPass?: string; newPass: string };
    const newPass = decryptPassword(keys.privateKey, b.newPass, 'newPass');
    const row = await db.selectFrom('users').select(['password_hash', 'password_weak']).where('id', '=', me.id).executeTakeFirstOrThrow();
    if (b.oldPass) {
      const oldPass = decryptPassword(keys.privateKey, b.oldPass, 'oldPass');
      if (!(await verifyPassword(row.password_hash, oldPass))) throw new HttpError(400, '旧密码错误', { errors: [{ field: 'oldPass', message: '旧密码错误' }] });
    } else {
      const session = await db.selectFrom('sessions').select('created_at').where('id', '=', me.sessionId).executeTakeFirst();
      const fresh = session !== undefined && Date.now() - new Date(session.created_at).getTime() < FRESH_LOGIN_MS;
      if (!row.password_weak || !fresh) throw new HttpError(400, '请输入当前密码', { errors: [{ field: 'oldPass', message: '请输入当前密码' }] });
    }
    if (await verifyPassword(row.password_hash, newPass)) throw new HttpError(400, '新密码不能与旧密码相同', { errors: [{ field: 'newPass', message: '新密码不能与旧密码相同' }] });
    await changePassword(me.id, newPass);
    await sessions.endAllOf([me.id], me.sessionId);
    return { status: 200, message: '密码修改成功' };
  });

  // An administrator sets another user's password (the change-password dialog with a username).
  app.post('/api/users/updatePassByAdmin', { config: perm('user:edit'), schema: { body: { ...passBody, required: ['username', 'newPass'] } } }, async (req) => {
    const b = req.body as { username: string; newPass: string };
    const target = await db.selectFrom('users').select('id').where('username', '=', b.username.trim()).executeTakeFirst();
    if (!target) throw new HttpError(400, `用户“${b.username}”不存在`);
    await assertManageable(req, [target.id]);
    await changePassword(target.id, decryptPassword(keys.privateKey, b.newPass, 'newPass'), true);
    await sessions.endAllOf([target.id]);
    return { status: 200, message: '密码修改成功' };
  });

  app.post('/api/users/managerResetPass/', { config: perm('user:edit') }, async (req) => {
    const ids = idsOf(req.body);
    await assertManageable(req, ids);
    const policy = await passwordPolicy(config);
    const issued = await issueOneTimePasswords(db, policy, ids);
    await sessions.endAllOf(ids);
    return {
      status: 200,
      message: `已为${issued.length}个用户生成一次性密码，${policy.oneTimeHours}小时内有效，首次登录须修改`,
      passwords: issued.map((u) => ({ id: u.id, username: u.username, password: u.password })),
      expiresAt: issued[0]?.expiresAt ?? null,
    };
  });

  app.post('/api/users/emailCode', { config: { ...LOGIN, rateLimit: { max: 10, timeWindow: '1 minute' } }, schema: { body: { type: 'object', required: ['email'], properties: { email: { type: 'string', title: '邮箱', pattern: EMAIL_PATTERN.source } } } } }, async (req) => {
    await sendCode(database, sender, (req.body as { email: string }).email, 'email');
    return { status: 200, message: '验证码已发送到新邮箱' };
  });

  app.post('/api/users/updateEmail/:code', { config: LOGIN, schema: { body: { type: 'object', required: ['password', 'email'], properties: { password: { type: 'string', title: '密码' }, email: { type: 'string', title: '邮箱', pattern: EMAIL_PATTERN.source } } } } }, async (req) => {
    const me = currentUser(req);
    const b = req.body as { password: string; email: string };
    const row = await db.selectFrom('users').select('password_hash').where('id', '=', me.id).executeTakeFirstOrThrow();
    if (!(await verifyPassword(row.password_hash, decryptPassword(keys.privateKey, b.password)))) throw new HttpError(400, '密码错误', { errors: [{ field: 'password', message: '密码错误' }] });
    await consumeCode(database, b.email, 'email', (req.params as { code: string }).code);
    await db.updateTable('users').set({ email: b.email, updated_at: new Date() }).where('id', '=', me.id).execute();
    await sessions.forgetSessions(me.id);
    return { status: 200, message: '邮箱修改成功' };
  });

  app.get('/api/users/check', { config: LOGIN }, async (req) => {
    const row = await db.selectFrom('users').select('password_weak').where('id', '=', currentUser(req).id).executeTakeFirstOrThrow();
    return row.password_weak;
  });

  app.post('/api/users/unLock', { config: perm('user:edit') }, async (req) => {
    const ids = idsOf(req.body);
    await assertManageable(req, ids);
    const users = await db.updateTable('users').set({ locked_until: null }).where('id', 'in', ids).returning(['id', 'username']).execute();
    // An unlock restarts the failure count, as a successful login does.
    if (users.length) await db.insertInto('login_attempts').values(users.map((u) => ({ username: u.username, user_id: u.id, success: true, method: 'unlock', ip: req.ip, user_agent: null }))).execute();
    return { status: 200, message: '解锁成功' };
  });

  app.post('/api/users/disabledUser', { config: perm('user:edit') }, async (req) => {
    const ids = idsOf(req.body);
    const enabled = typeof (req.body as { enabled?: unknown })?.enabled === 'boolean' ? (req.body as { enabled: boolean }).enabled : false;
    if (!enabled && ids.includes(currentUser(req).id)) throw new HttpError(400, '不能禁用当前登录的用户');
    await assertManageable(req, ids);
    await db.updateTable('users').set({ enabled, updated_at: new Date() }).where('id', 'in', ids).execute();
    if (!enabled) await sessions.endAllOf(ids);
    return { status: 200, message: enabled ? '已启用' : '已禁用' };
  });

  // Opens accounts for people who never entered: enabled, each with a one-time password sent by SMS;
  // those without a phone number are answered to the administrator to hand over.
  app.post('/api/users/registerNoEnterUser', { config: perm('user:edit') }, async (req) => {
    const ids = idsOf(req.body);
    await assertManageable(req, ids);
    const policy = await passwordPolicy(config);
    const never = (await db.selectFrom('users').select('id').where('id', 'in', ids).where('last_login_at', 'is', null).execute()).map((u) => u.id);
    const issued = never.length ? await issueOneTimePasswords(db, policy, never, { enabled: true }) : [];
    for (const u of issued) {
      if (u.phone) await sender.send({ channel: 'sms', target: u.phone, purpose: 'account', content: `【党建工作管理系统】您的账号${u.username}已开通，一次性密码${u.password}，${policy.oneTimeHours}小时内有效，首次登录后请修改密码。` });
    }
    const handOver = issued.filter((u) => !u.phone).map((u) => ({ id: u.id, username: u.username, password: u.password }));
    return { status: 200, message: `已为${issued.length}名未登录用户开通账号`, count: issued.length, passwords: handOver };
  });

  app.get('/api/users/loginHistory', { config: LOGIN }, async (req) => {
    const paging = parsePaging(req.query, { at: 'at' }, [['at', 'desc']]);
    const me = currentUser(req);
    const q = db.selectFrom('login_attempts').where('user_id', '=', me.id).where('method', '<>', 'unlock');
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    const rows = await q.select(['id', 'success', 'method', 'ip', 'user_agent as userAgent', 'at']).orderBy('at', 'desc').limit(paging.limit).offset(paging.offset).execute();
    return { content: rows, totalElements: total };
  });

  app.get('/api/users/template', { config: perm('user:list') }, async (_req, reply) => sendXlsx(reply, userTemplate(), '用户导入模板.xlsx'));
  await app.register(userImportRoutes);
}

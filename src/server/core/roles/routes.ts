import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../../errors.js';
import { currentUser, perm } from '../auth/guard.js';
import { likeContains, parsePaging } from '../paging.js';
import { idsOf } from '../ids.js';
import { Grants } from '../users/grants.js';

const PERMISSION = '^[a-zA-Z][\\w-]*(:[\\w-]+)*$';
const roleFields = {
  name: { type: 'string', title: '角色名称', minLength: 1, maxLength: 50 },
  code: { type: 'string', title: '角色编码', minLength: 1, maxLength: 50, pattern: '^[A-Za-z][\\w-]*$' },
  description: { type: 'string', title: '描述', maxLength: 200 },
  level: { type: 'integer', title: '角色级别', minimum: 1, maximum: 99 },
  permissions: { type: 'array', title: '权限', items: { type: 'string', pattern: PERMISSION }, uniqueItems: true },
  dataScope: { enum: ['all', 'own', 'custom'], title: '数据范围' },
  scopeOrgIds: { type: 'array', title: '自定义组织', items: { type: 'integer' } },
  // Units (单位) for modules scoped by a unit field (docs/schema.md, x-scope): all, or the units listed.
  unitScope: { enum: ['all', 'custom'], title: '单位范围' },
  scopeUnitIds: { type: 'array', title: '自定义单位', items: { type: 'integer' } },
};

const roleDto = (r: { id: number; name: string; code: string; description: string; level: number; permissions: string[]; data_scope: string; scope_org_ids: number[]; unit_scope: string; scope_unit_ids: number[]; created_at: Date }) => ({
  id: r.id, name: r.name, code: r.code, description: r.description, level: r.level, permissions: r.permissions,
  dataScope: r.data_scope, scopeOrgIds: r.scope_org_ids, unitScope: r.unit_scope, scopeUnitIds: r.scope_unit_ids, createTime: r.created_at,
});

/** Roles: permission strings plus a data scope. Only a superuser may grant the superuser permission. */
export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const { database, sessions, orgTree } = app.services;
  const { db } = database;

  app.get('/api/roles', { config: perm('role:list', 'user:list') }, async (req) => {
    const paging = parsePaging(req.query, { id: 'id', level: 'level', name: 'name', createTime: 'created_at' }, [['level', 'asc'], ['id', 'asc']]);
    const blurry = String((req.query as { blurry?: string }).blurry ?? '').trim();
    let q = db.selectFrom('roles');
    if (blurry) q = q.where((eb) => eb.or([eb('name', 'ilike', likeContains(blurry)), eb('code', 'ilike', likeContains(blurry))]));
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    let rows = q.selectAll();
    for (const [c, d] of paging.order) rows = rows.orderBy(sql.ref(c), d);
    return { content: (await rows.limit(paging.limit).offset(paging.offset).execute()).map(roleDto), totalElements: total };
  });

  app.get('/api/roles/all', { config: perm('role:list', 'user:list') }, async () => (await db.selectFrom('roles').selectAll().orderBy('level').orderBy('id').execute()).map(roleDto));

  const guardGrant = (req: Parameters<typeof currentUser>[0], permissions?: string[]) => {
    if (permissions?.includes('admin') && !currentUser(req).isSuper) throw new HttpError(400, '只有超级管理员可以授予全部权限', { errors: [{ field: 'permissions', message: '只有超级管理员可以授予全部权限' }] });
  };
  const values = (b: Record<string, unknown>) => {
    const v: Record<string, unknown> = {};
    if (b.name !== undefined) v.name = b.name;
    if (b.code !== undefined) v.code = b.code;
    if (b.description !== undefined) v.description = b.description;
    if (b.level !== undefined) v.level = b.level;
    if (b.permissions !== undefined) v.permissions = b.permissions;
    if (b.dataScope !== undefined) v.data_scope = b.dataScope;
    if (b.scopeOrgIds !== undefined) v.scope_org_ids = b.scopeOrgIds;
    if (b.unitScope !== undefined) v.unit_scope = b.unitScope;
    if (b.scopeUnitIds !== undefined) v.scope_unit_ids = b.scopeUnitIds;
    return v;
  };
  /** A role's rights after an edit: the body's fields over the stored ones. */
  const rightsOf = (b: Record<string, unknown>, stored: { name: string; permissions: string[]; data_scope: string; scope_org_ids: number[]; unit_scope?: string; scope_unit_ids?: number[] }) => ({
    name: (b.name as string | undefined) ?? stored.name,
    permissions: (b.permissions as string[] | undefined) ?? stored.permissions,
    dataScope: (b.dataScope as string | undefined) ?? stored.data_scope,
    scopeOrgIds: (b.scopeOrgIds as number[] | undefined) ?? stored.scope_org_ids,
    unitScope: (b.unitScope as string | undefined) ?? stored.unit_scope,
    scopeUnitIds: (b.scopeUnitIds as number[] | undefined) ?? stored.scope_unit_ids,
  });
  async function assertUnique(b: { name?: string; code?: string }, exceptId = 0) {
    if (b.name === undefined && b.code === undefined) return;
    const clash = await db
      .selectFrom('roles')
      .select(['name', 'code'])
      .where('id', '<>', exceptId)
      .where((eb) => eb.or([...(b.name !== undefined ? [eb('name', '=', b.name)] : []), ...(b.code !== undefined ? [eb('code', '=', b.code)] : [])]))
      .executeTakeFirst();
    if (clash) throw new HttpError(400, clash.name === b.name ? `角色名称“${b.name}”已存在` : `角色编码“${b.code}”已存在`);
  }

  app.post('/api/roles', { config: perm('role:add'), schema: { body: { type: 'object', required: ['name', 'code'], properties: roleFields } } }, async (req, reply) => {
    const b = req.body as Record<string, unknown> & { name: string; code: string; permissions?: string[] };
    guardGrant(req, b.permissions);
    await new Grants(db, orgTree, currentUser(req)).assertRoleDefinition(rightsOf(b, { name: b.name, permissions: [], data_scope: 'own', scope_org_ids: [] }));
    await assertUnique(b);
    const row = await db.insertInto('roles').values(values(b) as never).returning('id').executeTakeFirstOrThrow();
    return reply.code(201).send({ id: row.id });
  });

  app.put('/api/roles', { config: perm('role:edit'), schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, ...roleFields } } } }, async (req) => {
    const b = req.body as Record<string, unknown> & { id: number; name?: string; code?: string; permissions?: string[] };
    guardGrant(req, b.permissions);
    const role = await db.selectFrom('roles').select(['code', 'name', 'permissions', 'data_scope', 'scope_org_ids', 'unit_scope', 'scope_unit_ids']).where('id', '=', b.id).executeTakeFirst();
    if (!role) throw new HttpError(404, '角色不存在');
    // A role beyond the editor's power is not theirs to change, and the edit may not lift one beyond it.
    const grants = new Grants(db, orgTree, currentUser(req));
    if (!(await grants.roleWithin(rightsOf({}, role), null))) throw new HttpError(400, `无权修改角色“${role.name}”：它的权限或数据范围超出了您自己的`);
    await grants.assertRoleDefinition(rightsOf(b, role));
    if (role.code === 'admin' && (b.code !== undefined && b.code !== 'admin' || (b.permissions && !b.permissions.includes('admin')))) {
      throw new HttpError(400, '超级管理员角色的编码和全部权限不能修改');
    }
    if (role.permissions.includes('admin')) guardGrant(req, ['admin']);
    await assertUnique(b, b.id);
    await db.updateTable('roles').set({ ...values(b), updated_at: new Date() }).where('id', '=', b.id).execute();
    await sessions.invalidateAccess();
    return { status: 200, message: '修改成功' };
  });

  app.delete('/api/roles', { config: perm('role:delete') }, async (req) => {
    const ids = idsOf(req.body);
    const roles = await db.selectFrom('roles').select(['id', 'code', 'name', 'permissions', 'data_scope', 'scope_org_ids', 'unit_scope', 'scope_unit_ids']).where('id', 'in', ids).execute();
    if (roles.some((r) => r.code === 'admin')) throw new HttpError(400, '不能删除超级管理员角色');
    const grants = new Grants(db, orgTree, currentUser(req));
    for (const r of roles) if (!(await grants.roleWithin(rightsOf({}, r), null))) throw new HttpError(400, `无权删除角色“${r.name}”：它的权限或数据范围超出了您自己的`);
    const used = await db.selectFrom('user_roles').select('role_id').where('role_id', 'in', ids).limit(1).executeTakeFirst();
    if (used) throw new HttpError(400, `角色“${roles.find((r) => r.id === used.role_id)?.name}”仍有用户在使用，请先解除关联`);
    await db.deleteFrom('roles').where('id', 'in', ids).execute();
    await sessions.invalidateAccess();
    return { status: 200, message: '删除成功' };
  });

  // Online sessions: who is signed in now; an administrator can end a session.
  app.get('/api/online', { config: perm('online:list') }, async (req) => {
    const paging = parsePaging(req.query, { lastSeen: 's.last_seen_at', loginTime: 's.created_at' }, [['s.last_seen_at', 'desc']]);
    const blurry = String((req.query as { blurry?: string }).blurry ?? '').trim();
    let q = db.selectFrom('sessions as s').innerJoin('users as u', 'u.id', 's.user_id').where('s.expires_at', '>', sql<Date>`now()`);
    if (blurry) q = q.where((eb) => eb.or([eb('u.username', 'ilike', likeContains(blurry)), eb('u.nick_name', 'ilike', likeContains(blurry)), eb('s.ip', 'ilike', likeContains(blurry))]));
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    let rows = q.select(['s.id', 'u.username', 'u.nick_name as nickName', 's.ip', 's.user_agent as userAgent', 's.terminal', 's.created_at as loginTime', 's.last_seen_at as lastSeen']);
    for (const [c, d] of paging.order) rows = rows.orderBy(sql.ref(c), d);
    const me = currentUser(req).sessionId;
    const content = (await rows.limit(paging.limit).offset(paging.offset).execute()).map((r) => ({ ...r, current: r.id === me }));
    return { content, totalElements: total };
  });

  app.delete('/api/online', { config: perm('online:kick') }, async (req) => {
    const ended = await sessions.end(idsOf(req.body));
    return { status: 200, message: `已强制退出${ended}个会话` };
  });

  app.get('/api/outbox', { config: perm('outbox:list') }, async (req) => {
    const paging = parsePaging(req.query, { createTime: 'created_at' }, [['created_at', 'desc']]);
    const target = String((req.query as { target?: string }).target ?? '').trim();
    let q = db.selectFrom('message_outbox');
    if (target) q = q.where('target', 'ilike', likeContains(target));
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    const content = await q.select(['id', 'channel', 'target', 'content', 'purpose', 'created_at as createTime']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(paging.limit).offset(paging.offset).execute();
    return { content, totalElements: total };
  });
}

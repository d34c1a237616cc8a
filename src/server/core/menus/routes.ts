import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { currentUser, LOGIN, perm } from '../auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../auth/session-user.js';
import { idsOf } from '../ids.js';
import { menuSql } from './menu-sql.js';
import { MenuService, type MenuInput } from './service.js';

const nullable = (schema: Record<string, unknown>, title: string) => ({ ...schema, type: [schema.type as string, 'null'], title });
const flag = (title: string) => ({ type: ['boolean', 'null'], title });
// Empty strings are allowed (forms send them) and mean "not set".
const menuFields = {
  parentId: nullable({ type: 'integer', minimum: 1 }, '上级菜单'),
  type: { enum: ['directory', 'page', 'button'], title: '菜单类型' },
  title: { type: 'string', title: '菜单标题', minLength: 1, maxLength: 50 },
  path: nullable({ type: 'string', maxLength: 200, pattern: '^$|^/?[A-Za-z0-9][\\w-]*(/[A-Za-z0-9][\\w-]*)*$' }, '路由地址'),
  icon: nullable({ type: 'string', maxLength: 100, pattern: '^$|^[A-Za-z][\\w-]*$' }, '图标'),
  component: nullable({ type: 'string', maxLength: 100, pattern: '^$|^(module|core|pending):[a-z][a-z0-9]*(-[a-z0-9]+)*$' }, '组件'),
  permission: nullable({ type: 'string', maxLength: 100, pattern: '^$|^[a-zA-Z][\\w-]*(:[\\w-]+)*$' }, '权限标识'),
  sort: { type: 'integer', title: '排序', minimum: 0, maximum: 999_999 },
  hidden: flag('隐藏'),
  noCache: flag('不缓存'),
  affix: flag('固定标签'),
  alwaysShow: flag('总是显示'),
  breadcrumb: flag('显示面包屑'),
  redirect: nullable({ type: 'string', maxLength: 200 }, '重定向'),
  feature: nullable({ type: 'string', maxLength: 20 }, '功能编号'),
};
const fieldNames = Object.keys(menuFields) as (keyof MenuInput)[];
const pick = (body: Record<string, unknown>): MenuInput => Object.fromEntries(fieldNames.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));

/** Ids from a delete body: those idsOf accepts, or node objects (one or a list) carrying an id. */
function menuIdsOf(body: unknown): number[] {
  return idsOf(Array.isArray(body) ? body.map((x) => (typeof x === 'object' && x ? (x as { id?: unknown }).id : x)) : body);
}

const CUSTOM_ID = '^[\\w.:-]{1,100}$';
const MAX_CUSTOM_TREE_CHARS = 256 * 1024;
const customTreeSchema = {
  $defs: {
    node: {
      type: 'object',
      properties: { children: { type: 'array', maxItems: 500, items: { $ref: '#/$defs/node' } } },
    },
    tree: {
      anyOf: [{ type: 'array', maxItems: 500, items: { $ref: '#/$defs/node' } }, { $ref: '#/$defs/node' }],
    },
  },
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', title: '菜单编号', pattern: CUSTOM_ID },
    tree: { $ref: '#/$defs/tree', title: '菜单树' },
    trees: { $ref: '#/$defs/tree', title: '菜单树' },
  },
};

/** The user a `user-<id>...` custom menu belongs to, if the id names one. */
function ownerOf(customId: string): number | undefined {
  const match = /^user-(\d+)(?:[-_.:]|$)/.exec(customId);
  return match ? Number(match[1]) : undefined;
}

/** Menu administration, the caller's navigation tree, the SQL export and the saved custom trees. */
export async function menuRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services.database;
  const menus = new MenuService(app.services.database);

  app.get('/api/menus/tree', { config: perm('menu:list') }, () => menus.tree());
  app.get('/api/menus/myTree', { config: LOGIN }, (req) => menus.treeFor(currentUser(req)));
  app.get('/api/menus/headMenu', { config: LOGIN }, (req) => menus.headMenuFor(currentUser(req)));
  app.get('/api/menus/permissions', { config: perm('role:list', 'menu:list') }, () => menus.permissionTree());

  app.post('/api/menus', { config: perm('menu:add'), schema: { body: { type: 'object', required: ['type', 'title'], properties: menuFields } } }, async (req, reply) => {
    const created = await menus.create(pick(req.body as Record<string, unknown>));
    return reply.code(201).send(created);
  });

  app.put('/api/menus', { config: perm('menu:edit'), schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer', title: '菜单编号' }, ...menuFields } } } }, async (req) => {
    const body = req.body as Record<string, unknown> & { id: number };
    await menus.update(body.id, pick(body));
    return { status: 200, message: '修改成功' };
  });

  app.delete('/api/menus', { config: perm('menu:delete') }, async (req) => {
    const removed = await menus.remove(menuIdsOf(req.body));
    return { status: 200, message: `删除成功，共删除${removed}个菜单（含下级）`, removed };
  });

  app.get('/api/menus/menusql', { config: perm('menu:list'), schema: { querystring: { type: 'object', properties: { id: { type: 'integer', title: '菜单编号', minimum: 1 } } } } }, async (req, reply) => {
    const { id } = req.query as { id?: number };
    const { subtree, all } = await menus.subtreeRows(id);
    return reply.type('text/plain; charset=utf-8').send(menuSql(subtree, all));
  });

  // Custom menus: a tree per id, saved as a whole. `user-<id>...` trees belong to that user.
  const mayRead = (user: SessionUser, customId: string) => {
    const owner = ownerOf(customId);
    return owner === undefined || owner === user.id || hasAnyPermission(user, ['menu:list', 'menu:edit']);
  };
  const mayWrite = (user: SessionUser, customId: string) => {
    const owner = ownerOf(customId);
    return owner === undefined ? hasAnyPermission(user, ['menu:edit']) : owner === user.id;
  };

  app.get('/api/custommenu/withTree/:id', { config: LOGIN, schema: { params: { type: 'object', properties: { id: { type: 'string', pattern: CUSTOM_ID } } } } }, async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const { id } = req.params;
    // Another user's own menu does not exist for the caller.
    if (!mayRead(currentUser(req), id)) throw new HttpError(404, '菜单不存在');
    const row = await db.selectFrom('custom_menus').select(['tree', 'updated_at']).where('id', '=', id).executeTakeFirst();
    return { id, tree: (row?.tree as unknown[] | undefined) ?? [], updateTime: row?.updated_at ?? null };
  });

  app.post('/api/custommenu/putTrees', { config: LOGIN, schema: { body: customTreeSchema } }, async (req) => {
    const body = req.body as { id: string; tree?: unknown; trees?: unknown };
    const user = currentUser(req);
    // A shared tree needs menu:edit (403); another user's own tree is a refusal with its reason (400).
    if (!mayWrite(user, body.id)) throw ownerOf(body.id) === undefined ? new HttpError(403, '没有访问权限') : new HttpError(400, '只能保存自己的菜单');
    const given = body.tree ?? body.trees;
    if (given === undefined) throw new HttpError(400, '菜单树不能为空', { errors: [{ field: 'tree', message: '菜单树不能为空' }] });
    const tree = JSON.stringify(Array.isArray(given) ? given : [given]);
    if (tree.length > MAX_CUSTOM_TREE_CHARS) throw new HttpError(413, '菜单树过大');
    const ownerId = ownerOf(body.id) ?? null;
    await db
      .insertInto('custom_menus')
      .values({ id: body.id, owner_id: ownerId, tree })
      .onConflict((oc) => oc.column('id').doUpdateSet({ tree, owner_id: ownerId, updated_at: new Date() }))
      .execute();
    return { status: 200, message: '保存成功' };
  });
}

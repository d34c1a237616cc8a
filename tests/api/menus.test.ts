// engines: pglite — the menu API and the menu file sync: no engine-specific SQL
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { SCHEMAS_DIR } from '../../src/server/paths.js';
import { MenuService, type MenuDto } from '../../src/server/core/menus/service.js';
import { MENUS_FILE, readMenuFile } from '../../src/server/core/menus/sync.js';
import { flattenMenus, menuToRoutes, type MenuNode } from '../../src/shared/menus.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Menu#2026ab';
const FILE_TREE = readMenuFile(SCHEMAS_DIR);
const FILE_NODES = flattenMenus(FILE_TREE);

const flatDtos = (tree: MenuDto[]): MenuDto[] => tree.flatMap((n) => [n, ...flatDtos(n.children ?? [])]);
const byKey = (tree: MenuDto[], key: string) => flatDtos(tree).find((n) => n.key === key);

describe(`menus on ${TEST_DB}`, () => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    admin = await login(app);
    const users: [string, string[]][] = [
      ['memberonly', ['member:list', 'member:add']],
      ['regonly', ['regulation:list']],
      ['menuviewer', ['menu:list']],
      ['roleadmin', ['role:list']],
      ['menueditor', ['menu:list', 'menu:add', 'menu:edit', 'menu:delete']],
    ];
    for (const [username, permissions] of users) {
      ids[username] = await userWithRole(app, admin, { username, permissions, password: PASS });
      tokens[username] = await login(app, username, PASS);
    }
  });
  afterAll(() => app.close());

  const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  /** `null` = no session. */
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: unknown, token: string | null = admin) =>
    app.inject({ method, url, payload: payload as object, headers: token ? bearer(token) : {} });
  const tree = async () => {
    const res = await get('/api/menus/tree', admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as MenuDto[];
  };
  const rowCount = async () => (await t.database.db.selectFrom('menus').select('id').execute()).length;

  it('[S7.M1a] GET api/menus/tree answers the whole seeded tree with buttons, in file order', async () => {
    const body = await tree();
    expect(body.map((n) => n.key)).toEqual(FILE_TREE.map((n) => n.id));
    expect(flatDtos(body).map((n) => n.key).sort()).toEqual(FILE_NODES.map((n) => n.id).sort());
    const info = byKey(body, 'member-info')!;
    expect(info).toMatchObject({ type: 'page', title: '党员基本信息', path: 'info', icon: 'IdcardOutlined', component: 'module:member', permission: 'member:list', feature: 'S1.F1a', hidden: null, noCache: null, edited: false });
    expect(info.parentId).toBe(byKey(body, 'party-member')!.id);
    expect(info.children!.map((b) => [b.type, b.permission])).toEqual([['button', 'member:add'], ['button', 'member:edit'], ['button', 'member:delete'], ['button', 'member:export'], ['button', 'member:import']]);
    expect(Object.keys(info).sort()).toEqual(['affix', 'alwaysShow', 'breadcrumb', 'children', 'component', 'edited', 'feature', 'hidden', 'icon', 'id', 'key', 'noCache', 'parentId', 'path', 'permission', 'redirect', 'sort', 'title', 'type'].sort());
    expect(byKey(body, 'member-daily')!.redirect).toBe('noredirect');
  });

  it('GET api/menus/tree needs a session and menu:list', async () => {
    expect((await get('/api/menus/tree')).statusCode).toBe(401);
    expect((await get('/api/menus/tree', tokens.memberonly)).json()).toMatchObject({ status: 403, message: '没有访问权限' });
    expect((await get('/api/menus/tree', tokens.menuviewer)).statusCode).toBe(200);
  });

  it('[S7.M1b][S6.P3a] GET api/menus/myTree: two users with different roles get their own trees, without buttons', async () => {
    const member = (await get('/api/menus/myTree', tokens.memberonly)).json() as MenuNode[];
    const home = {
      id: 'home', type: 'directory', title: '首页', path: '/home', icon: 'HomeOutlined',
      children: [{ id: 'home-dashboard', type: 'page', title: '首页', path: '/dashboard', icon: 'HomeOutlined', component: 'core:dashboard' }],
    };
    expect(member).toEqual([
      home, // issue 43.5: every role's first entry, no permission needed
      {
        id: 'party-member', type: 'directory', title: '党员管理', path: '/party-member', icon: 'TeamOutlined',
        children: [{ id: 'member-info', type: 'page', title: '党员基本信息', path: 'info', icon: 'IdcardOutlined', component: 'module:member', permission: 'member:list', feature: 'S1.F1a' }],
      },
    ]);
    const reg = (await get('/api/menus/myTree', tokens.regonly)).json() as MenuNode[];
    expect(reg[0]).toEqual(home);
    expect(flattenMenus(reg).map((n) => n.id)).toEqual(['home', 'home-dashboard', 'service', 'service-info', 'service-regulation']);
    // The web builds its routes straight from the answer.
    const routes = menuToRoutes(reg);
    expect(routes.firstLevel.map((r) => r.path)).toEqual(['/home', '/service']);
    expect(routes.hiddenThirdLevel).toMatchObject([{ path: '/service/info/regulation', component: 'module:regulation', meta: { hidden: true } }]);
  });

  it('GET api/menus/myTree gives the superuser every navigable node, and needs a session', async () => {
    const all = (await get('/api/menus/myTree', admin)).json() as MenuNode[];
    expect(all.map((n) => n.id)).toEqual(FILE_TREE.map((n) => n.id));
    expect(flattenMenus(all).map((n) => n.id)).toEqual(FILE_NODES.filter((n) => n.type !== 'button').map((n) => n.id));
    expect((await get('/api/menus/myTree')).statusCode).toBe(401);
  });

  it('[S7.M1c] GET api/menus/headMenu: the visible top tabs with the page each one opens', async () => {
    const member = await get('/api/menus/headMenu', tokens.memberonly);
    expect(member.statusCode).toBe(200);
    expect(member.json()).toEqual([
      { id: 'home', title: '首页', path: '/home', icon: 'HomeOutlined', firstVisibleLeaf: '/dashboard' }, // issue 43.5: every role's first entry
      { id: 'party-member', title: '党员管理', path: '/party-member', icon: 'TeamOutlined', firstVisibleLeaf: '/party-member/info' },
    ]);
    const all = (await get('/api/menus/headMenu', admin)).json() as { id: string; firstVisibleLeaf: string }[];
    expect(all.map((e) => e.id)).toEqual(FILE_TREE.map((n) => n.id));
    expect(all.find((e) => e.id === 'party-school')!.firstVisibleLeaf).toBe('/party-school/admin/batch');
    expect(all.find((e) => e.id === 'system')!.firstVisibleLeaf).toBe('/system/users');
    expect((await get('/api/menus/headMenu')).statusCode).toBe(401);
  });

  it('[S6.P3a] GET api/menus/permissions: pages and buttons for the role editor (role:list or menu:list)', async () => {
    const res = await get('/api/menus/permissions', tokens.roleadmin);
    expect(res.statusCode, res.body).toBe(200);
    const flat = (nodes: { key: string; permission: string | null; children?: unknown[] }[]): { key: string; permission: string | null }[] =>
      nodes.flatMap((n) => [n, ...flat((n.children ?? []) as never)]);
    const nodes = flat(res.json());
    expect(nodes.find((n) => n.key === 'member-info-add')).toMatchObject({ type: 'button', title: '新增', permission: 'member:add' });
    expect(new Set(nodes.filter((n) => n.permission).map((n) => n.permission))).toEqual(new Set(FILE_NODES.filter((n) => n.permission).map((n) => n.permission)));
    expect(Object.keys(res.json()[0]).sort()).toEqual(['children', 'id', 'key', 'permission', 'title', 'type']);
    expect((await get('/api/menus/permissions', tokens.menuviewer)).statusCode).toBe(200);
    expect((await get('/api/menus/permissions', tokens.memberonly)).statusCode).toBe(403);
  });

  const created: Record<string, number> = {};

  it('[S7.M2a] POST api/menus creates a directory, a page and a button that appear in the tree', async () => {
    const dir = await send('POST', '/api/menus', { type: 'directory', title: '测试目录', path: '/test-dir', icon: 'AppstoreOutlined' }, tokens.menueditor);
    expect(dir.statusCode, dir.body).toBe(201);
    expect(dir.json().key).toMatch(/^custom-[0-9a-f]{8}$/);
    created.dir = dir.json().id;
    const page = await send('POST', '/api/menus', { parentId: created.dir, type: 'page', title: '测试页面', path: 'page', component: 'pending:test-page', permission: 'test:list', noCache: true, hidden: false });
    expect(page.statusCode, page.body).toBe(201);
    created.page = page.json().id;
    const button = await send('POST', '/api/menus', { parentId: created.page, type: 'button', title: '新增', permission: 'test:add', path: '' });
    expect(button.statusCode, button.body).toBe(201);
    created.button = button.json().id;

    const body = await tree();
    const d = body.find((n) => n.id === created.dir)!;
    expect(d).toMatchObject({ type: 'directory', title: '测试目录', path: '/test-dir', edited: true, sort: body.at(-2)!.sort + 10 });
    expect(body.at(-1)!.id).toBe(created.dir);
    expect(d.children).toMatchObject([{ id: created.page, title: '测试页面', component: 'pending:test-page', permission: 'test:list', noCache: true, hidden: false, children: [{ id: created.button, type: 'button', permission: 'test:add', path: null }] }]);
    // The superuser navigates to it at once.
    const mine = (await get('/api/menus/myTree', admin)).json() as MenuNode[];
    expect(mine.at(-1)).toMatchObject({ title: '测试目录', children: [{ title: '测试页面', path: 'page' }] });
  });

  it('POST api/menus needs a session and menu:add', async () => {
    const payload = { type: 'directory', title: '无权目录', path: '/no-perm' };
    expect((await send('POST', '/api/menus', payload, null)).statusCode).toBe(401);
    expect((await send('POST', '/api/menus', payload, tokens.memberonly)).statusCode).toBe(403);
    expect((await send('POST', '/api/menus', payload, tokens.menuviewer)).statusCode).toBe(403);
    expect((await tree()).some((n) => n.title === '无权目录')).toBe(false);
  });

  it('POST api/menus refuses bad input with Chinese field messages and stores nothing', async () => {
    const before = await rowCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: 'directory', path: '/x' }, 'title', '菜单标题不能为空'],
      [{ type: 'directory', title: '' , path: '/x' }, 'title', '菜单标题不能为空'],
      [{ type: 'widget', title: '怪', path: '/x' }, 'type', '菜单类型的取值不在允许范围内'],
      [{ parentId: created.page, type: 'button', title: '无权限按钮' }, 'permission', '按钮必须填写权限标识'],
      [{ type: 'button', title: '孤儿按钮', permission: 'x:y' }, 'parentId', '按钮必须有上级菜单'],
      [{ parentId: 999_999, type: 'page', title: '无上级', path: 'p', component: 'pending:p' }, 'parentId', '上级菜单不存在'],
      [{ parentId: created.dir, type: 'page', title: '缺组件', path: 'p2' }, 'component', '页面必须选择组件'],
      [{ parentId: created.dir, type: 'page', title: '缺路径', component: 'pending:p' }, 'path', '页面必须填写路由地址'],
      [{ parentId: created.dir, type: 'page', title: '未知页', path: 'p3', component: 'core:nothing' }, 'component', '组件“core:nothing”不存在'],
      [{ parentId: created.page, type: 'page', title: '页下页', path: 'p4', component: 'pending:p' }, 'parentId', '页面下只能添加按钮'],
      [{ parentId: created.button, type: 'button', title: '钮下钮', permission: 'x:y' }, 'parentId', '按钮下不能添加菜单'],
      [{ parentId: created.dir, type: 'page', title: '重名', path: 'page', component: 'pending:p' }, 'path', '同级菜单“测试页面”已使用路由地址“page”'],
      [{ type: 'page', title: '一级页面', path: '/top-page', component: 'pending:p' }, 'type', '一级菜单必须是目录'],
      [{ type: 'directory', title: '相对一级', path: 'relative' }, 'path', '一级菜单的路由地址必须以“/”开头'],
      [{ parentId: created.dir, type: 'page', title: '坏路径', path: 'a b', component: 'pending:p' }, 'path', '路由地址的格式不正确'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await send('POST', '/api/menus', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors, JSON.stringify(payload)).toContainEqual({ field, message });
    }
    expect(await rowCount()).toBe(before);
  });

  it('[S7.M2b] PUT api/menus edits a node; the tree shows the new title and the node counts as edited', async () => {
    const res = await send('PUT', '/api/menus', { id: created.page, title: '测试页面（改）', icon: 'EditOutlined' }, tokens.menueditor);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 200, message: '修改成功' });
    expect(flatDtos(await tree()).find((n) => n.id === created.page)).toMatchObject({ title: '测试页面（改）', icon: 'EditOutlined', path: 'page', component: 'pending:test-page' });

    const shipped = byKey(await tree(), 'member-analysis')!;
    const edit = await send('PUT', '/api/menus', { id: shipped.id, title: '党员数据分析（管理员改）' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(byKey(await tree(), 'member-analysis')).toMatchObject({ title: '党员数据分析（管理员改）', edited: true });
  });

  it('PUT api/menus re-parents a node, and refuses cycles, unknown parents and bad changes', async () => {
    const second = await send('POST', '/api/menus', { type: 'directory', title: '第二目录', path: '/test-dir-2' });
    const target = second.json().id as number;
    const move = await send('PUT', '/api/menus', { id: created.page, parentId: target });
    expect(move.statusCode, move.body).toBe(200);
    expect((await tree()).find((n) => n.id === target)!.children!.map((c) => c.id)).toEqual([created.page]);
    await send('PUT', '/api/menus', { id: created.page, parentId: created.dir });

    const before = JSON.stringify(await tree());
    const cases: [Record<string, unknown>, string, string][] = [
      [{ id: created.dir, parentId: created.dir }, 'parentId', '上级菜单不能是该菜单自身或其下级'],
      [{ id: created.dir, parentId: created.page }, 'parentId', '页面下只能添加按钮'],
      [{ id: byKey(await tree(), 'party-member')!.id, parentId: byKey(await tree(), 'member-daily')!.id }, 'parentId', '上级菜单不能是该菜单自身或其下级'],
      [{ id: created.page, parentId: 999_999 }, 'parentId', '上级菜单不存在'],
      [{ id: created.button, permission: null }, 'permission', '按钮必须填写权限标识'],
      [{ id: created.page, type: 'button', permission: 'x:y' }, 'type', '有下级菜单的节点不能改为按钮'],
      [{ id: created.page, component: '' }, 'component', '页面必须选择组件'],
      [{ id: created.page, title: '' }, 'title', '菜单标题不能为空'],
      [{ id: target, path: '/test-dir' }, 'path', '同级菜单“测试目录”已使用路由地址“/test-dir”'],
      [{ title: '无编号' }, 'id', '菜单编号不能为空'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await send('PUT', '/api/menus', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors, JSON.stringify(payload)).toContainEqual({ field, message });
    }
    expect((await send('PUT', '/api/menus', { id: 999_999, title: '不存在' })).json()).toMatchObject({ status: 404, message: '菜单不存在' });
    expect((await send('PUT', '/api/menus', { id: created.page, title: 'x' }, tokens.menuviewer)).statusCode).toBe(403);
    expect((await send('PUT', '/api/menus', { id: created.page, title: 'x' }, null)).statusCode).toBe(401);
    expect(JSON.stringify(await tree())).toBe(before);
    await send('DELETE', '/api/menus', [target]);
  });

  it('[S7.M3] GET api/menus/menusql answers SQL that recreates the subtree in another deployment', async () => {
    const before = await tree();
    const member = byKey(before, 'party-member')!;
    const res = await get(`/api/menus/menusql?id=${member.id}`, tokens.menuviewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const subtree = flatDtos([member]);
    expect(res.body.match(/^INSERT INTO menus /gm)).toHaveLength(subtree.length);
    expect(res.body).toContain("'党员数据分析（管理员改）'");
    expect(res.body).toContain("(SELECT id FROM menus WHERE key = 'party-member')");

    // Recreate: drop the subtree, run the export, get the same nodes back under the same parents.
    await send('DELETE', '/api/menus', { id: member.id });
    expect(byKey(await tree(), 'party-member')).toBeUndefined();
    const statements = res.body.replace(/^(BEGIN|COMMIT);$/gm, '');
    await t.database.scriptTransaction((run) => run.exec(statements));
    const after = byKey(await tree(), 'party-member')!;
    const shape = (n: MenuDto): unknown => ({ key: n.key, title: n.title, path: n.path, permission: n.permission, component: n.component, sort: n.sort, children: n.children?.map(shape) });
    expect(shape(after)).toEqual(shape(member));
    expect((await tree()).map((n) => n.key)).toEqual(before.map((n) => n.key));

    const all = await get('/api/menus/menusql', admin);
    expect(all.body.match(/^INSERT INTO menus /gm)).toHaveLength(flatDtos(await tree()).length);
    expect(all.body.startsWith('-- ')).toBe(true);
    expect((await get('/api/menus/menusql?id=999999', admin)).json()).toMatchObject({ status: 404, message: '菜单不存在' });
    expect((await get('/api/menus/menusql?id=abc', admin)).statusCode).toBe(400);
    expect((await get('/api/menus/menusql', tokens.memberonly)).statusCode).toBe(403);
    expect((await get('/api/menus/menusql')).statusCode).toBe(401);
  });

  it('[S7.M2c] DELETE api/menus with a body removes the nodes and their subtrees', async () => {
    const before = await rowCount();
    expect((await send('DELETE', '/api/menus', [created.dir], tokens.memberonly)).statusCode).toBe(403);
    expect((await send('DELETE', '/api/menus', [created.dir], null)).statusCode).toBe(401);
    expect((await send('DELETE', '/api/menus', [], tokens.menueditor)).json()).toMatchObject({ status: 400, message: '请选择要操作的记录' });
    expect((await send('DELETE', '/api/menus', [999_999], tokens.menueditor)).json()).toMatchObject({ status: 404 });
    expect(await rowCount()).toBe(before);

    const res = await send('DELETE', '/api/menus', [{ id: created.dir, title: '测试目录' }], tokens.menueditor);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, removed: 3 });
    const body = await tree();
    for (const id of Object.values(created)) expect(flatDtos(body).some((n) => n.id === id)).toBe(false);
    expect(await rowCount()).toBe(before - 3);
    // A POST with X-HTTP-Method-Override works as well (production clients).
    const extra = await send('POST', '/api/menus', { type: 'directory', title: '临时', path: '/tmp-dir' });
    const viaOverride = await app.inject({ method: 'POST', url: '/api/menus', headers: { ...bearer(admin), 'x-http-method-override': 'DELETE' }, payload: { ids: [extra.json().id] } });
    expect(viaOverride.statusCode, viaOverride.body).toBe(200);
    expect(await rowCount()).toBe(before - 3);
  });

  it('[S7.M4a][S7.M4b][S3.E13] custom menus: a tree per id, saved as a whole', async () => {
    const id = `user-${ids.memberonly}-quick`;
    const empty = await get(`/api/custommenu/withTree/${id}`, tokens.memberonly);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ id, tree: [] });

    const full = [
      { id: 'member-info', title: '党员基本信息', path: '/party-member/info' },
      { id: 'group', title: '常用', children: [{ id: 'a', title: '甲' }, { id: 'b', title: '乙' }] },
    ];
    const save = await send('POST', '/api/custommenu/putTrees', { id, tree: full }, tokens.memberonly);
    expect(save.statusCode, save.body).toBe(200);
    expect(save.json()).toEqual({ status: 200, message: '保存成功' });
    const got = await get(`/api/custommenu/withTree/${id}`, tokens.memberonly);
    expect(got.json().tree).toEqual(full);

    const without = [{ ...full[1], children: [full[1].children![0]] }];
    expect((await send('POST', '/api/custommenu/putTrees', { id, trees: without }, tokens.memberonly)).statusCode).toBe(200);
    const again = (await get(`/api/custommenu/withTree/${id}`, tokens.memberonly)).json().tree;
    expect(again).toEqual(without);
    expect(JSON.stringify(again)).not.toContain('member-info');
    expect(JSON.stringify(again)).not.toContain('乙');
    const row = await t.database.db.selectFrom('custom_menus').select(['owner_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(ids.memberonly);
  });

  it('custom menus: owners, menu:edit, sessions and bad bodies', async () => {
    const mine = `user-${ids.regonly}`;
    const other = `user-${ids.memberonly}-quick`;
    // Someone else's tree: neither written (a refusal with its reason) nor read (not found) without menu rights.
    expect((await send('POST', '/api/custommenu/putTrees', { id: other, tree: [] }, tokens.regonly)).json()).toMatchObject({ status: 400, message: '只能保存自己的菜单' });
    expect((await get(`/api/custommenu/withTree/${other}`, tokens.regonly)).json()).toMatchObject({ status: 404, message: '菜单不存在' });
    expect((await get(`/api/custommenu/withTree/${other}`, tokens.menuviewer)).json().tree).toHaveLength(1);
    // Not even the superuser writes a user's own tree.
    expect((await send('POST', '/api/custommenu/putTrees', { id: other, tree: [] }, admin)).statusCode).toBe(400);
    expect((await send('POST', '/api/custommenu/putTrees', { id: mine, tree: { title: '单个根' } }, tokens.regonly)).statusCode).toBe(200);
    expect((await get(`/api/custommenu/withTree/${mine}`, tokens.regonly)).json().tree).toEqual([{ title: '单个根' }]);

    // Shared trees (a role's menu): everyone signed in reads them, menu:edit writes them.
    expect((await send('POST', '/api/custommenu/putTrees', { id: 'role-zbsj', tree: [{ title: '支部' }] }, tokens.regonly)).statusCode).toBe(403);
    expect((await send('POST', '/api/custommenu/putTrees', { id: 'role-zbsj', tree: [{ title: '支部' }] }, tokens.menueditor)).statusCode).toBe(200);
    expect((await get('/api/custommenu/withTree/role-zbsj', tokens.regonly)).json().tree).toEqual([{ title: '支部' }]);
    expect((await t.database.db.selectFrom('custom_menus').select('owner_id').where('id', '=', 'role-zbsj').executeTakeFirstOrThrow()).owner_id).toBeNull();

    expect((await get('/api/custommenu/withTree/role-zbsj')).statusCode).toBe(401);
    expect((await send('POST', '/api/custommenu/putTrees', { id: mine, tree: [] }, null)).statusCode).toBe(401);
    const missing = await send('POST', '/api/custommenu/putTrees', { id: mine }, tokens.regonly);
    expect(missing.json()).toMatchObject({ status: 400, errors: [{ field: 'tree', message: '菜单树不能为空' }] });
    expect((await send('POST', '/api/custommenu/putTrees', { id: mine, tree: 'x' }, tokens.regonly)).statusCode).toBe(400);
    expect((await send('POST', '/api/custommenu/putTrees', { id: mine, tree: [{ children: 'x' }] }, tokens.regonly)).statusCode).toBe(400);
    const badId = await send('POST', '/api/custommenu/putTrees', { id: 'a b', tree: [] }, tokens.regonly);
    expect(badId.json()).toMatchObject({ status: 400, errors: [{ field: 'id', message: '菜单编号的格式不正确' }] });
    expect((await get(`/api/custommenu/withTree/${mine}`, tokens.regonly)).json().tree).toEqual([{ title: '单个根' }]);
  });
});

describe(`menu sync from schemas/menus.json on ${TEST_DB}`, () => {
  let t: TestApp;
  let dir: string;
  let restarted: FastifyInstance | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'menus-'));
  });
  afterAll(async () => {
    await t.app.close();
    await restarted?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rows = () => t.database.db.selectFrom('menus').selectAll().orderBy('id').execute();

  it('a restart neither duplicates nodes nor overwrites an administrator edit or deletion', async () => {
    const token = await login(t.app);
    const first = await rows();
    expect(first).toHaveLength(FILE_NODES.length);
    const analysis = first.find((r) => r.key === 'member-analysis')!;
    await t.app.inject({ method: 'PUT', url: '/api/menus', headers: bearer(token), payload: { id: analysis.id, title: '管理员改过的标题' } });
    // A leaf page: deleting it removes one node (a page with buttons would take its buttons along).
    const talk = first.find((r) => r.key === 'cadre-structure')!;
    await t.app.inject({ method: 'DELETE', url: '/api/menus', headers: bearer(token), payload: [talk.id] });
    const custom = await t.app.inject({ method: 'POST', url: '/api/menus', headers: bearer(token), payload: { type: 'directory', title: '自建目录', path: '/mine' } });
    expect(custom.statusCode).toBe(201);

    // A second app on the same database (a restart): the shipped file is applied again.
    restarted = await buildApp({ config: t.config, database: t.database, logger: false });
    await restarted.ready();
    const after = await rows();
    expect(after).toHaveLength(FILE_NODES.length - 1 + 1);
    expect(after.find((r) => r.key === 'member-analysis')!.title).toBe('管理员改过的标题');
    expect(after.some((r) => r.key === 'cadre-structure')).toBe(false);
    expect(after.some((r) => r.title === '自建目录')).toBe(true);
    expect(new Set(after.map((r) => r.key)).size).toBe(after.length);
  });

  it('a changed file updates and re-parents untouched nodes, adds new ones, drops removed ones, keeps edits', async () => {
    const doc = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, MENUS_FILE), 'utf8')) as { menus: MenuNode[] };
    const find = (id: string) => flattenMenus(doc.menus).find((n) => n.id === id)!;
    const partyMember = find('party-member');
    const roster = find('member-roster');
    find('member-info').title = '党员信息（新版）';
    find('member-analysis').title = '文件里的新标题';
    // Move member-roster below member-daily, add a page, drop the leaf page cadre-performance, keep the deleted cadre-structure unchanged.
    partyMember.children = partyMember.children!.filter((c) => c.id !== 'member-roster');
    const daily = find('member-daily');
    daily.children = [...daily.children!, roster];
    const cadreAnalysis = find('cadre-analysis');
    cadreAnalysis.children = cadreAnalysis.children!.filter((c) => c.id !== 'cadre-performance');
    daily.children.push({ id: 'member-new', type: 'page', title: '新增页面', path: 'new', icon: 'FileOutlined', component: 'pending:member-new', permission: 'member-new:list' });
    fs.writeFileSync(path.join(dir, MENUS_FILE), JSON.stringify(doc));

    const counts = await new MenuService(t.database).syncFromFiles(dir);
    expect(counts).toEqual({ inserted: 1, updated: expect.any(Number), removed: 1 });
    const byKeyRow = new Map((await rows()).map((r) => [r.key, r]));
    expect(byKeyRow.get('member-info')!.title).toBe('党员信息（新版）');
    expect(byKeyRow.get('member-analysis')!.title).toBe('管理员改过的标题');
    expect(byKeyRow.get('member-roster')!.parent_id).toBe(byKeyRow.get('member-daily')!.id);
    expect(byKeyRow.get('member-new')).toMatchObject({ parent_id: byKeyRow.get('member-daily')!.id, title: '新增页面', edited_at: null });
    expect(byKeyRow.has('cadre-performance')).toBe(false);
    expect(byKeyRow.has('cadre-structure')).toBe(false);

    // Applying the same file again changes nothing.
    expect(await new MenuService(t.database).syncFromFiles(dir)).toEqual({ inserted: 0, updated: 0, removed: 0 });
    expect((await rows()).length).toBe(byKeyRow.size);
  });
});

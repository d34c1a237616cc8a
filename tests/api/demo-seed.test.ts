// engines: pglite — the demo accounts' roles and menus; seeding on both engines is foundation's
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/server/paths.js';
import { readMenuFile } from '../../src/server/core/menus/sync.js';
import { DEMO_ACCOUNTS, DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { nextGraduation } from '../../src/server/seed/graduates.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { collectPermissions, flattenMenus, type MenuNode } from '../../src/shared/menus.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, createTestApp, type TestApp } from '../support/test-app.js';

const FILE_TREE = readMenuFile(SCHEMAS_DIR);
const SYSTEM = /^(users?|roles?|menus?|dicts?|sysconfig|online|outbox|sms-outbox):/;

describe(`demo roles and accounts on ${TEST_DB}`, () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const trees: Record<string, MenuNode[]> = {};

  beforeAll(async () => {
    t = await createDemoTestApp();
    for (const username of ['admin', ...DEMO_ACCOUNTS.map((a) => a.username)]) {
      tokens[username] = username === 'admin' ? await login(t.app) : await login(t.app, username, DEMO_USER_PASSWORD);
      const res = await t.app.inject({ url: '/api/menus/myTree', headers: bearer(tokens[username]) });
      expect(res.statusCode, res.body).toBe(200);
      trees[username] = res.json();
    }
  });
  afterAll(() => t.app.close());

  const ids = (tree: MenuNode[]) => flattenMenus(tree).map((n) => n.id);
  const roleOf = (code: string) => t.database.db.selectFrom('roles').selectAll().where('code', '=', code).executeTakeFirstOrThrow();

  it('[S6.P3a] the three demo accounts log in and get different menu trees', () => {
    const [dwzzb, zbsj, dy] = [ids(trees.dwzzb), ids(trees.zbsj), ids(trees.dy)];
    expect(new Set([dwzzb.join(), zbsj.join(), dy.join()]).size).toBe(3);
    // Everyone: 首页 first (issue 43.5).
    for (const tree of [trees.dwzzb, trees.zbsj, trees.dy]) expect(tree[0].id).toBe('home');
    // 组织部: every business area; of 系统管理 only 规则参数 (issue 42: the department sets the rules' numbers), no administration.
    expect(trees.dwzzb.map((n) => n.id)).toEqual(FILE_TREE.map((n) => n.id));
    expect(ids(trees.dwzzb.find((n) => n.id === 'system')!.children ?? [])).toEqual(['sys-rule-params']);
    // 支部书记: members, organisations, member development, party-school study, the branch's dues, transfers, organisational
    // life, messages, the branch's forms and queries (统计), its tasks and downloads (服务); no cadres.
    expect(trees.zbsj.map((n) => n.id)).toEqual(['home', 'party-member', 'party-org', 'development', 'party-school', 'party-dues', 'transfer', 'org-life', 'message-center', 'statistics', 'service']);
    expect(zbsj).toContain('member-info');
    expect(zbsj).toContain('org-info');
    expect(zbsj).toContain('life-three-one');
    expect(zbsj).not.toContain('member-roster');
    expect(zbsj).not.toContain('pschool-batch');
    expect(zbsj).toEqual(expect.arrayContaining(['dues', 'dues-batch', 'dues-onsite', 'dues-report', 'dues-my']));
    // 党员: the learner pages, their own dues, messages and regulations, and their own change requests (issue 31) only.
    expect(trees.dy.map((n) => n.id)).toEqual(['home', 'party-member', 'party-school', 'party-dues', 'message-center', 'service']);
    expect(flattenMenus(trees.dy.find((n) => n.id === 'party-member')!.children ?? []).filter((n) => n.type === 'page').map((n) => n.id)).toEqual(['member-change-request']);
    expect(dy).toContain('dues-my');
    expect(dy).not.toContain('dues-batch');
    expect(dy).toEqual(expect.arrayContaining(['pschool-study-center', 'pschool-online-exam', 'msg-todo', 'msg-private', 'service-regulation']));
    expect(dy).not.toContain('member-info');
    expect(dy).not.toContain('pschool-admin');
  });

  it("admin's tree contains every first-level entry", () => {
    expect(trees.admin.map((n) => n.id)).toEqual(FILE_TREE.map((n) => n.id));
  });

  it('the demo roles carry the menu permissions and data scopes of their job', async () => {
    const dwzzb = await roleOf('dwzzb');
    expect(dwzzb).toMatchObject({ name: '党委组织部管理员', data_scope: 'all' });
    expect(dwzzb.permissions.some((p) => SYSTEM.test(p) || p === 'admin')).toBe(false);
    // The business menu's permissions and 规则参数's (issue 42), plus view wherever it lists, edits or deletes a module's records (issue 12).
    const business = [...collectPermissions(FILE_TREE.filter((n) => n.id !== 'system')), 'rule-param:list', 'rule-param:edit'];
    expect(dwzzb.permissions).toEqual(expect.arrayContaining(business));
    expect(dwzzb.permissions.filter((p) => !business.includes(p)).every((p) => p.endsWith(':view'))).toBe(true);
    expect(dwzzb.permissions).toEqual(expect.arrayContaining(['member:view', 'org:view', 'unit:view']));
    const zbsj = await roleOf('zbsj');
    expect(zbsj).toMatchObject({ name: '支部书记', data_scope: 'own' });
    expect(zbsj.permissions).toEqual(expect.arrayContaining(['member:list', 'member:view', 'member:edit', 'member:export', 'org:list', 'meeting:list', 'pschool:study', 'msginfo:list']));
    expect(zbsj.permissions).not.toContain('member:delete');
    const dy = await roleOf('dy');
    expect(dy).toMatchObject({ name: '党员', data_scope: 'own' });
    // Every party-school learner page needs the one learner permission.
    // Plus their own tasks (reported in person) and the documents published to them (issue 29).
    // And their own requests to change their record (issue 31), which the branch checks.
    expect(dy.permissions).toEqual([
      'dues-my:list', 'member-change-request:add', 'member-change-request:delete', 'member-change-request:edit', 'member-change-request:list', 'member-change-request:submit',
      'msg-remind:list', 'msginfo:list', 'pschool:study', 'regulation:list', 'service-download:list', 'service-task:list', 'work-task:report-self',
    ]);
    const grants = await t.database.db
      .selectFrom('user_roles as ur')
      .innerJoin('users as u', 'u.id', 'ur.user_id')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['u.username', 'r.code'])
      .where('r.code', '<>', 'pschool_learner') // the party school's demo learners xy01.. (tests/api/pschool-demo.test.ts)
      .orderBy('u.username')
      .execute();
    expect(grants).toEqual([{ username: 'admin', code: 'admin' }, { username: 'dwzzb', code: 'dwzzb' }, { username: 'dy', code: 'dy' }, { username: 'ejdw', code: 'ejdw' }, { username: 'jszb', code: 'zbsj' }, { username: 'zbsj', code: 'zbsj' }]);
  });

  it('the 支部书记 cannot reach user administration; 组织部 neither, the administrator can', async () => {
    const list = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/list', headers: bearer(token), payload: {} });
    expect((await list(tokens.zbsj)).json()).toMatchObject({ status: 403, message: '没有访问权限' });
    expect((await list(tokens.dwzzb)).statusCode).toBe(403);
    expect((await list(tokens.admin)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/menus/tree', headers: bearer(tokens.dwzzb) })).statusCode).toBe(403);
  });

  it('[41 §3] the demo college holds a draft batch of the next graduation; ejdw checks it: its graduates are selected and checked', async () => {
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(tokens.ejdw), ...(payload && { payload }) });
    const batch = (await call('POST', '/api/m/graduate-batch/list', {})).json().content[0];
    expect(batch).toMatchObject({ state: -1, leaveDate: nextGraduation(localToday()) });
    const version = (await call('GET', `/api/m/graduate-batch/${batch.id}`)).json().version;
    const checked = await call('POST', `/api/m/graduate-batch/${batch.id}/transitions/check`, { version, values: {}, comment: '' });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json().total).toBeGreaterThan(0);
    expect(checked.json().passed + checked.json().failed).toBe(checked.json().total);
    // The pasted list gives all but the last two their destination; those two are held back as 去向不明.
    const items = (await call('POST', '/api/m/graduate-batch-item/list?size=100', { batchId: batch.id })).json().content as { toOrgName: string | null; problems: string | null }[];
    expect(items).toHaveLength(checked.json().total);
    expect(items.filter((i) => i.toOrgName).length).toBe(items.length - 2);
    expect(items.filter((i) => i.problems?.includes('去向不明'))).toHaveLength(2);
  });

  it('[41 §3] the next graduation is this year\'s 30 June up to that day, next year\'s from 1 July', () => {
    expect(nextGraduation('2027-06-30')).toBe('2027-06-30');
    expect(nextGraduation('2027-07-01')).toBe('2028-06-30');
    expect(nextGraduation('2027-01-01')).toBe('2027-06-30');
  });

  it('[43.4] the demo\'s to-dos are one per record and person, each naming the organisation it is for', async () => {
    const db = t.app.services.database.db;
    const doubles = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM msg_todo WHERE status = 0 AND ref_id LIKE '%:%'
      GROUP BY user_id, module, split_part(ref_id, ':', 1) HAVING count(*) > 1) d`.execute(db);
    expect(doubles.rows[0].n).toBe(0);
    // The secretary's branch reports of one title are told apart by their organisation.
    const reports = await db.selectFrom('msg_todo').select(['title', 'ref_id']).where('module', '=', 'other-report').where('status', '=', 0).execute();
    expect(reports.length).toBeGreaterThan(0);
    for (const r of reports) expect(r.title, r.ref_id ?? '').toMatch(/（[^）]+）$/);
    const stashAndSubmit = reports.filter((r) => /stash/.test(r.ref_id ?? '') && /submit/.test(r.ref_id ?? ''));
    expect(stashAndSubmit.length).toBeGreaterThan(0);
  });

  it('the top tabs follow the same trees', async () => {
    const head = await t.app.inject({ url: '/api/menus/headMenu', headers: bearer(tokens.dy) });
    expect(head.json()).toEqual([
      { id: 'home', title: '首页', path: '/home', icon: expect.any(String), firstVisibleLeaf: '/dashboard' }, // issue 43.5
      { id: 'party-member', title: '党员管理', path: '/party-member', icon: expect.any(String), firstVisibleLeaf: '/party-member/daily/change-request' },
      { id: 'party-school', title: '党校管理', path: '/party-school', icon: expect.any(String), firstVisibleLeaf: '/pschool' },
      { id: 'party-dues', title: '党费管理', path: '/party-dues', icon: expect.any(String), firstVisibleLeaf: '/party-dues/my' },
      { id: 'message-center', title: '消息中心', path: '/message-center', icon: expect.any(String), firstVisibleLeaf: '/message-center/remind' },
      { id: 'service', title: '综合服务', path: '/service', icon: expect.any(String), firstVisibleLeaf: '/service/info/regulation' },
    ]);
  });
});

describe(`no demo data on ${TEST_DB}`, () => {
  it('DEMO_DATA=false creates neither the demo accounts nor their roles', async () => {
    const t = await createTestApp();
    try {
      expect(await t.database.db.selectFrom('users').select('username').execute()).toEqual([{ username: 'admin' }]);
      // The party school's learner role is built in (migration 0080), like the superuser's.
      expect((await t.database.db.selectFrom('roles').select('code').orderBy('code').execute()).map((r) => r.code)).toEqual(['admin', 'pschool_learner']);
    } finally {
      await t.app.close();
    }
  });
});

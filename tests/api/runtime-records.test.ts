// engines: both — the runtime's SQL: JSON fields, dates, versions (guarded updates), filters
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRecordModule, ChangeRecordOrigin, ChangeRecordType } from '../../src/shared/constants.js';
import { SYSTEM_ACTOR, type WriteEvent } from '../../src/server/runtime/index.js';
import { createRuntimeApp, hookCalls, idCard } from '../fixtures/runtime-app.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, type TestApp } from '../support/test-app.js';

const PASS = 'Runtime#2026a';
const BASE = '/api/m/test-person';
const ALL = ['list', 'add', 'edit', 'delete', 'export', 'import'].map((a) => `test-person:${a}`);

/** Organisation tree of the tests: 1 → 2, 3; 3 → 4. */
const TREE: Record<number, number[]> = { 1: [2, 3], 3: [4] };
const subtree = (ids: number[]): number[] => [...new Set(ids.flatMap((id) => [id, ...subtree(TREE[id] ?? [])]))];

interface Client {
  (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<{ status: number; body: Record<string, any> }>;
}

function clientOf(app: FastifyInstance, token?: string): Client {
  return async (method, url, payload) => {
    const res = await app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : {} };
  };
}

const person = (n: number, extra: Record<string, unknown> = {}) => ({
  name: `人员${n}`,
  gender: '1',
  idCard: idCard('1990-01-01', n),
  orgId: 3,
  ...extra,
});

describe(`module runtime records on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  let viewer: Client;
  let clerk: Client;
  let nobody: Client;
  let anonymous: Client;
  const count = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_test_person`.execute(t.database.db)).rows[0].n);

  beforeAll(async () => {
    t = await createRuntimeApp({}, (app) => {
      app.services.orgTree = { subtreeIds: async (roots) => subtree(roots), idsByCode: async () => new Map() };
    });
    const token = await login(t.app);
    admin = clientOf(t.app, token);
    await userWithRole(t.app, token, { username: 'rtviewer', permissions: ['test-person:list'], password: PASS });
    await userWithRole(t.app, token, { username: 'rtclerk', permissions: ALL, dataScope: 'own', orgId: 3, password: PASS });
    await userWithRole(t.app, token, { username: 'rtnobody', permissions: ['user:list'], password: PASS });
    viewer = clientOf(t.app, await login(t.app, 'rtviewer', PASS));
    clerk = clientOf(t.app, await login(t.app, 'rtclerk', PASS));
    nobody = clientOf(t.app, await login(t.app, 'rtnobody', PASS));
    anonymous = clientOf(t.app);
  });
  afterAll(() => t.app.close());

  describe('schema endpoints', () => {
    it('GET /api/m lists the modules the caller may list, with the actions allowed', async () => {
      expect((await anonymous('GET', '/api/m')).status).toBe(401);
      const all = await admin('GET', '/api/m');
      expect(all.status).toBe(200);
      expect(all.body).toEqual([
        { id: 'test-person', title: '测试人员', actions: ['list', 'view', 'add', 'edit', 'delete', 'export', 'import'] },
        { id: 'test-person-reward', title: '测试奖惩', actions: ['list', 'view', 'add', 'edit', 'delete', 'export', 'import'] },
      ]);
      // The child module follows its parent's permissions (issue 13 item 1).
      expect((await viewer('GET', '/api/m')).body).toEqual([
        { id: 'test-person', title: '测试人员', actions: ['list', 'view'] },
        { id: 'test-person-reward', title: '测试奖惩', actions: ['list', 'view'] },
      ]);
      expect((await nobody('GET', '/api/m')).body).toEqual([]);
    });

    it('GET /api/m/{module}/schema answers the schema, the caller\'s actions and the dictionaries used', async () => {
      expect((await anonymous('GET', `${BASE}/schema`)).status).toBe(401);
      expect((await nobody('GET', `${BASE}/schema`)).status).toBe(403);
      const res = await viewer('GET', `${BASE}/schema`);
      expect(res.status).toBe(200);
      expect(res.body.actions).toEqual(['list', 'view']);
      expect(res.body.dicts).toEqual(['TEST_GENDER', 'TEST_LEVEL', 'TEST_TAG']);
      expect(res.body.schema['x-id']).toBe('test-person');
      expect(res.body.schema.properties.age['x-computed']).toEqual({ fn: 'age', args: ['birthDate'] });
      expect(res.body.schema.properties.remark.title).toBe('备注');
    });
  });

  describe('create and validation', () => {
    it('creates a record: 201 with defaults, computed fields, labels, names and what the hooks set', async () => {
      const before = hookCalls.length;
      const res = await admin('POST', BASE, person(1, { name: '  张三  ', birthDate: '1990-05-01', joinDate: '2015-07-01', tags: ['t1', 't2'], contactUserId: 1, level: 'A' }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const r = res.body;
      expect(r).toMatchObject({ id: expect.any(Number), version: 1, name: '张三', gender: '1', genderLabel: '男', level: 'A', levelLabel: '一级', tags: ['t1', 't2'], tagsLabel: '优秀、先进' });
      expect(r).toMatchObject({ childCount: 0, isCadre: false, status: '在册', contactUserIdName: '系统管理员', orgId: 3, orgIdName: null, checkedAt: '2024-05-01T08:00:00.000Z' });
      expect(r.age).toBeGreaterThanOrEqual(35);
      expect(r.partyAge).toBeGreaterThanOrEqual(10);
      expect(r.createdBy).toBe(1);
      expect(hookCalls.slice(before)).toEqual([{ action: 'create', id: r.id, name: '张三', rowsInTransaction: 1 }]);
      const stored = await sql<{ school: string; tags: unknown; birth_date: string }>`SELECT school, tags, birth_date FROM m_test_person WHERE id = ${r.id}`.execute(t.database.db);
      expect(stored.rows[0]).toEqual({ school: 'hntb', tags: ['t1', 't2'], birth_date: '1990-05-01' });
    });

    it('read-only and computed fields sent by the client are ignored, the labels it echoes too', async () => {
      const res = await admin('POST', BASE, person(2, { age: 99, partyAge: 5, checkedAt: 'nonsense', genderLabel: '女', birthDate: '2000-01-01' }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.age).not.toBe(99);
      expect(res.body.partyAge).toBeNull();
      expect(res.body.genderLabel).toBe('男');
    });

    it('refuses bad input with Chinese field messages and stores nothing', async () => {
      const n = await count();
      const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
        [person(10, { name: 123, score: 'abc', childCount: 1.5 }), [
          { field: 'name', message: '姓名的类型不正确' },
          { field: 'score', message: '积分的类型不正确' },
          { field: 'childCount', message: '子女数的类型不正确' },
        ]],
        [person(11, { nickname: 'x' }), [{ field: 'nickname', message: '不允许的字段：nickname' }]],
        [person(12, { idCard: '110105194912310021' }), [{ field: 'idCard', message: '请输入正确的身份证号' }]],
        [person(13, { gender: '9' }), [{ field: 'gender', message: '性别“9”不是有效的选项' }]],
        [person(14, { level: 'Z' }), [{ field: 'level', message: '级别“Z”不是有效的选项' }]],
        [person(15, { tags: ['t1', 'nope'] }), [{ field: 'tags', message: '标签“nope”不是有效的选项' }]],
        [person(16, { contactUserId: 999_999 }), [{ field: 'contactUserId', message: '联系人所选的记录不存在' }]],
        [{ ...person(17), name: '' }, [{ field: 'name', message: '姓名不能为空' }]],
        [person(18, { code: 'X1', mobile: '12345', email: 'a@b', score: 101, status: '未知' }), [
          { field: 'mobile', message: '请输入正确的手机号码' },
          { field: 'email', message: '请输入正确的邮箱地址' },
          { field: 'score', message: '积分不能大于100' },
          { field: 'status', message: '状态的取值不在允许范围内' },
          { field: 'code', message: '编号的格式不正确' },
        ]],
        [person(19, { birthDate: '1990-02-30' }), [{ field: 'birthDate', message: '出生日期的格式不正确' }]],
      ];
      for (const [payload, errors] of cases) {
        const res = await admin('POST', BASE, payload);
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.body.status).toBe(400);
        expect(res.body.errors).toEqual(errors);
        expect(res.body.message).toBe(errors[0].message);
      }
      expect((await admin('POST', BASE, [person(22)])).status).toBe(400);
      expect(await count()).toBe(n);
    });

    it('x-unique: a second record with the same ID number is refused as <title>“value”已存在', async () => {
      const n = await count();
      const res = await admin('POST', BASE, person(3, { idCard: idCard('1990-01-01', 1) }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'idCard', message: `身份证号“${idCard('1990-01-01', 1)}”已存在` }]);
      expect(await count()).toBe(n);
    });

    it('a beforeWrite hook may refuse; an afterWrite failure undoes the whole write', async () => {
      const n = await count();
      const refused = await admin('POST', BASE, person(20, { name: '拒绝' }));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('姓名不能为“拒绝”');
      const undone = await admin('POST', BASE, person(21, { name: '回滚' }));
      expect(undone.status).toBe(400);
      expect(undone.body.message).toBe('写入后检查失败');
      expect(hookCalls.at(-1)).toMatchObject({ action: 'create', name: '回滚', rowsInTransaction: 1 });
      expect(await count()).toBe(n);
      const trail = await t.database.db.selectFrom('change_records').select('id').where('module', '=', 'test-person').execute();
      expect(trail.length).toBe(n);
    });
  });

  describe('list', () => {
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      const rows: [string, Record<string, unknown>][] = [
        ['li', { name: '李四', gender: '2', orgId: 2, birthDate: '1985-03-01', score: 70, level: 'B', tags: ['t3'], isCadre: true, joinDate: '2010-01-01' }],
        ['wang', { name: '王五', gender: '1', orgId: 4, birthDate: '1995-08-08', score: 85, level: 'C', joinDate: '2020-06-01' }],
        ['zhao', { name: '赵六', gender: '2', orgId: 3, birthDate: '1980-12-31', score: 60, level: 'A', tags: ['t1', 't3'], joinDate: '2005-09-01' }],
        ['percent', { name: '达标100%', gender: '1', orgId: 1, birthDate: '2001-01-01', score: 95, joinDate: '2023-01-01' }],
        ['under', { name: 'a_b', gender: '1', orgId: 1, score: 10 }],
      ];
      for (const [key, extra] of rows) {
        const res = await admin('POST', BASE, person(100 + Object.keys(ids).length, extra));
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids[key] = res.body.id;
      }
    });
    const names = (body: Record<string, any>) => (body.content as { name: string }[]).map((r) => r.name).sort();
    const list = (filter: unknown, query = '') => admin('POST', `${BASE}/list${query}`, filter);

    it('answers {content, totalElements} with the list columns, labels and names only', async () => {
      const res = await list({}, '?size=100');
      expect(res.status).toBe(200);
      expect(res.body.totalElements).toBe(7);
      const row = res.body.content.find((r: { id: number }) => r.id === ids.li);
      expect(Object.keys(row).sort()).toEqual(['age', 'gender', 'genderLabel', 'id', 'idCard', 'joinDate', 'level', 'levelLabel', 'name', 'orgId', 'orgIdName', 'remark', 'score', 'version'].sort());
      expect(row).toMatchObject({ genderLabel: '女', levelLabel: '二级', score: 70 });
      const all = await list({}, '?size=100&fields=all');
      expect(all.body.content.find((r: { id: number }) => r.id === ids.li)).toMatchObject({ tags: ['t3'], tagsLabel: '骨干', isCadre: true, createdBy: 1, mobile: null });
    });

    it('eq, like (literal, escaped), in, range, org-subtree and array eq filters', async () => {
      expect(names((await list({ gender: '2' })).body)).toEqual(['李四', '赵六']);
      expect(names((await list({ name: '四' })).body)).toEqual(['李四']);
      expect(names((await list({ name: '%' })).body)).toEqual(['达标100%']);
      expect(names((await list({ name: '_' })).body)).toEqual(['a_b']);
      expect(names((await list({ level: ['B', 'C'] })).body)).toEqual(['李四', '王五']);
      expect(names((await list({ tags: 't3' })).body)).toEqual(['李四', '赵六']);
      expect(names((await list({ birthDate: ['1985-01-01', '1995-12-31'] })).body)).toEqual(['张三', '李四', '王五']);
      expect(names((await list({ birthDate: [null, '1985-03-01'] })).body)).toEqual(['李四', '赵六']);
      expect(names((await list({ birthDate: ['2000-01-01', null] }, '?size=50')).body)).toEqual(['人员2', '达标100%']);
      expect(names((await list({ score: [60, 80] })).body)).toEqual(['李四', '赵六']);
      expect(names((await list({ orgId: 3 }, '?size=50')).body)).toEqual(['人员2', '张三', '王五', '赵六']);
      expect(names((await list({ orgId: 2 })).body)).toEqual(['李四']);
      expect(names((await list({ isCadre: true })).body)).toEqual(['李四']);
      expect(names((await list({ gender: '2', score: [65, null] })).body)).toEqual(['李四']);
      // Empty values are ignored, so a filter bar can send every input.
      expect((await list({ name: '', level: [], birthDate: [null, null], gender: null }, '?size=50')).body.totalElements).toBe(7);
    });

    it('sorts by any column field in either direction, pages 0-based and counts the whole result', async () => {
      const scored = { score: [0, null] };
      const byScore = await list(scored, '?sort=score,desc&size=2');
      expect(byScore.body.content.map((r: { name: string }) => r.name)).toEqual(['达标100%', '王五']);
      expect(byScore.body.totalElements).toBe(5);
      const page1 = await list(scored, '?sort=score,desc&size=2&page=1');
      expect(page1.body.content.map((r: { name: string }) => r.name)).toEqual(['李四', '赵六']);
      const page2 = await list(scored, '?sort=score,desc&size=2&page=2');
      expect(page2.body.content.map((r: { name: string }) => r.name)).toEqual(['a_b']);
      expect(page2.body.totalElements).toBe(5);
      expect((await list(scored, '?sort=score,asc&size=1')).body.content[0].name).toBe('a_b');
      // Records without a value come last in ascending order (first in descending: PostgreSQL's default, which the index serves).
      expect((await list({}, '?sort=score,asc&size=100')).body.content.at(-1).score).toBeNull();
      const byName = await list({ gender: '2' }, '?sort=name,asc');
      expect(byName.body.content.map((r: { name: string }) => r.name)).toEqual(['李四', '赵六'].sort());
      // Default order: x-list.sort (joinDate desc).
      const byDefault = await list({ gender: '2' });
      expect(byDefault.body.content.map((r: { name: string }) => r.name)).toEqual(['李四', '赵六']);
    });

    it('refuses an unknown sort column, a filter on an undeclared field and a value of the wrong type', async () => {
      for (const query of ['?sort=nosuch,asc', '?sort=age,asc', '?sort=name,sideways', '?sort=id;drop table users', '?page=-1', '?size=0']) {
        const res = await list({}, query);
        expect(res.status, query).toBe(400);
      }
      const undeclared = await list({ idCard: '1' });
      expect(undeclared.status).toBe(400);
      expect(undeclared.body.errors).toEqual([{ field: 'idCard', message: '不支持按“身份证号”筛选' }]);
      const unknown = await list({ nosuch: 1 });
      expect(unknown.body.errors).toEqual([{ field: 'nosuch', message: '不支持按“nosuch”筛选' }]);
      for (const bad of [{ score: ['a', 1] }, { birthDate: ['1990-13-01', null] }, { orgId: 'x' }, { level: 'A' }, { gender: 1 }, { isCadre: 'yes' }]) {
        const res = await list(bad);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.errors[0].message).toMatch(/的筛选值不正确$/);
      }
      expect((await list([1, 2])).status).toBe(400);
    });

    it('SQL in a filter value is just a value', async () => {
      const n = await count();
      for (const value of ["'; DROP TABLE m_test_person;--", "' OR '1'='1", '\\']) {
        const res = await list({ name: value });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ content: [], totalElements: 0 });
      }
      expect((await list({ gender: "1' OR '1'='1" })).body.totalElements).toBe(0);
      expect(await count()).toBe(n);
    });
  });

  describe('get, update, delete', () => {
    it('GET {id} answers every field; 404 for a missing or malformed id', async () => {
      const created = (await admin('POST', BASE, person(200, { mobile: '13800138000' }))).body;
      const res = await admin('GET', `${BASE}/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, version: 1, mobile: '13800138000', genderLabel: '男' });
      expect((await admin('GET', `${BASE}/999999`)).status).toBe(404);
      expect((await admin('GET', `${BASE}/abc`)).status).toBe(404);
    });

    it('PUT updates the fields it carries, bumps the version; a stale version answers 409 and loses nothing', async () => {
      const created = (await admin('POST', BASE, person(201, { score: 50, mobile: '13800138001' }))).body;
      const first = await admin('PUT', BASE, { id: created.id, version: 1, score: 60, mobile: null });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ version: 2, score: 60, mobile: null, name: '人员201', idCard: created.idCard });
      const stale = await admin('PUT', BASE, { id: created.id, version: 1, score: 99 });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ status: 409, message: '数据已被他人修改，请刷新后重试', current: { id: created.id, version: 2, score: 60 } });
      expect((await admin('GET', `${BASE}/${created.id}`)).body).toMatchObject({ version: 2, score: 60 });
      // The method override header works for clients that only send POST.
      const overridden = await t.app.inject({ method: 'POST', url: BASE, headers: { ...bearer(await login(t.app)), 'x-http-method-override': 'PUT' }, payload: { id: created.id, version: 2, score: 61 } });
      expect(overridden.statusCode).toBe(200);
      expect(overridden.json().version).toBe(3);
    });

    it('PUT refuses a missing id or version and bad values, changing nothing', async () => {
      const created = (await admin('POST', BASE, person(202))).body;
      expect((await admin('PUT', BASE, { version: 1, score: 1 })).status).toBe(400);
      const noVersion = await admin('PUT', BASE, { id: created.id, score: 1 });
      expect(noVersion.status).toBe(400);
      expect(noVersion.body.errors[0].field).toBe('version');
      const bad = await admin('PUT', BASE, { id: created.id, version: 1, gender: 'x', idCard: '123' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['gender', 'idCard']);
      const taken = await admin('PUT', BASE, { id: created.id, version: 1, idCard: idCard('1990-01-01', 1) });
      expect(taken.body.errors).toEqual([{ field: 'idCard', message: `身份证号“${idCard('1990-01-01', 1)}”已存在` }]);
      expect((await admin('PUT', BASE, { id: 999_999, version: 1 })).status).toBe(404);
      expect((await admin('GET', `${BASE}/${created.id}`)).body).toMatchObject({ version: 1, gender: '1', idCard: created.idCard });
    });

    it('DELETE removes the records named in the body; their children go with them; beforeDelete may refuse', async () => {
      const a = (await admin('POST', BASE, person(210))).body;
      const b = (await admin('POST', BASE, person(211))).body;
      const kept = (await admin('POST', BASE, person(212, { name: '保留人员' }))).body;
      const reward = await admin('POST', '/api/m/test-person-reward', { personId: a.id, kind: '奖励', awardedOn: '2024-01-01', content: '优秀党员' });
      expect(reward.status, JSON.stringify(reward.body)).toBe(201);
      expect(reward.body.personIdName).toBe('人员210');
      const refused = await admin('DELETE', BASE, { ids: [b.id, kept.id] });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('保留人员不能删除');
      expect((await admin('GET', `${BASE}/${b.id}`)).status).toBe(200);
      const missing = await admin('DELETE', BASE, [a.id, 999_999]);
      expect(missing.status).toBe(404);
      const res = await admin('DELETE', BASE, [a.id, b.id]);
      expect(res.status).toBe(200);
      expect(res.body.deleted).toBe(2);
      expect((await admin('GET', `${BASE}/${a.id}`)).status).toBe(404);
      expect((await admin('GET', `/api/m/test-person-reward/${reward.body.id}`)).status).toBe(404);
      expect((await admin('DELETE', BASE, {})).status).toBe(400);
    });
  });

  describe('pinyin order', () => {
    it('[issue 13.12] the name field sorts in pinyin order (阿 before 周), in lists and pickers, on both engines', async () => {
      const names = ['周拼序', '阿拼序', '张拼序', '李拼序', '詹拼序', 'Bob拼序'];
      for (const [i, name] of names.entries()) expect((await admin('POST', BASE, person(700 + i, { name }))).status).toBe(201);
      const asc = (await admin('POST', `${BASE}/list?sort=name,asc&size=20`, { name: '拼序' })).body.content.map((r: { name: string }) => r.name);
      expect(asc).toEqual(['阿拼序', 'Bob拼序', '李拼序', '詹拼序', '张拼序', '周拼序']);
      const desc = (await admin('POST', `${BASE}/list?sort=name,desc&size=20`, { name: '拼序' })).body.content.map((r: { name: string }) => r.name);
      expect(desc).toEqual([...asc].reverse());
      expect((await admin('GET', `${BASE}/options?q=${encodeURIComponent('拼序')}`)).body.map((r: { name: string }) => r.name)).toEqual(asc);
      // A renamed record moves to its new place.
      const zhou = (await admin('POST', `${BASE}/list`, { name: '周拼序' })).body.content[0];
      expect((await admin('PUT', BASE, { id: zhou.id, version: zhou.version, name: '艾拼序' })).status).toBe(200);
      expect((await admin('POST', `${BASE}/list?sort=name,asc&size=2`, { name: '拼序' })).body.content.map((r: { name: string }) => r.name)).toEqual(['阿拼序', '艾拼序']);
    });
  });

  describe('children (x-children)', () => {
    it('the child list filters by the foreign key; a child needs an existing parent', async () => {
      const p1 = (await admin('POST', BASE, person(300))).body;
      const p2 = (await admin('POST', BASE, person(301))).body;
      for (const [personId, awardedOn] of [[p1.id, '2023-01-01'], [p1.id, '2024-01-01'], [p2.id, '2024-02-01']] as const) {
        expect((await admin('POST', '/api/m/test-person-reward', { personId, kind: '奖励', awardedOn })).status).toBe(201);
      }
      const res = await admin('POST', '/api/m/test-person-reward/list', { personId: p1.id });
      expect(res.status).toBe(200);
      expect(res.body.totalElements).toBe(2);
      expect(res.body.content.map((r: { awardedOn: string }) => r.awardedOn)).toEqual(['2024-01-01', '2023-01-01']);
      expect((await admin('POST', '/api/m/test-person-reward/list', { kind: '奖励' })).status).toBe(400);
      const orphan = await admin('POST', '/api/m/test-person-reward', { personId: 999_999, kind: '奖励', awardedOn: '2024-01-01' });
      expect(orphan.body.errors).toEqual([{ field: 'personId', message: '人员所选的记录不存在' }]);
      // The reference picker of the child's form lists parents by name.
      const options = await admin('GET', `${BASE}/options?q=${encodeURIComponent('人员30')}`);
      expect(options.body).toEqual([{ id: p1.id, name: '人员300' }, { id: p2.id, name: '人员301' }]);
    });

    it('[issue 13.1] children are governed by the parent: view it → list the children, edit it → add, edit and delete them', async () => {
      const parent = (await admin('POST', BASE, person(302))).body;
      const reward = (await admin('POST', '/api/m/test-person-reward', { personId: parent.id, kind: '奖励', awardedOn: '2024-05-01' })).body;
      // test-person:list is the parent's view permission: the child list and record, nothing more.
      expect((await viewer('POST', '/api/m/test-person-reward/list', { personId: parent.id })).body.totalElements).toBe(1);
      expect((await viewer('GET', `/api/m/test-person-reward/${reward.id}`)).status).toBe(200);
      expect((await viewer('POST', '/api/m/test-person-reward', { personId: parent.id, kind: '惩处', awardedOn: '2024-05-02' })).status).toBe(403);
      expect((await viewer('DELETE', '/api/m/test-person-reward', [reward.id])).status).toBe(403);
      // The served schema names the parent's permissions, so the web shows the buttons the server allows.
      const meta = (await viewer('GET', '/api/m/test-person-reward/schema')).body;
      expect(meta.actions).toEqual(['list', 'view']);
      expect(meta.schema['x-permissions']).toEqual({
        list: 'test-person:list', view: 'test-person:list', add: 'test-person:edit', edit: 'test-person:edit',
        delete: 'test-person:edit', export: 'test-person:export', import: 'test-person:import',
      });
      // Every permission of the parent (and none of the child's own): the clerk adds, edits and deletes children.
      const added = await clerk('POST', '/api/m/test-person-reward', { personId: parent.id, kind: '惩处', awardedOn: '2024-05-02' });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      expect((await clerk('PUT', '/api/m/test-person-reward', { id: added.body.id, version: 1, content: '已改' })).status).toBe(200);
      expect((await clerk('DELETE', '/api/m/test-person-reward', [added.body.id, reward.id])).status).toBe(200);
      // Without the parent's permissions, nothing.
      expect((await nobody('POST', '/api/m/test-person-reward/list', { personId: parent.id })).status).toBe(403);
    });
  });

  describe('trail and restore', () => {
    it('[S9.K16][S9.K17][S9.K18] the trail stores the shared enums: type ADD/UPDATE, origins, the module code', async () => {
      const created = (await admin('POST', BASE, person(400, { level: 'A', score: 10 }))).body;
      await admin('PUT', BASE, { id: created.id, version: 1, gender: '2', level: 'B' });
      const rows = await t.database.db.selectFrom('change_records').selectAll().where('module', '=', 'test-person').where('record_id', '=', created.id).orderBy('id').execute();
      expect(rows.map((r) => [r.type, r.origin, r.module_code])).toEqual([
        [ChangeRecordType.ADD, ChangeRecordOrigin.USER_CREATE, ChangeRecordModule.GB_MANAGE_DEPT],
        [ChangeRecordType.UPDATE, ChangeRecordOrigin.USER_UPDATE, ChangeRecordModule.GB_MANAGE_DEPT],
      ]);
      expect(rows.map((r) => [r.type, r.origin, r.module_code])).toEqual([[1, 2, 50], [2, 3, 50]]);
    });

    it('GET {id}/trail pages the changes newest first, field by field with labels and who made them', async () => {
      const created = (await admin('POST', BASE, person(401, { level: 'A', score: 10 }))).body;
      await admin('PUT', BASE, { id: created.id, version: 1, gender: '2', level: 'B' });
      await admin('PUT', BASE, { id: created.id, version: 2, score: 20 });
      await admin('PUT', BASE, { id: created.id, version: 3, score: 20 }); // no change: no trail entry
      const res = await admin('GET', `${BASE}/${created.id}/trail?size=2`);
      expect(res.status).toBe(200);
      expect(res.body.totalElements).toBe(3);
      const [latest, second] = res.body.content;
      expect(latest).toMatchObject({ type: 2, typeLabel: '修改', origin: 3, originLabel: '用户修改', username: 'admin', recordId: created.id, moduleCode: 50 });
      expect(latest.changes).toEqual([{ field: 'score', title: '积分', before: 10, after: 20 }]);
      expect(second.changes).toEqual([
        { field: 'gender', title: '性别', before: '1', after: '2', beforeLabel: '男', afterLabel: '女' },
        { field: 'level', title: '级别', before: 'A', after: 'B', beforeLabel: '一级', afterLabel: '二级' },
      ]);
      const oldest = (await admin('GET', `${BASE}/${created.id}/trail?size=2&page=1`)).body.content[0];
      expect(oldest).toMatchObject({ type: 1, typeLabel: '新增', origin: 2, originLabel: '用户新增' });
      expect(oldest.changes).toContainEqual({ field: 'name', title: '姓名', before: null, after: '人员401' });
      expect(oldest.changes).toContainEqual({ field: 'gender', title: '性别', before: null, after: '1', beforeLabel: null, afterLabel: '男' });
    });

    it('POST {id}/restore/{changeId} puts the before values back through the update path (USER_RESTORE)', async () => {
      const created = (await admin('POST', BASE, person(402, { level: 'A' }))).body;
      await admin('PUT', BASE, { id: created.id, version: 1, gender: '2', level: 'B' });
      await admin('PUT', BASE, { id: created.id, version: 2, score: 30 });
      const trail = (await admin('GET', `${BASE}/${created.id}/trail`)).body.content;
      const genderChange = trail.find((c: { changes: { field: string }[] }) => c.changes.some((x) => x.field === 'gender'));
      expect((await viewer('POST', `${BASE}/${created.id}/restore/${genderChange.id}`)).status).toBe(403);
      expect((await admin('POST', `${BASE}/${created.id}/restore/${genderChange.id}`, { version: 1 })).status).toBe(409);
      const restored = await admin('POST', `${BASE}/${created.id}/restore/${genderChange.id}`);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      expect(restored.body).toMatchObject({ version: 4, gender: '1', level: 'A', score: 30 });
      const after = (await admin('GET', `${BASE}/${created.id}/trail`)).body.content[0];
      expect(after).toMatchObject({ type: ChangeRecordType.UPDATE, origin: ChangeRecordOrigin.USER_RESTORE, originLabel: '用户恢复' });
      expect(after.changes.map((c: { field: string }) => c.field)).toEqual(['gender', 'level']);
      const add = trail.find((c: { type: number }) => c.type === 1);
      expect((await admin('POST', `${BASE}/${created.id}/restore/${add.id}`)).status).toBe(400);
      expect((await admin('POST', `${BASE}/${created.id}/restore/999999`)).status).toBe(404);
    });
  });

  describe('permissions and data scope', () => {
    it('401 without a session and 403 without the action\'s permission on every route', async () => {
      const routes: [Parameters<Client>[0], string, unknown?][] = [
        ['POST', `${BASE}/list`, {}], ['GET', `${BASE}/1`], ['POST', BASE, person(500)], ['PUT', BASE, { id: 1, version: 1 }],
        ['DELETE', BASE, [1]], ['GET', `${BASE}/export`], ['GET', `${BASE}/template`], ['GET', `${BASE}/1/trail`],
        ['POST', `${BASE}/1/restore/1`], ['GET', `${BASE}/import/1`],
      ];
      for (const [method, url, payload] of routes) {
        expect((await anonymous(method, url, payload)).status, `${method} ${url}`).toBe(401);
        expect((await nobody(method, url, payload)).status, `${method} ${url}`).toBe(403);
      }
      for (const [method, url, payload] of routes.slice(2)) {
        if (url.endsWith('/trail')) continue; // view = list for this module
        expect((await viewer(method, url, payload)).status, `${method} ${url}`).toBe(403);
      }
      expect((await viewer('POST', `${BASE}/list`, {})).status).toBe(200);
    });

    it('a user with scope own sees and changes only the records of their organisation subtree', async () => {
      const inOrg2 = (await admin('POST', BASE, person(600, { orgId: 2 }))).body;
      const inOrg4 = (await admin('POST', BASE, person(601, { orgId: 4 }))).body;
      const listed = await clerk('POST', `${BASE}/list?size=100`, {});
      const orgs = new Set(listed.body.content.map((r: { orgId: number }) => r.orgId));
      expect([...orgs].sort()).toEqual([3, 4]);
      expect(listed.body.content.some((r: { id: number }) => r.id === inOrg4.id)).toBe(true);
      expect((await clerk('POST', `${BASE}/list`, { orgId: 2 })).body.totalElements).toBe(0);
      expect((await clerk('GET', `${BASE}/${inOrg2.id}`)).status).toBe(404);
      expect((await clerk('GET', `${BASE}/${inOrg2.id}/trail`)).status).toBe(404);
      // Placing a record outside the scope is a field error (the form keeps its input), not a 403.
      const outside = await clerk('POST', BASE, person(602, { orgId: 2 }));
      expect(outside.status).toBe(400);
      expect(outside.body.errors).toEqual([{ field: 'orgId', message: '所选组织不在您的管理范围内' }]);
      const own = await clerk('POST', BASE, { ...person(603), orgId: undefined });
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      expect(own.body.orgId).toBe(3);
      expect((await clerk('PUT', BASE, { id: inOrg2.id, version: 1, score: 1 })).status).toBe(404);
      expect((await clerk('PUT', BASE, { id: inOrg4.id, version: 1, orgId: 2 })).status).toBe(400);
      expect((await clerk('PUT', BASE, { id: inOrg4.id, version: 1, score: 42 })).status).toBe(200);
      expect((await clerk('DELETE', BASE, [inOrg2.id, own.body.id])).status).toBe(404);
      expect((await admin('GET', `${BASE}/${inOrg2.id}`)).status).toBe(200);
      expect((await clerk('DELETE', BASE, [own.body.id])).status).toBe(200);
    });

    it('a child module without x-scope is scoped through its parent record', async () => {
      const outside = (await admin('POST', BASE, person(610, { orgId: 2 }))).body;
      const inside = (await admin('POST', BASE, person(611, { orgId: 4 }))).body;
      const rewardOutside = (await admin('POST', '/api/m/test-person-reward', { personId: outside.id, kind: '奖励', awardedOn: '2024-03-01' })).body;
      const rewardInside = (await admin('POST', '/api/m/test-person-reward', { personId: inside.id, kind: '惩处', awardedOn: '2024-03-02' })).body;
      const listed = (await clerk('POST', '/api/m/test-person-reward/list?size=100', {})).body.content.map((r: { id: number }) => r.id);
      expect(listed).toContain(rewardInside.id);
      expect(listed).not.toContain(rewardOutside.id);
      expect((await clerk('POST', '/api/m/test-person-reward/list', { personId: outside.id })).body.totalElements).toBe(0);
      expect((await clerk('GET', `/api/m/test-person-reward/${rewardOutside.id}`)).status).toBe(404);
      expect((await clerk('GET', `/api/m/test-person-reward/${rewardInside.id}`)).status).toBe(200);
      expect((await clerk('POST', '/api/m/test-person-reward', { personId: outside.id, kind: '奖励', awardedOn: '2024-03-03' })).status).toBe(400);
      expect((await clerk('POST', '/api/m/test-person-reward', { personId: inside.id, kind: '奖励', awardedOn: '2024-03-03' })).status).toBe(201);
    });
  });
});

describe(`the server-side record API on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createRuntimeApp();
  });
  afterAll(() => t.app.close());

  it('domain services write inside their own transaction through the same path; events follow the commit', async () => {
    const runtime = t.app.runtime;
    const people = runtime.records('test-person');
    const events: WriteEvent[] = [];
    runtime.events.on('write', (e) => events.push(e));
    const undo = new Error('undo');
    await t.database.db
      .transaction()
      .execute(async (trx) => {
        const created = await people.create(person(1, { level: 'A' }), SYSTEM_ACTOR, { trx });
        expect(created).toMatchObject({ name: '人员1', levelLabel: '一级', checkedAt: new Date('2024-05-01T08:00:00.000Z') });
        const updated = await people.update({ id: created.id, version: created.version, level: 'B' }, SYSTEM_ACTOR, { trx });
        expect(updated).toMatchObject({ version: 2, levelLabel: '二级' });
        await expect(people.create(person(2, { gender: 'x' }), SYSTEM_ACTOR, { trx })).rejects.toMatchObject({ statusCode: 400 });
        throw undo;
      })
      .catch((e: unknown) => expect(e).toBe(undo));
    expect((await people.list({}, SYSTEM_ACTOR)).totalElements).toBe(0);
    expect(await t.database.db.selectFrom('change_records').select('id').where('module', '=', 'test-person').execute()).toEqual([]);

    const kept = await people.create(person(3), SYSTEM_ACTOR);
    expect(events.at(-1)).toEqual({ module: 'test-person', action: 'create', ids: [kept.id], origin: 2 });
    const trail = await t.database.db.selectFrom('change_records').select(['user_id', 'username']).where('record_id', '=', kept.id).execute();
    expect(trail).toEqual([{ user_id: null, username: 'system' }]);
    expect(await people.remove([kept.id], SYSTEM_ACTOR)).toBe(1);
    expect(events.at(-1)).toMatchObject({ action: 'delete', ids: [kept.id] });
  });
});

describe(`a school override on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createRuntimeApp({ SCHOOL: 'hnsoft' });
    admin = clientOf(t.app, await login(t.app));
  });
  afterAll(() => t.app.close());

  it('hides a field and adds one: schema, validation, list and table agree', async () => {
    const schema = (await admin('GET', `${BASE}/schema`)).body.schema;
    expect(schema.title).toBe('测试人员（软件学院）');
    expect(schema.properties.remark).toBeUndefined();
    expect(schema.properties.dormitory).toEqual({ type: 'string', title: '宿舍', maxLength: 30 });
    expect(schema.properties.mobile.title).toBe('联系电话');
    expect(schema['x-list'].columns).toEqual(['name', 'gender', 'dormitory', 'joinDate']);
    const created = await admin('POST', BASE, { ...person(1), dormitory: '北苑3栋' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.dormitory).toBe('北苑3栋');
    expect(created.body).not.toHaveProperty('remark');
    const hidden = await admin('POST', BASE, { ...person(2), remark: '隐藏字段' });
    expect(hidden.body.errors).toEqual([{ field: 'remark', message: '不允许的字段：remark' }]);
    const list = await admin('POST', `${BASE}/list`, { dormitory: '北苑' });
    expect(list.body.content).toEqual([expect.objectContaining({ name: '人员1', dormitory: '北苑3栋', genderLabel: '男' })]);
    expect(Object.keys(list.body.content[0])).not.toContain('remark');
    expect((await admin('POST', `${BASE}/list`, { gender: '1' })).status).toBe(400); // the override replaced the filters
    const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'm_test_person'`.execute(t.database.db);
    expect(columns.rows.map((r) => r.column_name)).toEqual(expect.arrayContaining(['dormitory', 'remark']));
  });
});

// engines: both — queries compile to SQL (and/or groups, reference paths, scope) that must mean the same on both engines
/**
 * 综合查询 (issue 30): `POST /api/query/run` answers the rows the equivalent SQL finds, in the caller's
 * data scope; unknown modules, fields and operators are refused before anything runs; saved queries are
 * per user unless shared.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe(`comprehensive query on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let zbsj: string;
  const run = async (token: string, body: unknown) => t.app.inject({ method: 'POST', url: '/api/query/run', headers: bearer(token), payload: body as object });

  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = await login(t.app);
    zbsj = await login(t.app, 'zbsj', DEMO_USER_PASSWORD);
  }, 180_000);
  afterAll(() => t?.app.close());

  it('an or-group with a reference path gives the rows of the equivalent SQL, with referenced columns', async () => {
    const db = t.database.db;
    // Women, or members whose branch's parent organisation is the first committee: (gender = 2 OR org.parentId = c) AND joined before 2015.
    const { rows: committees } = await sql<{ id: number }>`SELECT o.parent_id AS id FROM m_member m JOIN m_org o ON o.id = m.org_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`.execute(db);
    const committee = committees[0].id;
    const where = { and: [{ or: [{ field: 'gender', op: 'eq', value: '2' }, { field: 'org.parentId', op: 'eq', value: committee }] }, { field: 'joinDate', op: 'lt', value: '2015-01-01' }] };
    const { rows: expected } = await sql<{ id: number }>`SELECT m.id FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id
      WHERE (m.gender = '2' OR o.parent_id = ${committee}) AND m.join_date < '2015-01-01' ORDER BY m.id`.execute(db);
    expect(expected.length).toBeGreaterThan(0);
    const res = await run(admin, { module: 'member', where, columns: ['name', 'gender', 'orgId.parentId'], sort: 'name,asc', page: 0, size: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(expected.length);
    expect(body.content.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual(expected.map((r) => r.id));
    const first = body.content[0];
    expect(Object.keys(first).sort()).toEqual(['gender', 'genderLabel', 'id', 'name', 'orgId.parentId', 'orgId.parentIdLabel', 'version'].sort());
    const { rows: parent } = await sql<{ parent_id: number; name: string }>`SELECT o.parent_id, p.name FROM m_member m JOIN m_org o ON o.id = m.org_id JOIN m_org p ON p.id = o.parent_id WHERE m.id = ${first.id}`.execute(db);
    expect(first['orgId.parentId']).toBe(parent[0].parent_id);
    expect(first['orgId.parentIdLabel']).toBe(parent[0].name);
  });

  it('refuses an unknown module, field, reference or operator, and a value that does not fit, with 400', async () => {
    const cases: [unknown, RegExp][] = [
      [{ module: 'nope' }, /模块/],
      [{ module: 'member', where: { and: [{ field: 'salary', op: 'eq', value: 1 }] } }, /salary/],
      [{ module: 'member', where: { and: [{ field: 'org.secretaryOf', op: 'eq', value: 1 }] } }, /secretaryOf/],
      [{ module: 'member', where: { and: [{ field: 'name.x', op: 'eq', value: 1 }] } }, /关联/],
      [{ module: 'member', where: { and: [{ field: 'name', op: 'drop table', value: 'x' }] } }, /运算/],
      [{ module: 'member', where: { and: [{ field: 'joinDate', op: 'gt', value: "2020-01-01' OR 1=1" }] } }, /查询值/],
      [{ module: 'member', where: { xor: [] } }, /xor/],
      [{ module: 'member', columns: ['org.nope'] }, /nope/],
    ];
    for (const [body, message] of cases) {
      const res = await run(admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it("a 支部书记's query never leaves the branch: every row is in the branch's subtree, the count is the member list's", async () => {
    const branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
    const subtree = await t.app.runtime.ctx.orgTree.subtreeIds([branch]);
    // A condition that would find members all over the school.
    const res = await run(zbsj, { module: 'member', where: { or: [{ field: 'gender', op: 'in', value: ['1', '2'] }, { field: 'org.type', op: 'notNull' }] }, columns: ['name', 'orgId'], size: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    const { content, totalElements } = res.json();
    expect(totalElements).toBeGreaterThan(0);
    for (const r of content) expect(subtree).toContain(r.orgId);
    const list = await t.app.inject({ method: 'POST', url: '/api/m/member/list?size=1', headers: bearer(zbsj), payload: {} });
    expect(totalElements).toBeLessThanOrEqual(list.json().totalElements);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE org_id = ANY(${subtree}::int[]) AND gender IN ('1', '2')`.execute(t.database.db);
    expect(totalElements).toBe(rows[0].n);
    // A module the 支部书记 may not read is refused.
    expect((await run(zbsj, { module: 'stat-datasource' })).statusCode).toBe(403);
  });

  it('saves queries per user; a shared one is seen by others, changed and deleted only by its owner', async () => {
    const definition = { module: 'member', where: { and: [{ field: 'gender', op: 'eq', value: '2' }] }, columns: ['name', 'orgId'] };
    const own = await t.app.inject({ method: 'POST', url: '/api/query/saved', headers: bearer(admin), payload: { title: '女党员', definition } });
    expect(own.statusCode, own.body).toBe(200);
    const shared = await t.app.inject({ method: 'POST', url: '/api/query/saved', headers: bearer(admin), payload: { title: '女党员（共享）', definition, shared: true } });
    const bad = await t.app.inject({ method: 'POST', url: '/api/query/saved', headers: bearer(admin), payload: { title: '坏的', definition: { module: 'member', where: { and: [{ field: 'x', op: 'eq', value: 1 }] } } } });
    expect(bad.statusCode).toBe(400);
    const seen = (await t.app.inject({ url: '/api/query/saved', headers: bearer(zbsj) })).json() as { id: number; title: string; mine: boolean }[];
    expect(seen.map((q) => q.title)).toContain('女党员（共享）');
    expect(seen.map((q) => q.title)).not.toContain('女党员');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/query/saved/${shared.json().id}`, headers: bearer(zbsj) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/query/saved/${shared.json().id}`, headers: bearer(admin) })).statusCode).toBe(200);
  });
});

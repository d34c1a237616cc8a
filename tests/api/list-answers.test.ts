// engines: both — prepared statements and the character index against plain SQL
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../src/server/seed/university/university.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

interface Page {
  content: { id: number; orgId: number | null; orgIdName: string | null; category: string | null; categoryLabel: string | null; name: string }[];
  totalElements?: number;
}

const PASS = 'Branch#2026a';

/**
 * The member list answers exactly what plain SQL answers for the three queries of `npm run bench api`
 * (issue 14: the one-statement list, the character index, the scope), with and without a count.
 */
describe(`member list answers against plain SQL on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let branch: { id: number; members: number };
  beforeAll(async () => {
    t = await createTestApp();
    await seedUniversity(t.database, generateUniversity({ members: 1500, seed: 14 }), 'hntb');
    await sql`ANALYZE`.execute(t.database.db);
    admin = await login(t.app);
    // The branch with the most members (a leaf: its subtree is itself).
    branch = (
      await sql<{ id: number; members: number }>`
        SELECT m.org_id AS id, count(*)::int AS members FROM m_member m
        WHERE NOT EXISTS (SELECT 1 FROM m_org c WHERE c.parent_id = m.org_id)
        GROUP BY m.org_id ORDER BY count(*) DESC, m.org_id LIMIT 1`.execute(t.database.db)
    ).rows[0];
  });
  afterAll(() => t.app.close());

  const list = async (params: string, body: Record<string, unknown>, token = admin): Promise<Page> => {
    const res = await t.app.inject({ method: 'POST', url: `/api/m/member/list?${params}`, headers: bearer(token), payload: body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  const ids = async (where: ReturnType<typeof sql>, order: ReturnType<typeof sql>, limit: number, offset: number) => ({
    ids: (await sql<{ id: number }>`SELECT id FROM m_member WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`.execute(t.database.db)).rows.map((r) => r.id),
    total: (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE ${where}`.execute(t.database.db)).rows[0].n,
  });

  it('a, b and c: the same ids in the same order and the same count as plain SQL', async () => {
    expect(branch.members).toBeGreaterThan(30);
    const byJoinDate = sql`join_date DESC, id DESC`;
    const cases = [
      { params: 'page=0&size=20&sort=joinDate,desc', body: {}, where: sql`true`, order: byJoinDate, size: 20, offset: 0 },
      { params: 'page=2&size=10&sort=joinDate,desc', body: { orgId: branch.id }, where: sql`org_id = ${branch.id}`, order: byJoinDate, size: 10, offset: 20 },
      { params: 'page=0&size=20&sort=id,desc', body: { name: '张', category: ['1'] }, where: sql`name ILIKE '%张%' AND category = '1'`, order: sql`id DESC`, size: 20, offset: 0 },
    ];
    for (const c of cases) {
      const page = await list(c.params, c.body);
      const expected = await ids(c.where, c.order, c.size, c.offset);
      expect(expected.total, c.params).toBeGreaterThan(c.offset + c.size);
      expect(page.content.map((r) => r.id), c.params).toEqual(expected.ids);
      expect(page.totalElements, c.params).toBe(expected.total);
    }
  });

  it('reference names and labels come with the rows of the one statement', async () => {
    const page = await list('page=0&size=50&sort=id,asc', {});
    const orgs = new Map((await sql<{ id: number; name: string }>`SELECT id, name FROM m_org`.execute(t.database.db)).rows.map((r) => [r.id, r.name]));
    const labels = new Map((await sql<{ value: string; label: string }>`SELECT value, label FROM dict_details WHERE dict_code = 'DJ_DY_RYLBXX'`.execute(t.database.db)).rows.map((r) => [r.value, r.label]));
    for (const r of page.content) {
      expect(r.orgIdName).toBe(r.orgId === null ? null : orgs.get(r.orgId));
      expect(r.categoryLabel).toBe(r.category === null ? null : labels.get(r.category) ?? r.category);
    }
    // A page past the end still tells the total.
    const past = await list('page=500&size=20', { orgId: branch.id });
    expect(past).toEqual({ content: [], totalElements: branch.members });
  });

  it('count=false skips the count; a page that is not full still tells it', async () => {
    const full = await list('page=0&size=10&sort=joinDate,desc&count=false', { orgId: branch.id });
    expect(full.content).toHaveLength(10);
    expect(full).not.toHaveProperty('totalElements');
    expect(full.content).toEqual((await list('page=0&size=10&sort=joinDate,desc', { orgId: branch.id })).content);
    expect(branch.members % 10).not.toBe(0);
    const last = await list(`page=${Math.floor(branch.members / 10)}&size=10&sort=joinDate,desc&count=false`, { orgId: branch.id });
    expect(last.totalElements).toBe(branch.members);
  });

  it('a branch administrator gets the same answers as SQL limited to their branch', async () => {
    await userWithRole(t.app, admin, { username: 'branchsec', permissions: ['member:list'], dataScope: 'own', orgId: branch.id, password: PASS });
    const token = await login(t.app, 'branchsec', PASS);
    const mine = await list('page=1&size=10&sort=joinDate,desc', {}, token);
    const expected = await ids(sql`org_id = ${branch.id}`, sql`join_date DESC, id DESC`, 10, 10);
    expect(mine.content.map((r) => r.id)).toEqual(expected.ids);
    expect(mine.totalElements).toBe(branch.members);
  });
});

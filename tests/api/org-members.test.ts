// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): roster exports, ages computed from dates, the trail's JSON
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../src/server/seed/university/university.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Branch#2026a';

interface TreeNode {
  id: number;
  name: string;
  type: string;
  memberCount: number;
  fullMemberCount: number;
  warnings: { code: string }[];
  children?: TreeNode[];
}
const flatten = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

describe(`organisations, units and members on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let orgIds: Map<string, number>;
  const u = generateUniversity({ members: 400, seed: 7 });
  beforeAll(async () => {
    t = await createTestApp();
    orgIds = (await seedUniversity(t.database, u, 'hntb')).orgIds;
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());
  const get = (url: string, token = admin) => t.app.inject({ url, headers: bearer(token) });

  it('[S7.F1] GET /api/dzzxx/buildtree answers the organisation tree with member counts per node', async () => {
    const res = await get('/api/dzzxx/buildtree');
    expect(res.statusCode).toBe(200);
    const roots = res.json() as TreeNode[];
    expect(roots).toHaveLength(1);
    expect(roots[0].name).toMatch(/委员会$/);
    const all = flatten(roots);
    expect(all).toHaveLength(u.orgs.length);
    const normal = u.members.filter((m) => m.partyStatus === '1');
    expect(roots[0].memberCount).toBe(normal.length);
    expect(roots[0].fullMemberCount).toBe(normal.filter((m) => m.memberType === '1').length);
    // A branch's count is its own members.
    const branch = all.find((n) => n.type === '3' && n.memberCount > 0)!;
    const key = [...orgIds].find(([, id]) => id === branch.id)![0];
    expect(branch.memberCount).toBe(normal.filter((m) => m.orgKey === key).length);
    expect((await t.app.inject('/api/dzzxx/buildtree')).statusCode).toBe(401);
  });

  it('[issue 13.5] the tree, the roster, the analysis and the lookups count the same members of an organisation', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const root = ((await get('/api/dzzxx/buildtree')).json() as TreeNode[])[0];
    const college = root.children!.find((c) => c.memberCount > 0)!;
    for (const node of [root, college]) {
      const analysis = (await get(`/api/member/analysis?orgId=${node.id}`)).json();
      const lookup = (await get(`/api/common/dyjbxx?orgId=${node.id}&size=1`)).json();
      const list = await t.app.inject({ method: 'POST', url: '/api/m/member/list?size=1', headers: bearer(admin), payload: { orgId: node.id, partyStatus: '1' } });
      const roster = new ExcelJS.Workbook();
      await roster.xlsx.load((await get(`/api/member/roster/export?orgId=${node.id}&columns=name`)).rawPayload as never);
      expect([analysis.total, lookup.totalElements, list.json().totalElements, roster.worksheets[0].rowCount - 2], node.name).toEqual(Array(4).fill(node.memberCount));
    }
    // The members are those in good standing; the status filter widens the choice where people choose.
    const everyone = u.members.length;
    expect(root.memberCount).toBeLessThan(everyone);
    expect((await get('/api/member/analysis?partyStatus=all')).json().total).toBe(everyone);
    expect((await get('/api/common/dyjbxx?partyStatus=all&size=1')).json().totalElements).toBe(everyone);
    const lost = u.members.filter((m) => m.partyStatus === '2').length;
    expect((await get('/api/member/analysis?partyStatus=2')).json().total).toBe(lost);
  });

  it('shows the organisation rules as warnings on nodes and in the check list', async () => {
    const branch = [...orgIds.values()][5];
    await t.database.db.updateTable('m_org' as never).set({ term_end: '2020-01-01' } as never).where('id' as never, '=', branch as never).execute();
    t.app.services.orgTree instanceof Object && (t.app.services.orgTree as { invalidate?: () => void }).invalidate?.();
    const node = flatten((await get('/api/dzzxx/buildtree')).json()).find((n) => n.id === branch)!;
    expect(node.warnings.map((w) => w.code)).toContain('term-overdue');
    const checks = (await get('/api/dzzxx/checks')).json();
    expect(checks.content.some((c: TreeNode) => c.id === branch)).toBe(true);
  });

  it('[S7.F3a][S7.F3c][S7.F3d][S7.F3e][S7.F3f][S7.F3g][S7.F2] every common lookup answers with query parameters and paging', async () => {
    const member = u.members[0];
    const dy = (await get(`/api/common/dyjbxx?name=${encodeURIComponent(member.name)}&page=0&size=5`)).json();
    expect(dy.content.length).toBeGreaterThan(0);
    expect(dy.content.every((m: { name: string }) => m.name.includes(member.name))).toBe(true);
    expect(dy.content[0]).toHaveProperty('genderLabel');
    // gbjbxx and ldbzxx answer cadres and leadership teams, which this university has none of: tests/api/cadre-base.test.ts.
    for (const path of ['getDwInfo', 'getBjInfo', 'xsjbxx', 'jsjbxx', 'xsjsxx']) {
      const res = await get(`/api/common/${path}?page=0&size=3`);
      expect(res.statusCode, path).toBe(200);
      expect(res.json().totalElements, path).toBeGreaterThan(0);
    }
    expect((await get('/api/common/getDwInfo?page=0&size=3')).json().content).toHaveLength(3);
    expect((await get('/api/dept')).statusCode).toBe(200);
    expect((await get('/api/common/dyjbxx?nosuchfilter=1')).statusCode).toBe(400);
  });

  it('a branch administrator sees only their branch in the tree and the member lookup', async () => {
    const branchKey = u.orgs.find((o) => o.type === '3' && u.members.some((m) => m.orgKey === o.key))!.key;
    const branchId = orgIds.get(branchKey)!;
    await userWithRole(t.app, admin, { username: 'branchsec', permissions: ['member:list', 'org:list'], dataScope: 'own', orgId: branchId, password: PASS });
    const token = await login(t.app, 'branchsec', PASS);
    const tree = (await get('/api/dzzxx/buildtree', token)).json() as TreeNode[];
    expect(tree.map((n) => n.id)).toEqual([branchId]);
    const list = (await get('/api/common/dyjbxx?size=1000', token)).json();
    const expected = u.members.filter((m) => m.orgKey === branchKey).length;
    expect(list.totalElements).toBe(expected);
    expect(list.content.every((m: { orgId: number }) => m.orgId === branchId)).toBe(true);
    // Without the permission: 403 even when called directly.
    await userWithRole(t.app, admin, { username: 'nolist', permissions: ['regulation:list'], password: PASS });
    expect((await get('/api/common/dyjbxx', await login(t.app, 'nolist', PASS))).statusCode).toBe(403);
  });

  it('computes age and party age, never stored', async () => {
    const m = u.members.find((x) => x.memberType === '1')!;
    const res = (await get(`/api/common/dyjbxx?idCard=${m.idCard}`)).json();
    const record = res.content[0];
    const years = (from: string) => {
      const [y, mo, d] = from.split('-').map(Number);
      const now = new Date();
      let n = now.getFullYear() - y;
      if (now.getMonth() + 1 < mo || (now.getMonth() + 1 === mo && now.getDate() < d)) n -= 1;
      return n;
    };
    expect(record.age).toBe(years(m.birthDate));
    expect(record.partyAge).toBe(years(m.fullDate!));
  });
});

describe(`member data analysis on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  const u = generateUniversity({ members: 300, seed: 11 });
  beforeAll(async () => {
    t = await createTestApp();
    await seedUniversity(t.database, u, 'hntb');
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());

  it('[S1.F1c] counts members by gender, ethnicity, age band, education, category, party status, party age band and organisation', async () => {
    const res = await t.app.inject({ url: '/api/member/analysis', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const a = res.json() as { total: number; dimensions: { key: string; slices: { value: string; label: string; count: number }[] }[] };
    // The members of the organisations: party status 正常 (src/shared/party-members.ts).
    const normal = u.members.filter((m) => m.partyStatus === '1');
    expect(a.total).toBe(normal.length);
    expect(a.dimensions.map((d) => d.key)).toEqual(['gender', 'ethnicity', 'education', 'category', 'partyStatus', 'ageBand', 'partyAgeBand', 'org']);
    for (const d of a.dimensions.filter((x) => x.key !== 'org')) expect(d.slices.reduce((s, x) => s + x.count, 0), d.key).toBe(normal.length);
    const gender = a.dimensions.find((d) => d.key === 'gender')!;
    expect(gender.slices.find((s) => s.value === '1')).toMatchObject({ label: '男', count: normal.filter((m) => m.gender === '1').length });
    expect((await t.app.inject({ url: '/api/member/analysis?partyStatus=all', headers: bearer(admin) })).json().total).toBe(300);
    const xlsx = await t.app.inject({ url: '/api/member/analysis/export', headers: bearer(admin) });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain(encodeURIComponent('党员数据分析.xlsx'));
  });

  it('filters by organisation subtree', async () => {
    const tree = (await t.app.inject({ url: '/api/dzzxx/buildtree', headers: bearer(admin) })).json();
    const college = tree[0].children.find((c: { memberCount: number }) => c.memberCount > 0);
    const a = (await t.app.inject({ url: `/api/member/analysis?orgId=${college.id}`, headers: bearer(admin) })).json();
    // The same members as the tree counts.
    expect(a.total).toBe(college.memberCount);
    expect(a.dimensions.find((d: { key: string }) => d.key === 'partyStatus').slices).toEqual([expect.objectContaining({ value: '1', count: college.memberCount })]);
    expect(a.total).toBeLessThan(300);
  });
});

describe(`the member roster and the organisation trail on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let orgIds: Map<string, number>;
  const u = generateUniversity({ members: 200, seed: 3 });
  beforeAll(async () => {
    t = await createTestApp();
    orgIds = (await seedUniversity(t.database, u, 'hntb')).orgIds;
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());

  it('[S1.F1b] exports the roster of an organisation subtree with the chosen columns as a real .xlsx', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const college = u.orgs.find((o) => o.key.startsWith('org-college-'))!;
    const inCollege = u.members.filter((m) => m.partyStatus === '1' && u.orgs.find((o) => o.key === m.orgKey)!.parentKey === college.key);
    const res = await t.app.inject({ url: `/api/member/roster/export?orgId=${orgIds.get(college.key)}&columns=name,gender,idCard,orgId,age`, headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('党员花名册.xlsx'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0];
    expect(String(sheet.getRow(1).getCell(1).value)).toContain(`共${inCollege.length}人`);
    expect(sheet.getRow(2).values).toEqual([undefined, '序号', '姓名', '性别', '身份证号', '所在党支部', '年龄']);
    expect([sheet.getRow(1).font?.bold, sheet.getRow(1).font?.size, sheet.getRow(2).font?.bold]).toEqual([true, 14, true]);
    expect(sheet.rowCount).toBe(2 + inCollege.length);
    const names = new Set(inCollege.map((m) => m.name));
    for (let r = 3; r <= sheet.rowCount; r++) {
      expect(names.has(String(sheet.getRow(r).getCell(2).value))).toBe(true);
      expect(['男', '女']).toContain(sheet.getRow(r).getCell(3).value);
      expect(String(sheet.getRow(r).getCell(5).value)).toMatch(/党支部$/);
    }
    expect((await t.app.inject({ url: '/api/member/roster/export?columns=nosuch', headers: bearer(admin) })).statusCode).toBe(400);
  });

  it('[S1.F2c] keeps the modification trail of units and organisations, viewable together and restorable', async () => {
    const orgId = [...orgIds.values()][3];
    const before = (await t.app.inject({ url: `/api/m/org/${orgId}`, headers: bearer(admin) })).json();
    const put = await t.app.inject({ method: 'PUT', url: '/api/m/org', headers: bearer(admin), payload: { ...before, secretary: '新书记' } });
    expect(put.statusCode, put.body).toBe(200);
    const trail = (await t.app.inject({ url: '/api/trail/orgs?keyword=' + encodeURIComponent(before.name), headers: bearer(admin) })).json();
    expect(trail.totalElements).toBeGreaterThan(0);
    const change = trail.content[0];
    expect(change).toMatchObject({ module: 'org', recordId: orgId, recordName: before.name, typeLabel: '修改', originLabel: '用户修改' });
    expect(change.changes).toContainEqual(expect.objectContaining({ field: 'secretary', before: before.secretary, after: '新书记' }));
    const current = (await t.app.inject({ url: `/api/m/org/${orgId}`, headers: bearer(admin) })).json();
    const restored = await t.app.inject({ method: 'POST', url: `/api/m/org/${orgId}/restore/${change.id}`, headers: bearer(admin), payload: { version: current.version } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await t.app.inject({ url: `/api/m/org/${orgId}`, headers: bearer(admin) })).json().secretary).toBe(before.secretary);
  });
});

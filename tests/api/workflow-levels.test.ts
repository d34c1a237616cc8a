// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): levels resolved into SQL (the waiting lists) on both engines
/**
 * Workflow levels beyond the organisation tree (issue 24 §2, §3.3): a module scoped by its unit field,
 * the organisation above the record's (a 党总支's own request is approved by its parent committee, never
 * by itself), the managing department of the record's unit, and the organisation department acting
 * only for the tops its scope holds.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/auth.js';
import { userWithRole } from '../support/auth.js';
import { PASS, clientOf, type Client } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { UNIT_REQUEST, schemasWith } from '../fixtures/workflow-schemas.js';

const M = '/api/m/test-unit-request';
const ALL = ['list', 'view', 'add', 'approve', 'confirm', 'archive', 'return'].map((p) => `test-unit-request:${p}`);
const NO_CONFIRM = ALL.filter((p) => !p.endsWith(':confirm'));
const DEPT = ['test-unit-request:list', 'test-unit-request:view', 'test-unit-request:confirm'];

describe(`workflow levels on ${TEST_DB}`, () => {
  let t: TestApp;
  let dir: string;
  let admin: Client;
  const ids = { root: 0, college: 0, zzb: 0, nested: 0, branch: 0, u1: 0, u2: 0 };
  const as: Record<string, Client> = {};

  beforeAll(async () => {
    dir = schemasWith({ 'test-unit-request': UNIT_REQUEST }, {});
    t = await createTestApp({}, undefined, { schemasDir: dir });
    const token = await login(t.app);
    admin = clientOf(t.app, token);
    const created = async (url: string, body: unknown) => {
      const res = await admin('POST', url, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    ids.root = await created('/api/m/org', { name: '中共层级大学委员会', type: '1', code: 'L-ROOT' });
    ids.college = await created('/api/m/org', { name: '信息学院党委', type: '1', parentId: ids.root, code: 'L-C1' });
    ids.zzb = await created('/api/m/org', { name: '机关党总支', type: '2', parentId: ids.root, code: 'L-Z1' });
    ids.nested = await created('/api/m/org', { name: '信息学院学生党总支', type: '2', parentId: ids.college, code: 'L-Z2' });
    ids.branch = await created('/api/m/org', { name: '机关第一党支部', type: '3', parentId: ids.zzb, code: 'L-B1' });
    ids.u1 = await created('/api/m/unit', { name: '信息学院', type: '1', code: 'U-1' });
    ids.u2 = await created('/api/m/unit', { name: '机电学院', type: '1', code: 'U-2' });
    const users: [string, string[], 'all' | 'own' | 'custom', number | null, number[] | 'all', number[]?][] = [
      ['lvzzb', NO_CONFIRM, 'own', ids.zzb, [ids.u1]],
      ['lvnested', NO_CONFIRM, 'own', ids.nested, [ids.u1]],
      ['lvcollege', NO_CONFIRM, 'own', ids.college, [ids.u1]],
      ['lvorgdept', NO_CONFIRM, 'all', ids.root, []],
      // In the top organisation, but its data scope holds one college only.
      ['lvnarrow', NO_CONFIRM, 'custom', ids.root, 'all', [ids.college]],
      ['lvhr', DEPT, 'own', null, [ids.u1]],
      ['lvhr2', DEPT, 'own', null, [ids.u2]],
      ['lvbranch', ALL, 'own', ids.branch, []],
      // Keeps the roles of its units: may not hand out units it does not hold itself.
      ['lvroles', ['role:list', 'role:add'], 'own', ids.zzb, [ids.u1]],
    ];
    for (const [username, permissions, dataScope, orgId, units, scopeOrgIds] of users) {
      await userWithRole(t.app, token, { username, permissions, dataScope, orgId, scopeOrgIds, password: PASS });
      const role = await t.database.db.selectFrom('roles').select('id').where('code', '=', `r_${username}`).executeTakeFirstOrThrow();
      const unitScope = units === 'all' ? { unitScope: 'all' } : { unitScope: 'custom', scopeUnitIds: units };
      expect((await admin('PUT', '/api/roles', { id: role.id, ...unitScope })).status).toBe(200);
      as[username.slice(2)] = clientOf(t.app, await login(t.app, username, PASS));
    }
  });
  afterAll(async () => {
    await t?.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const request = async (c: Client, orgId: number, unitId = ids.u1) => {
    const res = await c('POST', M, { name: '换届选举', orgId, unitId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; version: number };
  };
  const step = (c: Client, id: number, tid: string, version: number) => c('POST', `${M}/${id}/transitions/${tid}`, { version, values: {} });
  const waiting = async (c: Client) => ((await c('POST', `${M}/list`, { $waiting: true })).body.content as { id: number }[]).map((r) => r.id);

  it('[24§2] a module scoped by its unit field: the caller sees the records of the units their roles name', async () => {
    const { id } = await request(as.zzb, ids.zzb);
    expect((await as.hr('GET', `${M}/${id}`)).status).toBe(200);
    expect((await as.hr2('GET', `${M}/${id}`)).status).toBe(404);
    expect((await as.hr2('POST', `${M}/list`, {})).body.totalElements).toBe(0);
    // The branch's organisation scope does not reach a unit-scoped module.
    expect((await as.branch('POST', `${M}/list`, {})).body.totalElements).toBe(0);
    expect((await as.narrow('GET', `${M}/${id}`)).status).toBe(200);
    const outside = await as.zzb('POST', M, { name: '越权', orgId: ids.zzb, unitId: ids.u2 });
    expect(outside.status).toBe(400);
    expect(outside.body.errors[0].field).toBe('unitId');
  });

  it('[24§2] a 党总支\'s own request is approved by the organisation above it, never by itself', async () => {
    // Directly under the top: the organisation department acts as the level above.
    const own = await request(as.zzb, ids.zzb);
    const byItself = await step(as.zzb, own.id, 'approve', own.version);
    expect(byItself.status).toBe(403);
    expect(byItself.body.message).toBe('“上级党组织审批”须由上级党组织办理');
    expect(((await as.zzb('GET', `${M}/${own.id}/transitions`)).body as { id: string }[]).map((s) => s.id)).not.toContain('approve');
    expect(await waiting(as.zzb)).not.toContain(own.id);
    expect(await waiting(as.orgdept)).toContain(own.id);
    expect(await waiting(as.college)).not.toContain(own.id);
    const approved = await step(as.orgdept, own.id, 'approve', own.version);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    // Inside a college: the college's 党委 approves its 党总支's request; the 党总支 cannot.
    const nested = await request(as.nested, ids.nested);
    expect((await step(as.nested, nested.id, 'approve', nested.version)).status).toBe(403);
    expect(await waiting(as.college)).toContain(nested.id);
    expect(await waiting(as.nested)).not.toContain(nested.id);
    expect((await step(as.college, nested.id, 'approve', nested.version)).status).toBe(200);

    // The college's own request goes above it as well.
    const college = await request(as.college, ids.college);
    expect((await step(as.college, college.id, 'approve', college.version)).status).toBe(403);

    const log = async (id: number) => ((await admin('GET', `${M}/${id}/approvals`)).body as { level: string; actingOrgId: number }[]).map((e) => [e.level, e.actingOrgId]);
    expect(await log(own.id)).toEqual([['above', ids.root]]);
    expect(await log(nested.id)).toEqual([['above', ids.college]]);
  });

  it('[24§2] the managing department of the record\'s unit confirms it; its to-do goes there', async () => {
    const r = await request(as.nested, ids.nested);
    const approved = await step(as.college, r.id, 'approve', r.version);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const todos = await t.database.db.selectFrom('msg_todo').select('user_id').where('module', '=', 'test-unit-request').where('ref_id', '=', `${r.id}:confirm`).where('status', '=', 0).execute();
    const hr = await t.database.db.selectFrom('users').select('id').where('username', '=', 'lvhr').executeTakeFirstOrThrow();
    expect(todos.map((x) => x.user_id)).toEqual([hr.id]);
    expect(await waiting(as.hr)).toContain(r.id);
    expect(await waiting(as.hr2)).toEqual([]);
    expect((await step(as.hr2, r.id, 'confirm', approved.body.version)).status).toBe(404);
    const confirmed = await step(as.hr, r.id, 'confirm', approved.body.version);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ state: 2, stateLabel: '主管部门已确认' });
    const log = (await admin('GET', `${M}/${r.id}/approvals`)).body as { level: string; levelTitle: string; actingOrgId: number; actingOrgName: string }[];
    expect(log.map((e) => [e.level, e.actingOrgId, e.actingOrgName])).toEqual([['above', ids.college, '信息学院党委'], ['unitDept', ids.u1, '信息学院']]);
    expect(log[1].levelTitle).toBe('主管部门');
  });

  it('[24§2] a role\'s unit scope is set through the roles API, never beyond the units of whoever sets it', async () => {
    const all = (await admin('GET', '/api/roles/all')).body as { code: string; unitScope: string; scopeUnitIds: number[] }[];
    expect(all.find((r) => r.code === 'r_lvhr')).toMatchObject({ unitScope: 'custom', scopeUnitIds: [ids.u1] });
    expect(all.find((r) => r.code === 'r_lvnarrow')).toMatchObject({ unitScope: 'all' });
    const role = (code: string, units: Record<string, unknown>) => as.roles('POST', '/api/roles', { name: `单位角色${code}`, code, permissions: [], dataScope: 'own', ...units });
    expect((await role('u_own', { unitScope: 'custom', scopeUnitIds: [ids.u1] })).status).toBe(201);
    for (const beyond of [{ unitScope: 'custom', scopeUnitIds: [ids.u2] }, { unitScope: 'all' }]) {
      const res = await role(`u_${String(beyond.unitScope)}${String(beyond.scopeUnitIds ?? '')}`, beyond);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('角色的数据范围不能超出您自己的数据范围');
    }
  });

  it('[24§3.3] the organisation department acts only for the tops its data scope holds', async () => {
    const r = await request(as.zzb, ids.zzb);
    let version = (await step(as.orgdept, r.id, 'approve', r.version)).body.version as number;
    version = (await step(as.hr, r.id, 'confirm', version)).body.version as number;
    // In the top organisation, sees the record (every unit), but its scope holds one college, not the top.
    expect(await waiting(as.narrow)).not.toContain(r.id);
    const narrow = await step(as.narrow, r.id, 'archive', version);
    expect(narrow.status).toBe(403);
    expect(narrow.body.message).toBe('该记录不在您的管理范围内，不能办理“归档”');
    expect(await waiting(as.orgdept)).toContain(r.id);
    const archived = await step(as.orgdept, r.id, 'archive', version);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body.state).toBe(3);
  });
});

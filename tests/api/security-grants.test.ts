// engines: pglite — grants and role edits: permissions only
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12, finding 1: a user administrator limited to their own branch granted themselves the
 * organisation department's role, moved to the root, reset a higher account's password and signed in as
 * it. Each step of that chain, and its variants on the role editor, must now be refused.
 */
describe(`user and role administration stays within the caller's own power on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let branchAdmin: string;
  let branchAdminId: number;
  let root: number;
  let branch: number;
  let otherBranch: number;
  let deptRole: number;
  let ownRole: number;
  let deptUserId: number;
  let peerId: number;
  const PASS = 'Branch#2026';

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    const org = async (name: string, parentId?: number) => (await call('POST', '/api/m/org', { name, type: parentId ? '3' : '1', ...(parentId ? { parentId } : {}) })).json().id as number;
    root = await org('中共某大学委员会');
    branch = await org('第一党支部', root);
    otherBranch = await org('第二党支部', root);
    deptUserId = await userWithRole(t.app, admin, { username: 'zuzhibu', permissions: ['user:list', 'user:edit', 'user:add', 'member:list', 'member:view', 'role:list', 'role:edit'], dataScope: 'all', orgId: root, password: 'Dept#20260' });
    deptRole = (await call('GET', '/api/roles/all')).json().find((r: { code: string }) => r.code === 'r_zuzhibu').id;
    branchAdminId = await userWithRole(t.app, admin, { username: 'branchadmin', permissions: ['user:list', 'user:edit', 'user:add', 'user:delete', 'role:list', 'role:add', 'role:edit', 'role:delete'], dataScope: 'own', orgId: branch, password: PASS });
    ownRole = (await call('GET', '/api/roles/all')).json().find((r: { code: string }) => r.code === 'r_branchadmin').id;
    peerId = (await call('POST', '/api/users', { username: 'peer', nickName: '同支部', orgId: branch })).json().id;
    branchAdmin = await login(t.app, 'branchadmin', PASS);
  });
  afterAll(() => t.app.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const rolesOf = async (userId: number) => (await call('POST', '/api/users/list?size=100', {})).json().content.find((u: { id: number }) => u.id === userId).roles.map((r: { id: number }) => r.id);

  it('the escalation chain: no higher role for oneself, no move to the root, no reset of a higher account', async () => {
    const grant = await call('PUT', '/api/users', { id: branchAdminId, roles: [ownRole, deptRole] }, branchAdmin);
    expect(grant.json()).toMatchObject({ status: 400, errors: [{ field: 'roles' }] });
    expect(await rolesOf(branchAdminId)).toEqual([ownRole]);
    const move = await call('PUT', '/api/users', { id: branchAdminId, orgId: root }, branchAdmin);
    expect(move.json()).toMatchObject({ status: 400 });
    const reset = await call('POST', '/api/users/managerResetPass/', [deptUserId], branchAdmin);
    expect(reset.statusCode).not.toBe(200);
    // The higher account still signs in with its own password only.
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'zuzhibu', password: enc(t.app, 'Dept#20260') } })).statusCode).toBe(200);
  });

  it('nobody changes their own roles or organisation, even to roles within their power', async () => {
    const sameRoles = await call('PUT', '/api/users', { id: branchAdminId, roles: [ownRole], nickName: '支部管理员' }, branchAdmin);
    expect(sameRoles.statusCode, sameRoles.body).toBe(200);
    const lower = (await call('POST', '/api/roles', { name: '只读', code: 'readonly', permissions: ['user:list'], dataScope: 'own' })).json().id;
    expect((await call('PUT', '/api/users', { id: branchAdminId, roles: [lower] }, branchAdmin)).json()).toMatchObject({ status: 400, message: '不能修改自己的角色' });
    expect((await call('PUT', '/api/users', { id: branchAdminId, orgId: otherBranch }, branchAdmin)).json()).toMatchObject({ status: 400 });
  });

  it('a user is placed only inside the caller\'s scope and given only roles within their power', async () => {
    const outside = await call('POST', '/api/users', { username: 'outsider', nickName: '外支部', orgId: otherBranch }, branchAdmin);
    expect(outside.json()).toMatchObject({ status: 400, errors: [{ field: 'orgId' }] });
    const higher = await call('POST', '/api/users', { username: 'promoted', nickName: '提权', orgId: branch, roles: [deptRole] }, branchAdmin);
    expect(higher.json()).toMatchObject({ status: 400, errors: [{ field: 'roles' }] });
    const fine = await call('POST', '/api/users', { username: 'newcomer', nickName: '新人', orgId: branch, roles: [ownRole] }, branchAdmin);
    expect(fine.statusCode, fine.body).toBe(201);
    // Moving a peer out of the branch is moving them out of the caller's scope.
    expect((await call('PUT', '/api/users', { id: peerId, orgId: otherBranch }, branchAdmin)).json()).toMatchObject({ status: 400, errors: [{ field: 'orgId' }] });
    expect((await call('PUT', '/api/users', { id: peerId, roles: [deptRole] }, branchAdmin)).json()).toMatchObject({ status: 400, errors: [{ field: 'roles' }] });
    expect((await call('PUT', '/api/users', { id: peerId, nickName: '同支部成员' }, branchAdmin)).statusCode).toBe(200);
  });

  it('an account holding a higher role in the caller\'s own branch is not reset, unlocked, disabled, edited or deleted', async () => {
    const chief = await userWithRole(t.app, admin, { username: 'chief', permissions: ['user:list', 'user:edit', 'member:list'], dataScope: 'all', orgId: branch });
    for (const [method, url, body] of [
      ['POST', '/api/users/managerResetPass/', [chief]],
      ['POST', '/api/users/unLock', [chief]],
      ['POST', '/api/users/disabledUser', { ids: [chief], enabled: false }],
      ['PUT', '/api/users', { id: chief, nickName: '改名' }],
      ['DELETE', '/api/users', [chief]],
      ['POST', '/api/users/updatePassByAdmin', { username: 'chief', newPass: enc(t.app, 'Taken#20260') }],
    ] as const) {
      const res = await call(method, url, body, branchAdmin);
      expect(res.json(), `${method} ${url}`).toMatchObject({ status: 400, message: expect.stringContaining('无权管理用户“chief”') });
    }
    // The superuser may.
    expect((await call('POST', '/api/users/unLock', [chief])).statusCode).toBe(200);
  });

  it('a role cannot be created or edited beyond the editor\'s own permissions and scope', async () => {
    const wider = await call('POST', '/api/roles', { name: '扩权', code: 'wider', permissions: ['user:list', 'member:delete'], dataScope: 'own' }, branchAdmin);
    expect(wider.json()).toMatchObject({ status: 400, errors: [{ field: 'permissions' }], message: expect.stringContaining('member:delete') });
    const allScope = await call('POST', '/api/roles', { name: '全校', code: 'whole', permissions: ['user:list'], dataScope: 'all' }, branchAdmin);
    expect(allScope.json()).toMatchObject({ status: 400, errors: [{ field: 'dataScope' }] });
    const custom = await call('POST', '/api/roles', { name: '第二支部', code: 'second', permissions: ['user:list'], dataScope: 'custom', scopeOrgIds: [otherBranch] }, branchAdmin);
    expect(custom.json()).toMatchObject({ status: 400, errors: [{ field: 'dataScope' }] });
    const ok = await call('POST', '/api/roles', { name: '本支部只读', code: 'branch_ro', permissions: ['user:list'], dataScope: 'custom', scopeOrgIds: [branch] }, branchAdmin);
    expect(ok.statusCode, ok.body).toBe(201);
    // Lifting a role of one's own making beyond one's power, or touching a higher one, is refused.
    expect((await call('PUT', '/api/roles', { id: ok.json().id, permissions: ['user:list', 'member:delete'] }, branchAdmin)).json()).toMatchObject({ status: 400, errors: [{ field: 'permissions' }] });
    expect((await call('PUT', '/api/roles', { id: ok.json().id, dataScope: 'all' }, branchAdmin)).json()).toMatchObject({ status: 400, errors: [{ field: 'dataScope' }] });
    expect((await call('PUT', '/api/roles', { id: deptRole, description: '改' }, branchAdmin)).json()).toMatchObject({ status: 400, message: expect.stringContaining('无权修改角色') });
    expect((await call('DELETE', '/api/roles', [deptRole], branchAdmin)).json()).toMatchObject({ status: 400, message: expect.stringContaining('无权删除角色') });
    expect((await call('PUT', '/api/roles', { id: ok.json().id, description: '本支部用户只读' }, branchAdmin)).statusCode).toBe(200);
  });
});

// engines: both — two app servers on one PostgreSQL database (skipped on PGlite)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, reopenableTestDatabase, type TestApp } from '../support/test-app.js';

const PASS = 'Cluster#2026a';

/**
 * Issue 12: a revoked role kept working on the other app servers for up to 30 s (their permission caches).
 * Two servers on one PostgreSQL database: a change made through A is in force on B at once.
 */
describe.runIf(TEST_DB === 'postgres')('cache invalidations reach every app server', () => {
  let a: TestApp;
  let b: TestApp;
  let store: Awaited<ReturnType<typeof reopenableTestDatabase>>;
  let admin: string;
  beforeAll(async () => {
    store = await reopenableTestDatabase();
    a = await createTestApp({}, undefined, { database: await store.open() });
    b = await createTestApp({}, undefined, { database: await store.open() });
    admin = await login(a.app);
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    store?.dispose();
  });

  const membersOnB = async (token: string) =>
    (await b.app.inject({ method: 'POST', url: '/api/m/member/list?page=0&size=1', headers: bearer(token), payload: {} })).statusCode;

  it('a permission taken from a role through server A is refused on server B at once', async () => {
    await userWithRole(a.app, admin, { username: 'cluster_ann', permissions: ['member:list'], password: PASS });
    const ann = await login(b.app, 'cluster_ann', PASS);
    expect(await membersOnB(ann)).toBe(200); // B now holds Ann's permissions in its cache

    const roles = await a.app.inject({ method: 'GET', url: '/api/roles?page=0&size=100', headers: bearer(admin) });
    const role = (roles.json().content as { id: number; code: string }[]).find((r) => r.code === 'r_cluster_ann')!;
    const edited = await a.app.inject({
      method: 'PUT', url: '/api/roles', headers: bearer(admin),
      payload: { id: role.id, name: '角色-cluster_ann', code: 'r_cluster_ann', permissions: ['dept:list'], dataScope: 'all', scopeOrgIds: [] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await expect.poll(() => membersOnB(ann), { timeout: 3000, interval: 100 }).toBe(403);
  });

  it('a user disabled through server A is signed out on server B at once', async () => {
    const id = await userWithRole(a.app, admin, { username: 'cluster_bo', permissions: ['member:list'], password: PASS });
    const bo = await login(b.app, 'cluster_bo', PASS);
    expect(await membersOnB(bo)).toBe(200);
    const off = await a.app.inject({ method: 'POST', url: '/api/users/disabledUser', headers: bearer(admin), payload: { ids: [id], enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    await expect.poll(() => membersOnB(bo), { timeout: 3000, interval: 100 }).toBe(401);
  });
});

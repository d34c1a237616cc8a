// engines: pglite — the session cache of one server; invalidation across servers is security-cluster's
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Member#2026a';

/**
 * Session lookups are cached briefly (core/auth/session-cache.ts): what ends or changes a session through
 * the app takes effect at once all the same.
 */
describe(`session lookup cache on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());

  const info = (token: string) => t.app.inject({ url: '/auth/info', headers: bearer(token) });

  it('a session lookup is reused: a row changed behind the app is seen once the cache is told', async () => {
    const token = await login(t.app);
    expect((await info(token)).statusCode).toBe(200);
    // Ended behind the app's back (no forget): the cached lookup still answers for a moment.
    const id = (await t.database.db.selectFrom('sessions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    await t.database.db.deleteFrom('sessions').where('id', '=', id).execute();
    expect((await info(token)).statusCode).toBe(200);
    await t.app.services.sessions.forgetSessions();
    expect((await info(token)).statusCode).toBe(401);
  });

  it('logout, a kicked session, a password change and a disabled account end cached sessions at once', async () => {
    await userWithRole(t.app, admin, { username: 'cached', permissions: ['member:list'], password: PASS });
    const first = await login(t.app, 'cached', PASS);
    expect((await info(first)).statusCode).toBe(200);
    await t.app.inject({ url: '/auth/logout', headers: bearer(first) });
    expect((await info(first)).statusCode).toBe(401);

    const kicked = await login(t.app, 'cached', PASS);
    expect((await info(kicked)).statusCode).toBe(200);
    const online = (await t.app.inject({ url: '/api/online?size=100', headers: bearer(admin) })).json().content as { id: number; username: string }[];
    const ids = online.filter((s) => s.username === 'cached').map((s) => s.id);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/online', headers: bearer(admin), payload: ids })).statusCode).toBe(200);
    expect((await info(kicked)).statusCode).toBe(401);

    const mine = await login(t.app, 'cached', PASS);
    const other = await login(t.app, 'cached', PASS);
    expect((await info(other)).statusCode).toBe(200);
    const changed = await t.app.inject({ method: 'POST', url: '/api/users/updatePass', headers: bearer(mine), payload: { oldPass: enc(t.app, PASS), newPass: enc(t.app, 'Member#2027b') } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await info(other)).statusCode).toBe(401);
    expect((await info(mine)).statusCode).toBe(200);

    const userId = (await info(mine)).json().id as number;
    expect((await t.app.inject({ method: 'POST', url: '/api/users/disabledUser', headers: bearer(admin), payload: { ids: [userId], enabled: false } })).statusCode).toBe(200);
    expect((await info(mine)).statusCode).toBe(401);
  });

  it('a role change and a profile change show in the next request', async () => {
    await userWithRole(t.app, admin, { username: 'grows', permissions: ['member:list'], password: PASS });
    const token = await login(t.app, 'grows', PASS);
    expect((await info(token)).json()).toMatchObject({ nickName: 'grows', roles: ['member:list'] });
    const role = (await t.app.inject({ url: '/api/roles/all', headers: bearer(admin) })).json().find((r: { code: string }) => r.code === 'r_grows');
    const put = await t.app.inject({ method: 'PUT', url: '/api/roles', headers: bearer(admin), payload: { id: role.id, permissions: ['member:list', 'member:edit'] } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await info(token)).json().roles).toEqual(['member:edit', 'member:list']);
    const saved = await t.app.inject({ method: 'PUT', url: '/api/users/center', headers: bearer(token), payload: { nickName: '新名字' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await info(token)).json().nickName).toBe('新名字');
  });
});

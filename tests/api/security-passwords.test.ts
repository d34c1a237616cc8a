// engines: pglite — one-time passwords: no engine-specific SQL
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, enc, login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12, finding 3: every account an administrator created, imported, opened or reset got the shared
 * initial password, so an outsider could try it on each and then set a password of their own. Now each gets
 * a random one-time password that expires and must be replaced, and a session alone cannot replace it later.
 */
describe(`one-time passwords for new, reset and opened accounts on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = admin) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const signIn = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { username, password: enc(t.app, password) } });
  const expiry = async (username: string) => (await t.database.db.selectFrom('users').select('password_expires_at').where('username', '=', username).executeTakeFirstOrThrow()).password_expires_at;

  it('each new account gets its own random password, valid 72 hours; the shared initial password opens none', async () => {
    const a = (await call('POST', '/api/users', { username: 'newa', nickName: '甲' })).json();
    const b = (await call('POST', '/api/users', { username: 'newb', nickName: '乙' })).json();
    expect(a.password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@#%&*!?]).{12}$/);
    expect(a.password).not.toBe(b.password);
    const hours = (new Date(a.expiresAt).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
    expect((await signIn('newa', 'Dj@123456')).statusCode).toBe(400);
    const token = (await signIn('newa', a.password)).json().token;
    expect((await call('GET', '/api/users/check', undefined, token)).body).toBe('true'); // must be changed now
    expect((await call('POST', '/api/users/list?size=50', { blurry: 'newa' })).body).not.toContain(a.password);
  });

  it('an expired one-time password no longer signs in: the moment before it does, the moment after not', async () => {
    const { password } = (await call('POST', '/api/users', { username: 'late', nickName: '迟到' })).json();
    const set = (ms: number) => t.database.db.updateTable('users').set({ password_expires_at: new Date(Date.now() + ms) }).where('username', '=', 'late').execute();
    await set(60_000);
    expect((await signIn('late', password)).statusCode).toBe(200);
    await set(-1);
    expect((await signIn('late', password)).json()).toMatchObject({ status: 400, message: '一次性密码已过期，请联系管理员重新生成' });
  });

  it('the forced change needs no old password only right after the login; later the current one is required', async () => {
    const { password } = (await call('POST', '/api/users', { username: 'changer', nickName: '改密' })).json();
    const token = (await signIn('changer', password)).json().token;
    const sessionStart = (minutesAgo: number) => sql`UPDATE sessions SET created_at = ${new Date(Date.now() - minutesAgo * 60_000)} WHERE user_id = (SELECT id FROM users WHERE username = 'changer')`.execute(t.database.db);
    await sessionStart(16);
    const stale = await call('POST', '/api/users/updatePass', { newPass: enc(t.app, 'Mine#20261') }, token);
    expect(stale.json()).toMatchObject({ status: 400, errors: [{ field: 'oldPass', message: '请输入当前密码' }] });
    await sessionStart(14);
    expect((await call('POST', '/api/users/updatePass', { newPass: enc(t.app, 'Mine#20261') }, token)).statusCode).toBe(200);
    expect(await expiry('changer')).toBeNull();
    // Now the password is the user's own: no fresh session spares the current one.
    const again = (await signIn('changer', 'Mine#20261')).json().token;
    expect((await call('POST', '/api/users/updatePass', { newPass: enc(t.app, 'Mine#20262') }, again)).json()).toMatchObject({ status: 400, errors: [{ field: 'oldPass' }] });
    expect((await signIn('changer', 'Mine#20261')).statusCode).toBe(200);
  });

  it('a password an administrator sets or resets is one-time, and the old one stops working', async () => {
    const { id, password } = (await call('POST', '/api/users', { username: 'resetme', nickName: '重置' })).json();
    const first = (await call('POST', '/api/users/managerResetPass/', [id])).json();
    expect(first.passwords).toEqual([{ id, username: 'resetme', password: expect.any(String) }]);
    expect(first.passwords[0].password).not.toBe(password);
    expect((await signIn('resetme', password)).statusCode).toBe(400);
    expect(await expiry('resetme')).not.toBeNull();
    expect((await call('POST', '/api/users/updatePassByAdmin', { username: 'resetme', newPass: enc(t.app, 'Known#20261') })).statusCode).toBe(200);
    expect(await expiry('resetme')).not.toBeNull();
    const token = (await signIn('resetme', 'Known#20261')).json().token;
    expect((await call('GET', '/api/users/check', undefined, token)).body).toBe('true');
  });

  it('opening never-entered accounts sends each its own password by SMS, and answers those without a phone', async () => {
    const withPhone = (await call('POST', '/api/users', { username: 'phoned', nickName: '有手机', phone: '13600002222', enabled: false })).json().id;
    const without = (await call('POST', '/api/users', { username: 'nophone', nickName: '无手机', enabled: false })).json().id;
    const res = (await call('POST', '/api/users/registerNoEnterUser', [withPhone, without])).json();
    expect(res).toMatchObject({ count: 2, passwords: [{ id: without, username: 'nophone' }] });
    const sms = await t.database.db.selectFrom('message_outbox').select('content').where('target', '=', '13600002222').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const sent = /一次性密码(\S{12})，72小时内有效/.exec(sms.content)![1];
    expect((await signIn('phoned', sent)).statusCode).toBe(200);
    expect((await signIn('nophone', res.passwords[0].password)).statusCode).toBe(200);
  });
});

// engines: pglite — login, captcha, sessions and permissions: no engine-specific SQL
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Member#2026a';

describe(`login with captcha on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CAPTCHA: 'on' });
  });
  afterAll(() => t.app.close());

  async function captcha() {
    const res = await t.app.inject('/auth/code');
    expect(res.statusCode).toBe(200);
    const { img, uuid, enabled } = res.json();
    const row = await t.database.db.selectFrom('captchas').select('answer').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { img, uuid, enabled, answer: row.answer };
  }
  const loginWith = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/auth/login', payload });

  it('[S7.A2] GET auth/code answers an image data URL and a uuid', async () => {
    const c = await captcha();
    expect(c.enabled).toBe(true);
    expect(c.img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(c.img.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(c.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.answer).toMatch(/^[a-z0-9]{4}$/);
  });

  it('[S7.A1][S3.E4a][S3.E4c] POST auth/login {username,password,code,uuid} answers token and user; the code is case-insensitive', async () => {
    const c = await captcha();
    const res = await loginWith({ username: 'admin', password: enc(t.app, DEMO_ADMIN_PASSWORD), code: c.answer.toUpperCase(), uuid: c.uuid });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(body.token.length).toBeGreaterThan(30);
    expect(body.user).toMatchObject({ username: 'admin', roles: ['admin'], isSuper: true, dataScope: { kind: 'all' } });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/);
  });

  it('refuses a missing, wrong, reused or expired captcha', async () => {
    const pw = enc(t.app, DEMO_ADMIN_PASSWORD);
    const missing = await loginWith({ username: 'admin', password: pw });
    expect(missing.json()).toMatchObject({ status: 400, message: '请输入验证码' });
    const c = await captcha();
    const wrong = await loginWith({ username: 'admin', password: pw, code: 'zzzz', uuid: c.uuid });
    expect(wrong.json()).toMatchObject({ status: 400, message: '验证码错误' });
    const reused = await loginWith({ username: 'admin', password: pw, code: c.answer, uuid: c.uuid });
    expect(reused.json()).toMatchObject({ status: 400, message: '验证码不存在或已过期' });
    const old = await captcha();
    await t.database.db
      .updateTable('captchas')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('uuid', '=', old.uuid)
      .execute();
    const expired = await loginWith({ username: 'admin', password: pw, code: old.answer, uuid: old.uuid });
    expect(expired.json()).toMatchObject({ status: 400, message: '验证码不存在或已过期' });
  });

  it('the captcha can be switched off in system configuration', async () => {
    await t.database.db.updateTable('sys_config').set({ config_value: 'false' }).where('config_key', '=', 'captchaEnabled').execute();
    t.app.services.config.invalidate();
    expect((await t.app.inject('/auth/code')).json()).toMatchObject({ enabled: false });
    expect((await loginWith({ username: 'admin', password: enc(t.app, DEMO_ADMIN_PASSWORD) })).statusCode).toBe(200);
    await t.database.db.updateTable('sys_config').set({ config_value: 'true' }).where('config_key', '=', 'captchaEnabled').execute();
    t.app.services.config.invalidate();
  });
});

describe(`passwords, lockout, sessions and permissions on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());
  const post = (url: string, payload: unknown, token?: string) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });

  it('GET /auth/publicKey answers the PEM public key; a password that is not our ciphertext is refused', async () => {
    expect((await t.app.inject('/auth/publicKey')).json().publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const bad = await post('/auth/login', { username: 'admin', password: 'not-base64-rsa' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('密码数据无法解密，请刷新页面后重试');
    const plain = await post('/auth/login', { username: 'admin', password: Buffer.from(DEMO_ADMIN_PASSWORD).toString('base64') });
    expect(plain.statusCode).toBe(400);
  });

  it('missing fields answer 400 with Chinese field messages', async () => {
    const res = await post('/auth/login', { password: enc(t.app, 'x') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, message: '用户名不能为空', errors: [{ field: 'username', message: '用户名不能为空' }] });
  });

  it('a wrong password and an unknown user get the same message', async () => {
    const wrong = await post('/auth/login', { username: 'admin', password: enc(t.app, 'Wrong#pass1') });
    const unknown = await post('/auth/login', { username: 'nobody', password: enc(t.app, 'Wrong#pass1') });
    expect(wrong.json()).toEqual({ status: 400, message: '用户名或密码错误' });
    expect(unknown.json()).toEqual({ status: 400, message: '用户名或密码错误' });
  });

  it('[S5.V1] the server trims the username too', async () => {
    expect((await post('/auth/login', { username: '  admin  ', password: enc(t.app, DEMO_ADMIN_PASSWORD) })).statusCode).toBe(200);
  });

  // The back-off (1 minute, doubling) and its ways round are in tests/api/security-auth.test.ts.
  it('[S7.U5a] 5 failed logins lock the account; api/users/unLock unlocks it', async () => {
    const id = await userWithRole(t.app, admin, { username: 'locky', permissions: [], password: PASS });
    for (let i = 0; i < 4; i++)
      expect((await post('/auth/login', { username: 'locky', password: enc(t.app, 'Wrong#pass1') })).json().message).toBe('用户名或密码错误');
    expect((await post('/auth/login', { username: 'locky', password: enc(t.app, 'Wrong#pass1') })).json().message).toBe('密码错误次数过多，账号已被锁定1分钟');
    const locked = await post('/auth/login', { username: 'locky', password: enc(t.app, PASS) });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().message).toMatch(/已被锁定/);
    const list = await post('/api/users/list', { blurry: 'locky' }, admin);
    expect(list.json().content[0].locked).toBe(true);
    expect((await post('/api/users/unLock', [id], admin)).statusCode).toBe(200);
    expect((await post('/auth/login', { username: 'locky', password: enc(t.app, PASS) })).statusCode).toBe(200);
    // One more failure after an unlock does not lock again.
    expect((await post('/auth/login', { username: 'locky', password: enc(t.app, 'Wrong#pass1') })).json().message).toBe('用户名或密码错误');
  });

  it('[S7.U5b] a disabled user and a user who has left cannot log in; their sessions end', async () => {
    const id = await userWithRole(t.app, admin, { username: 'gone', permissions: [], password: PASS });
    const token = await login(t.app, 'gone', PASS);
    expect((await post('/api/users/disabledUser', { ids: [id] }, admin)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
    expect((await post('/auth/login', { username: 'gone', password: enc(t.app, PASS) })).json().message).toBe('该账号已被禁用，请联系管理员');
    await post('/api/users/disabledUser', { ids: [id], enabled: true }, admin);
    await t.app.inject({ method: 'PUT', url: '/api/users', headers: bearer(admin), payload: { id, hasLeft: true } });
    expect((await post('/auth/login', { username: 'gone', password: enc(t.app, PASS) })).json().message).toBe('该账号已离校（离职），无法登录');
  });

  it('[S7.A3][S6.P1a] GET auth/info answers the user with roles; a bad token gets 401 {status, message}', async () => {
    const info = await t.app.inject({ url: '/auth/info', headers: bearer(admin) });
    expect(info.json()).toMatchObject({ username: 'admin', roles: ['admin'] });
    const bad = await t.app.inject({ url: '/auth/info', headers: bearer('forged') });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ status: 401, message: '登录状态已过期，请重新登录' });
    expect((await t.app.inject('/auth/info')).statusCode).toBe(401);
  });

  it('[S7.A4] GET auth/logout ends the session for real', async () => {
    const token = await login(t.app);
    expect((await t.app.inject({ url: '/auth/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('an idle session expires; use renews it; tokens are stored hashed', async () => {
    const token = await login(t.app);
    const rows = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - 120_000) })
      .execute();
    // Written behind the app's back: its session lookup cache is told, as the app's own writers do.
    await t.app.services.sessions.forgetSessions();
    await t.app.inject({ url: '/auth/info', headers: bearer(token) });
    const renewed = await t.database.db.selectFrom('sessions').select(['expires_at', 'last_seen_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(new Date(renewed.expires_at).getTime()).toBeGreaterThan(Date.now() + 100 * 60_000);
    await t.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', (await t.database.db.selectFrom('sessions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id)
      .execute();
    await t.app.services.sessions.forgetSessions();
    expect((await t.app.inject({ url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('[S3.E1b][S6.P1b] a user with no roles gets ROLE_SYSTEM_DEFAULT', async () => {
    await t.app.inject({ method: 'POST', url: '/api/users', headers: bearer(admin), payload: { username: 'plain', nickName: '普通用户' } });
    const { hashPassword } = await import('../../src/server/core/passwords.js');
    await t.database.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASS) })
      .where('username', '=', 'plain')
      .execute();
    const res = await post('/auth/login', { username: 'plain', password: enc(t.app, PASS) });
    expect(res.json().user.roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
  });

  it('without a session an API call is 401; without the permission it is 403 even when called directly', async () => {
    expect((await post('/api/users/list', {})).statusCode).toBe(401);
    await userWithRole(t.app, admin, { username: 'viewer', permissions: ['member:view'], password: PASS });
    const token = await login(t.app, 'viewer', PASS);
    const res = await post('/api/users/list', {}, token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 403, message: '没有访问权限' });
  });

  it('a role change takes effect at once for the signed-in user', async () => {
    await userWithRole(t.app, admin, { username: 'grow', permissions: ['member:view'], password: PASS });
    const token = await login(t.app, 'grow', PASS);
    expect((await post('/api/users/list', {}, token)).statusCode).toBe(403);
    const role = await t.database.db.selectFrom('roles').select('id').where('code', '=', 'r_grow').executeTakeFirstOrThrow();
    await t.app.inject({ method: 'PUT', url: '/api/roles', headers: bearer(admin), payload: { id: role.id, permissions: ['member:view', 'user:list'] } });
    expect((await post('/api/users/list', {}, token)).statusCode).toBe(200);
  });

  it('a branch-level administrator reads and changes only users of their own organisation', async () => {
    await userWithRole(t.app, admin, { username: 'branchadm', permissions: ['user:list', 'user:edit'], dataScope: 'own', orgId: 10, password: PASS });
    const inside = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(admin),
      payload: { username: 'inside', nickName: '本支部', orgId: 10 },
    });
    const outside = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(admin),
      payload: { username: 'outside', nickName: '外支部', orgId: 20 },
    });
    const token = await login(t.app, 'branchadm', PASS);
    const list = await post('/api/users/list?size=100', {}, token);
    const names = list
      .json()
      .content.map((u: { username: string }) => u.username)
      .sort();
    expect(names).toEqual(['branchadm', 'inside']);
    expect(list.json().totalElements).toBe(2);
    expect((await post('/api/users/unLock', [outside.json().id], token)).json()).toMatchObject({ status: 404, message: '所选用户不存在或不在您的管理范围内' });
    expect((await post('/api/users/unLock', [inside.json().id], token)).statusCode).toBe(200);
  });

  it('every /api route declares its permission: an undeclared route stops the app', async () => {
    const { createTestApp: make } = await import('../support/test-app.js');
    await expect(make({}, (app) => app.get('/api/undeclared', async () => 1))).rejects.toThrow(/declares no permission/);
  });

  it('security headers are set on every answer: API, unknown path, refused request, the same policy each time', async () => {
    const answers = [
      await t.app.inject('/api/health'),
      await t.app.inject('/api/no-such-path'),
      await t.app.inject('/auth/info'),
      await t.app.inject('/api/health'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 401, 200]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("connect-src 'self' ws: wss: ws://127.0.0.1:10096 ws://127.0.0.1:10086");
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    expect(answers[3].headers['content-security-policy']).toBe(answers[0].headers['content-security-policy']);
  });

  it('auth endpoints are rate limited', async () => {
    let last = 0;
    for (let i = 0; i < 40 && last !== 429; i++) last = (await t.app.inject('/auth/code')).statusCode;
    expect(last).toBe(429);
    const res = await t.app.inject('/auth/code');
    expect(res.json().message).toMatch(/请求过于频繁/);
  });
});

describe(`SMS codes, registration and password reset on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(admin),
      payload: { username: 'smsuser', nickName: '短信用户', phone: '13800138000' },
    });
    // Self-registration is off by default (security-auth.test.ts).
    await t.app.inject({ method: 'PUT', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey: 'registerEnabled', configValue: 'true' } });
  });
  afterAll(() => t.app.close());
  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });
  async function lastCode(phone: string) {
    const row = await t.database.db.selectFrom('message_outbox').select('content').where('target', '=', phone).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return /验证码为(\d{6})/.exec(row.content)![1];
  }
  const age = (phone: string) =>
    t.database.db
      .updateTable('verification_codes')
      .set({ created_at: sql<Date>`created_at - interval '2 minutes'` })
      .where('target', '=', phone)
      .execute();

  it('[S7.A6a][S7.A5][S3.E4b][S3.E4c] sms/verify writes a 6-digit code to the outbox; vercode/login with it answers token and user', async () => {
    expect((await post('/auth/sms/verify', { phone: '13800138000' })).statusCode).toBe(200);
    const code = await lastCode('13800138000');
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await post('/auth/vercode/login', { phone: '13800138000', vercode: code === '000000' ? '111111' : '000000' });
    expect(wrong.json()).toMatchObject({ status: 400, message: '验证码错误或已过期' });
    const res = await post('/auth/vercode/login', { phone: '13800138000', vercode: code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String), user: { username: 'smsuser' } });
    // Single use.
    expect((await post('/auth/vercode/login', { phone: '13800138000', vercode: code })).statusCode).toBe(400);
  });

  it('at most one code a minute and ten a day per phone; codes expire after 5 minutes', async () => {
    const phone = '13900139000';
    await t.app.inject({ method: 'POST', url: '/api/users', headers: bearer(admin), payload: { username: 'limits', nickName: '限流', phone } });
    expect((await post('/auth/sms/verify', { phone })).statusCode).toBe(200);
    const again = await post('/auth/sms/verify', { phone });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe('验证码发送过于频繁，请1分钟后再试');
    await t.database.db
      .updateTable('verification_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('target', '=', phone)
      .execute();
    expect((await post('/auth/vercode/login', { phone, vercode: await lastCode(phone) })).statusCode).toBe(400);
    // Nine more codes earlier today: the tenth of the day was the last allowed.
    await t.database.db
      .insertInto('verification_codes')
      .values(
        Array.from({ length: 9 }, () => ({
          target: phone,
          purpose: 'login',
          code_hash: 'x',
          created_at: sql<Date>`now() - interval '2 hours'`,
          expires_at: new Date(),
        })),
      )
      .execute();
    await age(phone);
    const daily = await post('/auth/sms/verify', { phone });
    expect(daily.statusCode).toBe(429);
    expect(daily.json().message).toBe('今日验证码发送次数已达上限，请明天再试');
  });

  it('a bad phone number is refused with a field message', async () => {
    const res = await post('/auth/sms/verify', { phone: '12800138000' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toEqual({ field: 'phone', message: '手机号码的格式不正确' });
  });

  it('[S7.A6b][S7.A7] registers with an SMS code; the new user can log in', async () => {
    const phone = '13700137000';
    expect((await post('/auth/sms/register/verify', { phone })).statusCode).toBe(200);
    const res = await post('/auth/register', { phone, vercode: await lastCode(phone), username: 'newbie', nickName: '新用户', password: enc(t.app, PASS) });
    expect(res.statusCode, res.body).toBe(201);
    expect((await post('/auth/login', { username: 'newbie', password: enc(t.app, PASS) })).json().user.roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
    // A taken phone gets a code too; registering with it says the phone is taken.
    await age(phone);
    expect((await post('/auth/sms/register/verify', { phone })).statusCode).toBe(200);
    expect((await post('/auth/register', { phone, vercode: await lastCode(phone), username: 'newbie2', password: enc(t.app, PASS) })).json().message).toBe(
      '该手机号已注册，请直接登录',
    );
  });

  it('[S7.A8] POST /api/users/resetPass resets a forgotten password with an SMS code', async () => {
    const phone = '13800138000';
    await age(phone);
    await post('/auth/sms/verify', { phone, type: 'reset' });
    const weak = await post('/api/users/resetPass', { phone, vercode: await lastCode(phone), password: enc(t.app, 'short') });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('密码须为8-20位，且同时包含字母、数字和特殊字符');
    await age(phone);
    await post('/auth/sms/verify', { phone, type: 'reset' });
    expect((await post('/api/users/resetPass', { phone, vercode: await lastCode(phone), password: enc(t.app, 'Reset#pass9') })).statusCode).toBe(200);
    expect((await post('/auth/login', { username: 'smsuser', password: enc(t.app, 'Reset#pass9') })).statusCode).toBe(200);
  });
});

describe(`file reads by cookie on ${TEST_DB}`, () => {
  let t: TestApp;
  // The app is made in the hook (its own, longer time limit), not in the test.
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.app.close());

  it('an <img> or <video> request (no header) is authorised by the session cookie, only for reading files', async () => {
    const token = await login(t.app);
    const viewNoAuth = await t.app.inject({ url: '/api/file/view?id=999' });
    expect(viewNoAuth.statusCode).toBe(401);
    const viewCookie = await t.app.inject({ url: '/api/file/view?id=999', headers: { cookie: `other=1; DJ-TOKEN=${token}` } });
    expect(viewCookie.statusCode).toBe(404); // signed in, the file just does not exist
    const apiCookie = await t.app.inject({ url: '/auth/info', headers: { cookie: `DJ-TOKEN=${token}` } });
    expect(apiCookie.statusCode).toBe(401); // the cookie is not a general credential
  });
});

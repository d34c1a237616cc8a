// engines: pglite — login answers, lockouts and registration: no engine-specific SQL
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { hashPassword } from '../../src/server/core/passwords.js';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12, finding 10: answers to a login, an SMS code request and a registration told existing accounts
 * from unknown ones, and five wrong passwords from anywhere locked any account, administrators included.
 * Finding 11: self-registration was always open and a role-less account read other people's data.
 */
const PASS = 'Lock#2026ab';
const WRONG = 'Wrong#pass1';

describe(`login answers and locks are the same for existing and unknown names on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    await userWithRole(t.app, admin, { username: 'real', permissions: [], password: PASS });
    await userWithRole(t.app, admin, { username: 'owner', permissions: [], password: PASS });
  });
  afterAll(() => t.app.close());

  const attempt = (username: string, password: string, ip: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { username, password: enc(t.app, password), ...extra }, remoteAddress: ip });
  /** A captcha for a locked account (issued even though the login page shows none), with its answer. */
  async function captcha() {
    const res = await t.app.inject({ url: '/auth/code?lock=true', remoteAddress: '10.9.9.9' });
    expect(res.json().enabled).toBe(true);
    const { uuid } = res.json();
    const row = await t.database.db.selectFrom('captchas').select('answer').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { uuid, code: row.answer };
  }
  /** Moves the failures of a name back in time (a lock running out). */
  const age = (username: string, seconds: number) =>
    t.database.db.updateTable('login_attempts').set({ at: sql<Date>`at - make_interval(secs => ${seconds})` }).where('username', '=', username).execute();

  it('five wrong passwords lock an unknown name exactly as they lock an existing account', async () => {
    const answers = async (username: string, ip: string) => {
      const seen: unknown[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await attempt(username, WRONG, ip);
        seen.push([res.statusCode, res.json()]);
      }
      return seen;
    };
    const real = await answers('real', '10.0.0.1');
    const unknown = await answers('nosuchuser', '10.0.0.2');
    expect(unknown).toEqual(real);
    expect(real[3]).toEqual([400, { status: 400, message: '用户名或密码错误' }]);
    expect(real[4]).toEqual([400, { status: 400, message: '密码错误次数过多，账号已被锁定1分钟', captchaRequired: true }]);
    expect((real[5] as [number, { message: string }])[1].message).toMatch(/^密码错误次数过多，账号已被锁定，请1分钟后再试/);
    // The administrators' list shows the lock of the real account.
    const list = await t.app.inject({ method: 'POST', url: '/api/users/list', headers: bearer(admin), payload: { blurry: 'real' } });
    expect(list.json().content[0].locked).toBe(true);
  });

  it('the lock doubles with each further failure, up to 15 minutes', async () => {
    await age('real', 61);
    expect((await attempt('real', WRONG, '10.0.0.3')).json().message).toBe('密码错误次数过多，账号已被锁定2分钟');
    await age('real', 121);
    expect((await attempt('real', WRONG, '10.0.0.3')).json().message).toBe('密码错误次数过多，账号已被锁定4分钟');
    for (let i = 0; i < 4; i++) {
      await age('real', 16 * 60);
      await attempt('real', WRONG, `10.0.1.${i}`);
    }
    expect((await attempt('real', PASS, '10.0.0.3')).json().message).toMatch(/^密码错误次数过多，账号已被锁定，请15分钟后再试/);
  });

  it('during a lock the right password with a captcha still logs in; the wrong one with a captcha does not', async () => {
    const locked = await attempt('real', PASS, '10.0.0.4');
    expect(locked.json()).toMatchObject({ status: 400, captchaRequired: true });
    expect((await attempt('real', WRONG, '10.0.0.4', await captcha())).json().message).toMatch(/账号已被锁定/);
    const res = await attempt('real', PASS, '10.0.0.4', await captcha());
    expect(res.statusCode, res.body).toBe(200);
    // The success ends the lock: the next login needs no captcha.
    expect((await attempt('real', PASS, '10.0.0.4')).statusCode).toBe(200);
  });

  it('attackers on many addresses cannot shut the administrator out', async () => {
    for (let i = 0; i < 8; i++) await attempt('admin', WRONG, `10.1.0.${i}`);
    expect((await attempt('admin', DEMO_ADMIN_PASSWORD, '10.2.0.1')).json()).toMatchObject({ status: 400, captchaRequired: true });
    expect((await attempt('admin', DEMO_ADMIN_PASSWORD, '10.2.0.1', await captcha())).statusCode).toBe(200);
  });

  it('an address that fails twenty times is locked whatever names it tries; other addresses are not', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < 19; i++) expect((await attempt(`spray${i}`, WRONG, ip)).json().message).toBe('用户名或密码错误');
    expect((await attempt('spray19', WRONG, ip)).json().message).toBe('登录失败次数过多，请1分钟后再试');
    // Even the right password of an unlocked account, and even with a captcha, from that address.
    expect((await attempt('owner', PASS, ip)).json().message).toBe('登录失败次数过多，请1分钟后再试');
    expect((await attempt('owner', PASS, ip, await captcha())).json().message).toBe('登录失败次数过多，请1分钟后再试');
    expect((await attempt('owner', PASS, '10.3.0.2')).statusCode).toBe(200);
    // A success from the address does not reset its count.
    await t.database.db.updateTable('login_attempts').set({ at: sql<Date>`at - interval '61 seconds'` }).where('ip', '=', ip).execute();
    expect((await attempt('owner', PASS, ip)).statusCode).toBe(200);
    expect((await attempt('spray0', WRONG, ip)).json().message).toBe('登录失败次数过多，请2分钟后再试');
  });

  it('api/users/unLock still ends an account lock', async () => {
    const id = await userWithRole(t.app, admin, { username: 'unlockme', permissions: [], password: PASS });
    for (let i = 0; i < 5; i++) await attempt('unlockme', WRONG, `10.4.0.${i}`);
    expect((await attempt('unlockme', PASS, '10.4.1.1')).json().captchaRequired).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/unLock', headers: bearer(admin), payload: [id] })).statusCode).toBe(200);
    expect((await attempt('unlockme', PASS, '10.4.1.1')).statusCode).toBe(200);
  });
});

describe(`SMS codes answer the same for registered and unknown phones on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await login(t.app);
    await t.app.inject({ method: 'POST', url: '/api/users', headers: bearer(admin), payload: { username: 'hasphone', nickName: '有手机', phone: '13811112222' } });
  });
  afterAll(() => t.app.close());
  const send = (phone: string, type: string) => t.app.inject({ method: 'POST', url: '/auth/sms/verify', payload: { phone, type }, remoteAddress: `10.5.0.${phone.slice(-1)}` });
  const outbox = (phone: string) => t.database.db.selectFrom('message_outbox').select('id').where('target', '=', phone).execute();

  it('the first request and the rate-limited second get identical answers; no SMS goes to an unknown phone', async () => {
    for (const type of ['login', 'reset']) {
      await t.database.db.deleteFrom('verification_codes').execute();
      const known = [await send('13811112222', type), await send('13811112222', type)].map((r) => [r.statusCode, r.json()]);
      const unknown = [await send('13933334444', type), await send('13933334444', type)].map((r) => [r.statusCode, r.json()]);
      expect(unknown).toEqual(known);
      expect(known[1]).toEqual([429, { status: 429, message: '验证码发送过于频繁，请1分钟后再试' }]);
    }
    expect(await outbox('13811112222')).toHaveLength(2);
    expect(await outbox('13933334444')).toHaveLength(0);
  });
});

describe(`self-registration is off by default and role-less accounts see only themselves on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());
  const post = (url: string, payload: unknown, ip = '10.6.0.1') => t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: ip });
  const setConfig = async (key: string, value: string) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey: key, configValue: value } });
    expect(res.statusCode, res.body).toBe(200);
  };
  async function lastCode(phone: string) {
    const row = await t.database.db.selectFrom('message_outbox').select('content').where('target', '=', phone).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return /验证码为(\d{6})/.exec(row.content)![1];
  }
  const register = (phone: string, username: string, vercode: string, ip?: string) =>
    post('/auth/register', { phone, vercode, username, nickName: username, password: enc(t.app, PASS) }, ip);

  it('with the default settings both registration endpoints answer 403 系统未开放注册', async () => {
    expect((await post('/auth/sms/register/verify', { phone: '13700001111' })).json()).toEqual({ status: 403, message: '系统未开放注册' });
    expect((await register('13700001111', 'stranger', '123456')).json()).toEqual({ status: 403, message: '系统未开放注册' });
    expect(await t.database.db.selectFrom('users').select('id').where('username', '=', 'stranger').executeTakeFirst()).toBeUndefined();
  });

  it('the registration settings are for administrators only', async () => {
    const keys = (items: { configKey: string }[]) => items.map((i) => i.configKey);
    const anonymous = keys((await t.app.inject('/api/sysConfig/listAll')).json());
    const member = await userWithRole(t.app, admin, { username: 'member1', permissions: ['member:list'], password: PASS });
    expect(member).toBeGreaterThan(0);
    const signedIn = keys((await t.app.inject({ url: '/api/sysConfig/listAll', headers: bearer(await login(t.app, 'member1', PASS)) })).json());
    for (const key of ['registerEnabled', 'registerRoleId', 'registerOrgId']) {
      expect(anonymous).not.toContain(key);
      expect(signedIn).not.toContain(key);
    }
    const adminList = (await t.app.inject({ url: '/api/sysConfig?size=100&blurry=register', headers: bearer(admin) })).json().content;
    expect(adminList.map((i: { configKey: string; configValue: string }) => [i.configKey, i.configValue])).toEqual([
      ['registerEnabled', 'false'], ['registerRoleId', ''], ['registerOrgId', ''],
    ]);
    const bad = await t.app.inject({ method: 'PUT', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey: 'registerEnabled', configValue: 'yes' } });
    expect(bad.statusCode).toBe(400);
  });

  it('turned on, registration checks the SMS code before saying a username or phone is taken', async () => {
    await setConfig('registerEnabled', 'true');
    t.app.services.config.invalidate();
    // A taken username (admin) with a wrong code: the code is refused, nothing is said about the name.
    const guess = await register('13700002222', 'admin', '000000');
    expect(guess.json()).toMatchObject({ status: 400, message: '验证码错误或已过期' });
    // The code is sent whether or not the phone is taken; only its owner learns it is.
    await userWithRole(t.app, admin, { username: 'phoneowner', permissions: [], password: PASS });
    await t.database.db.updateTable('users').set({ phone: '13700003333' }).where('username', '=', 'phoneowner').execute();
    expect((await post('/auth/sms/register/verify', { phone: '13700003333' })).json()).toEqual({ status: 200, message: '验证码已发送，请注意查收' });
    expect((await register('13700003333', 'someone', await lastCode('13700003333'))).json().message).toBe('该手机号已注册，请直接登录');
    expect((await post('/auth/sms/register/verify', { phone: '13700002222' }, '10.6.0.2')).statusCode).toBe(200);
    expect((await register('13700002222', 'admin', await lastCode('13700002222'), '10.6.0.2')).json().message).toBe('用户名已被使用');
  });

  it('a registered account gets the configured role and organisation; a superuser role is never given', async () => {
    const role = await t.app.inject({ method: 'POST', url: '/api/roles', headers: bearer(admin), payload: { name: '注册用户', code: 'r_registered', permissions: ['pschool:list'], dataScope: 'own', scopeOrgIds: [] } });
    expect(role.statusCode, role.body).toBe(201);
    const org = await t.app.inject({ method: 'POST', url: '/api/m/org', headers: bearer(admin), payload: { name: '注册党支部', type: '1' } });
    expect(org.statusCode, org.body).toBe(201);
    await setConfig('registerRoleId', String(role.json().id));
    await setConfig('registerOrgId', String(org.json().id));
    t.app.services.config.invalidate();
    const phone = '13700004444';
    await post('/auth/sms/register/verify', { phone }, '10.6.0.3');
    const res = await register(phone, 'joiner', await lastCode(phone), '10.6.0.3');
    expect(res.statusCode, res.body).toBe(201);
    const user = await t.database.db.selectFrom('users').select(['id', 'org_id']).where('username', '=', 'joiner').executeTakeFirstOrThrow();
    expect(user.org_id).toBe(org.json().id);
    const roles = await t.database.db.selectFrom('user_roles').select('role_id').where('user_id', '=', user.id).execute();
    expect(roles.map((r) => r.role_id)).toEqual([role.json().id]);

    const superRole = await t.database.db.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
    await setConfig('registerRoleId', String(superRole.id));
    t.app.services.config.invalidate();
    const phone2 = '13700005555';
    await post('/auth/sms/register/verify', { phone: phone2 }, '10.6.0.4');
    const refused = await register(phone2, 'wouldbeadmin', await lastCode(phone2), '10.6.0.4');
    expect(refused.json()).toEqual({ status: 503, message: '自助注册设置有误，请联系管理员' });
    expect(await t.database.db.selectFrom('users').select('id').where('username', '=', 'wouldbeadmin').executeTakeFirst()).toBeUndefined();
    await setConfig('registerRoleId', '');
    await setConfig('registerOrgId', '');
    t.app.services.config.invalidate();
  });

  it("a role-less account reads no leaders' phones, units, users or members, and cannot write to admin", async () => {
    const phone = '13700006666';
    await post('/auth/sms/register/verify', { phone }, '10.6.0.5');
    expect((await register(phone, 'outsider', await lastCode(phone), '10.6.0.5')).statusCode).toBe(201);
    await t.database.db.updateTable('users').set({ password_hash: await hashPassword(PASS) }).where('username', '=', 'outsider').execute();
    const token = await login(t.app, 'outsider', PASS);
    const get = (url: string) => t.app.inject({ url, headers: bearer(token) });
    for (const path of ['ldbzxx', 'getDwInfo', 'dyjbxx', 'gbjbxx', 'getBjInfo', 'xsjbxx', 'jsjbxx', 'xsjsxx']) {
      expect((await get(`/api/common/${path}`)).statusCode, path).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/users/list', headers: bearer(token), payload: {} })).statusCode).toBe(403);
    expect((await get('/api/msgPushHistory/recipients?keyword=admin')).json().content).toEqual([]);
    const adminId = (await t.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const msg = await t.app.inject({ method: 'POST', url: '/api/msgPushHistory', headers: bearer(token), payload: { userIds: [adminId], title: '你好' } });
    expect(msg.statusCode).toBe(400);
    // Their own profile is theirs to read.
    expect((await get('/auth/info')).json()).toMatchObject({ username: 'outsider', roles: ['ROLE_SYSTEM_DEFAULT'] });
    // Units stay readable for those who may list them.
    expect((await t.app.inject({ url: '/api/common/ldbzxx', headers: bearer(admin) })).statusCode).toBe(200);
  });
});

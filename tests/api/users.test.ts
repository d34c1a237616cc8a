// engines: pglite — the users API: no engine-specific SQL
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/** The configured initial password: no account gets it any more (one-time passwords instead). */
const INIT = 'Dj@123456';

describe(`the users API on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
  });
  afterAll(() => t.app.close());
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const find = async (username: string) => (await call('POST', '/api/users/list?size=50', { blurry: username })).json().content.find((u: { username: string }) => u.username === username);

  it('[S7.U1a][S7.U1b][S7.U1c][S3.E2a] add, edit and delete a user; list answers id, username, email, avatar, useUkey', async () => {
    const add = await call('POST', '/api/users', { username: 'zhangsan', nickName: '张三', email: 'zs@x.edu.cn', phone: '13912345678' });
    expect(add.statusCode, add.body).toBe(201);
    const listed = await find('zhangsan');
    expect(listed).toMatchObject({ id: add.json().id, username: 'zhangsan', email: 'zs@x.edu.cn', avatar: null, useUkey: false });
    expect(JSON.stringify(listed)).not.toMatch(/password_hash|argon2/);
    expect((await call('PUT', '/api/users', { id: listed.id, email: 'new@x.edu.cn' })).statusCode).toBe(200);
    expect((await find('zhangsan')).email).toBe('new@x.edu.cn');
    expect((await call('POST', '/api/users', { username: 'zhangsan', nickName: '重名' })).json().message).toBe('用户名“zhangsan”已存在');
    expect((await call('POST', '/api/users', { username: 'bad mail', nickName: 'x', email: 'not-an-email' })).statusCode).toBe(400);
    expect((await call('DELETE', '/api/users', [listed.id])).statusCode).toBe(200);
    expect(await find('zhangsan')).toBeUndefined();
  });

  it('a non-superuser with user and role rights is refused the superuser role and the admin permission with a reason on the field (400, not 403: no /401 page)', async () => {
    await userWithRole(t.app, admin, { username: 'deputy', permissions: ['user:list', 'user:add', 'user:edit', 'role:list', 'role:add', 'role:edit'], password: 'Deputy#2026' });
    const token = await login(t.app, 'deputy', 'Deputy#2026');
    const superRole = (await call('GET', '/api/roles/all')).json().find((r: { permissions: string[] }) => r.permissions.includes('admin'));
    const res = await call('POST', '/api/users', { username: 'promoted', nickName: '提权', roles: [superRole.id] }, token);
    expect(res.json()).toMatchObject({ status: 400, message: '只有超级管理员可以分配超级管理员角色', errors: [{ field: 'roles', message: '只有超级管理员可以分配超级管理员角色' }] });
    expect(await find('promoted')).toBeUndefined();
    const role = await call('POST', '/api/roles', { name: '全部权限', code: 'all_rights', permissions: ['admin'] }, token);
    expect(role.json()).toMatchObject({ status: 400, message: '只有超级管理员可以授予全部权限', errors: [{ field: 'permissions' }] });
  });

  it('[S3.E2b] PUT api/users persists useUkey and auth/info reflects it; [S7.C2b] also sent as POST with X-HTTP-Method-Override', async () => {
    const { id, password } = (await call('POST', '/api/users', { username: 'keyuser', nickName: '证书用户' })).json();
    const override = await t.app.inject({ method: 'POST', url: '/api/users', headers: { ...bearer(admin), 'x-http-method-override': 'PUT' }, payload: { id, useUkey: true } });
    expect(override.statusCode).toBe(200);
    const token = (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'keyuser', password: enc(t.app, password) } })).json().token;
    expect((await call('GET', '/auth/info', undefined, token)).json().useUkey).toBe(true);
    await call('PUT', '/api/users', { id, useUkey: false });
    expect((await call('GET', '/auth/info', undefined, token)).json().useUkey).toBe(false);
  });

  it('[S7.U2] PUT api/users/center changes the caller\'s own profile', async () => {
    const { password } = (await call('POST', '/api/users', { username: 'selfedit', nickName: '本人' })).json();
    const token = (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'selfedit', password: enc(t.app, password) } })).json().token;
    expect((await call('PUT', '/api/users/center', { nickName: '新名字', phone: '13700001111' }, token)).statusCode).toBe(200);
    expect(await find('selfedit')).toMatchObject({ nickName: '新名字', phone: '13700001111' });
  });

  it('[S7.U4][S7.U3a] check answers a boolean; updatePass with encoded passwords makes the new one work and the old one fail', async () => {
    const INIT = (await call('POST', '/api/users', { username: 'changer', nickName: '改密' })).json().password;
    const token = (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'changer', password: enc(t.app, INIT) } })).json().token;
    const weak = await call('GET', '/api/users/check', undefined, token);
    expect(weak.body).toBe('true');
    const bad = await call('POST', '/api/users/updatePass', { oldPass: enc(t.app, 'Wrong#1234'), newPass: enc(t.app, 'Changed#2026') }, token);
    expect(bad.json()).toMatchObject({ status: 400, message: '旧密码错误' });
    const rule = await call('POST', '/api/users/updatePass', { oldPass: enc(t.app, INIT), newPass: enc(t.app, 'short') }, token);
    expect(rule.json().message).toBe('密码须为8-20位，且同时包含字母、数字和特殊字符');
    expect((await call('POST', '/api/users/updatePass', { oldPass: enc(t.app, INIT), newPass: enc(t.app, 'Changed#2026') }, token)).statusCode).toBe(200);
    expect((await call('GET', '/api/users/check', undefined, token)).body).toBe('false');
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'changer', password: enc(t.app, INIT) } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'changer', password: enc(t.app, 'Changed#2026') } })).statusCode).toBe(200);
  });

  it('[S7.U3b][S7.U3c] updatePassByAdmin sets another user\'s password; managerResetPass/ resets it to a new one-time password', async () => {
    const id = (await call('POST', '/api/users', { username: 'target', nickName: '目标' })).json().id;
    expect((await call('POST', '/api/users/updatePassByAdmin', { username: 'target', newPass: enc(t.app, 'ByAdmin#2026') })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'target', password: enc(t.app, 'ByAdmin#2026') } })).statusCode).toBe(200);
    const reset = await call('POST', '/api/users/managerResetPass/', { id });
    expect(reset.statusCode).toBe(200);
    const [issued] = reset.json().passwords;
    expect(issued).toMatchObject({ id, username: 'target', password: expect.stringMatching(/^.{12}$/) });
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'target', password: enc(t.app, 'ByAdmin#2026') } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'target', password: enc(t.app, issued.password) } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'target', password: enc(t.app, INIT) } })).statusCode).toBe(400);
  });

  it('[S7.U3d] updateEmail/{code} with the e-mailed code and the encoded password changes the e-mail', async () => {
    expect((await call('POST', '/api/users/emailCode', { email: 'admin@x.edu.cn' })).statusCode).toBe(200);
    const mail = await t.database.db.selectFrom('message_outbox').select('content').where('target', '=', 'admin@x.edu.cn').executeTakeFirstOrThrow();
    const code = /验证码为(\d{6})/.exec(mail.content)![1];
    expect((await call('POST', `/api/users/updateEmail/${code}`, { password: enc(t.app, 'Wrong#pass1'), email: 'admin@x.edu.cn' })).json().message).toBe('密码错误');
    expect((await call('POST', `/api/users/updateEmail/${code}`, { password: enc(t.app, t.config.adminPassword), email: 'admin@x.edu.cn' })).statusCode).toBe(200);
    expect((await call('GET', '/auth/info')).json().email).toBe('admin@x.edu.cn');
  });

  it('[S7.U5c] registerNoEnterUser opens accounts for users who never entered', async () => {
    const id = (await call('POST', '/api/users', { username: 'newcomer', nickName: '新人', phone: '13600001111' })).json().id;
    await call('POST', '/api/users/disabledUser', { ids: [id] });
    const res = await call('POST', '/api/users/registerNoEnterUser', [id]);
    expect(res.json()).toMatchObject({ count: 1 });
    expect((await find('newcomer')).enabled).toBe(true);
  });

  it('[S7.U6a][S7.U6b][S7.U6c][S7.U6d][S3.E2c] the four lists take page, size, sort and a filter body', async () => {
    await call('POST', '/api/users', { username: 'leaver', nickName: '离校' });
    const leaver = await find('leaver');
    await call('PUT', '/api/users', { id: leaver.id, hasLeft: true });
    for (const path of ['list', 'listWeakPasswordPeople', 'listNoEnterUser', 'listHasLeftUser']) {
      const one = await call('POST', `/api/users/${path}?page=0&size=1&sort=username,asc`, {});
      expect(one.statusCode, path).toBe(200);
      expect(one.json().content.length, path).toBeLessThanOrEqual(1);
      expect(one.json().totalElements, path).toBeGreaterThan(0);
      expect((await call('POST', `/api/users/${path}?page=0&size=10`, { blurry: 'nobody-matches-this' })).json().content, path).toEqual([]);
    }
    const left = (await call('POST', '/api/users/listHasLeftUser?size=100', {})).json().content.map((u: { username: string }) => u.username);
    expect(left).toEqual(['leaver']);
    const weak = (await call('POST', '/api/users/listWeakPasswordPeople?size=100', {})).json().content.map((u: { username: string }) => u.username);
    expect(weak).not.toContain('admin');
    expect((await call('POST', '/api/users/list?sort=password_hash,asc', {})).statusCode).toBe(400);
  });

  it('[S7.U7][S7.C4a] GET /api/users/template downloads an .xlsx named in content-disposition', async () => {
    const res = await call('GET', '/api/users/template');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('用户导入模板.xlsx')}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    expect(book.worksheets[0].getRow(2).values).toEqual([undefined, '用户名*', '姓名*', '手机号码', '邮箱', '性别', '所属组织编号']);
  });
});

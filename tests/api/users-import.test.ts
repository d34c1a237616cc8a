// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the user import
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Import#2026a';
const HEADER = ['用户名*', '姓名*', '手机号码', '邮箱', '性别', '所属组织编号'];

/** A workbook laid out like the template: a note row, the title row, then the data rows (from row 3). */
async function workbook(rows: (string | number | null)[][], header: string[] = HEADER): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['说明：带 * 的列必填']);
  sheet.addRow(header);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

function form(content: Buffer, mode?: string, name = '用户.xlsx'): FormData {
  const fd = new FormData();
  if (mode) fd.append('mode', mode);
  fd.append('file', new Blob([new Uint8Array(content)]), name);
  return fd;
}

describe(`importing users from the user template on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let initPassword: string;
  const orgs: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    initPassword = await t.app.services.config.get('initPassword');
    for (const [code, name] of [['DZZ-A', '第一党支部'], ['DZZ-B', '第二党支部']]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/m/org', headers: bearer(admin), payload: { name, code, type: '3' } });
      expect(res.statusCode, res.body).toBeLessThan(300);
      orgs[code] = res.json().id;
    }
  });
  afterAll(() => t.app.close());

  const importFile = (payload: FormData, token: string | null = admin) =>
    t.app.inject({ method: 'POST', url: '/api/users/import', headers: token ? bearer(token) : {}, payload });
  const userRow = (username: string) => t.database.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  const signIn = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { username, password: enc(t.app, password) } });

  it('imports a good file: fields, organisation by code, gender code, no roles, no password until the account is opened with a one-time password', async () => {
    const file = await workbook([
      ['imp.zhang', '张三', '13900000001', 'zhang@x.edu.cn', '男', 'DZZ-A'],
      ['imp.li', '李四', 13900000002, null, '女', null],
    ]);
    const res = await importFile(form(file, 'partial'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ total: 2, imported: 2, errors: [] });
    expect(await userRow('imp.zhang')).toMatchObject({ nick_name: '张三', phone: '13900000001', email: 'zhang@x.edu.cn', gender: '1', org_id: orgs['DZZ-A'], enabled: true, password_weak: true });
    // An empty organisation is the importer's own, as in the create API (admin has none).
    expect(await userRow('imp.li')).toMatchObject({ nick_name: '李四', phone: '13900000002', email: null, gender: '2', org_id: null, password_weak: true });
    const zhang = await userRow('imp.zhang');
    expect(await t.database.db.selectFrom('user_roles').select('role_id').where('user_id', '=', zhang!.id).execute()).toEqual([]);

    // Nobody can sign in to an imported account until it is opened with a one-time password.
    expect((await signIn('imp.zhang', initPassword)).statusCode).toBe(400);
    const opened = await t.app.inject({ method: 'POST', url: '/api/users/registerNoEnterUser', headers: bearer(admin), payload: [zhang!.id] });
    expect(opened.json()).toMatchObject({ count: 1 });
    const sms = await t.database.db.selectFrom('message_outbox').select('content').where('target', '=', '13900000001').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const login1 = await signIn('imp.zhang', /一次性密码(\S{12})，/.exec(sms.content)![1]);
    expect(login1.statusCode, login1.body).toBe(200);
    const check = await t.app.inject({ url: '/api/users/check', headers: bearer(login1.json().token) });
    expect(check.body).toBe('true');
    const weakList = await t.app.inject({ method: 'POST', url: '/api/users/listWeakPasswordPeople?size=50', headers: bearer(admin), payload: { blurry: 'imp.' } });
    expect(weakList.json().content.map((u: { username: string }) => u.username).sort()).toEqual(['imp.li', 'imp.zhang']);
  });

  it('reports every bad row with its sheet row number, column and a Chinese message; partial mode imports the good rows', async () => {
    const file = await workbook([
      ['good.one', '好人', '13900000011', null, null, 'DZZ-B'], // row 3
      ['good.one', '重名', null, null, null, null], // row 4: same username as row 3
      ['admin', '管理员', null, null, null, null], // row 5: exists
      ['bad.phone', '手机', '1390000', null, null, null], // row 6
      ['no.org', '组织', null, null, null, 'NO-SUCH'], // row 7
      ['no.name', null, null, null, null, null], // row 8
      ['bad name!', '格式', null, 'not-an-email', '不详', null], // row 9: three problems
      ['dup.phone', '占号', '13900000001', null, null, null], // row 10: phone of imp.zhang
      [null, null, null, null, null, null], // blank rows are skipped
      ['good.two', '好人二', null, null, '女', null], // row 12
    ]);
    const res = await importFile(form(file, 'partial'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      total: 9,
      imported: 2,
      errors: [
        { row: 4, column: '用户名', message: '用户名“good.one”与第3行重复' },
        { row: 5, column: '用户名', message: '用户名“admin”已存在' },
        { row: 6, column: '手机号码', message: '请输入正确的手机号码' },
        { row: 7, column: '所属组织编号', message: '所属组织编号“NO-SUCH”不存在' },
        { row: 8, column: '姓名', message: '姓名不能为空' },
        { row: 9, column: '用户名', message: '用户名只能包含字母、数字、下划线、点和短横线' },
        { row: 9, column: '邮箱', message: '请输入正确的邮箱地址' },
        { row: 9, column: '性别', message: '性别请填写“男”或“女”' },
        { row: 10, column: '手机号码', message: '手机号码已被其他用户使用' },
      ],
    });
    expect(await userRow('good.one')).toMatchObject({ nick_name: '好人', org_id: orgs['DZZ-B'] });
    expect(await userRow('good.two')).toMatchObject({ gender: '2' });
    for (const refused of ['bad.phone', 'no.org', 'no.name', 'dup.phone']) expect(await userRow(refused), refused).toBeUndefined();
    expect((await userRow('admin'))!.nick_name).not.toBe('管理员');
  });

  it('mode all imports nothing when one row is bad', async () => {
    const file = await workbook([
      ['all.one', '全一', null, null, null, null],
      ['all.two', '全二', '12345', null, null, null],
    ]);
    const res = await importFile(form(file, 'all'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ total: 2, imported: 0, errors: [{ row: 4, column: '手机号码', message: '请输入正确的手机号码' }] });
    expect(await userRow('all.one')).toBeUndefined();
    // The same file, corrected, goes in whole.
    const fixed = await importFile(form(await workbook([['all.one', '全一'], ['all.two', '全二', '13900000021']]), 'all'));
    expect(fixed.json()).toEqual({ total: 2, imported: 2, errors: [] });
  });

  it('keeps to the importer\'s data scope: other organisations are refused, an empty one is the importer\'s own', async () => {
    await userWithRole(t.app, admin, { username: 'branch_clerk', permissions: ['user:list', 'user:import'], dataScope: 'custom', scopeOrgIds: [orgs['DZZ-A']], orgId: orgs['DZZ-A'], password: PASS });
    const clerk = await login(t.app, 'branch_clerk', PASS);
    const res = await importFile(form(await workbook([['scope.in', '本支部', null, null, null, null], ['scope.out', '外支部', null, null, null, 'DZZ-B']])), clerk);
    expect(res.json()).toEqual({ total: 2, imported: 1, errors: [{ row: 4, column: '所属组织编号', message: '无权向组织“DZZ-B”导入用户' }] });
    expect((await userRow('scope.in'))!.org_id).toBe(orgs['DZZ-A']);
  });

  it('refuses callers without user:import (403) or without a token (401)', async () => {
    await userWithRole(t.app, admin, { username: 'no_import', permissions: ['user:list', 'user:add'], password: PASS });
    const token = await login(t.app, 'no_import', PASS);
    const file = await workbook([['perm.test', '权限']]);
    expect((await importFile(form(file), token)).statusCode).toBe(403);
    expect((await importFile(form(file), null)).statusCode).toBe(401);
    expect(await userRow('perm.test')).toBeUndefined();
  });

  it('refuses what is not a filled-in template with a Chinese message', async () => {
    const good = await workbook([['file.test', '文件']]);
    const cases: [FormData, string][] = [
      [form(Buffer.from('username,nickName\nx,y'), 'partial', 'users.csv'), '只能导入 .xlsx 文件'],
      [form(Buffer.from('not a zip'), 'partial', 'broken.xlsx'), '文件无法读取，请上传 .xlsx 格式的文件'],
      [form(await workbook([['x', 'y']], ['账号', '名称'])), '未找到“用户名”“姓名”列，请使用导入模板填写'],
      [form(await workbook([])), '文件中没有要导入的用户'],
      [form(good, 'some'), '导入方式不正确'],
      [(() => { const fd = new FormData(); fd.append('mode', 'all'); return fd; })(), '请选择要导入的文件'],
    ];
    for (const [payload, message] of cases) {
      const res = await importFile(payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await userRow('file.test')).toBeUndefined();
  });

  it('takes at most 5,000 rows at a time', async () => {
    const rows = Array.from({ length: 5001 }, (_x, i) => [`bulk.${i}`, `批量${i}`]);
    const res = await importFile(form(await workbook(rows)));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('一次最多导入5000个用户，请分批导入');
    expect(await userRow('bulk.0')).toBeUndefined();
  });

  it('the template downloaded from the server imports as it is, filled in', async () => {
    const template = await t.app.inject({ url: '/api/users/template', headers: bearer(admin) });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as never);
    book.worksheets[0].getRow(3).values = ['tpl.user', '模板用户', null, null, '男', 'DZZ-A'];
    const res = await importFile(form(Buffer.from(await book.xlsx.writeBuffer())));
    expect(res.json()).toEqual({ total: 1, imported: 1, errors: [] });
    expect(await userRow('tpl.user')).toMatchObject({ gender: '1', org_id: orgs['DZZ-A'] });
  });
});

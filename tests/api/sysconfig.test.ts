// engines: pglite — the system configuration API: no engine-specific SQL
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Config#2026a';
/** The keys spec S3.E9b names (the new-login flag is isNewLogin). */
const SPEC_KEYS = ['htmlTitle', 'isDead', 'isNeedBaiduStatistics', 'isNewLogin', 'footHtml', 'htmlLogo', 'htmlExpandLogo', 'passwordReg', 'passwordRegTip', 'initPassword', 'videoRecordTime'];

describe(`system configuration API on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let plain: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    await userWithRole(t.app, admin, { username: 'cfgreader', permissions: ['sysconfig:list'], password: PASS });
    await userWithRole(t.app, admin, { username: 'cfgplain', permissions: ['member:list'], password: PASS });
    reader = await login(t.app, 'cfgreader', PASS);
    plain = await login(t.app, 'cfgplain', PASS);
  });
  afterAll(() => t.app.close());

  const listAll = async (token?: string) => {
    const res = await t.app.inject({ url: '/api/sysConfig/listAll', headers: token ? bearer(token) : {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { configKey: string; configValue: string }[];
  };
  const valueOf = async (key: string, token = admin) => (await listAll(token)).find((i) => i.configKey === key)?.configValue;
  const put = (payload: object, token = admin) => t.app.inject({ method: 'PUT', url: '/api/sysConfig', headers: bearer(token), payload });

  it('[S7.D3b][S3.E9a] GET /api/sysConfig/listAll is public and answers configKey/configValue items, secrets hidden from everyone', async () => {
    const anonymous = await listAll();
    expect(anonymous.every((i) => Object.keys(i).sort().join() === 'configKey,configValue')).toBe(true);
    const keys = anonymous.map((i) => i.configKey);
    // Anonymous callers get what the login page reads; videoRecordTime (the party school) needs a session.
    for (const k of SPEC_KEYS.filter((k) => k !== 'initPassword' && k !== 'videoRecordTime')) expect(keys).toContain(k);
    expect(keys).not.toContain('initPassword');
    expect(keys).not.toContain('videoRecordTime');
    expect((await listAll(plain)).map((i) => i.configKey)).toContain('videoRecordTime');
    expect(anonymous.find((i) => i.configKey === 'htmlTitle')?.configValue).toBe('党建工作管理系统');
    // Signed-in users do not see secrets either, not even readers and administrators (issue 12 item 8).
    for (const token of [plain, reader, admin]) expect((await listAll(token)).map((i) => i.configKey)).not.toContain('initPassword');
  });

  it('keys named like credentials (Secret, Password, Key) stay hidden from the list read by the web app', async () => {
    for (const configKey of ['smsSecret', 'mailPassword', 'mapApiKey']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey, configValue: 's3cr3t' } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const anonymous = (await listAll()).map((i) => i.configKey);
    expect(anonymous).not.toEqual(expect.arrayContaining(['smsSecret']));
    expect(anonymous.filter((k) => ['smsSecret', 'mailPassword', 'mapApiKey'].includes(k))).toEqual([]);
    expect(JSON.stringify(await listAll())).not.toContain('s3cr3t');
    expect(await valueOf('mapApiKey', reader)).toBeUndefined();
    expect(await t.app.services.config.get('mapApiKey')).toBe('s3cr3t');
    const del = await t.app.inject({ method: 'DELETE', url: '/api/sysConfig/', headers: bearer(admin), payload: ['smsSecret', 'mailPassword', 'mapApiKey'] });
    expect(del.statusCode, del.body).toBe(200);
  });

  it('[S7.D3a] GET /api/sysConfig (sysconfig:list) is a paged list with configKey and configValue, filtered by blurry', async () => {
    const res = await t.app.inject({ url: '/api/sysConfig?page=0&size=5', headers: bearer(reader) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // Every stored setting (the core's and those the business areas add with their migrations).
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sys_config`.execute(t.database.db);
    expect(stored.rows[0].n).toBeGreaterThanOrEqual(13);
    expect(body.totalElements).toBe(stored.rows[0].n);
    expect(body.content).toHaveLength(5);
    expect(body.content[0]).toMatchObject({ id: expect.any(Number), configKey: 'htmlTitle', configValue: '党建工作管理系统', description: expect.any(String) });
    expect(body.content[0].createTime).toBeTruthy();
    const filtered = await t.app.inject({ url: '/api/sysConfig?blurry=password', headers: bearer(reader) });
    expect(filtered.json().content.map((i: { configKey: string }) => i.configKey).sort()).toEqual(['initPassword', 'passwordReg', 'passwordRegTip']);
    expect((await t.app.inject({ url: '/api/sysConfig' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/sysConfig', headers: bearer(plain) })).statusCode).toBe(403);
  });

  it('[S7.D3c][S7.D3d][S7.D3e] POST creates k1 (it appears in listAll), PUT changes it, DELETE /api/sysConfig/ naming k1 removes it', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey: 'k1', configValue: 'v1', description: '测试' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ configKey: 'k1', configValue: 'v1', description: '测试' });
    expect(await valueOf('k1')).toBe('v1');

    const byKey = await put({ configKey: 'k1', configValue: 'v2' });
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(await valueOf('k1')).toBe('v2');
    const byId = await put({ id: created.json().id, configValue: 'v3' });
    expect(byId.json().configValue).toBe('v3');
    expect(await valueOf('k1')).toBe('v3');

    const del = await t.app.inject({ method: 'DELETE', url: '/api/sysConfig/', headers: bearer(admin), payload: { configKey: 'k1' } });
    expect(del.statusCode, del.body).toBe(200);
    expect(await valueOf('k1')).toBeUndefined();
  });

  it('[S3.E9b] each spec key can be created and read through api/sysConfig', async () => {
    const samples: Record<string, string> = {
      htmlTitle: '新标题', isDead: 'true', isNeedBaiduStatistics: 'false', isNewLogin: 'true', footHtml: '<p>页脚</p>', htmlLogo: '/web/a.png',
      htmlExpandLogo: '/web/b.png', passwordReg: '^.{10,}$', passwordRegTip: '至少10位', initPassword: 'Init#2026x', videoRecordTime: '15',
    };
    // They are seeded: remove the rows directly (the API refuses to delete built-in keys), then create each again.
    await t.database.db.deleteFrom('sys_config').where('config_key', 'in', SPEC_KEYS).execute();
    t.app.services.config.invalidate();
    for (const configKey of SPEC_KEYS) {
      const res = await t.app.inject({ method: 'POST', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey, configValue: samples[configKey] } });
      expect(res.statusCode, `${configKey}: ${res.body}`).toBe(201);
    }
    const all = Object.fromEntries((await listAll(admin)).map((i) => [i.configKey, i.configValue]));
    // initPassword is a secret: never served, read by the server only.
    for (const k of SPEC_KEYS.filter((k) => k !== 'initPassword')) expect(all[k], k).toBe(samples[k]);
    expect(all.initPassword).toBeUndefined();
    expect(await t.app.services.config.get('initPassword')).toBe(samples.initPassword);
    // Server code reads the new values at once (the cache was invalidated).
    expect(await t.app.services.config.get('passwordRegTip')).toBe('至少10位');
    expect(await t.app.services.config.number('videoRecordTime', 30)).toBe(15);
  });

  it('refuses bad keys and values with Chinese messages and changes nothing', async () => {
    const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/sysConfig', headers: bearer(admin), payload });
    const badKey = await post({ configKey: '9abc', configValue: 'x' });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().errors[0]).toMatchObject({ field: 'configKey', message: '参数键的格式不正确' });
    const dup = await post({ configKey: 'htmlTitle', configValue: 'x' });
    expect(dup.json()).toMatchObject({ status: 400, message: '参数键“htmlTitle”已存在' });
    const cases: [string, string, string][] = [
      ['passwordReg', '([a-z', '密码规则不是有效的正则表达式'],
      ['isDead', 'yes', '参数值只能是true或false'],
      ['captchaEnabled', '1', '参数值只能是true或false'],
      ['sessionIdleMinutes', '0', '参数值必须是正整数'],
      ['videoRecordTime', '1.5', '参数值必须是正整数'],
      ['htmlTitle', '  ', '网站标题不能为空'],
    ];
    for (const [configKey, configValue, message] of cases) {
      const before = await valueOf(configKey);
      const res = await put({ configKey, configValue });
      expect(res.statusCode, configKey).toBe(400);
      expect(res.json().message).toBe(message);
      expect(await valueOf(configKey)).toBe(before);
    }
    const rename = await put({ configKey: 'isDead', id: (await t.database.db.selectFrom('sys_config').select('id').where('config_key', '=', 'htmlTitle').executeTakeFirstOrThrow()).id });
    expect(rename.json()).toMatchObject({ status: 400, message: '系统内置参数“htmlTitle”不能改名' });
    expect((await put({ configKey: 'nope', configValue: 'x' })).statusCode).toBe(404);
  });

  it('built-in keys cannot be deleted; writes need their permissions', async () => {
    const del = await t.app.inject({ method: 'DELETE', url: '/api/sysConfig/', headers: bearer(admin), payload: ['htmlTitle'] });
    expect(del.json()).toMatchObject({ status: 400, message: '系统内置参数不能删除：htmlTitle' });
    expect(await valueOf('htmlTitle')).toBeDefined();
    expect((await t.app.inject({ method: 'DELETE', url: '/api/sysConfig/', headers: bearer(admin), payload: ['noSuchKey'] })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/sysConfig/', headers: bearer(admin), payload: {} })).statusCode).toBe(400);
    for (const [method, token] of [['POST', reader], ['PUT', reader], ['DELETE', reader], ['POST', undefined]] as const) {
      const res = await t.app.inject({ method, url: method === 'DELETE' ? '/api/sysConfig/' : '/api/sysConfig', headers: token ? bearer(token) : {}, payload: { configKey: 'x1', configValue: 'y' } });
      expect(res.statusCode, method).toBe(token ? 403 : 401);
    }
  });
});

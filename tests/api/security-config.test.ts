// engines: pglite — which configuration keys are public: no engine-specific SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Config#2026a';
/** What the login page and the layout read before anyone signs in (src/web: LoginPage, guard, AppFooter, Sidebar, ...). */
const LOGIN_PAGE_KEYS = ['htmlTitle', 'isDead', 'isNeedBaiduStatistics', 'isNewLogin', 'footHtml', 'htmlLogo', 'htmlExpandLogo', 'passwordReg', 'passwordRegTip', 'school'];
/** Credentials an administrator added (the probe of issue 12 item 8 read all three anonymously). */
const SECRETS = { smtpPass: 'smtp-s3cr3t', apiToken: 'tok-s3cr3t', smsAccessKeyId: 'LTAI-s3cr3t' };

type Item = { configKey: string; configValue: string };

/** Issue 12 item 8 (configuration served to anonymous callers) and the low item on sessionIdleMinutes. */
describe(`system configuration exposure on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let plain: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    await userWithRole(t.app, admin, { username: 'cfgplain2', permissions: ['member:list'], password: PASS });
    plain = await login(t.app, 'cfgplain2', PASS);
    for (const [configKey, configValue] of Object.entries({ ...SECRETS, officePhone: '0731-12345678' })) {
      const res = await t.app.inject({ method: 'POST', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey, configValue } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t.app.close());

  const listAll = async (token?: string) => {
    const res = await t.app.inject({ url: '/api/sysConfig/listAll', headers: token ? bearer(token) : {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Item[];
  };
  const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/sysConfig', headers: bearer(admin), payload });
  const stored = async (key: string) => (await t.database.db.selectFrom('sys_config').select('config_value').where('config_key', '=', key).executeTakeFirstOrThrow()).config_value;

  it('anonymous callers get exactly the keys the login page needs', async () => {
    const anonymous = await listAll();
    expect(anonymous.map((i) => i.configKey).sort()).toEqual([...LOGIN_PAGE_KEYS].sort());
    const text = JSON.stringify(anonymous);
    for (const value of [...Object.values(SECRETS), '0731-12345678', 'Dj@123456']) expect(text).not.toContain(value);
  });

  it('signed-in users also get the other settings, but no secret reaches anyone, administrators included', async () => {
    for (const token of [plain, admin]) {
      const items = await listAll(token);
      const keys = items.map((i) => i.configKey);
      expect(keys).toEqual(expect.arrayContaining([...LOGIN_PAGE_KEYS, 'officePhone', 'videoRecordTime', 'sessionIdleMinutes']));
      for (const key of [...Object.keys(SECRETS), 'initPassword']) expect(keys).not.toContain(key);
      for (const value of Object.values(SECRETS)) expect(JSON.stringify(items)).not.toContain(value);
    }
  });

  it('the administrators\' list masks secrets, cannot be searched by a secret\'s value, and writing the mask back keeps it', async () => {
    const page = await t.app.inject({ url: '/api/sysConfig?size=100', headers: bearer(admin) });
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.json().content as (Item & { secret: boolean })[];
    for (const key of [...Object.keys(SECRETS), 'initPassword']) {
      expect(rows.find((r) => r.configKey === key), key).toMatchObject({ configValue: '******', secret: true });
    }
    expect(rows.find((r) => r.configKey === 'officePhone')).toMatchObject({ configValue: '0731-12345678', secret: false });
    expect(page.body).not.toContain('s3cr3t');
    // A search on part of the value would reveal it character by character.
    const search = await t.app.inject({ url: '/api/sysConfig?blurry=s3cr3t', headers: bearer(admin) });
    expect(search.json().totalElements).toBe(0);

    const kept = await put({ configKey: 'smtpPass', configValue: '******', description: 'SMTP 密码' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ configValue: '******', description: 'SMTP 密码' });
    expect(await stored('smtpPass')).toBe(SECRETS.smtpPass);
    const changed = await put({ configKey: 'smtpPass', configValue: 'new-smtp-pass' });
    expect(changed.json().configValue).toBe('******');
    expect(await stored('smtpPass')).toBe('new-smtp-pass');
    expect(await t.app.services.config.get('smtpPass')).toBe('new-smtp-pass');
    // Renaming a secret to a plain name must not expose the old value.
    const id = (await t.database.db.selectFrom('sys_config').select('id').where('config_key', '=', 'apiToken').executeTakeFirstOrThrow()).id;
    const renamed = await put({ id, configKey: 'apiNote' });
    expect(renamed.json()).toMatchObject({ status: 400, message: '敏感参数改为普通参数名时，请重新填写参数值' });
    expect(await stored('apiToken')).toBe(SECRETS.apiToken);
  });

  it('sessionIdleMinutes below 5 is refused with a clear message', async () => {
    for (const value of ['1', '4']) {
      const res = await put({ configKey: 'sessionIdleMinutes', configValue: value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, message: '会话空闲超时不能少于5分钟' });
    }
    expect(await stored('sessionIdleMinutes')).toBe('120');
    const ok = await put({ configKey: 'sessionIdleMinutes', configValue: '5' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await stored('sessionIdleMinutes')).toBe('5');
  });
});

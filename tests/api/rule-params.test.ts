// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the registry's values and history live in the database (jsonb, dates)
/**
 * Issue 42 through the real HTTP layer: GET /api/rule-params answers the contract, PUT refuses a value out
 * of range, a parameter no school may change, a raise-only value lowered and an unknown key (400 in Chinese,
 * nothing saved), the history lists the changes newest first, and a value set from a later day is in force
 * from that day only. The appraisal refusal naming the parameter: tests/api/evaluation.test.ts [42.3].
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`rule parameters on ${TEST_DB}`, () => {
  let t: TestApp;
  let call: Call;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await login(t.app);
    call = caller(t.app, () => admin);
  }, 300_000);
  afterAll(() => t?.app.close());
  const history = async (key: string) => (await call('GET', `/api/rule-params/${key}/history`)).body as { newValue: unknown; oldValue: unknown; reason: string; effectiveFrom: string; changedByName: string }[];

  it('[42.1] the list answers the contract: keys as the schemas name them, value, default, range and source', async () => {
    const list = (await call('GET', '/api/rule-params')).body as { key: string }[];
    const byKey = new Map(list.map((p) => [p.key, p]));
    expect(byKey.get('appraisal.excellentCapPercent')).toMatchObject({ title: '优秀等次比例上限', value: 30, default: 30, min: 0, max: 100, source: 'default', area: '评议管理', unit: '%' });
    expect(byKey.get('development.publicityWorkdays')).toMatchObject({ value: 5, default: 5, min: 5, max: 30, source: 'default', editable: 'raise' });
    expect(byKey.get('appointment.publicityWorkdays')).toMatchObject({ value: 5, source: 'default' });
    // The former sys_config rules are parameters now (migration 0420); the system configuration keeps none of them.
    expect(byKey.get('cadre.termYears')).toMatchObject({ value: 5, source: 'default' });
    expect(byKey.get('cadre-abroad.returnDays')).toMatchObject({ value: 7, min: 1, max: 10 });
    const keys = (await t.database.db.selectFrom('sys_config').select('config_key').execute()).map((r) => r.config_key);
    expect(keys.filter((k) => /^cadre(TermYears|RetireAge|ResumeGap|CertificateReturn|ExcellentPercent)/.test(k))).toEqual([]);
    expect(keys).toContain('cadreUkeyRoles');
  });

  it('[42.2] out of range, not changeable, raise-only lowered, unknown key, no reason, a past day: 400 in Chinese and nothing saved', async () => {
    const out = await call('PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 101, reason: '测试' });
    expect(out.status).toBe(400);
    expect(out.body.message).toBe('规则参数“优秀等次比例上限”须在0至100%之间');
    expect((await call('PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 12.5, reason: '测试' })).body.message).toContain('须为整数');
    const fixed = await call('PUT', '/api/rule-params/development.talkWithinMonths', { value: 2, reason: '测试' });
    expect(fixed.status).toBe(400);
    expect(fixed.body.message).toContain('学校不能修改');
    const lowered = await call('PUT', '/api/rule-params/development.publicityWorkdays', { value: 4, reason: '测试' });
    expect(lowered.status).toBe(400);
    expect(lowered.body.message).toContain('只能提高、不能低于5个工作日');
    const unknown = await call('PUT', '/api/rule-params/appraisal.noSuchThing', { value: 1, reason: '测试' });
    expect([unknown.status, unknown.body.message]).toEqual([400, '规则参数“appraisal.noSuchThing”不存在']);
    expect((await call('PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 25, reason: ' ' })).body.message).toBe('请填写修改原因');
    expect((await call('PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 25, reason: '测试', effectiveFrom: '2000-01-01' })).body.message).toBe('生效日期不能早于今天');
    for (const key of ['appraisal.excellentCapPercent', 'development.talkWithinMonths', 'development.publicityWorkdays']) expect(await history(key)).toEqual([]);
    expect((await call('GET', '/api/rule-params/appraisal.noSuchThing/history')).status).toBe(400);
    expect((await call('GET', '/api/rule-params')).body.find((p: { key: string }) => p.key === 'appraisal.excellentCapPercent').source).toBe('default');
  });

  it('[42.4] a change today and one from a later day: history newest first, each in force from its day, the old value before', async () => {
    const raised = await call('PUT', '/api/rule-params/development.publicityWorkdays', { value: 7, reason: '学校规定公示7个工作日' });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body).toMatchObject({ value: 7, default: 5, source: 'admin' });
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect((await call('PUT', '/api/rule-params/development.publicityWorkdays', { value: 10, reason: '下学期起10个工作日', effectiveFrom: later })).status).toBe(200);
    const [newest, older] = await history('development.publicityWorkdays');
    expect([newest.oldValue, newest.newValue, newest.effectiveFrom]).toEqual([7, 10, later]);
    expect([older.oldValue, older.newValue, older.reason, older.changedByName]).toMatchObject([5, 7, '学校规定公示7个工作日', expect.any(String)]);
    const lastYear = `${new Date().getFullYear() - 1}-06-30`;
    const past = (await call('GET', `/api/rule-params/development.publicityWorkdays?date=${lastYear}`)).body;
    expect([past.value, past.valueOn, past.sourceOn, past.pending.value]).toEqual([7, 5, 'default', 10]);
    expect((await call('GET', `/api/rule-params/development.publicityWorkdays?date=${later}`)).body.valueOn).toBe(10);
  });
});

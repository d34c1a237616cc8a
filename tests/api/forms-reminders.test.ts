// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): reminders of late organisations are rows written from the collection's state on each engine
/**
 * Issue 29: late organisations of a fill-in form are reminded by x-reminders (the runtime's expected-record
 * source, docs/schema.md), not only by to-dos: one reminder per organisation that has not submitted, from
 * `ahead` days before the deadline (the day before and the day of, with the window set to 0), scoped as every
 * reminder; a submitted organisation is not listed, a returned one is again, and after the stop none is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/calendar.js';
import { login, userWithRole } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Forms#2026a';
const DEADLINE = '2030-06-14';
const SCHEMA = { properties: { leader: { type: 'string', title: '负责人', maxLength: 20 } }, required: ['leader'] };

interface Reminder { orgId: number; state: number; dueDate: string; recordName: string; link: string; type: string }

describe(`reminders of late organisations on ${TEST_DB}`, () => {
  let t: TestApp;
  let call: Call;
  let asA: Call;
  let asB: Call;
  let form = '';
  const org = { root: 0, a: 0, b: 0 };

  const refresh = (today: string) => t.app.runtime.reminders.refresh({ modules: [form], today });
  const listed = async (as: Call, query = '') => {
    const r = await as('GET', `/api/reminders?module=${form}${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.content as Reminder[]).sort((x, y) => x.orgId - y.orgId);
  };
  const statesOn = async (today: string) => {
    await refresh(today);
    return Object.fromEntries((await listed(call)).map((r) => [r.orgId, r.state]));
  };

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await login(t.app);
    call = caller(t.app, () => admin);
    const add = async (name: string, type: string, parentId?: number) => (await call('POST', '/api/m/org', { name, type, ...(parentId && { parentId }) })).body.id as number;
    org.root = await add('提醒测试党委', '1');
    org.a = await add('提醒第一支部', '3', org.root);
    org.b = await add('提醒第二支部', '3', org.root);
    for (const [name, orgId] of [['remindera', org.a], ['reminderb', org.b]] as const) {
      await userWithRole(t.app, admin, { username: name, permissions: ['stat-fill-in:list', 'stat-fill-in:fill', 'msg-remind:list'], dataScope: 'own', orgId, password: PASS });
    }
    const a = await login(t.app, 'remindera', PASS);
    const b = await login(t.app, 'reminderb', PASS);
    asA = caller(t.app, () => a);
    asB = caller(t.app, () => b);
    const created = await call('POST', '/api/forms', { title: '提醒测试表', schema: SCHEMA });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    form = created.body.id;
    const published = await call('POST', `/api/forms/${form}/publish`, { shareType: 1, orgIds: [org.a, org.b], deadline: DEADLINE });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  }, 120_000);
  afterAll(() => t?.app.close());

  it('[S1.F11r] each organisation not submitted has a reminder from a week before the deadline, seen by its own filler', async () => {
    expect(await statesOn(addDays(DEADLINE, -8))).toEqual({ [org.a]: 1, [org.b]: 1 });
    expect(await statesOn(addDays(DEADLINE, -7))).toEqual({ [org.a]: 2, [org.b]: 2 });
    const mine = await listed(asA);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ orgId: org.a, type: 'late', dueDate: DEADLINE, recordName: '提醒测试表', link: `/statistics/reports/fill-in?form=${form}&org=${org.a}` });
    // The organisation's reminders (its subtree), and the announcement written for its filler.
    expect((await listed(call, `&orgId=${org.b}`)).map((r) => r.orgId)).toEqual([org.b]);
    const outbox = await t.app.services.database.db.selectFrom('reminder_outbox').select(['title', 'content']).where('module', '=', form).execute();
    expect(outbox.map((o) => o.title)).toEqual(['请填报：提醒测试表', '请填报：提醒测试表']);
    expect(outbox.map((o) => o.content).join()).toContain('提醒第一支部尚未提交');
  });

  it('[S1.F11r] with the window at 0: not the day before the deadline, the day of it and while overdue', async () => {
    const set = await call('PUT', '/api/reminders/types', { module: form, type: 'late', enabled: 1, ahead: 0 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(await statesOn(addDays(DEADLINE, -1))).toEqual({ [org.a]: 1, [org.b]: 1 });
    expect(await statesOn(DEADLINE)).toEqual({ [org.a]: 2, [org.b]: 2 });
    expect(await statesOn(addDays(DEADLINE, 3))).toEqual({ [org.a]: 2, [org.b]: 2 });
  });

  it('[S1.F11r] a submitted organisation is not listed; returned, it is again; the to-do button keeps working', async () => {
    const submitted = await asB('POST', `/api/forms/${form}/fill`, { values: { leader: '李四' }, submit: true });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect((await listed(asB, '&state=2')).length).toBe(0);
    expect(await statesOn(DEADLINE)).toEqual({ [org.a]: 2, [org.b]: 3 });
    const remind = await call('POST', `/api/forms/${form}/remind`);
    expect(remind.body).toMatchObject({ organisations: 1 });
    expect((await call('POST', `/api/forms/${form}/return`, { orgId: org.b, comment: '请补充' })).status).toBe(200);
    expect(await statesOn(DEADLINE)).toEqual({ [org.a]: 2, [org.b]: 2 });
  });

  it('[S1.F11r] after the stop nothing is listed', async () => {
    expect((await call('POST', `/api/forms/${form}/stop`)).status).toBe(200);
    expect((await listed(call, '&state=2')).length).toBe(0);
    expect(await statesOn(DEADLINE)).toEqual({ [org.a]: 3, [org.b]: 3 });
  });
});

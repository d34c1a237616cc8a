// engines: pglite — the vocabulary's readings (receivers, child dates, ends, closing) are engine-independent; reminders.test.ts covers both engines
/**
 * The x-reminders vocabulary on a test module (issue 24 §1): the record's person, the acting level of its
 * organisation and a permission as receivers; a date counted from the earliest child record; a field
 * filled ends it; closing by hand until a new due date opens it again.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { schemasWith } from '../fixtures/workflow-schemas.js';

const today = localToday();
const PASS = 'Remind#2026a';

const DEADLINE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  'x-id': 'test-deadline',
  title: '测试事项',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'orgId'],
  properties: {
    name: { type: 'string', title: '名称', maxLength: 30 },
    orgId: { type: 'integer', title: '党组织', 'x-ref': 'org' },
    ownerId: { type: 'integer', title: '负责人', 'x-ref': 'user' },
    endDate: { type: 'string', title: '截止日期', format: 'date' },
    doneDate: { type: 'string', title: '完成日期', format: 'date' },
  },
  'x-scope': 'orgId',
  'x-children': [{ module: 'test-deadline-item', foreignKey: 'deadlineId' }],
  'x-reminders': [
    {
      type: 'end', title: '事项到期', date: { field: 'endDate' }, ahead: 3, until: { filled: ['doneDate'] },
      receivers: [{ field: 'ownerId' }, { level: 'branch' }], message: { title: '{name}将于{dueDateCn}到期' }, closable: true,
    },
    {
      type: 'item', title: '首项复查', date: { field: 'itemDate', child: 'test-deadline-item', pick: 'min' }, offset: { months: 1 }, ahead: 400,
      receivers: [{ permission: 'test-deadline:list' }], message: { title: '{name}首项复查' },
    },
  ],
};

const ITEM = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  'x-id': 'test-deadline-item',
  title: '测试事项明细',
  type: 'object',
  additionalProperties: false,
  required: ['deadlineId', 'itemDate'],
  properties: {
    deadlineId: { type: 'integer', title: '事项', 'x-ref': 'test-deadline' },
    itemDate: { type: 'string', title: '日期', format: 'date' },
  },
};

describe(`x-reminders vocabulary on ${TEST_DB}`, () => {
  let t: TestApp;
  let dir: string;
  let admin: string;
  let ids: { branch: number; other: number; owner: number; secretary: number; lister: number; outsider: number };
  const call = async (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const reminderOf = async (recordId: number, type: string) =>
    (await sql<{ id: number; state: number; due_date: string; receivers: number[] }>`SELECT id, state, due_date::text AS due_date, receivers FROM reminders
      WHERE module = 'test-deadline' AND record_id = ${recordId} AND type = ${type}`.execute(t.database.db)).rows[0];

  beforeAll(async () => {
    dir = schemasWith({ 'test-deadline': DEADLINE, 'test-deadline-item': ITEM }, {});
    t = await createTestApp({}, undefined, { schemasDir: dir });
    admin = await login(t.app);
    const org = async (body: object) => (await call(admin, 'POST', '/api/m/org', body)).body.id as number;
    const root = await org({ name: '中共测试大学委员会', type: '1', code: 'R-ROOT' });
    const college = await org({ name: '测试学院党委', type: '1', parentId: root, code: 'R-C1' });
    const branch = await org({ name: '测试学院第一党支部', type: '3', parentId: college, code: 'R-B1' });
    const other = await org({ name: '测试学院第二党支部', type: '3', parentId: college, code: 'R-B2' });
    const perms = ['test-deadline:list', 'test-deadline:edit', 'test-deadline:add', 'msg-remind:list'];
    ids = {
      branch,
      other,
      owner: await userWithRole(t.app, admin, { username: 'rowner', permissions: ['msg-remind:list'], dataScope: 'own', orgId: other, password: PASS }),
      secretary: await userWithRole(t.app, admin, { username: 'rsecretary', permissions: perms, dataScope: 'own', orgId: branch, password: PASS }),
      lister: await userWithRole(t.app, admin, { username: 'rlister', permissions: ['test-deadline:list'], dataScope: 'own', orgId: college }),
      outsider: await userWithRole(t.app, admin, { username: 'routsider', permissions: perms, dataScope: 'own', orgId: other, password: PASS }),
    };
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the record\'s person and the branch acting for its organisation; a filled field ends it', async () => {
    const created = await call(admin, 'POST', '/api/m/test-deadline', { name: '材料报送', orgId: ids.branch, ownerId: ids.owner, endDate: addDays(today, 2) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(await reminderOf(id, 'end')).toMatchObject({ state: 2, due_date: addDays(today, 2), receivers: [ids.owner, ids.secretary].sort((a, b) => a - b) });
    // Four days ahead is before the three-day window.
    const later = await call(admin, 'PUT', '/api/m/test-deadline', { ...created.body, endDate: addDays(today, 4) });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(await reminderOf(id, 'end')).toMatchObject({ state: 1, due_date: addDays(today, 4) });
    const done = await call(admin, 'PUT', '/api/m/test-deadline', { ...later.body, endDate: addDays(today, 1), doneDate: today });
    expect(done.status).toBe(200);
    expect(await reminderOf(id, 'end')).toMatchObject({ state: 3 });
  });

  it('a receiver closes a closable reminder by hand; recomputing keeps it closed until its due date changes', async () => {
    const created = (await call(admin, 'POST', '/api/m/test-deadline', { name: '台账整理', orgId: ids.branch, ownerId: ids.owner, endDate: addDays(today, 1) })).body;
    const reminder = await reminderOf(created.id, 'end');
    const owner = await login(t.app, 'rowner', PASS);
    const outsider = await login(t.app, 'routsider', PASS);
    // The person sees it although their organisation is another one (they receive it); an outsider does not.
    expect(((await call(owner, 'GET', '/api/reminders?module=test-deadline')).body.content as { id: number }[]).map((r) => r.id)).toContain(reminder.id);
    expect((await call(outsider, 'POST', `/api/reminders/${reminder.id}/close`)).status).toBe(404);
    expect((await call(owner, 'POST', `/api/reminders/${reminder.id}/close`)).body).toEqual({ id: reminder.id, state: 3 });
    expect((await call(owner, 'POST', `/api/reminders/${reminder.id}/close`)).body).toEqual({ status: 400, message: '该提醒已结束' });
    await call(admin, 'POST', '/api/reminders/refresh');
    expect(await reminderOf(created.id, 'end')).toMatchObject({ state: 3 });
    await call(admin, 'PUT', '/api/m/test-deadline', { ...created, endDate: today });
    expect(await reminderOf(created.id, 'end')).toMatchObject({ state: 2, due_date: today });
  });

  it('counts from the earliest child date, recomputed when a child changes; holders of a permission in scope receive it', async () => {
    const parent = (await call(admin, 'POST', '/api/m/test-deadline', { name: '复查事项', orgId: ids.branch })).body.id as number;
    expect(await reminderOf(parent, 'item')).toBeUndefined();
    const first = (await call(admin, 'POST', '/api/m/test-deadline-item', { deadlineId: parent, itemDate: addDays(today, 20) })).body.id as number;
    expect(await reminderOf(parent, 'item')).toMatchObject({ state: 2, due_date: addMonths(addDays(today, 20), 1) });
    await call(admin, 'POST', '/api/m/test-deadline-item', { deadlineId: parent, itemDate: addDays(today, 5) });
    const item = await reminderOf(parent, 'item');
    expect(item.due_date).toBe(addMonths(addDays(today, 5), 1));
    // The committee's lister (scope: the college's subtree) and the branch secretary; not the other branch's.
    expect(item.receivers).toEqual([ids.secretary, ids.lister].sort((a, b) => a - b));
    const rest = (await sql<{ id: number }>`SELECT id FROM m_test_deadline_item WHERE deadline_id = ${parent}`.execute(t.database.db)).rows.map((r) => r.id);
    expect(rest).toContain(first);
    expect((await call(admin, 'DELETE', '/api/m/test-deadline-item', rest)).status).toBe(200);
    expect(await reminderOf(parent, 'item')).toMatchObject({ state: 3 });
  });
});

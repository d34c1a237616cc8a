// engines: both — the reminders table written in a step's transaction and the outbox's leases (FOR UPDATE SKIP LOCKED)
/**
 * x-reminders through the HTTP API (issue 24 §1): the list contract in the caller's scope, reminders
 * written in the write's transaction with their announcement in the outbox, a failed send tried again,
 * the switches (OFF leaves the remind counter), the administrators' refresh, closing by hand.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/development/rules.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { TODAY, developmentWorld, newApplicant, step, type DevWorld } from '../support/development.js';

interface Reminder {
  id: number;
  module: string;
  recordId: number;
  type: string;
  title: string;
  dueDate: string;
  state: number;
  enabled: number;
}

describe(`reminders (x-reminders) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  let talkId: number;
  const list = async (c: DevWorld['branch'], query = 'module=development&type=talk') => (await c('GET', `/api/reminders?${query}&size=100`)).body as { content: Reminder[]; totalElements: number };
  const counter = async (c: DevWorld['branch']) => ((await c('GET', '/api/msgPushHistory/count')).body as { totalElements: number }).totalElements;
  const outboxOf = async (recordId: number) =>
    (await sql<{ id: number; attempts: number; sent_at: Date | null; last_error: string | null; user_ids: number[]; title: string }>`
      SELECT o.id, o.attempts, o.sent_at, o.last_error, o.user_ids, o.title FROM reminder_outbox o JOIN reminders r ON r.id = o.reminder_id
      WHERE r.module = 'development' AND r.record_id = ${recordId} ORDER BY o.id`.execute(t.database.db)).rows;

  beforeAll(async () => {
    t = await createTestApp();
    w = await developmentWorld(t.app, ['msg-remind:list']);
    // An application received 28 days ago: the talk is due within the month, announced 7 days ahead.
    talkId = (await newApplicant(w)).id;
    expect((await step(w.branch, talkId, 'apply', { applyDate: addDays(TODAY, -28) })).status).toBe(200);
  }, 120_000);
  afterAll(() => t.app.close());

  it('a step that starts a reminder writes it and its announcement in the step\'s transaction; the list answers the contract in the caller\'s scope', async () => {
    const record = (await w.admin('GET', `/api/m/development/${talkId}`)).body as { name: string; dueDate: string };
    const page = await list(w.branch);
    expect(page.content.find((r) => r.recordId === talkId)).toEqual(expect.objectContaining({ module: 'development', recordId: talkId, type: 'talk', title: '入党谈话期限', dueDate: record.dueDate, state: 2, enabled: 1 }));
    expect(page.totalElements).toBe(page.content.length);
    // Nothing ran yet but the step: its announcement waits in the outbox for the branch secretary.
    expect(await outboxOf(talkId)).toEqual([expect.objectContaining({ attempts: 0, sent_at: null, user_ids: [w.users.branch], title: `入党谈话期限：${record.name}` })]);
    // The other college's branch secretary sees none of it; filters narrow the list.
    expect((await list(w.otherBranch)).content.map((r) => r.recordId)).not.toContain(talkId);
    expect((await list(w.branch, 'module=development&type=talk&state=1')).content.map((r) => r.recordId)).not.toContain(talkId);
    expect((await list(w.committee, `module=development&orgId=${w.ids.college}`)).content.map((r) => r.recordId)).toContain(talkId);
    expect((await list(w.committee, `module=development&orgId=${w.ids.college2}`)).content).toEqual([]);
    expect((await w.branch('GET', '/api/reminders?state=9')).body).toEqual({ status: 400, message: '提醒状态不正确' });
  });

  it('a failed send stays in the outbox and is sent when tried again; the message names its reminder', async () => {
    const reminders = t.app.runtime.reminders;
    const sender = reminders.sender;
    let calls = 0;
    reminders.sender = async () => {
      calls++;
      throw new Error('push service down');
    };
    try {
      expect(await reminders.deliver({ modules: ['development'] })).toBe(0);
    } finally {
      reminders.sender = sender;
    }
    expect(calls).toBeGreaterThanOrEqual(1);
    const [failed] = await outboxOf(talkId);
    expect(failed).toMatchObject({ attempts: 1, sent_at: null, last_error: 'push service down' });
    // Not before its next attempt is due; then sent, once.
    expect(await reminders.deliver({ modules: ['development'] })).toBe(0);
    expect(await reminders.deliver({ modules: ['development'], now: new Date(Date.now() + 5 * 60_000) })).toBeGreaterThanOrEqual(1);
    const [sent] = await outboxOf(talkId);
    expect(sent).toMatchObject({ attempts: 2, last_error: null });
    expect(sent.sent_at).toBeInstanceOf(Date);
    const messages = (await sql<{ user_id: number; reminder_id: number | null }>`SELECT user_id, reminder_id FROM msg_push_history WHERE type = 'remind' AND title LIKE ${'入党谈话期限：%'} AND link = ${`/development/process?id=${talkId}`}`.execute(t.database.db)).rows;
    expect(messages).toEqual([{ user_id: w.users.branch, reminder_id: expect.any(Number) }]);
    expect(await reminders.deliver({ now: new Date(Date.now() + 60 * 60_000) })).toBe(0);
  });

  it('an administrator switches a type off: its reminders say so and leave the receivers\' remind counter; on again, they count again', async () => {
    const started = (await list(w.branch, 'module=development&type=talk&state=2')).content.length;
    expect(started).toBeGreaterThanOrEqual(1);
    const before = await counter(w.branch);
    expect((await w.branch('PUT', '/api/reminders/types', { module: 'development', type: 'talk', enabled: 0 })).status).toBe(403);
    expect((await w.admin('PUT', '/api/reminders/types', { module: 'development', type: 'nope', enabled: 0 })).body).toEqual({ status: 404, message: '提醒类型不存在' });
    expect((await w.admin('PUT', '/api/reminders/types', { module: 'development', type: 'talk', enabled: 2 })).status).toBe(400);
    expect((await w.admin('PUT', '/api/reminders/types', { module: 'development', type: 'talk', enabled: 0 })).body).toEqual({ module: 'development', type: 'talk', enabled: 0, ahead: 7 });
    expect(await counter(w.branch)).toBe(before - started);
    expect((await list(w.branch)).content.find((r) => r.recordId === talkId)).toMatchObject({ state: 2, enabled: 0 });
    const types = (await w.branch('GET', '/api/reminders/types')).body as { module: string; type: string; enabled: number }[];
    expect(types.find((x) => x.type === 'talk')).toMatchObject({ module: 'development', enabled: 0 });
    expect(types.map((x) => `${x.module}:${x.type}`)).toEqual(expect.arrayContaining(['development:assess', 'development:probation', 'development:publicity', 'transfer-out:temporary-ended', 'floating:floating-return']));
    await w.admin('PUT', '/api/reminders/types', { module: 'development', type: 'talk', enabled: 1 });
    expect(await counter(w.branch)).toBe(before);
  });

  it('POST /api/reminders/refresh recomputes every reminder for administrators and answers the started ones per module and type', async () => {
    expect((await w.branch('POST', '/api/reminders/refresh')).status).toBe(403);
    // A probation ending in 20 days, written around the runtime: only a recomputation finds it.
    const probation = (await newApplicant(w)).id;
    await sql`UPDATE m_development SET state = 7, probation_end = ${addDays(TODAY, 20)} WHERE id = ${probation}`.execute(t.database.db);
    const res = await w.admin('POST', '/api/reminders/refresh');
    expect(res.status).toBe(200);
    expect(res.body.counts.development).toEqual({ talk: expect.any(Number), assess: expect.any(Number), probation: expect.any(Number), publicity: expect.any(Number) });
    expect(res.body.counts.development.talk).toBeGreaterThanOrEqual(1);
    expect(res.body.counts.development.probation).toBeGreaterThanOrEqual(1);
    expect(res.body.counts['transfer-out']).toEqual({ 'temporary-ended': 0, 'receipt-missing': expect.any(Number) });
    expect((await list(w.branch, 'module=development&type=probation')).content.find((r) => r.recordId === probation)).toMatchObject({ state: 2, dueDate: addDays(TODAY, 20) });
    // The record moved on around the runtime: the next recomputation ends its reminder.
    await sql`UPDATE m_development SET state = 9 WHERE id = ${probation}`.execute(t.database.db);
    await w.admin('POST', '/api/reminders/refresh');
    expect((await list(w.branch, 'module=development&type=probation')).content.find((r) => r.recordId === probation)).toMatchObject({ state: 3 });
  });

  it('a step that ends the condition ends the reminder in its transaction; a type not closable by hand answers 400', async () => {
    const mine = (await list(w.branch)).content.find((r) => r.recordId === talkId)!;
    expect((await w.branch('POST', `/api/reminders/${mine.id}/close`)).body).toEqual({ status: 400, message: '该类提醒不能手动关闭，办结相关事项后自动结束' });
    expect((await w.otherBranch('POST', `/api/reminders/${mine.id}/close`)).status).toBe(404);
    expect((await step(w.branch, talkId, 'talk', { talkDate: TODAY, talker: '张老师' })).status).toBe(200);
    expect((await list(w.branch)).content.find((r) => r.recordId === talkId)).toMatchObject({ state: 3 });
    // Deleting a record ends its reminders too.
    const other = (await newApplicant(w)).id;
    await step(w.branch, other, 'apply', { applyDate: addDays(TODAY, -29) });
    expect((await list(w.branch)).content.find((r) => r.recordId === other)).toMatchObject({ state: 2 });
    await sql`UPDATE m_development SET state = -1 WHERE id = ${other}`.execute(t.database.db);
    expect((await w.branch('DELETE', '/api/m/development', [other])).status).toBe(200);
    expect((await list(w.branch)).content.find((r) => r.recordId === other)).toMatchObject({ state: 3 });
  });
});

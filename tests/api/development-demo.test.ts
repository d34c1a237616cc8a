// engines: pglite — the content of the demo applications; seeding on both engines is foundation's
/**
 * The demo applications of `npm start` (issue 15): every state and every one of the 25 steps present,
 * dates that keep the rules, member records and 志愿书 numbers for the admitted, the log of each
 * application, and work waiting for the demo accounts of each level.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addYears } from '../../src/shared/development/rules.js';
import { fullYearsBetween } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { clientOf } from '../support/development.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe(`demo applications on ${TEST_DB}`, () => {
  let t: TestApp;
  let rows: Record<string, any>[];
  beforeAll(async () => {
    t = await createDemoTestApp();
    rows = (await sql<Record<string, any>>`SELECT * FROM m_development ORDER BY id`.execute(t.database.db)).rows;
  });
  afterAll(() => t.app.close());

  it('has applications in every state, and in the demo branch one of each; every step completed somewhere', async () => {
    expect(rows.length).toBeGreaterThanOrEqual(400);
    const states = [-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([...new Set(rows.map((r) => r.state))].sort((a, b) => a - b)).toEqual(states);
    const branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id;
    expect([...new Set(rows.filter((r) => r.org_id === branch).map((r) => r.state))].sort((a, b) => a - b)).toEqual(states);
    const steps = (await sql<{ transition: string }>`SELECT DISTINCT transition FROM workflow_log WHERE module = 'development'`.execute(t.database.db)).rows.map((r) => r.transition);
    expect(steps.sort()).toEqual(['activist', 'activistFile', 'admit', 'apply', 'applyFull', 'approve', 'archive', 'assess', 'assign', 'book', 'branchReview', 'committeeTalk',
      'contacts', 'extend', 'full', 'fullMeeting', 'oath', 'orgFile', 'preReview', 'reject', 'review', 'talk', 'target', 'targetFile', 'train', 'withdraw'].sort());
    const completed = new Set(rows.map((r) => Number(r.step)).filter(Boolean));
    for (const n of [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]) expect(completed.has(n), `step ${n}`).toBe(true);
  });

  it('keeps the rules: 18 on applying, a year as activist, the probation a year from the meeting (two when extended), dates in order', () => {
    for (const r of rows) {
      if (r.apply_date) expect(fullYearsBetween(r.birth_date, r.apply_date), r.name).toBeGreaterThanOrEqual(18);
      if (r.target_date) expect(r.target_date >= addYears(r.activist_date, 1), r.name).toBe(true);
      if (r.admit_date) expect(r.probation_end).toBe(addYears(r.admit_date, r.extend_months ? 2 : 1));
      if (r.full_date) expect(r.full_date >= r.probation_end).toBe(true);
      const chain = [r.apply_date, r.talk_date, r.activist_date, r.target_date, r.review_date, r.training_end_date, r.meeting_date, r.approve_date].filter(Boolean);
      expect(chain, r.name).toEqual([...chain].sort());
    }
  });

  it('the admitted have member records (probationary, or full after 转正) and unique 志愿书 numbers', async () => {
    const admitted = rows.filter((r) => r.state >= 6);
    expect(admitted.every((r) => r.member_id && r.volunteer_book_no)).toBe(true);
    const members = (await sql<{ id: number; member_type: string; id_card: string }>`SELECT id, member_type, id_card FROM m_member WHERE id = ANY(${admitted.map((r) => r.member_id)}::int[])`.execute(t.database.db)).rows;
    expect(members.length).toBe(admitted.length);
    for (const r of admitted) expect(members.find((m) => m.id === r.member_id)).toMatchObject({ id_card: r.id_card, member_type: r.state >= 9 ? '1' : '2' });
    const numbers = rows.map((r) => r.volunteer_book_no).filter(Boolean);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('work waits for each demo account: the branch takes a step, the committee and the organisation department have to-dos', async () => {
    const todos = await sql<{ username: string; n: number }>`SELECT u.username, count(*)::int AS n FROM msg_todo t JOIN users u ON u.id = t.user_id WHERE t.module = 'development' AND t.status = 0 GROUP BY u.username`.execute(t.database.db);
    const of = (u: string) => todos.rows.find((r) => r.username === u)?.n ?? 0;
    expect(of('zbsj')).toBeGreaterThan(0);
    expect(of('ejdw')).toBeGreaterThan(0);
    expect(of('dwzzb')).toBeGreaterThan(0);
    expect(of('dy')).toBe(0);
    const zbsj = clientOf(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    const waiting = (await zbsj('POST', '/api/m/development/list?size=100', { $waiting: true, state: [0] })).body.content as { id: number }[];
    expect(waiting.length).toBeGreaterThan(0);
    const record = (await zbsj('GET', `/api/m/development/${waiting[0].id}`)).body;
    const talk = await zbsj('POST', `/api/m/development/${record.id}/transitions/talk`, { version: record.version, values: { talkDate: record.applyDate, talker: '支部书记' } });
    expect(talk.status, JSON.stringify(talk.body)).toBe(200);
  });
});

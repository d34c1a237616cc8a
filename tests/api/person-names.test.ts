// engines: pglite — names resolved in plain SQL; no engine-specific behaviour
/**
 * Issue 33.6: one person, one name. An account linked to a member record is named as the member in the
 * party school (class roster, registration, home, marking queue, results and their search, seating),
 * not by the account's nickname; an account without a member keeps its nickname.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkUserToMember } from '../../src/server/domain/member/accounts.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { bearer, login } from '../support/auth.js';
import { admit, createRecord, learners, schoolFixture, type SchoolFixture, SETUP_TIMEOUT } from '../support/pschool.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const HOUR = 3_600_000;

describe(`one name per person on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let f: SchoolFixture;
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    f = await schoolFixture(t.app, admin, '同名');
  }, SETUP_TIMEOUT);
  afterAll(() => t.app.close());

  /** A member record (written directly: the member form's 25 fields are not what this file tests). */
  async function member(name: string): Promise<number> {
    const first17 = `11010119900101${String(1000 + ++serial).slice(-3)}`;
    const idCard = first17 + idCardCheckChar(first17);
    const row = await sql<{ id: number }>`
      INSERT INTO m_member (school, name, gender, id_card, category, member_type, party_status, join_date)
      VALUES ('default', ${name}, '1', ${idCard}, '1', '1', '1', '2010-07-01') RETURNING id`.execute(t.database.db);
    return row.rows[0].id;
  }
  const get = (url: string, token = admin) => t.app.inject({ url, headers: bearer(token) });
  const studentsOf = async (classId: number) =>
    ((await t.app.inject({ method: 'POST', url: '/api/m/pschool-student/list?size=1000&fields=all', headers: bearer(admin), payload: {} })).json().content as { classId: number; userId: number; name: string }[]).filter((s) => s.classId === classId);

  it('[33.6] a student whose account is linked to a member is named as the member, before and after the link; others keep their nickname', async () => {
    const [early, late, plain] = await learners(t.app, 3, 'pnroster');
    await linkUserToMember(t.database.db, early.id, await member('刘早链'));
    await admit(t.app, admin, f.classId, [early, late, plain]);
    // The account is linked after it was admitted: the roster follows.
    await linkUserToMember(t.database.db, late.id, await member('王后链'));
    const byUser = new Map((await studentsOf(f.classId)).map((s) => [s.userId, s.name]));
    expect([byUser.get(early.id), byUser.get(late.id), byUser.get(plain.id)]).toEqual(['刘早链', '王后链', `学员${plain.username}`]);
    // The learner's own study home greets them by the member's name too.
    expect((await get('/api/pschool/home', early.token)).json().name).toBe('刘早链');
    expect((await get('/api/pschool/home', plain.token)).json().name).toBe(`学员${plain.username}`);
  });

  it('[33.6] the linked account itself goes by the member\'s name (the top bar reads it from the users API)', async () => {
    const [linked, plain] = await learners(t.app, 2, 'pnaccount');
    await linkUserToMember(t.database.db, linked.id, await member('陈账号'));
    const found = await t.app.inject({ method: 'POST', url: '/api/users/list?size=100', headers: bearer(admin), payload: { blurry: 'pnaccount' } });
    const rows = found.json().content as { id: number; nickName: string }[];
    const nick = new Map(rows.map((u) => [u.id, u.nickName]));
    expect([nick.get(linked.id), nick.get(plain.id)]).toEqual(['陈账号', `学员${plain.username}`]);
  });

  it('[33.6] renaming the member renames the linked account and its student records in the same write', async () => {
    const [linked] = await learners(t.app, 1, 'pnrename');
    const memberId = await member('赵旧名');
    await linkUserToMember(t.database.db, linked.id, memberId);
    await admit(t.app, admin, f.classId, [linked]);
    const record = (await get(`/api/m/member/${memberId}`)).json();
    const put = await t.app.inject({ method: 'PUT', url: '/api/m/member', headers: bearer(admin), payload: { ...record, name: '赵新名' } });
    expect(put.statusCode, put.body).toBe(200);
    const nick = await sql<{ nick_name: string }>`SELECT nick_name FROM users WHERE id = ${linked.id}`.execute(t.database.db);
    expect(nick.rows[0].nick_name).toBe('赵新名');
    expect((await studentsOf(f.classId)).find((s) => s.userId === linked.id)?.name).toBe('赵新名');
  });

  it('[33.6] marking, results (and their name search) and seating name the member, not the account nickname', async () => {
    const [linked, plain] = await learners(t.app, 2, 'pnexam');
    await linkUserToMember(t.database.db, linked.id, await member('赵考生'));
    const short = (await createRecord(t.app, admin, 'question', { type: '4', stem: '简述党员的权利。', answer: '八项权利', score: 10 })).id;
    const exam = await createRecord(t.app, admin, 'exam', {
      title: `同名考试${Date.now()}`, startAt: new Date(Date.now() - HOUR).toISOString(), endAt: new Date(Date.now() + HOUR).toISOString(),
      duration: 30, passMark: 6, compose: '1', questionIds: [short], published: true, maxAttempts: 1,
    });
    for (const who of [linked, plain]) {
      expect((await t.app.inject({ method: 'POST', url: `/api/pschool/exams/${exam.id}/start`, headers: bearer(who.token) })).statusCode).toBe(200);
      const done = await t.app.inject({ method: 'POST', url: `/api/pschool/exams/${exam.id}/submit`, headers: bearer(who.token), payload: { answers: { [short]: '有表决权、选举权和被选举权' } } });
      expect(done.statusCode, done.body).toBe(200);
    }
    const queue = (await get(`/api/pschool/marking?examId=${exam.id}`)).json() as { id: number; name: string; username: string }[];
    expect(queue.map((s) => s.name).sort()).toEqual(['赵考生', `学员${plain.username}`].sort());
    const sheet = queue.find((s) => s.username === linked.username)!;
    expect((await get(`/api/pschool/marking/${sheet.id}`)).json().name).toBe('赵考生');
    const results = (await get(`/api/pschool/exams/${exam.id}/results`)).json();
    expect(results.content.map((r: { name: string }) => r.name).sort()).toEqual(['赵考生', `学员${plain.username}`].sort());
    // Searching by the member's name finds the person; the nickname they no longer go by does not.
    expect((await get(`/api/pschool/exams/${exam.id}/results?name=${encodeURIComponent('赵考')}`)).json().content).toEqual([expect.objectContaining({ userId: linked.id, name: '赵考生' })]);
    expect((await get(`/api/pschool/exams/${exam.id}/results?name=${encodeURIComponent(`学员${linked.username}`)}`)).json().totalElements).toBe(0);
    // An exam without a class seats whoever sat it, by the same names.
    const seating = (await t.app.inject({ method: 'PUT', url: `/api/pschool/seating/exam/${exam.id}`, headers: bearer(admin), payload: { room: '一教101', rows: 2, cols: 2, mode: 'random' } })).json();
    expect(JSON.stringify(seating)).toContain('赵考生');
    expect(JSON.stringify(seating)).not.toContain(`学员${linked.username}`);
  });
});

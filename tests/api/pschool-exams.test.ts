// engines: both — concurrent exam submissions and the results export
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../support/auth.js';
import { admit, createRecord, learners, schoolFixture, type SchoolFixture, SETUP_TIMEOUT } from '../support/pschool.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

type Learner = { id: number; token: string; username: string };
const HOUR = 3_600_000;

describe(`party-school exams on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let f: SchoolFixture;
  let q: { single: number; multiple: number; judge: number; fill: number; short: number };
  let people: Learner[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    f = await schoolFixture(t.app, admin, '考试');
    const make = (body: Record<string, unknown>) => createRecord(t.app, admin, 'question', body).then((r) => r.id);
    q = {
      single: await make({ type: '0', stem: '党的最高理想是（ ）', optionA: '共产主义', optionB: '小康', answer: 'A', score: 2 }),
      multiple: await make({ type: '1', stem: '“三会一课”包括（ ）', optionA: '支部党员大会', optionB: '支部委员会', optionC: '党小组会', optionD: '团课', answer: 'CAB', score: 4 }),
      judge: await make({ type: '2', stem: '预备期为一年。', answer: '对', score: 2 }),
      fill: await make({ type: '3', stem: '党的根本宗旨是____，党的思想路线核心是____。', answer: '全心全意为人民服务/为人民服务|实事求是', score: 4 }),
      short: await make({ type: '4', stem: '简述党员的义务。', answer: '八项义务……', score: 8 }),
    };
    people = await learners(t.app, 6, 'ex');
    await admit(t.app, admin, f.classId, people.slice(0, 5));
  }, SETUP_TIMEOUT);
  afterAll(() => t.app.close());

  const exam = (body: Record<string, unknown> = {}) =>
    createRecord(t.app, admin, 'exam', {
      title: `考试${Math.random()}`, classId: f.classId, startAt: new Date(Date.now() - HOUR).toISOString(), endAt: new Date(Date.now() + HOUR).toISOString(),
      duration: 30, passMark: 12, compose: '1', questionIds: [q.single, q.multiple, q.judge, q.fill], published: true, maxAttempts: 2, ...body,
    });
  const call = (method: 'POST' | 'PUT' | 'GET', url: string, token: string, payload?: unknown) => t.app.inject({ method, url, headers: bearer(token), payload: payload as never });
  const start = (examId: number, who: Learner) => call('POST', `/api/pschool/exams/${examId}/start`, who.token);
  const save = (examId: number, who: Learner, answers: Record<string, unknown>) => call('PUT', `/api/pschool/exams/${examId}/answers`, who.token, { answers });
  const submit = (examId: number, who: Learner, answers?: Record<string, unknown>) => call('POST', `/api/pschool/exams/${examId}/submit`, who.token, answers ? { answers } : {});
  const sessionRow = (examId: number, userId: number) =>
    t.database.db.selectFrom('pschool_exam_sessions' as never).selectAll().where('exam_id' as never, '=', examId as never).where('user_id' as never, '=', userId as never).orderBy('attempt' as never, 'desc').executeTakeFirstOrThrow() as Promise<Record<string, unknown>>;

  it('the exam keeps its total from its questions, and a pass mark above it is refused', async () => {
    const e = await exam();
    expect(e).toMatchObject({ totalScore: 12, passMark: 12 });
    const high = await t.app.inject({ method: 'POST', url: '/api/m/exam', headers: bearer(admin), payload: { title: '高分', startAt: new Date().toISOString(), endAt: new Date(Date.now() + HOUR).toISOString(), duration: 10, passMark: 99, compose: '1', questionIds: [q.single] } });
    expect(high.json()).toMatchObject({ status: 400, errors: [{ field: 'passMark', message: '及格分不能高于总分（2分）' }] });
    const noQuestions = await t.app.inject({ method: 'POST', url: '/api/m/exam', headers: bearer(admin), payload: { title: '空卷', startAt: new Date().toISOString(), endAt: new Date(Date.now() + HOUR).toISOString(), duration: 10, passMark: 1, compose: '1' } });
    expect(noQuestions.json()).toMatchObject({ errors: [{ field: 'questionIds' }] });
    const backwards = await t.app.inject({ method: 'POST', url: '/api/m/exam', headers: bearer(admin), payload: { title: '倒序', startAt: new Date().toISOString(), endAt: new Date(Date.now() - HOUR).toISOString(), duration: 10, passMark: 1, compose: '1', questionIds: [q.single] } });
    expect(backwards.json()).toMatchObject({ errors: [{ field: 'endAt', message: '截止时间须晚于开始时间' }] });
  });

  it('start gives the paper without answer keys; answers are saved as the learner goes; a lost connection resumes the same sheet', async () => {
    const e = await exam();
    const s = await start(e.id, people[0]);
    expect(s.statusCode, s.body).toBe(200);
    const sheet = s.json();
    expect(sheet).toMatchObject({ attempt: 1, totalScore: 12, answers: {} });
    expect(sheet.questions.map((x: { id: number }) => x.id)).toEqual([q.single, q.multiple, q.judge, q.fill]);
    expect(JSON.stringify(sheet.questions)).not.toContain('全心全意');
    expect(sheet.questions[3]).toMatchObject({ type: 3, blanks: 2 });
    expect(new Date(sheet.deadline).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect((await save(e.id, people[0], { [q.single]: 'A' })).json()).toMatchObject({ saved: 1 });
    expect((await save(e.id, people[0], { [q.judge]: '正确' })).statusCode).toBe(200);
    expect((await save(e.id, people[0], { 999999: 'A' })).json()).toMatchObject({ status: 400, message: '答案中有不属于本试卷的题目' });
    const resumed = (await start(e.id, people[0])).json();
    expect(resumed).toMatchObject({ sessionId: sheet.sessionId, attempt: 1, deadline: sheet.deadline, answers: { [q.single]: 'A', [q.judge]: '正确' } });
  });

  it('an answer after the deadline is refused and changes nothing; the sheet closes with what was saved in time', async () => {
    const e = await exam();
    await start(e.id, people[1]);
    await save(e.id, people[1], { [q.single]: 'A', [q.multiple]: 'ABC' });
    // The deadline passes (the clock of the test moves the session's deadline into the past).
    await t.database.db.updateTable('pschool_exam_sessions' as never).set({ deadline: new Date(Date.now() - 10_000) } as never).where('exam_id' as never, '=', e.id as never).execute();
    const late = await save(e.id, people[1], { [q.judge]: '正确' });
    expect(late.json()).toMatchObject({ status: 400, message: '考试时间已到，答案未保存' });
    const result = await submit(e.id, people[1], { [q.judge]: '正确', [q.fill]: ['全心全意为人民服务', '实事求是'] });
    expect(result.json()).toMatchObject({ score: 6, passed: false, status: 3, late: true, attempt: 1 });
    const row = await sessionRow(e.id, people[1].id);
    expect(row.answers).toEqual({ [q.single]: 'A', [q.multiple]: 'ABC' });
  });

  it('objective questions are marked at once: multiple choice all or nothing, fill per blank; partial credit when the exam says so', async () => {
    const strict = await exam();
    await start(strict.id, people[2]);
    const r1 = await submit(strict.id, people[2], { [q.single]: 'A', [q.multiple]: 'AB', [q.judge]: '错误', [q.fill]: ['为人民服务', '错'] });
    expect(r1.json()).toMatchObject({ score: 4, passed: false, status: 3 }); // 2 + 0 + 0 + 2
    const lenient = await exam({ partialCredit: true });
    await start(lenient.id, people[2]);
    const r2 = await submit(lenient.id, people[2], { [q.single]: 'A', [q.multiple]: 'AB', [q.judge]: '正确', [q.fill]: [' 全心全意为人民服务 ', '实事求是'] });
    expect(r2.json()).toMatchObject({ score: 10, passed: false }); // 2 + 2 (half) + 2 + 4
    const wrongChoice = await exam({ partialCredit: true });
    await start(wrongChoice.id, people[2]);
    expect((await submit(wrongChoice.id, people[2], { [q.multiple]: 'AD' })).json()).toMatchObject({ score: 0 });
  });

  it('a short answer waits for a marker; the mark sets the result, the pass reaches the class record; retakes are limited', async () => {
    const e = await exam({ questionIds: [q.single, q.short], passMark: 6, maxAttempts: 2 });
    await start(e.id, people[3]);
    const first = await submit(e.id, people[3], { [q.single]: 'B', [q.short]: '认真学习' });
    expect(first.json()).toMatchObject({ score: 0, passed: null, status: 2, pending: 1 });
    // The marking queue shows the sheet; marks must be within the question's score.
    const queue = (await call('GET', `/api/pschool/marking?examId=${e.id}`, admin)).json();
    expect(queue).toEqual([expect.objectContaining({ examId: e.id, pending: 1, attempt: 1 })]);
    const sheet = (await call('GET', `/api/pschool/marking/${queue[0].id}`, admin)).json();
    expect(sheet.items).toEqual([expect.objectContaining({ questionId: q.short, answer: '认真学习', maxScore: 8, score: null, reference: '八项义务……' })]);
    expect((await call('PUT', `/api/pschool/marking/${queue[0].id}`, admin, { marks: { [q.short]: 9 } })).json()).toMatchObject({ status: 400, message: '得分须在0到8分之间（可到0.5分）' });
    expect((await call('PUT', `/api/pschool/marking/${queue[0].id}`, admin, { marks: { [q.single]: 2 } })).json()).toMatchObject({ status: 400, message: '只能给简答题评分' });
    expect((await call('PUT', `/api/pschool/marking/${queue[0].id}`, admin, { marks: { [q.short]: 5 } })).json()).toEqual({ score: 5, passed: false, status: 3 });
    expect((await call('GET', `/api/pschool/marking?examId=${e.id}`, admin)).json()).toEqual([]);
    // Failed: a second attempt (a new paper, same questions).
    const second = (await start(e.id, people[3])).json();
    expect(second.attempt).toBe(2);
    await submit(e.id, people[3], { [q.single]: 'A', [q.short]: '认真学习党的理论，遵守纪律' });
    const queue2 = (await call('GET', `/api/pschool/marking?examId=${e.id}`, admin)).json();
    expect((await call('PUT', `/api/pschool/marking/${queue2[0].id}`, admin, { marks: { [q.short]: 6.5 } })).json()).toEqual({ score: 8.5, passed: true, status: 3 });
    const student = (await call('POST', '/api/m/pschool-student/list?fields=all', admin, { userId: people[3].id })).json().content[0];
    expect(student).toMatchObject({ examPassed: true });
    expect((await start(e.id, people[3])).json()).toMatchObject({ status: 400, message: '您已通过本场考试' });
    const mine = (await call('GET', `/api/pschool/exams/${e.id}/mine`, people[3].token)).json();
    expect(mine.attempts.map((a: { attempt: number; passed: boolean }) => [a.attempt, a.passed])).toEqual([[2, true], [1, false]]);
    // Out of attempts.
    const once = await exam({ maxAttempts: 1 });
    await start(once.id, people[4]);
    await submit(once.id, people[4], {});
    expect((await start(once.id, people[4])).json()).toMatchObject({ status: 400, message: '本场考试最多可作答1次，您已用完' });
  });

  it('who may sit when: the class only, inside the window, published', async () => {
    const e = await exam();
    expect((await start(e.id, people[5])).json()).toMatchObject({ status: 403, message: '您不是本场考试的考生' });
    const later = await exam({ startAt: new Date(Date.now() + HOUR).toISOString(), endAt: new Date(Date.now() + 2 * HOUR).toISOString() });
    expect((await start(later.id, people[0])).json()).toMatchObject({ status: 400, message: '考试尚未开始' });
    const hidden = await exam({ published: false });
    expect((await start(hidden.id, people[0])).statusCode).toBe(404);
    const list = (await call('GET', '/api/pschool/exams', people[0].token)).json();
    expect(list.find((x: { id: number }) => x.id === later.id)).toMatchObject({ state: 'upcoming', canStart: false });
    expect(list.find((x: { id: number }) => x.id === hidden.id)).toBeUndefined();
    // An exam of nobody's class is open to every learner.
    const open = await exam({ classId: null });
    expect((await start(open.id, people[5])).statusCode).toBe(200);
  });

  it('a rule-composed exam draws a paper per student from the bank by type; too few questions is a clear error', async () => {
    const e = await exam({ compose: '2', questionIds: null, passMark: 0 });
    await createRecord(t.app, admin, 'exam-rule', { examId: e.id, type: '0', count: 1, score: 5 });
    await createRecord(t.app, admin, 'exam-rule', { examId: e.id, type: '2', count: 1, score: 5 });
    expect((await call('GET', `/api/m/exam/${e.id}`, admin)).json()).toMatchObject({ totalScore: 10 });
    const sheet = (await start(e.id, people[0])).json();
    expect(sheet.questions.map((x: { type: number; score: number }) => [x.type, x.score])).toEqual([[0, 5], [2, 5]]);
    const greedy = await exam({ compose: '2', questionIds: null, passMark: 0 });
    await createRecord(t.app, admin, 'exam-rule', { examId: greedy.id, type: '4', count: 3, score: 5 });
    expect((await start(greedy.id, people[0])).json()).toMatchObject({ status: 400, message: '题库中符合规则的题目不足：需要3道，只有1道' });
  });

  it('results, their export, per-question statistics, and re-marking after a corrected key', async () => {
    const e = await exam({ questionIds: [q.single, q.judge], passMark: 2 });
    for (const [i, who] of people.slice(0, 3).entries()) {
      await start(e.id, who);
      await submit(e.id, who, { [q.single]: i === 0 ? 'B' : 'A', [q.judge]: i === 2 ? '错误' : '正确' });
    }
    const results = (await call('GET', `/api/pschool/exams/${e.id}/results`, admin)).json();
    expect(results.totalElements).toBe(3);
    expect(results.content.map((r: { score: number }) => r.score)).toEqual([4, 2, 2]);
    const stats = (await call('GET', `/api/pschool/exams/${e.id}/statistics`, admin)).json();
    expect(stats).toMatchObject({ sheets: 3, marked: 3, passed: 3, average: 2.67, highest: 4, lowest: 2, passRate: 100 });
    expect(stats.questions).toEqual([
      expect.objectContaining({ questionId: q.single, typeLabel: '单选题', sheets: 3, answered: 3, correct: 2, correctRate: 66.67, average: 1.33 }),
      expect.objectContaining({ questionId: q.judge, typeLabel: '判断题', sheets: 3, correct: 2 }),
    ]);
    const file = await call('GET', `/api/pschool/exams/${e.id}/results/export`, admin);
    expect(file.headers['content-disposition']).toContain('xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('成绩')!;
    expect(sheet.getRow(1).values).toEqual([undefined, '姓名', '账号', '所在党组织', '第几次', '开始时间', '交卷时间', '得分', '是否及格', '状态']);
    expect(sheet.rowCount).toBe(4);
    // The key of the single-choice question was wrong: B is right. Re-marking follows the bank.
    const single = (await call('GET', `/api/m/question/${q.single}`, admin)).json();
    await call('PUT', '/api/m/question', admin, { id: single.id, version: single.version, optionB: '共产主义', optionA: '小康' , answer: 'B' });
    expect((await call('POST', `/api/pschool/exams/${e.id}/remark`, admin)).json()).toEqual({ sheets: 3, changed: 3 });
    const after = (await call('GET', `/api/pschool/exams/${e.id}/results`, admin)).json();
    expect(after.content.map((r: { score: number; passed: boolean }) => [r.score, r.passed])).toEqual([[4, true], [2, true], [0, false]]);
    await call('PUT', '/api/m/question', admin, { id: single.id, version: single.version + 1, optionA: '共产主义', optionB: '小康', answer: 'A' });
    // Learners cannot reach the results.
    expect((await call('GET', `/api/pschool/exams/${e.id}/results`, people[0].token)).statusCode).toBe(403);
  });

  it('200 students submitting at once lose nothing', { timeout: 300_000 }, async () => {
    const crowd = await learners(t.app, 200, 'crowd');
    const e = await exam({ classId: null, questionIds: [q.single, q.multiple, q.judge, q.fill], passMark: 6 });
    const answersOf = (i: number) => ({ [q.single]: i % 2 ? 'A' : 'B', [q.multiple]: 'ABC', [q.judge]: i % 3 ? '正确' : '错误', [q.fill]: ['为人民服务', '实事求是'] });
    const expected = (i: number) => (i % 2 ? 2 : 0) + 4 + (i % 3 ? 2 : 0) + 4;
    const started = await Promise.all(crowd.map((who) => start(e.id, who)));
    expect(started.every((r) => r.statusCode === 200)).toBe(true);
    await Promise.all(crowd.map((who, i) => save(e.id, who, answersOf(i))));
    const submitted = await Promise.all(crowd.map((who) => submit(e.id, who)));
    expect(submitted.map((r) => r.statusCode)).toEqual(crowd.map(() => 200));
    expect(submitted.map((r) => r.json().score)).toEqual(crowd.map((_, i) => expected(i)));
    const rows = (await t.database.db.selectFrom('pschool_exam_sessions' as never).select(['user_id', 'score', 'status', 'answers'] as never[]).where('exam_id' as never, '=', e.id as never).execute()) as unknown as { user_id: number; score: number; status: number; answers: Record<string, unknown> }[];
    expect(rows).toHaveLength(200);
    for (const [i, who] of crowd.entries()) {
      const row = rows.find((r) => r.user_id === who.id)!;
      expect(row).toMatchObject({ status: 3, score: expected(i), answers: answersOf(i) });
    }
  });
});

// engines: both — the workflow engine's guarded updates, racing steps and the member record it writes
/**
 * The development workflow through the HTTP API (issue 15): the 25 steps' main line by the levels that
 * own them, the member record it creates and completes, the approval log, to-dos, "waiting for me",
 * batch approval, returns, refusals and new applications, conflicts and failures that change nothing.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/development/rules.js';
import { sendDevelopmentReminders } from '../../src/server/domain/development/index.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, login } from '../support/auth.js';
import { TODAY, clientOf, developmentWorld, history, idCardFor, mainSteps, newApplicant, step, walkUntil, type DevWorld } from '../support/development.js';

const BASE = '/api/m/development';

describe(`development workflow on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(t.database.db)).rows[0].n;
  const todosOf = async (userId: number, recordId: number) =>
    (await sql<{ title: string; status: number; link: string; ref_id: string }>`SELECT title, status, link, ref_id FROM msg_todo WHERE user_id = ${userId} AND module = 'development' AND ref_id LIKE ${`${recordId}:%`} ORDER BY id`.execute(t.database.db)).rows;

  beforeAll(async () => {
    t = await createTestApp();
    w = await developmentWorld(t.app);
  });
  afterAll(() => t.app.close());

  it('[S1.F5a] walks the main line by the levels that own its steps; the member record is created at admission and made full at 转正', async () => {
    const { id } = await newApplicant(w);
    const h = history();
    await walkUntil(w, id, null, h);
    const r = (await w.admin('GET', `${BASE}/${id}`)).body;
    expect(r).toMatchObject({ state: 10, stateLabel: '已归档', stage: '5', step: '25', admitDate: h.meeting, probationEnd: addMonths(h.meeting, 12), fullDate: h.full });
    expect(r.volunteerBookNo).toMatch(new RegExp(`^${h.meeting.slice(0, 4)}\\d{4}$`));

    const member = (await w.admin('GET', `/api/m/member/${r.memberId}`)).body;
    expect(member).toMatchObject({ name: r.name, idCard: r.idCard, memberType: '1', fullDate: h.full, joinDate: h.meeting, orgId: w.ids.branch, partyStatus: '1' });
    const trail = (await w.admin('GET', `/api/m/member/${r.memberId}/trail`)).body.content as { type: number; origin: number; username: string; changes: { field: string; after: unknown }[] }[];
    expect(trail.map((c) => [c.type, c.username])).toEqual([[2, 'devcommittee'], [1, 'devbranch']]);
    expect(trail[0].changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'memberType', after: '1' }), expect.objectContaining({ field: 'fullDate', after: h.full })]));

    const log = (await w.admin('GET', `${BASE}/${id}/approvals`)).body as { transition: string; level: string; result: string; from: number; to: number; actorName: string }[];
    expect(log.map((e) => e.transition)).toEqual(mainSteps(w, h).map(([s]) => s));
    expect(log.map((e) => e.level)).toEqual(['branch', 'branch', 'branch', 'branch', 'branch', 'branch', 'committee', 'branch', 'committee', 'committee', 'orgdept']);
    expect(log[0]).toMatchObject({ from: -1, to: 0, result: 'pass', actorName: 'devbranch' });
    expect(log.find((e) => e.transition === 'preReview')).toMatchObject({ from: 5, to: 5 });
  });

  it('lists the steps open to the caller with their fields; other levels get none', async () => {
    const { id } = await newApplicant(w);
    const open = (await w.branch('GET', `${BASE}/${id}/transitions`)).body as { id: string; to: number; fields: { name: string; required: boolean }[]; warnings: string[] }[];
    expect(open.map((s) => s.id)).toEqual(['apply', 'reject']);
    expect(open[0]).toMatchObject({ id: 'apply', title: '递交入党申请书', to: 0, level: 'branch', warnings: [] });
    expect(open[0].fields).toEqual([{ name: 'applyDate', title: '递交申请书日期', required: true }, { name: 'applyDoc', title: '入党申请书', required: false }]);
    expect((await w.committee('GET', `${BASE}/${id}/transitions`)).body).toEqual([]);
    expect((await w.otherBranch('GET', `${BASE}/${id}/transitions`)).status).toBe(404);
  });

  it('refuses a step of another level (403), from another state (400), out of scope (404), without its permission (403)', async () => {
    const { id } = await newApplicant(w);
    const talk = await step(w.branch, id, 'talk', { talkDate: TODAY, talker: '王' });
    expect(talk.status).toBe(400);
    expect(talk.body.message).toBe('当前状态为“待提交”，不能办理“党组织派人谈话”');
    const byCommittee = await step(w.committee, id, 'apply', { applyDate: history().apply });
    expect(byCommittee.status).toBe(403);
    expect(byCommittee.body.message).toBe('“递交入党申请书”须由本人或党支部办理');
    expect((await w.otherBranch('POST', `${BASE}/${id}/transitions/apply`, { version: 1, values: { applyDate: history().apply } })).status).toBe(404);
    expect((await w.branch('POST', `${BASE}/${id}/transitions/apply`, { values: { applyDate: history().apply } })).body.message).toBe('缺少记录的版本号');
    const unknown = await step(w.branch, id, 'nosuch');
    expect(unknown.status).toBe(404);
    const stored = (await w.admin('GET', `${BASE}/${id}`)).body;
    expect(stored).toMatchObject({ state: -1, version: 1 });
  });

  it('a stale version answers 409 with the record now; of two approvals of one step exactly one wins', async () => {
    const { id, version } = await newApplicant(w);
    await walkUntil(w, id, 'talk');
    const stale = await w.branch('POST', `${BASE}/${id}/transitions/talk`, { version, values: { talkDate: history().talk, talker: '王' } });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ id, state: 0 });
    const now = (await w.branch('GET', `${BASE}/${id}`)).body.version;
    const body = { version: now, values: { talkDate: history().talk, talker: '王' } };
    const [a, b] = await Promise.all([
      w.branch('POST', `${BASE}/${id}/transitions/talk`, body),
      w.branch('POST', `${BASE}/${id}/transitions/talk`, body),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM workflow_log WHERE record_id = ${id} AND transition = 'talk'`)).toBe(1);
  });

  it('a failure inside a step leaves state, log, to-dos, book numbers and member records unchanged', async () => {
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'admit');
    const before = (await w.admin('GET', `${BASE}/${id}`)).body;
    // Someone already registered a member with this ID number: creating the member record fails.
    await sql`INSERT INTO m_member (school, name, gender, id_card, category, member_type, party_status, join_date, org_id)
              VALUES ('hntb', ${before.name}, '1', ${before.idCard}, '4', '2', '2', ${TODAY}, ${w.ids.branch})`.execute(t.database.db);
    const snapshot = async () => ({
      log: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM workflow_log WHERE record_id = ${id}`),
      todos: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM msg_todo WHERE module = 'development' AND ref_id LIKE ${`${id}:%`} AND status = 0`),
      members: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member`),
      numbers: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM development_book_numbers`),
      next: await count(sql<{ n: number }>`SELECT sum(next_no)::int AS n FROM m_development_book_range`),
      trail: await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM change_records WHERE module = 'development' AND record_id = ${id}`),
    });
    const was = await snapshot();
    const [, , values] = mainSteps(w).find(([s]) => s === 'admit')!;
    const res = await step(w.branch, id, 'admit', values);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('已存在');
    expect(await snapshot()).toEqual(was);
    const after = (await w.admin('GET', `${BASE}/${id}`)).body;
    expect(after).toMatchObject({ state: 5, version: before.version, memberId: null, volunteerBookNo: null, meetingDate: null });
    await sql`DELETE FROM m_member WHERE id_card = ${before.idCard}`.execute(t.database.db);
  });

  it('to-dos go to the next actors, link to the record, and close when the step is taken', async () => {
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'talk');
    expect(await todosOf(w.users.branch, id)).toEqual([expect.objectContaining({ status: 0, ref_id: `${id}:talk`, link: `/development/process?id=${id}` })]);
    expect((await todosOf(w.users.branch, id))[0].title).toMatch(/^入党谈话：申请人\d+/);
    expect(await todosOf(w.users.otherBranch, id)).toEqual([]);
    expect(await todosOf(w.users.committee, id)).toEqual([]);
    await walkUntil(w, id, 'target');
    expect((await todosOf(w.users.branch, id)).map((x) => [x.ref_id, x.status])).toEqual([[`${id}:talk`, 1], [`${id}:activist`, 1], [`${id}:contacts`, 0]]);
    expect((await todosOf(w.users.committee, id)).map((x) => [x.ref_id, x.status])).toEqual([[`${id}:activistFile`, 0]]);
    // [43.4] The branch ticks its open to-do off by hand: the record still waits, so its next step brings it back.
    const token = await login(t.app, 'devbranch', 'Develop#2026a');
    const [contacts] = (await t.app.inject({ method: 'GET', url: '/api/msgTodo/getTodo?status=0&size=100', headers: bearer(token) })).json().content.filter((x: { refId: string }) => x.refId === `${id}:contacts`);
    expect((await t.app.inject({ method: 'POST', url: '/api/msgTodo/updateTodo', headers: bearer(token), payload: { ids: [contacts.id], status: 1 } })).statusCode).toBe(200);
    expect((await todosOf(w.users.branch, id)).at(-1)!.status).toBe(1);
    // Filing closes only its own to-do.
    expect((await step(w.committee, id, 'activistFile', { activistFiledDate: addDays(history().activist, 3) })).status).toBe(200);
    expect((await todosOf(w.users.committee, id)).map((x) => x.status)).toEqual([1]);
    expect((await todosOf(w.users.branch, id)).map((x) => [x.ref_id, x.status])).toEqual([[`${id}:talk`, 1], [`${id}:activist`, 1], [`${id}:contacts`, 0]]);
    // The to-do list of the user (GET api/msgTodo/getTodo) shows it.
    const todos = await t.app.inject({ method: 'GET', url: '/api/msgTodo/getTodo?status=0&size=100', headers: bearer(token) });
    expect(todos.json().content.some((x: { refId: string }) => x.refId === `${id}:contacts`)).toBe(true);
  });

  it('"待我审批": each level lists the records whose next step it may take; lists filter on the state', async () => {
    const a = await newApplicant(w);
    await walkUntil(w, a.id, 'talk'); // waits for the branch (talk)
    const b = await newApplicant(w);
    await walkUntil(w, b.id, 'approve'); // waits for the committee (approve, committee talk)
    const ids = async (c: typeof w.branch, body: Record<string, unknown>) => {
      const res = await c('POST', `${BASE}/list?size=1000`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.content as { id: number }[]).map((r) => r.id);
    };
    expect(await ids(w.branch, { $waiting: true })).toContain(a.id);
    expect(await ids(w.branch, { $waiting: true })).not.toContain(b.id);
    expect(await ids(w.committee, { $waiting: true })).toContain(b.id);
    expect(await ids(w.committee, { $waiting: true })).not.toContain(a.id);
    expect(await ids(w.otherBranch, { $waiting: true })).toEqual([]);
    expect(await ids(w.branch, { $waiting: false })).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await ids(w.branch, { state: [0] })).toContain(a.id);
    expect(await ids(w.branch, { state: [0] })).not.toContain(b.id);
    // An optional step (the organisation department's 培训例外) is offered, but nobody waits for it.
    const c = await newApplicant(w);
    await walkUntil(w, c.id, 'review'); // 发展对象: waits for the branch only
    expect(((await w.orgdept('GET', `${BASE}/${c.id}/transitions`)).body as { id: string }[]).map((s) => s.id)).toContain('exception');
    expect(await ids(w.orgdept, { $waiting: true })).not.toContain(c.id);
    expect(await ids(w.branch, { $waiting: true })).toContain(c.id);
    const bad = await w.branch('POST', `${BASE}/list`, { $waiting: 'yes' });
    expect(bad.status).toBe(400);
    expect((await w.admin('POST', '/api/m/member/list', { $waiting: true })).status).toBe(400);
  });

  it('batch approval answers per record: done, or why not', async () => {
    const ready = [await newApplicant(w), await newApplicant(w)];
    for (const r of ready) await walkUntil(w, r.id, 'talk');
    const draft = await newApplicant(w);
    const res = await w.branch('POST', `${BASE}/transitions/talk`, { ids: [ready[0].id, draft.id, ready[1].id, 99999999], comment: '批量', values: { talkDate: history().talk, talker: '支部书记' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ done: 2, failed: 2 });
    expect(res.body.results).toEqual([
      { id: ready[0].id, status: 'done', code: 200, message: '办理成功' },
      { id: draft.id, status: 'failed', code: 400, message: '当前状态为“待提交”，不能办理“党组织派人谈话”' },
      { id: ready[1].id, status: 'done', code: 200, message: '办理成功' },
      { id: 99999999, status: 'failed', code: 404, message: '发展党员记录不存在' },
    ]);
    for (const r of ready) expect((await w.admin('GET', `${BASE}/${r.id}`)).body).toMatchObject({ state: 1, talker: '支部书记' });
    expect((await w.committee('POST', `${BASE}/transitions/talk`, { ids: [ready[0].id] })).body.results[0]).toMatchObject({ status: 'failed', code: 400 });
    expect((await w.branch('POST', `${BASE}/transitions/talk`, { ids: [] })).status).toBe(400);
  });

  it('a return goes back one step (the admission and its member record undone); return and reject need a comment', async () => {
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'approve');
    const admitted = (await w.admin('GET', `${BASE}/${id}`)).body;
    expect(admitted.memberId).toEqual(expect.any(Number));
    expect((await step(w.committee, id, 'return', {}, '')).status).toBe(400);
    expect((await step(w.branch, id, 'return', {}, '退回')).status).toBe(403);
    const back = await step(w.committee, id, 'return', {}, '支部大会表决票数有误，请重新组织');
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ state: 5, memberId: null });
    expect((await w.admin('GET', `/api/m/member/${admitted.memberId}`)).status).toBe(404);
    const log = (await w.admin('GET', `${BASE}/${id}/approvals`)).body as { result: string; comment: string; from: number; to: number }[];
    expect(log.at(-1)).toMatchObject({ result: 'return', comment: '支部大会表决票数有误，请重新组织', from: 6, to: 5 });
    // Admitted again: a new member record, the same book number.
    const [, , values] = mainSteps(w).find(([s]) => s === 'admit')!;
    const again = await step(w.branch, id, 'admit', values);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.volunteerBookNo).toBe(admitted.volunteerBookNo);
  });

  it('a refused applicant may apply again: both applications are kept, each with its own log; one in progress at a time', async () => {
    const first = await newApplicant(w);
    await walkUntil(w, first.id, 'target');
    const refused = await step(w.branch, first.id, 'reject', {}, '现实表现不符合要求');
    expect(refused.status).toBe(200);
    expect(refused.body.state).toBe(-2);
    const person = (await w.admin('GET', `${BASE}/${first.id}`)).body;
    const again = await w.branch('POST', BASE, { name: person.name, idCard: person.idCard, category: '4', orgId: w.ids.branch });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const twice = await w.branch('POST', BASE, { name: person.name, idCard: person.idCard, category: '4', orgId: w.ids.branch });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('该人员已有正在办理的入党申请，不能重复申请');
    const record = await w.branch('GET', `/api/development/${again.body.id}/record`);
    expect(record.status).toBe(200);
    expect(record.body.applications.map((a: { id: number; stateLabel: string }) => [a.id, a.stateLabel])).toEqual([[first.id, '未通过'], [again.body.id, '待提交']]);
    expect(record.body.approvals).toEqual([]);
    expect((await w.admin('GET', `${BASE}/${first.id}/approvals`)).body.at(-1)).toMatchObject({ result: 'reject', comment: '现实表现不符合要求' });
  });

  it('the applicant acts as "self" through their account (no organisation of their own): apply and withdraw', async () => {
    const { userWithRole } = await import('../support/auth.js');
    const token = await login(t.app);
    const userId = await userWithRole(t.app, token, { username: 'devself', permissions: ['development-process:list', 'development:apply', 'development:withdraw'], dataScope: 'own', orgId: null, password: 'Develop#2026a' });
    await t.database.db.updateTable('users').set({ nick_name: '申请人本人' }).where('id', '=', userId).execute();
    const self = clientOf(t.app, await login(t.app, 'devself', 'Develop#2026a'));
    const mine = await newApplicant(w, { userId });
    const theirs = await newApplicant(w);
    expect((await step(w.admin, theirs.id, 'apply', { applyDate: history().apply })).status).toBe(200);
    const own = (await w.admin('GET', `${BASE}/${mine.id}`)).body;
    expect((await self('POST', `${BASE}/${theirs.id}/transitions/withdraw`, { version: 2 })).status).toBe(404);
    const applied = await self('POST', `${BASE}/${mine.id}/transitions/apply`, { version: own.version, values: { applyDate: history().apply } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ id: mine.id, state: 0 });
    expect((await self('GET', `${BASE}/${mine.id}/approvals`)).body[0]).toMatchObject({ level: 'self', actorName: '申请人本人' });
    expect((await self('GET', `${BASE}/${mine.id}/transitions`)).body.map((x: { id: string }) => x.id)).toEqual(['withdraw']);
    const withdrawn = await self('POST', `${BASE}/${mine.id}/transitions/withdraw`, { version: applied.body.version, comment: '本人撤回' });
    expect(withdrawn.body).toMatchObject({ state: -3, stateLabel: '已撤回' });
  });

  it('入党志愿书 numbers come from the configured ranges in order and are never reused; none configured: refused', async () => {
    const year = Number(TODAY.slice(0, 4));
    const ranges = (await w.orgdept('POST', '/api/m/development-book-range/list?size=100', {})).body.content as { id: number; year: number; nextNo: number }[];
    const range = ranges.find((r) => r.year === year)!;
    const overlap = await w.orgdept('POST', '/api/m/development-book-range', { year, prefix: `${year}`, startNo: 400, endNo: 600, width: 4 });
    expect(overlap.status).toBe(400);
    expect(overlap.body.message).toBe(`与${year}年度已有编号段1–500重叠`);
    const take = async () => {
      const { id } = await newApplicant(w);
      await walkUntil(w, id, 'preReview');
      const res = await step(w.branch, id, 'book', { bookDate: TODAY });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { id, no: res.body.volunteerBookNo as string };
    };
    const a = await take();
    expect(a.no).toBe(`${year}${String(range.nextNo).padStart(4, '0')}`);
    await step(w.branch, a.id, 'reject', {}, '不予发展');
    const b = await take();
    expect(Number(b.no.slice(4))).toBe(Number(a.no.slice(4)) + 1);
    expect((await w.orgdept('DELETE', '/api/m/development-book-range', [range.id])).status).toBe(400);
    await sql`UPDATE m_development_book_range SET next_no = end_no + 1 WHERE year = ${year}`.execute(t.database.db);
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'preReview');
    const none = await step(w.branch, id, 'book', { bookDate: TODAY });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(`${year}年度的入党志愿书编号段尚未配置或已用完，请联系党委组织部在“入党志愿书编号段”中配置`);
    await sql`UPDATE m_development_book_range SET next_no = ${range.nextNo + 10} WHERE year = ${year}`.execute(t.database.db);
  });

  it('reminders: talk due, assessment due, probation ending, publicity ending, each sent once to the branch', async () => {
    const talk = await newApplicant(w);
    await step(w.branch, talk.id, 'apply', { applyDate: addDays(TODAY, -28) });
    const probation = await newApplicant(w);
    await walkUntil(w, probation.id, 'full');
    await sql`UPDATE m_development SET probation_end = ${addDays(TODAY, 20)} WHERE id = ${probation.id}`.execute(t.database.db);
    const reminders = async () =>
      (await sql<{ title: string; user_id: number; link: string }>`SELECT title, user_id, link FROM msg_push_history WHERE type = 'remind' ORDER BY id`.execute(t.database.db)).rows;
    const before = (await reminders()).length;
    expect(await sendDevelopmentReminders(t.app, TODAY)).toBeGreaterThanOrEqual(2);
    const sent = (await reminders()).slice(before);
    const name = (await w.admin('GET', `${BASE}/${talk.id}`)).body.name as string;
    expect(sent).toEqual(expect.arrayContaining([
      { title: `入党谈话期限：${name}`, user_id: w.users.branch, link: `/development/process?id=${talk.id}` },
      expect.objectContaining({ title: expect.stringMatching(/^预备期即将届满：/), user_id: w.users.branch, link: `/development/process?id=${probation.id}` }),
    ]));
    expect(sent.every((s) => s.user_id === w.users.branch)).toBe(true);
    expect(await sendDevelopmentReminders(t.app, TODAY)).toBe(0);
  });

  it('the funnel counts applications per stage in the caller\'s scope; the pipeline exports as .xlsx', async () => {
    const funnel = await w.branch('GET', '/api/development/funnel');
    expect(funnel.status).toBe(200);
    const direct = await sql<{ state: number; n: number }>`SELECT state, count(*)::int AS n FROM m_development WHERE org_id = ${w.ids.branch} GROUP BY state`.execute(t.database.db);
    const inStage = (states: number[]) => direct.rows.filter((r) => states.includes(r.state)).reduce((s, r) => s + r.n, 0);
    expect(funnel.body.stages.map((s: { title: string; count: number }) => [s.title, s.count])).toEqual([
      ['入党申请人', inStage([-1, 0, 1])], ['入党积极分子', inStage([2])], ['发展对象', inStage([3, 4, 5, 6])], ['预备党员', inStage([7, 8])], ['正式党员', inStage([9, 10])],
    ]);
    expect((await w.otherBranch('GET', '/api/development/funnel')).body.total).toBe(0);
    const file = await t.app.inject({ method: 'GET', url: `/api/development/pipeline/export?orgId=${w.ids.branch}`, headers: bearer(await login(t.app)) });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as never);
    const sheet = book.getWorksheet('发展党员名册')!;
    expect(sheet.getRow(1).getCell(2).value).toBe('姓名');
    expect(sheet.rowCount - 1).toBe(direct.rows.reduce((s, r) => s + r.n, 0));
  });

  it('the idCard decides birth date and gender; a contradicting one is refused', async () => {
    const res = await w.branch('POST', BASE, { name: '测试', idCard: idCardFor('2004-03-05', 11), birthDate: '2004-03-06', category: '4', orgId: w.ids.branch });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'birthDate', message: '出生日期与身份证号不一致（身份证号为2004-03-05）' }]);
    const ok = await w.branch('POST', BASE, { name: '测试', idCard: idCardFor('2004-03-05', 11), category: '4', orgId: w.ids.branch });
    expect(ok.body).toMatchObject({ birthDate: '2004-03-05', gender: '1', state: -1, stateLabel: '待提交', stage: '1' });
  });
});

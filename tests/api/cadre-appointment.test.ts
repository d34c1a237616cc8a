// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the appointment workflow writes the cadre's posts in the step's transaction and counts working days from the calendar table
/**
 * 选拔任用 (module `appointment`, docs/cadres.md): the procedure walked 动议 → 民主推荐 → 考察 → 任前公示 →
 * 讨论决定 → 任职 by the role that owns its steps (党委组织部), the 任前公示 of five working days at its
 * boundaries (over a holiday of the calendar), the post written and the previous one ended in the step's
 * transaction, the staffing warning with its required reason, and the probation's confirmation.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { clientOf, type Client } from '../support/development.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/api/m/appointment';
const TODAY = localToday();
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
/** The Monday on or before a date. */
const mondayOf = (d: string) => addDays(d, -((weekday(d) + 6) % 7));

describe(`选拔任用 on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  let dwzzb: Client;
  let ejdw: Client;
  let zbsj: Client;
  let unitId: number;
  let otherUnitId: number;
  /** Mondays of quiet weeks (no holiday or make-up day within three weeks), about 14 and 16 months ago. */
  let quiet: string[];
  let n = 0;

  const cadre = async (rank: string, post: Record<string, unknown> | null, unit = unitId) => {
    n++;
    const c = await admin('POST', '/api/m/cadre', { name: `任用测试${n}`, gender: n % 2 ? '1' : '2', birthDate: '1978-05-06', unitId: unit, category: '3', rank, workStartDate: '2000-07-01', grassrootsYears: 3, education: '21' });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const id = (c.body as { id: number }).id;
    if (post) {
      const p = await admin('POST', '/api/m/cadre-post', { cadreId: id, kind: '职务', unitId: unit, post: '11', rank, fullTime: true, ...post });
      expect(p.status, JSON.stringify(p.body)).toBe(201);
    }
    return id;
  };
  const dispatchOf = async (docNo: string) => ((await admin('POST', '/api/m/cadre-dispatch/list?size=5', { docNo })).body as { content: Record<string, unknown>[] }).content.find((d) => d.docNo === docNo);
  const linesOf = async (dispatchId: number) => ((await admin('POST', '/api/m/cadre-dispatch-line/list?size=50&sort=lineDate,asc&fields=all', { dispatchId })).body as { content: Record<string, unknown>[] }).content;
  const record = async (id: number) => (await admin('GET', `${BASE}/${id}`)).body as Record<string, unknown>;
  const step = async (who: Client, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') =>
    who('POST', `${BASE}/${id}/transitions/${transition}`, { version: (await record(id)).version, comment, values });
  const ok = async (who: Client, id: number, transition: string, values: Record<string, unknown> = {}) => {
    const res = await step(who, id, transition, values);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Record<string, unknown> & { warnings?: string[] };
  };
  /** 凡提四查 recorded by its step (who, when, conclusion), `override` replacing some (null: left out). */
  const fourChecks = async (id: number, on: string, override: Record<string, unknown> = {}) => {
    const values: Record<string, unknown> = {};
    for (const p of ['checkArchive', 'checkReport', 'checkDiscipline', 'checkPetition']) Object.assign(values, { [`${p}By`]: '组织部干部科', [`${p}Date`]: on, [`${p}Result`]: '未发现影响提拔的问题' });
    const given = Object.fromEntries(Object.entries({ ...values, ...override }).filter(([, v]) => v !== null));
    await ok(dwzzb, id, 'fourChecks', given);
  };
  /** An appointment brought to 已考察 (state 2) with the procedure's dates in the week of `monday`. */
  const inspected = async (cadreId: number, monday: string, values: Record<string, unknown> = {}) => {
    const created = await dwzzb('POST', BASE, { cadreId, unitId, post: '10', rank: '05', kind: '提拔任职', ...values });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { id: number }).id;
    await ok(dwzzb, id, 'propose', { proposeDate: addDays(monday, -21), proposeReason: '学院院长岗位空缺' });
    await ok(dwzzb, id, 'recommend', { recommendDate: addDays(monday, -14), recommendMethod: '会议推荐和谈话调研推荐', recommendParticipants: 45, recommendVotes: 38 });
    await ok(dwzzb, id, 'inspect', { inspectDate: addDays(monday, -7), inspectTeam: '组织部考察组', inspectOpinion: '政治素质好，工作实绩突出' });
    return id;
  };

  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = clientOf(t.app, await login(t.app));
    dwzzb = clientOf(t.app, await login(t.app, 'dwzzb', DEMO_USER_PASSWORD));
    ejdw = clientOf(t.app, await login(t.app, 'ejdw', DEMO_USER_PASSWORD));
    zbsj = clientOf(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    // Units of their own, away from the demo's cadres and staffing.
    unitId = (await admin('POST', '/api/m/unit', { name: '任用测试学院', type: '1', code: 'APPT01' })).body.id;
    otherUnitId = (await admin('POST', '/api/m/unit', { name: '任用测试处', type: '2', code: 'APPT02' })).body.id;
    // 正处级 (05) in the unit: one approved place, so a second appointment is over the number.
    expect((await admin('POST', '/api/m/staffing', { unitId, rank: '05', approved: 1 })).status).toBe(201);
    const periods = (await sql<{ start_date: string; end_date: string }>`SELECT start_date::text, end_date::text FROM m_holiday_calendar`.execute(t.database.db)).rows;
    const busy = (monday: string) => periods.some((p) => p.start_date <= addDays(monday, 20) && p.end_date >= addDays(monday, -21));
    quiet = [];
    for (let m = mondayOf(addMonths(TODAY, -14)); quiet.length < 3; m = addDays(m, -7)) if (!busy(m)) quiet.push(m);
  }, 300_000);
  afterAll(() => t?.app.close());

  it('[S1.F14g] walks 动议 → 任职 by 党委组织部, the roles without the steps refused; the post is written, the previous one ended, the probation started, in the step', async () => {
    const previousStart = addDays(quiet[0], -800);
    const cadreId = await cadre('06', { startDate: previousStart });
    const created = await dwzzb('POST', BASE, { cadreId, unitId, post: '10', rank: '05', kind: '提拔任职' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { id: number }).id;
    expect(created.body).toMatchObject({ name: `任用测试${n}`, state: -1, stateLabel: '待动议', termYears: 5 });

    const monday = quiet[0];
    // The step belongs to the organisation department: a college's 组织员 and a branch secretary may not take it.
    expect([403, 404]).toContain((await step(ejdw, id, 'propose', { proposeDate: addDays(monday, -21), proposeReason: '岗位空缺' })).status);
    expect([403, 404]).toContain((await step(zbsj, id, 'propose', { proposeDate: addDays(monday, -21), proposeReason: '岗位空缺' })).status);
    // The procedure's order: no 民主推荐 before the 动议.
    await ok(dwzzb, id, 'propose', { proposeDate: addDays(monday, -21), proposeReason: '学院院长岗位空缺' });
    const early = await step(dwzzb, id, 'recommend', { recommendDate: addDays(monday, -22), recommendMethod: '会议推荐' });
    expect(early.status).toBe(400);
    expect(JSON.stringify(early.body)).toContain('不能早于动议日期');
    // [39.1] votes cannot exceed participants.
    const votes = await step(dwzzb, id, 'recommend', { recommendDate: addDays(monday, -14), recommendMethod: '会议推荐', recommendParticipants: 45, recommendVotes: 46 });
    expect(votes.status).toBe(400);
    expect(JSON.stringify(votes.body)).toContain('不能超过参加推荐人数');
    await ok(dwzzb, id, 'recommend', { recommendDate: addDays(monday, -14), recommendMethod: '会议推荐', recommendParticipants: 45, recommendVotes: 38, recommendNote: '得票过半' });
    await ok(dwzzb, id, 'inspect', { inspectDate: addDays(monday, -7), inspectTeam: '组织部考察组', inspectOpinion: '政治素质好，工作实绩突出' });
    // [39.1] 凡提四查 before 讨论决定: refused naming the missing check, and one concluding 不宜提拔.
    const decision = { decisionDate: addDays(monday, -3), decisionMeeting: '党委常委会第12次会议', decisionDocNo: '校党干〔2025〕12号' };
    const unchecked = await step(dwzzb, id, 'decide', decision);
    expect(unchecked.status).toBe(400);
    expect(JSON.stringify(unchecked.body)).toContain('尚未记录“干部人事档案”的核查');
    // Recorded in parts: the step stays open until 信访举报 has its conclusion (doneField).
    await fourChecks(id, addDays(monday, -5), { checkPetitionResult: null });
    expect(JSON.stringify((await step(dwzzb, id, 'decide', decision)).body)).toContain('尚未记录“信访举报”的核查');
    await fourChecks(id, addDays(monday, -5));
    expect(await ok(dwzzb, id, 'decide', decision)).toMatchObject({ state: 3, stateLabel: '已讨论决定' });
    // 任前公示 after the decision, then 任职 not before the day after its end.
    const published = await ok(dwzzb, id, 'publicize', { publicityStart: monday, publicityEnd: addDays(monday, 4) });
    expect(published).toMatchObject({ state: 4, appointFrom: addDays(monday, 5) });
    const onEnd = await step(dwzzb, id, 'appoint', { appointDate: addDays(monday, 4), overReason: '急需' });
    expect(onEnd.status).toBe(400);
    expect(JSON.stringify(onEnd.body)).toContain('须在任前公示期满');

    // The place of 正处级 is taken by another cadre: the step warns, and refuses without a reason.
    await cadre('05', { startDate: addDays(monday, -500) });
    const appointDate = addDays(monday, 10);
    const noReason = await step(dwzzb, id, 'appoint', { appointDate });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.body)).toContain('超出核定职数');
    const appointed = await ok(dwzzb, id, 'appoint', { appointDate, overReason: '学科建设急需，经党委常委会研究同意' });
    expect(appointed).toMatchObject({ state: 5, stateLabel: '试用期', probationEnd: addMonths(appointDate, 12) });
    expect(appointed.warnings?.join()).toContain('超出核定职数');

    const posts = (await admin('POST', '/api/m/cadre-post/list?size=10&sort=startDate,asc', { cadreId })).body as { content: Record<string, unknown>[] };
    expect(posts.content).toHaveLength(2);
    // [39.1] A promotion keeps the former post through the probation (《条例》第四十五条).
    expect(posts.content[0]).toMatchObject({ startDate: previousStart, endDate: null });
    expect(posts.content[1].id).toBe(appointed.postId);
    // [39.1] The 任 line of the dispatch named by the decision's number, written with the post.
    const dispatch = await dispatchOf('校党干〔2025〕12号');
    expect(dispatch).toMatchObject({ issueDate: appointDate, lineCount: 1 });
    expect(await linesOf(dispatch!.id as number)).toMatchObject([{ action: '任', cadreId, postId: appointed.postId, unitId, rank: '05', lineDate: appointDate, appointmentId: id }]);
    expect((await admin('GET', `/api/m/cadre-post/${appointed.postId}`)).body).toMatchObject({
      unitId, post: '10', rank: '05', startDate: appointDate, endDate: null, termYears: 5,
      probationEnd: addMonths(appointDate, 12), appointDocNo: '校党干〔2025〕12号', overReason: '学科建设急需，经党委常委会研究同意',
    });
    // The cadre's record follows: its post, rank and date, on probation.
    expect((await admin('GET', `/api/m/cadre/${cadreId}`)).body).toMatchObject({ unitId, post: '10', rank: '05', postDate: appointDate, rankDate: appointDate, tenureStatus: '2', postAttr: '1', category: '2' });
    expect(String((await admin('GET', `/api/m/cadre-post/${appointed.postId}`)).body.postTitle)).toMatch(/^任用测试学院.+/);
    // The approval log holds the steps with their values, the warning of the staffing check among them.
    const log = (await admin('GET', `${BASE}/${id}/approvals`)).body as { transition: string; warnings: string[] }[];
    expect(log.map((l) => l.transition)).toEqual(['propose', 'recommend', 'inspect', 'fourChecks', 'fourChecks', 'decide', 'publicize', 'appoint']);
    expect(log.at(-1)!.warnings.join()).toContain('超出核定职数');

    // 试用期满: the confirmation is its own step, from the probation's end (the day before refused, the day of passes).
    const end = appointed.probationEnd as string;
    const before = await step(dwzzb, id, 'confirm', { confirmDate: addDays(end, -1), confirmOpinion: '胜任' });
    expect(before.status).toBe(400);
    expect(JSON.stringify(before.body)).toContain('尚未期满');
    if (end <= TODAY) {
      const confirmed = await ok(dwzzb, id, 'confirm', { confirmDate: end, confirmOpinion: '试用期考核胜任，正式任职' });
      expect(confirmed).toMatchObject({ state: 6, stateLabel: '已正式任职' });
      expect((await admin('GET', `/api/m/cadre-post/${appointed.postId}`)).body).toMatchObject({ confirmDate: end });
      expect((await admin('GET', `/api/m/cadre/${cadreId}`)).body.tenureStatus).toBe('1');
      // [39.1] Confirmed: the former post ends the day before, with its 免 line in the same dispatch.
      expect((await admin('GET', `/api/m/cadre-post/${posts.content[0].id}`)).body).toMatchObject({ endDate: addDays(end, -1), removeDocNo: '校党干〔2025〕12号' });
      expect((await linesOf(dispatch!.id as number)).map((l) => [l.action, l.postId])).toEqual([['任', appointed.postId], ['免', posts.content[0].id]]);
    }
  });

  it('任前公示 of five working days (《条例》第四十二条) after the decision: four refused, five pass; a holiday of the calendar does not count', async () => {
    const [, monday, holidayWeek] = quiet;
    const decided = async (w: string) => {
      const id = await inspected(await cadre('06', { startDate: addDays(w, -900) }), w);
      await fourChecks(id, addDays(w, -5));
      await ok(dwzzb, id, 'decide', { decisionDate: addDays(w, -3), decisionMeeting: '党委常委会', decisionDocNo: '校党干〔2025〕20号' });
      return id;
    };
    const id = await decided(monday);
    const short = await step(dwzzb, id, 'publicize', { publicityStart: monday, publicityEnd: addDays(monday, 3) });
    expect(short.status).toBe(400);
    expect((short.body as { message: string }).message).toContain('共4个工作日，不足5个工作日');
    // Not before the decision.
    expect(JSON.stringify((await step(dwzzb, id, 'publicize', { publicityStart: addDays(monday, -4), publicityEnd: addDays(monday, 4) })).body)).toContain('不能早于讨论决定日期');
    await ok(dwzzb, id, 'publicize', { publicityStart: monday, publicityEnd: addDays(monday, 4) });

    // Over a holiday (the Wednesday off by the calendar): Monday to Friday is four working days, to the next Monday five.
    const holiday = await admin('POST', '/api/m/holiday-calendar', { year: Number(holidayWeek.slice(0, 4)), name: '测试假日', kind: 'holiday', startDate: addDays(holidayWeek, 2), endDate: addDays(holidayWeek, 2) });
    expect(holiday.status, JSON.stringify(holiday.body)).toBe(201);
    const other = await decided(holidayWeek);
    expect((await step(dwzzb, other, 'publicize', { publicityStart: holidayWeek, publicityEnd: addDays(holidayWeek, 4) })).status).toBe(400);
    await ok(dwzzb, other, 'publicize', { publicityStart: holidayWeek, publicityEnd: addDays(holidayWeek, 7) });
  });

  it('[39.1] 民主推荐 is valid for a year: a decision on the day a year after passes, the day after is refused', async () => {
    const monday = quiet[2];
    const id = await inspected(await cadre('06', { startDate: addDays(monday, -900) }), monday);
    await fourChecks(id, addDays(monday, -5));
    const recommended = addDays(monday, -14);
    const late = await step(dwzzb, id, 'decide', { decisionDate: addDays(addMonths(recommended, 12), 1), decisionMeeting: '党委常委会', decisionDocNo: '校党干〔2025〕21号' });
    expect(late.status).toBe(400);
    expect(JSON.stringify(late.body)).toContain('超过1年有效期');
    await ok(dwzzb, id, 'decide', { decisionDate: addMonths(recommended, 12), decisionMeeting: '党委常委会', decisionDocNo: '校党干〔2025〕21号' });
  });

  it('[39.1] 任职资格 at 动议 (《条例》第八条): 副职 → 正职 two years — the day before refused naming the rule, the day of passes; a 破格 with reason and approval passes with a warning', async () => {
    const proposeDate = addDays(quiet[2], -21);
    const short = await cadre('06', { startDate: addDays(addMonths(proposeDate, -24), 1) });
    const exact = await cadre('06', { startDate: addMonths(proposeDate, -24) });
    const newOne = async (cadreId: number, extra: Record<string, unknown> = {}) => (await dwzzb('POST', BASE, { cadreId, unitId, post: '10', rank: '05', kind: '提拔任职', ...extra })).body.id as number;
    const a = await newOne(short);
    const refused = await step(dwzzb, a, 'propose', { proposeDate, proposeReason: '岗位空缺' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('由副职提任正职，应当在副职岗位工作2年以上');
    expect(JSON.stringify(refused.body)).toContain('第八条');
    await ok(dwzzb, await newOne(exact), 'propose', { proposeDate, proposeReason: '岗位空缺' });
    const b = await newOne(short, { exceptionReason: '学科建设特殊需要，实绩特别突出', exceptionApproval: '校党委常委会2025年第3次会议批准' });
    const passed = await ok(dwzzb, b, 'propose', { proposeDate, proposeReason: '岗位空缺' });
    expect(passed.warnings?.join()).toContain('破格提拔');
  });

  it('a transfer at the same rank is appointed without probation, and cannot take the step of a promotion', async () => {
    const monday = quiet[1];
    const id = await inspected(await cadre('05', { startDate: addDays(monday, -900) }, otherUnitId), monday, { kind: '平级转任', rank: '06' });
    await fourChecks(id, addDays(monday, -5));
    await ok(dwzzb, id, 'decide', { decisionDate: addDays(monday, -3), decisionMeeting: '党委常委会', decisionDocNo: '校党干〔2025〕30号' });
    await ok(dwzzb, id, 'publicize', { publicityStart: monday, publicityEnd: addDays(monday, 4) });
    const wrong = await step(dwzzb, id, 'appoint', { appointDate: addDays(monday, 8) });
    expect(wrong.status).toBe(400);
    expect((wrong.body as { message: string }).message).toContain('不设试用期');
    const done = await ok(dwzzb, id, 'appointDirect', { appointDate: addDays(monday, 8) });
    expect(done).toMatchObject({ state: 6, probationEnd: null });
    const post = (await admin('GET', `/api/m/cadre-post/${done.postId}`)).body;
    expect(post).toMatchObject({ unitId, rank: '06', probationEnd: null, startDate: addDays(monday, 8) });
    // [39.1] Without probation the post replaced ends the day before, by a 免 line of the same dispatch.
    const lines = await linesOf((await dispatchOf('校党干〔2025〕30号'))!.id as number);
    expect(lines.map((l) => [l.action, l.unitId, l.lineDate])).toEqual([['免', otherUnitId, addDays(monday, 7)], ['任', unitId, addDays(monday, 8)]]);
    expect((await admin('GET', `/api/m/cadre-post/${lines[0].postId}`)).body).toMatchObject({ endDate: addDays(monday, 7), removeDocNo: '校党干〔2025〕30号' });
  });

  /** A promotion in `unit` brought to 任前公示 ended (state 4), ready for 任职 from `monday` + 5. */
  const publicized = async (cadreId: number, monday: string, docNo: string, values: Record<string, unknown> = {}) => {
    const id = await inspected(cadreId, monday, values);
    await fourChecks(id, addDays(monday, -5));
    await ok(dwzzb, id, 'decide', { decisionDate: addDays(monday, -3), decisionMeeting: '党委常委会', decisionDocNo: docNo });
    await ok(dwzzb, id, 'publicize', { publicityStart: monday, publicityEnd: addDays(monday, 4) });
    return id;
  };

  it('[39.1] 任职 writes the dispatch line and the post in one transaction: a failing line write leaves neither, and the step stays open', async () => {
    const monday = quiet[0];
    const cadreId = await cadre('06', { startDate: addDays(monday, -900) }, otherUnitId);
    const id = await publicized(cadreId, monday, '校党干〔2025〕50号', { unitId: otherUnitId });
    const db = t.database.db;
    // The line's insert fails in the database after the dispatch and the post were written in the step.
    await sql.raw(`CREATE OR REPLACE FUNCTION test_fail_line() RETURNS trigger AS $$ BEGIN IF NEW.cadre_id = ${cadreId} THEN RAISE EXCEPTION 'line refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`).execute(db);
    await sql.raw('CREATE TRIGGER test_fail_line BEFORE INSERT ON m_cadre_dispatch_line FOR EACH ROW EXECUTE FUNCTION test_fail_line()').execute(db);
    try {
      const failed = await step(dwzzb, id, 'appoint', { appointDate: addDays(monday, 8), dispatchNo: '校党干〔2025〕51号' });
      expect(failed.status).toBeGreaterThanOrEqual(400);
    } finally {
      await sql.raw('DROP TRIGGER test_fail_line ON m_cadre_dispatch_line').execute(db);
    }
    expect(await dispatchOf('校党干〔2025〕51号')).toBeUndefined();
    const posts = (await admin('POST', '/api/m/cadre-post/list?size=10', { cadreId })).body as { content: unknown[] };
    expect(posts.content).toHaveLength(1);
    expect(await record(id)).toMatchObject({ state: 4, postId: null });
    // Again without the failure: the dispatch (by the step's number), its line and the post together.
    const done = await ok(dwzzb, id, 'appoint', { appointDate: addDays(monday, 8), dispatchNo: '校党干〔2025〕51号' });
    const dispatch = await dispatchOf('校党干〔2025〕51号');
    expect(await linesOf(dispatch!.id as number)).toMatchObject([{ action: '任', cadreId, postId: done.postId }]);
    expect((await admin('GET', `/api/m/cadre-post/${done.postId}`)).body).toMatchObject({ appointDocNo: '校党干〔2025〕51号' });
  });

  it('[39.1] a post\'s rank must fit the catalogue post (职位目录): 党委书记 at 正处 taken at 副处级 is refused naming both ranks; an abolished post the day it is abolished, not the day before', async () => {
    const proposeDate = addDays(quiet[1], -21);
    const secretary = await admin('POST', '/api/m/unit-post', { unitId: otherUnitId, code: 'SJ01', title: '党委书记', post: '08', head: '正职', rank: '05', kind: '党委领导职务', openDate: '2000-01-01' });
    expect(secretary.status, JSON.stringify(secretary.body)).toBe(201);
    const unitPostId = secretary.body.id as number;
    const newOne = async (rank: string) => (await dwzzb('POST', BASE, { cadreId: await cadre('06', { startDate: addDays(proposeDate, -900) }, otherUnitId), unitId: otherUnitId, unitPostId, post: '10', rank, kind: '提拔任职' })).body as Record<string, unknown>;
    const low = await newOne('06');
    expect(low).toMatchObject({ post: '08', unitId: otherUnitId });
    const refused = await step(dwzzb, low.id as number, 'propose', { proposeDate, proposeReason: '书记岗位空缺' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('职位“党委书记”为正处级，拟任职级副处级低于职位规格');
    await ok(dwzzb, (await newOne('05')).id as number, 'propose', { proposeDate, proposeReason: '书记岗位空缺' });
    // A cadre's post naming the catalogue post is held to the same rank.
    const cadreId = await cadre('06', null, otherUnitId);
    const post = await admin('POST', '/api/m/cadre-post', { cadreId, kind: '职务', unitPostId, rank: '06', startDate: proposeDate, fullTime: true });
    expect(post.status).toBe(400);
    expect((post.body as { message: string }).message).toContain('拟任职级副处级低于职位规格');
    // Abolished: the day before its abolition passes, the day of is refused.
    const abolish = async (on: string) => admin('PUT', '/api/m/unit-post', { id: unitPostId, version: (await admin('GET', `/api/m/unit-post/${unitPostId}`)).body.version, abolishDate: on });
    expect((await abolish(addDays(proposeDate, 1))).status).toBe(200);
    await ok(dwzzb, (await newOne('05')).id as number, 'propose', { proposeDate, proposeReason: '书记岗位空缺' });
    expect((await abolish(proposeDate)).status).toBe(200);
    const gone = await step(dwzzb, (await newOne('05')).id as number, 'propose', { proposeDate, proposeReason: '书记岗位空缺' });
    expect(JSON.stringify(gone.body)).toContain(`已于${proposeDate}撤销`);
    // The staffing row of the unit and rank counts the catalogue's open posts.
    const staffing = await admin('POST', '/api/m/staffing', { unitId: otherUnitId, rank: '05', approved: 3 });
    expect(staffing.body).toMatchObject({ catalogued: proposeDate < TODAY ? 0 : 1 });
  });

  it('[39.1] 试用期不合格免职: the probation post ends with a 免 line, the former post (kept through the probation) is current again and the cadre follows it; rank history from the posts', async () => {
    const monday = quiet[0];
    const previousStart = addDays(monday, -900);
    const cadreId = await cadre('06', { startDate: previousStart }, otherUnitId);
    const id = await publicized(cadreId, monday, '校党干〔2025〕60号', { unitId: otherUnitId });
    const appointDate = addDays(monday, 8);
    const appointed = await ok(dwzzb, id, 'appoint', { appointDate });
    const [former] = ((await admin('POST', '/api/m/cadre-post/list?size=10&sort=startDate,asc', { cadreId })).body as { content: Record<string, unknown>[] }).content;
    expect(former).toMatchObject({ startDate: previousStart, endDate: null });
    const end = appointed.probationEnd as string;
    // The dismissal is the probation's end: the day before refused.
    expect((await step(dwzzb, id, 'dismiss', { confirmDate: addDays(end, -1), confirmOpinion: '不胜任' })).status).toBe(400);
    if (end > TODAY) return;
    await ok(dwzzb, id, 'dismiss', { confirmDate: end, confirmOpinion: '试用期考核不胜任', dispatchNo: '校党干〔2025〕61号' });
    expect((await admin('GET', `/api/m/cadre-post/${appointed.postId}`)).body).toMatchObject({ endDate: end, removeDocNo: '校党干〔2025〕61号' });
    expect((await admin('GET', `/api/m/cadre-post/${former.id}`)).body).toMatchObject({ endDate: null });
    expect((await admin('GET', `/api/m/cadre/${cadreId}`)).body).toMatchObject({ unitId: otherUnitId, rank: '06', tenureStatus: '1', postDate: previousStart });
    expect(await linesOf((await dispatchOf('校党干〔2025〕61号'))!.id as number)).toMatchObject([{ action: '免', postId: appointed.postId, lineDate: end }]);
    // [39.1] Rank history: 副处级 from the former post, 正处级 from the appointment.
    const ranks = (await dwzzb('GET', `/api/cadre/${cadreId}/ranks`)).body as { ranks: Record<string, unknown>[] };
    expect(ranks.ranks).toMatchObject([{ rank: '06', rankLabel: '副处级', since: previousStart, until: addDays(appointDate, -1) }, { rank: '05', since: appointDate, until: null }]);
    expect((await ejdw('GET', `/api/cadre/${cadreId}/ranks`)).status).toBeGreaterThanOrEqual(403);
  });

  it('[39.1] 免职 outside a selection: a 免 line entered on a dispatch ends the post with the document number; deleting it puts the post back', async () => {
    const cadreId = await cadre('07', { startDate: addDays(TODAY, -400) }, otherUnitId);
    const [post] = ((await admin('POST', '/api/m/cadre-post/list?size=5', { cadreId })).body as { content: Record<string, unknown>[] }).content;
    const dispatch = await dwzzb('POST', '/api/m/cadre-dispatch', { docNo: '校党干〔2025〕70号', issueDate: addDays(TODAY, -1), issuer: '中共测试大学委员会', title: '关于免去某同志职务的通知' });
    expect(dispatch.status, JSON.stringify(dispatch.body)).toBe(201);
    const noPost = await dwzzb('POST', '/api/m/cadre-dispatch-line', { dispatchId: dispatch.body.id, action: '免', cadreId });
    expect(noPost.status).toBe(400);
    const line = await dwzzb('POST', '/api/m/cadre-dispatch-line', { dispatchId: dispatch.body.id, action: '免', cadreId, postId: post.id });
    expect(line.status, JSON.stringify(line.body)).toBe(201);
    expect(line.body).toMatchObject({ lineDate: addDays(TODAY, -1), rank: '07', unitId: otherUnitId });
    expect((await admin('GET', `/api/m/cadre-post/${post.id}`)).body).toMatchObject({ endDate: addDays(TODAY, -1), removeDocNo: '校党干〔2025〕70号' });
    expect((await admin('GET', `/api/m/cadre/${cadreId}`)).body.tenureStatus).toBe('3');
    expect((await dwzzb('POST', '/api/m/cadre-dispatch-line', { dispatchId: dispatch.body.id, action: '免', cadreId, postId: post.id })).status).toBe(400);
    expect((await dwzzb('DELETE', '/api/m/cadre-dispatch-line', { ids: [line.body.id] })).status).toBeLessThan(300);
    expect((await admin('GET', `/api/m/cadre-post/${post.id}`)).body).toMatchObject({ endDate: null, removeDocNo: null });
  });

  it('[S1.F14g] the demo holds appointments in every stage, appointed ones naming the post they wrote; 党委组织部 has them waiting', async () => {
    const states = (await sql<{ state: number; n: number }>`SELECT state, count(*)::int AS n FROM m_appointment WHERE name NOT LIKE '任用测试%' GROUP BY state`.execute(t.database.db)).rows;
    expect(states.map((s) => s.state).sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3, 4, 5, 6]);
    const appointed = (await sql<{ post_id: number; appoint_date: string; start_date: string; probation: string | null; post_probation: string | null }>`
      SELECT a.post_id, a.appoint_date::text, p.start_date::text, a.probation_end::text AS probation, p.probation_end::text AS post_probation
      FROM m_appointment a JOIN m_cadre_post p ON p.id = a.post_id WHERE a.state IN (5, 6)`.execute(t.database.db)).rows;
    expect(appointed.length).toBeGreaterThan(0);
    for (const a of appointed) expect([a.appoint_date, a.probation]).toEqual([a.start_date, a.post_probation]);
    const waiting = (await dwzzb('POST', `${BASE}/list?size=50`, { $waiting: true })).body as { totalElements: number };
    expect(waiting.totalElements).toBeGreaterThan(0);
    const log = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM workflow_log WHERE module = 'appointment'`.execute(t.database.db)).rows[0].n;
    expect(log).toBeGreaterThan(20);
    // [39.1] Each completed appointment has its 任 line in the dispatch of its number; the catalogue names the current posts.
    const unlined = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_appointment a WHERE a.state IN (5, 6) AND a.name NOT LIKE '任用测试%'
        AND NOT EXISTS (SELECT 1 FROM m_cadre_dispatch_line l JOIN m_cadre_dispatch d ON d.id = l.dispatch_id WHERE l.appointment_id = a.id AND l.action = '任' AND l.post_id = a.post_id AND d.doc_no = a.dispatch_no)`.execute(t.database.db)).rows[0].n;
    expect(unlined).toBe(0);
    const dispatches = (await dwzzb('POST', '/api/m/cadre-dispatch/list?size=5', {})).body as { totalElements: number };
    expect(dispatches.totalElements).toBeGreaterThan(0);
    const miscounted = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_dispatch d WHERE coalesce(d.line_count, 0) <> (SELECT count(*) FROM m_cadre_dispatch_line l WHERE l.dispatch_id = d.id)`.execute(t.database.db)).rows[0].n;
    expect(miscounted).toBe(0);
    const counted = (await sql<{ catalogued: number | null; open: number }>`SELECT s.catalogued, (SELECT count(*)::int FROM m_unit_post u WHERE u.unit_id = s.unit_id AND u.rank = s.rank AND (u.abolish_date IS NULL OR u.abolish_date > current_date)) AS open FROM m_staffing s`.execute(t.database.db)).rows;
    expect(counted.filter((c) => c.open > 0).length).toBeGreaterThan(0);
    for (const c of counted) expect(c.catalogued ?? 0).toBe(c.open);
    // On probation the former post is kept (current beside the probation post).
    const kept = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_appointment a JOIN m_cadre_post p ON p.cadre_id = a.cadre_id AND p.id <> a.post_id AND p.end_date IS NULL AND p.kind = '职务'
        WHERE a.state = 5 AND a.name NOT LIKE '任用测试%'`.execute(t.database.db)).rows[0].n;
    expect(kept).toBeGreaterThan(0);
  });
});

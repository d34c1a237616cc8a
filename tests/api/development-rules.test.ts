// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): date boundaries of every rule, read and written through the engine
/**
 * Every rule of the development workflow at its boundary, through the API on both engines: the day
 * before and the day of; half and one vote more. A refusal is 400 with the rule's words and changes
 * nothing; the passing value then moves the same record on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, addYears } from '../../src/shared/development/rules.js';
import { fullYearsBetween, localToday } from '../../src/shared/module-schema/computed.js';
import { calendarOf, isWorkingDay, PUBLISHED_SCHEDULE } from '../../src/shared/working-days.js';
import { bearer, login } from '../support/auth.js';
import { enrolFromDevelopment, finishCourse, trainingClass } from '../support/area-links.js';
import { learners } from '../support/pschool.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { TODAY, developmentWorld, history, idCardFor, newApplicant, step, walkUntil, type Client, type DevWorld } from '../support/development.js';

const BASE = '/api/m/development';

interface Outcome {
  status: number;
  message?: string;
  warnings?: string[];
  state?: number;
}

async function attempt(c: Client, id: number, transition: string, values: Record<string, unknown>, comment = ''): Promise<Outcome> {
  const res = await step(c, id, transition, values, comment);
  return { status: res.status, message: res.body.message, warnings: res.body.warnings, state: res.body.state };
}

/** The last Monday at least four weeks ago whose week and the Friday before are ordinary (no holiday, no make-up day). */
function pastMonday(): string {
  const calendar = calendarOf(PUBLISHED_SCHEDULE);
  const ordinary = (monday: string) => [-3, -2, -1, 0, 1, 2, 3, 4, 5].every((i) => isWorkingDay(addDays(monday, i), calendar) === isWorkingDay(addDays(monday, i)));
  let d = addDays(TODAY, -28);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 1 || !ordinary(d)) d = addDays(d, -1);
  return d;
}

describe(`development rules at their boundaries on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await developmentWorld(t.app);
  }, 180_000);
  afterAll(() => t.app.close());

  it('applicant at least 18 on the application date: the day before the 18th birthday refused, the day of accepted (02-29: 03-01)', async () => {
    const applyDate = addDays(TODAY, -100);
    const cases: [string, string, number][] = [
      [addDays(addYears(applyDate, -18), 1), applyDate, 400],
      [addYears(applyDate, -18), applyDate, 200],
      ['2004-02-29', '2022-02-28', 400],
      ['2004-02-29', '2022-03-01', 200],
    ];
    for (const [birth, on, status] of cases) {
      const { id } = await newApplicant(w, { idCard: idCardFor(birth, (w.seq += 2)) });
      const res = await attempt(w.branch, id, 'apply', { applyDate: on });
      expect(res.status, `${birth} on ${on}: ${res.message}`).toBe(status);
      if (status === 400) {
        expect(res.message).toContain('未满十八岁');
        expect(res.message).toContain('入党申请人应当年满十八岁');
        expect((await w.admin('GET', `${BASE}/${id}`)).body.state).toBe(-1);
      }
    }
  });

  it('the talk within one month of the application: on the last day no warning, a day later a warning kept in the log', async () => {
    const apply = '2024-01-31';
    for (const [talkDate, warned] of [[addMonths(apply, 1), false], [addDays(addMonths(apply, 1), 1), true]] as const) {
      const { id } = await newApplicant(w, { idCard: idCardFor('2000-05-05', (w.seq += 2)) });
      expect((await attempt(w.branch, id, 'apply', { applyDate: apply })).status).toBe(200);
      const res = await attempt(w.branch, id, 'talk', { talkDate, talker: '李' });
      expect(res.status).toBe(200);
      expect(talkDate).toBe(warned ? '2024-03-01' : '2024-02-29');
      if (!warned) expect(res.warnings).toEqual([]);
      else {
        expect(res.warnings).toEqual([expect.stringContaining('党组织收到入党申请书后，应当在一个月内派人同入党申请人谈话')]);
        const log = (await w.admin('GET', `${BASE}/${id}/approvals`)).body as { transition: string; warnings: string[] }[];
        expect(log.find((e) => e.transition === 'talk')!.warnings).toEqual(res.warnings);
      }
    }
  });

  it('a year as activist before 发展对象, counted from the date the branch recorded the activist: the day before refused, the day of accepted', async () => {
    const h = history();
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'target', h);
    const dayOf = addYears(h.activist, 1);
    const before = await attempt(w.branch, id, 'target', { targetDate: addDays(dayOf, -1), introducerIds: w.full.slice(0, 2) });
    expect(before.status).toBe(400);
    expect(before.message).toBe(`确定为入党积极分子（${h.activist}）未满一年，最早可于${dayOf}确定为发展对象。入党积极分子经过一年以上培养教育和考察，方可列为发展对象（《细则》第四章）`);
    const on = await attempt(w.branch, id, 'target', { targetDate: dayOf, introducerIds: w.full.slice(0, 2) });
    expect(on.status, on.message).toBe(200);
    expect(on.state).toBe(3);
  });

  it('two introducers, both full members: one, a probationary one, or three are refused; two full ones accepted', async () => {
    const h = history();
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'target', h);
    const table: [number[], string | null][] = [
      [[w.full[0]], '入党介绍人应为两名，现为1名'],
      [[w.full[0], w.probationary], '预备党员丁是预备党员，不能作入党介绍人'],
      [w.full, '入党介绍人应为两名，现为3名'],
      [[w.full[1], w.full[2]], null],
    ];
    for (const [introducerIds, problem] of table) {
      const res = await attempt(w.branch, id, 'target', { targetDate: h.target, introducerIds });
      if (problem) {
        expect(res.status).toBe(400);
        expect(res.message).toContain(problem);
        expect(res.message).toContain('发展对象应当有两名正式党员作入党介绍人');
      } else expect(res.status, res.message).toBe(200);
    }
  });

  it('training of 3 days or 24 hours: 2 days and 23 hours refused; 3 days, or 24 hours, accepted', async () => {
    const h = history();
    const table: [Record<string, unknown>, number][] = [
      [{ trainingDays: 2, trainingHours: 23 }, 400],
      [{ trainingDays: 3, trainingHours: 0 }, 200],
      [{ trainingDays: 0, trainingHours: 24 }, 200],
    ];
    for (const [values, status] of table) {
      const { id } = await newApplicant(w);
      await walkUntil(w, id, 'train', h);
      const res = await attempt(w.branch, id, 'train', { trainingEndDate: h.train, ...values });
      expect(res.status, JSON.stringify(values)).toBe(status);
      if (status === 400) expect(res.message).toBe('集中培训为2天、23学时，不足3天且不足24学时。发展对象应参加集中培训，时间一般不少于三天或不少于二十四个学时；未经培训的，除个别特殊情况外，不能发展入党（《细则》第四章）');
    }
  });

  it('the party school\'s training counts: a 发展对象 picked into a class who finishes its course (progress API) brings 4 hours; attendance days count as days', async () => {
    const h = history();
    const admin = await login(t.app);
    const cls = await trainingClass(t.app, admin, 4);
    const [hoursLearner, daysLearner] = await learners(t.app, 2, 'devlearn');
    const applicant = async () => {
      const { id } = await newApplicant(w);
      await walkUntil(w, id, 'train', h);
      return { id, idCard: (await w.admin('GET', `${BASE}/${id}`)).body.idCard as string };
    };
    const a = await applicant();
    const b = await applicant();
    await enrolFromDevelopment(t.app, admin, cls.classId, a.idCard, hoursLearner.id);
    const bStudent = await enrolFromDevelopment(t.app, admin, cls.classId, b.idCard, daysLearner.id);
    // Enrolled but not finished: the school adds nothing yet.
    const short = await attempt(w.branch, a.id, 'train', { trainingEndDate: h.train, trainingHours: 20 });
    expect(short.status).toBe(400);
    expect(short.message).toContain('集中培训为0天、20学时');
    await finishCourse(t.app, hoursLearner, cls.nodeId);
    const res = await attempt(w.branch, a.id, 'train', { trainingEndDate: h.train, trainingHours: 20 });
    expect(res.status, res.message).toBe(200);
    expect(res.warnings).toEqual(['含党校（党校）已完成培训学时4']);
    // Days: the class administrator records 3 days of attendance of a learner who finished the course.
    await finishCourse(t.app, daysLearner, cls.nodeId);
    const student = (await t.app.inject({ url: `/api/m/pschool-student/${bStudent}`, headers: bearer(admin) })).json();
    const put = await t.app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(admin), payload: { id: student.id, version: student.version, attendanceDays: 3 } });
    expect(put.json()).toMatchObject({ completed: true, attendanceDays: 3 });
    const byDays = await attempt(w.branch, b.id, 'train', { trainingEndDate: h.train });
    expect(byDays.status, byDays.message).toBe(200);
    expect(byDays.warnings).toEqual(['含党校（党校）已完成培训学时4、3天']);
  });

  it('a special case recorded by the organisation department lets short training pass with a warning; only that level may record it', async () => {
    const h = history();
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'train', h);
    expect((await attempt(w.branch, id, 'train', { trainingEndDate: h.train, trainingDays: 1 })).status).toBe(400);
    expect((await attempt(w.committee, id, 'exception', { trainingException: '因赴外地支教未能参训，结业前补训' })).status).toBe(403);
    expect((await attempt(w.orgdept, id, 'exception', { trainingException: '因赴外地支教未能参训，结业前补训' })).status).toBe(200);
    const res = await attempt(w.branch, id, 'train', { trainingEndDate: h.train, trainingDays: 1 });
    expect(res.status, res.message).toBe(200);
    expect(res.warnings).toEqual([expect.stringMatching(/^经党委组织部记录的特殊情况：因赴外地支教未能参训，结业前补训。集中培训为1天/)]);
    const log = (await w.admin('GET', `${BASE}/${id}/approvals`)).body as { transition: string; level: string; valueTexts: { title: string; text: string }[] }[];
    expect(log.find((e) => e.transition === 'exception')).toMatchObject({ level: 'orgdept', valueTexts: [{ field: 'trainingException', title: '培训例外说明', text: '因赴外地支教未能参训，结业前补训' }] });
  });

  it('the 支部大会 vote: presence and votes for must exceed half of those entitled (50% refused, one more accepted)', async () => {
    const h = history();
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'admit', h);
    const vote = (entitled: number, present: number, votesFor: number) => ({ meetingDate: h.meeting, entitled, present, votesFor, votesAgainst: 0, abstentions: present - votesFor });
    const table: [ReturnType<typeof vote>, string | null][] = [
      [vote(10, 5, 5), '到会5人，未超过应到会有表决权的10人的半数'],
      [vote(10, 6, 5), '赞成5票，未超过应到会有表决权的10人的半数'],
      [vote(9, 4, 4), '到会4人，未超过应到会有表决权的9人的半数'],
      [vote(10, 11, 6), '实到人数（11）不能多于应到人数（10）'],
      [vote(10, 6, 6), null],
    ];
    for (const [values, problem] of table) {
      const res = await attempt(w.branch, id, 'admit', values);
      if (problem) {
        expect(res.status).toBe(400);
        expect(res.message).toContain(problem);
      } else expect(res.status, res.message).toBe(200);
    }
  });

  it('公示 of at least 5 working days (Mon–Fri), over before the meeting: 4 days refused, 5 accepted; a meeting on the last day refused, the day after accepted', async () => {
    const monday = pastMonday();
    const h = { ...history(), train: addDays(monday, -7), review: addDays(monday, -14), meeting: addDays(monday, 5) };
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'preReview', h);
    const pre = (end: string) => ({ preReviewDate: addDays(monday, -1), publicityStart: monday, publicityEnd: end });
    const four = await attempt(w.committee, id, 'preReview', pre(addDays(monday, 3)));
    expect(four.status).toBe(400);
    expect(four.message).toBe(`公示${monday}至${addDays(monday, 3)}共4个工作日，不足5个工作日。对发展对象应当进行公示，公示期满无异议方可提交支部大会讨论（《细则》第五章）（规则参数：发展党员·公示工作日）`);
    // Friday to Thursday: 5 working days over a weekend.
    expect((await attempt(w.committee, id, 'preReview', { ...pre(addDays(monday, 3)), publicityStart: addDays(monday, -3) })).status).toBe(200);
    const meeting = (date: string) => ({ meetingDate: date, entitled: 10, present: 8, votesFor: 8, votesAgainst: 0, abstentions: 0 });
    const sameDay = await attempt(w.branch, id, 'admit', meeting(addDays(monday, 3)));
    expect(sameDay.status).toBe(400);
    expect(sameDay.message).toContain(`支部大会（${addDays(monday, 3)}）须在公示期满（${addDays(monday, 3)}）之后召开`);
    const next = await attempt(w.branch, id, 'admit', meeting(addDays(monday, 4)));
    expect(next.status, next.message).toBe(200);
  });

  it('probation one year from admission; 转正 (and its meeting) the day before the end refused, the day of accepted; party age from 转正', async () => {
    const h = history();
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'full', h);
    const end = (await w.admin('GET', `${BASE}/${id}`)).body.probationEnd as string;
    expect(end).toBe(addYears(h.meeting, 1));
    const votes = { fullEntitled: 10, fullPresent: 7, fullVotesFor: 7, fullVotesAgainst: 0, fullAbstentions: 0 };
    const meetingEarly = await attempt(w.branch, id, 'fullMeeting', { fullMeetingDate: addDays(end, -1), ...votes });
    expect(meetingEarly.status).toBe(400);
    expect(meetingEarly.message).toContain(`预备期至${end}届满`);
    expect((await attempt(w.branch, id, 'fullMeeting', { fullMeetingDate: end, ...votes, fullVotesFor: 5, fullAbstentions: 2 })).status).toBe(400);
    expect((await attempt(w.branch, id, 'fullMeeting', { fullMeetingDate: end, ...votes })).status).toBe(200);
    const early = await attempt(w.committee, id, 'full', { fullDate: addDays(end, -1) });
    expect(early.status).toBe(400);
    expect(early.message).toBe(`预备期至${end}届满，${addDays(end, -1)}尚未期满。预备党员预备期满，方可讨论其转为正式党员；党龄从转为正式党员之日算起（《细则》第六章）`);
    const on = await attempt(w.committee, id, 'full', { fullDate: end });
    expect(on.status, on.message).toBe(200);
    const member = (await w.admin('GET', `/api/m/member/${(await w.admin('GET', `${BASE}/${id}`)).body.memberId}`)).body;
    expect(member).toMatchObject({ memberType: '1', fullDate: end, partyAge: fullYearsBetween(end, localToday()) });
  });

  it('the probation may be extended once, by half a year to one year: 13 and 5 months refused, 12 accepted, a second extension refused', async () => {
    const h = history(addYears(TODAY, -1));
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'full', h);
    const end = (await w.admin('GET', `${BASE}/${id}`)).body.probationEnd as string;
    const thirteen = await attempt(w.committee, id, 'extend', { extendMonths: 13 }, '需要继续考察');
    expect(thirteen.status).toBe(400);
    expect(thirteen.message).toBe('延长13个月超过一年。预备期可以延长一次，延长时间最长不超过一年（《细则》第六章）');
    expect((await attempt(w.committee, id, 'extend', { extendMonths: 5 }, '需要继续考察')).message).toContain('不能少于半年');
    expect((await attempt(w.committee, id, 'extend', { extendMonths: 12 })).status).toBe(400); // a comment is required
    const ok = await attempt(w.committee, id, 'extend', { extendMonths: 12 }, '需要继续考察');
    expect(ok.status, ok.message).toBe(200);
    expect((await w.admin('GET', `${BASE}/${id}`)).body).toMatchObject({ state: 8, probationEnd: addYears(end, 1) });
    const again = await attempt(w.committee, id, 'extend', { extendMonths: 6 }, '再延长');
    expect(again.status).toBe(400);
    expect(again.message).toBe('当前状态为“延长预备期”，不能办理“延长预备期”');
    expect((await attempt(w.committee, id, 'full', { fullDate: addDays(addYears(end, 1), -1) })).status).toBe(400);
  });

  it('step dates: none in the future, none before the milestone before it', async () => {
    const { id } = await newApplicant(w);
    const future = await attempt(w.branch, id, 'apply', { applyDate: addDays(TODAY, 1) });
    expect(future.status).toBe(400);
    expect(future.message).toBe(`递交申请书日期（${addDays(TODAY, 1)}）不能晚于今天`);
    expect((await attempt(w.branch, id, 'apply', { applyDate: addDays(TODAY, -30) })).status).toBe(200);
    const backwards = await attempt(w.branch, id, 'talk', { talkDate: addDays(TODAY, -31), talker: '王' });
    expect(backwards.status).toBe(400);
    expect(backwards.message).toBe(`谈话日期（${addDays(TODAY, -31)}）不能早于递交申请书日期（${addDays(TODAY, -30)}）`);
  });
});

// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): working days over dates read back from the holiday calendar, written in one step's transaction with the member and the dues standard
import { sql } from 'kysely';
/**
 * The areas talking to each other through their real APIs (issue 24 §5), never a stub of one side:
 * development's people are the party school's students; an admitted or transferred-in member has a dues
 * standard at once; 公示 counts working days by the holiday calendar the administrator keeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, yearOf } from '../../src/shared/calendar.js';
import { addMonths } from '../../src/shared/development/rules.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { login } from '../support/auth.js';
import { candidatesOf, trainingClass } from '../support/area-links.js';
import { developmentWorld, idCardFor, history, newApplicant, step, walkUntil, type DevWorld } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, transferActors } from '../support/transfers.js';

const BASE = '/api/m/development';
const year = yearOf(localToday());

describe(`development, the party school, dues and the holiday calendar together on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    w = await developmentWorld(t.app, ['pschool-class:list', 'pschool-class:edit']);
    adminToken = await login(t.app);
  }, 180_000);
  afterAll(() => t.app.close());

  const standardOf = async (memberName: string) => (await w.admin('POST', '/api/m/dues-standard/list', { memberName, year })).body.content as Record<string, unknown>[];

  it('the 入党积极分子 and 发展对象 classes list development\'s people of that stage in the caller\'s scope; ended applications are not listed', async () => {
    const h = history();
    const activist = await newApplicant(w);
    await walkUntil(w, activist.id, 'target', h);
    const target = await newApplicant(w);
    await walkUntil(w, target.id, 'review', h);
    const refused = await newApplicant(w);
    await walkUntil(w, refused.id, 'train', h);
    expect((await step(w.branch, refused.id, 'reject', {}, '政治审查后不予发展')).status).toBe(200);
    const elsewhere = await w.otherBranch('POST', BASE, { name: '外支部发展对象', idCard: idCardFor('2001-01-01', 11), category: '4', orgId: w.ids.branch2 });
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(201);
    const idCardOf = async (id: number) => (await w.admin('GET', `${BASE}/${id}`)).body.idCard as string;

    const activists = await trainingClass(t.app, adminToken, 8, '2', '积极分子培训');
    const targets = await trainingClass(t.app, adminToken, 8, '3', '发展对象培训');
    const branchToken = await login(t.app, 'devbranch', 'Develop#2026a');
    const otherToken = await login(t.app, 'devbranch2', 'Develop#2026a');
    const a = await candidatesOf(t.app, branchToken, activists.classId);
    expect(a).toMatchObject({ stage: '入党积极分子', available: true });
    expect(a.content.map((p) => p.idCard)).toEqual([await idCardOf(activist.id)]);
    const d = await candidatesOf(t.app, branchToken, targets.classId);
    expect(d.content.map((p) => p.idCard)).toEqual([await idCardOf(target.id)]);
    expect(d.content[0]).toMatchObject({ orgId: w.ids.branch, note: '发展对象' });
    // Another branch's secretary sees none of them; the administrator sees every branch.
    expect((await candidatesOf(t.app, otherToken, targets.classId)).content).toEqual([]);
    const applicants = await trainingClass(t.app, adminToken, 8, '1', '申请人培训');
    const all = await candidatesOf(t.app, adminToken, applicants.classId);
    expect(all.content.map((p) => p.name)).toContain('外支部发展对象');
  });

  it('a member admitted by the branch meeting has the year\'s dues standard at once: a student the flat rate, in-service from the base given with the step', async () => {
    const h = history();
    const student = await newApplicant(w); // category 4: 本科生
    await walkUntil(w, student.id, 'admit', h);
    const staff = await newApplicant(w, { category: '1' });
    await walkUntil(w, staff.id, 'admit', h);
    const unknownBase = await newApplicant(w, { category: '1' });
    await walkUntil(w, unknownBase.id, 'admit', h);
    const admit = { meetingDate: h.meeting, entitled: 10, present: 8, votesFor: 7, votesAgainst: 1, abstentions: 0 };
    const admitted = async (id: number, values: Record<string, unknown> = {}) => {
      const res = await step(w.branch, id, 'admit', { ...admit, ...values });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { name: string; memberId: number };
    };

    const s = await admitted(student.id);
    expect(await standardOf(s.name)).toEqual([expect.objectContaining({ orgId: w.ids.branch, category: 'student', amount: '0.20', source: '按规定生成' })]);
    // The committee sends the admission back before approving it: the member record goes, and its standard with it.
    const back = await step(w.committee, student.id, 'return', {}, '支部大会材料不全，请补充后重新讨论');
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.memberId).toBeNull();
    expect(await standardOf(s.name)).toEqual([]);
    const bad = await step(w.branch, staff.id, 'admit', { ...admit, duesBase: '6,500' });
    expect(bad.status).toBe(400);
    const p = await admitted(staff.id, { duesBase: '6500' });
    expect(await standardOf(p.name)).toEqual([expect.objectContaining({ category: 'in-service', base: '6500.00', rate: '1.5%', amount: '97.50' })]);
    // The standard's trail names the step's actor, as any write does.
    const trail = (await w.admin('GET', `/api/m/dues-standard/${(await standardOf(p.name))[0].id}/trail`)).body.content;
    expect(trail).toHaveLength(1);
    // In service without a base: admitted, and left for the payroll import (as 按规定生成 leaves such members).
    const u = await admitted(unknownBase.id);
    expect(u.memberId).toBeGreaterThan(0);
    expect(await standardOf(u.name)).toEqual([]);
  });

  it('公示 over 国庆 2026 counts working days by the calendar: 09-28…10-08 is 4 working days (refused), to 10-09 is 5; the make-up Saturday counts', async () => {
    // Dates fixed in 2026: the history before them, the meeting after.
    const h = { ...history('2026-10-20'), train: '2026-09-14', review: '2026-09-07', target: '2026-09-01' };
    const over = await newApplicant(w);
    await walkUntil(w, over.id, 'preReview', h);
    const pre = (publicityStart: string, publicityEnd: string) => ({ preReviewDate: '2026-09-25', publicityStart, publicityEnd });
    const four = await step(w.committee, over.id, 'preReview', pre('2026-09-28', '2026-10-08'));
    expect(four.status).toBe(400);
    expect(four.body.message).toBe('公示2026-09-28至2026-10-08共4个工作日，不足5个工作日。对发展对象应当进行公示，公示期满无异议方可提交支部大会讨论（《细则》第五章）（规则参数：发展党员·公示工作日）');
    expect((await w.admin('GET', `${BASE}/${over.id}`)).body.publicityEnd).toBeNull();
    const five = await step(w.committee, over.id, 'preReview', pre('2026-09-28', '2026-10-09'));
    expect(five.status, JSON.stringify(five.body)).toBe(200);
    // Thursday 10-08 to Tuesday 10-13 with the worked Saturday 10-10: five working days.
    const makeUp = await newApplicant(w);
    await walkUntil(w, makeUp.id, 'preReview', h);
    expect((await step(w.committee, makeUp.id, 'preReview', pre('2026-10-08', '2026-10-13'))).status).toBe(200);
  });

  it('the administrator keeps the calendar (系统管理 → 节假日安排): seeded once with the published schedule; a make-up day removed no longer counts', async () => {
    const list = (await w.admin('POST', '/api/m/holiday-calendar/list?size=100', { year: 2026 })).body;
    expect(list.content.filter((p: { kind: string }) => p.kind === 'holiday').map((p: { name: string }) => p.name)).toEqual(['元旦', '春节', '清明节', '劳动节', '端午节', '中秋节', '国庆节']);
    const tenth = list.content.find((p: { startDate: string }) => p.startDate === '2026-10-10');
    expect(tenth).toMatchObject({ kind: 'workday', kindLabel: '调休上班', endDate: '2026-10-10' });
    const reversed = await w.admin('POST', '/api/m/holiday-calendar', { year: 2026, name: '校庆', kind: 'holiday', startDate: '2026-11-03', endDate: '2026-11-02' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe('结束日期（2026-11-02）不能早于开始日期（2026-11-03）');
    expect((await w.admin('DELETE', '/api/m/holiday-calendar', [tenth.id])).status).toBe(200);

    const h = { ...history('2026-10-20'), train: '2026-09-14', review: '2026-09-07', target: '2026-09-01' };
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'preReview', h);
    const res = await step(w.committee, id, 'preReview', { preReviewDate: '2026-09-25', publicityStart: '2026-10-08', publicityEnd: '2026-10-13' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('共4个工作日');
  });
});

describe(`a member transferred in has a dues standard at once on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 180_000);
  afterAll(() => t.app.close());

  it('the receiving branch takes the member in: a student the flat rate; an in-service member from the base given, or the standard kept from before', async () => {
    const w = await seedTransferWorld(t.database);
    const a = await transferActors(t.app, w);
    const admin = client(t.app, await login(t.app));
    const today = localToday();
    const idCard = (n: number) => {
      const first17 = `43010219990101${String(n).padStart(3, '0')}`;
      return first17 + idCardCheckChar(first17);
    };
    const receive = async (n: number, category: string, values: Record<string, unknown> = {}) => {
      const created = await a.orgdept.post('/api/m/transfer-in', {
        name: `转入党员${n}`, gender: '1', idCard: idCard(n), category, memberType: '1', joinDate: addMonths(today, -40), fullDate: addMonths(today, -28),
        fromOrgName: '中共某某大学委员会', letterNo: `2026-9${n}`, issueDate: addDays(today, -3), validDays: 30, toOrgId: w.org(a.to.parentKey!),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as number;
      const go = async (who: ReturnType<typeof client>, transition: string, v: Record<string, unknown> = {}) => {
        const current = (await admin.get(`/api/m/transfer-in/${id}`)).body;
        const res = await who.post(`/api/m/transfer-in/${id}/transitions/${transition}`, { version: current.version, comment: '', values: v });
        expect(res.status, `${transition}: ${JSON.stringify(res.body)}`).toBe(200);
        return res.body;
      };
      await go(a.orgdept, 'submit');
      await go(a.recvCommittee, 'approve', { toOrgId: w.org(a.to.key) });
      return (await go(a.recvBranch, 'complete', { arriveDate: today, ...values })) as { memberId: number; name: string };
    };
    const standard = async (name: string) => (await admin.post('/api/m/dues-standard/list', { memberName: name, year })).body.content as Record<string, unknown>[];

    const student = await receive(1, '3');
    expect(await standard(student.name)).toEqual([expect.objectContaining({ orgId: w.org(a.to.key), category: 'student', amount: '0.20' })]);
    const staff = await receive(2, '1', { duesBase: '3000.01' });
    expect(await standard(staff.name)).toEqual([expect.objectContaining({ category: 'in-service', base: '3000.01', rate: '1%', amount: '30.00' })]);
    // Back from elsewhere: last year's standard (written by hand, through the module) carries its base over.
    const returning = idCard(3);
    const old = await admin.post('/api/m/member', { name: '转入党员3', gender: '1', idCard: returning, category: '1', memberType: '1', partyStatus: '1', joinDate: '2010-07-01', fullDate: '2011-07-01', orgId: w.org(a.to.key) });
    expect(old.status, JSON.stringify(old.body)).toBe(201);
    expect((await admin.post('/api/m/dues-standard', { memberId: old.body.id, year: year - 1, category: 'in-service', base: '8000.00' })).status).toBe(201);
    // The member left (转出: the read-only status is set by the transfer's process; here straight in the table).
    await sql`UPDATE m_member SET party_status = '6' WHERE id = ${old.body.id}`.execute(t.database.db);
    const back = await receive(3, '1');
    expect(back.memberId).toBe(old.body.id);
    expect(await standard('转入党员3')).toEqual([expect.objectContaining({ year, base: '8000.00', amount: '120.00' })]);
  });
});

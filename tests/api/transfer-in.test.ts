// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): letter validity and probation dates at their boundaries
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { sendTransferReminders } from '../../src/server/domain/transfer/index.js';
import { login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, transferActors, type TransferActors, type TransferWorld } from '../support/transfers.js';

const today = localToday();
const idCard = (n: number) => {
  const first17 = `43010219980101${String(n).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
};

describe(`校外转入 (transfer-in) and 流动党员 (floating) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let a: TransferActors;
  let admin: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database);
    a = await transferActors(t.app, w);
    admin = client(t.app, await login(t.app));
  }, 180_000);
  afterAll(() => t.app.close());

  const step = async (module: string, who: ReturnType<typeof client>, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') => {
    const current = (await admin.get(`/api/m/${module}/${id}`)).body;
    return who.post(`/api/m/${module}/${id}/transitions/${transition}`, { version: current.version, comment, values });
  };
  const letter = (n: number, extra: Record<string, unknown> = {}) => ({
    name: `转入${n}`, gender: '1', idCard: idCard(n), category: '3', memberType: '2', joinDate: addMonths(today, -5),
    fromOrgName: '中共某某大学委员会', letterNo: `2026-${n}`, issueDate: addDays(today, -10), validDays: 30, toOrgId: w.org(a.to.parentKey!), duesPaidTo: '2026-05', ...extra,
  });
  const register = async (body: Record<string, unknown>) => {
    const res = await a.orgdept.post('/api/m/transfer-in', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  };

  it('registers a letter, the committee assigns a branch, the branch receives: the member is created with the probation dates, once, at the end', async () => {
    const id = await register(letter(1));
    expect((await admin.get(`/api/m/transfer-in/${id}`)).body).toMatchObject({ state: -1, probationEnd: addMonths(addMonths(today, -5), 12), expiryDate: addDays(today, 20) });
    expect((await step('transfer-in', a.orgdept, id, 'submit')).body.state).toBe(0);
    const noBranch = await step('transfer-in', a.recvCommittee, id, 'approve', { toOrgId: w.org(a.to.parentKey!) });
    expect(noBranch.body.message).toBe('请分配接收的党支部（须为党支部）');
    // A branch outside the committee's scope: the engine refuses the step value (issue 24 §3.1).
    const outside = await step('transfer-in', a.recvCommittee, id, 'approve', { toOrgId: w.org(a.from.key) });
    expect(outside.status).toBe(403);
    expect(outside.body.message).toContain('不在您的管理范围内');
    const assigned = await step('transfer-in', a.recvCommittee, id, 'approve', { toOrgId: w.org(a.to.key) });
    expect(assigned.body).toMatchObject({ state: 1, toOrgId: w.org(a.to.key) });
    expect((await admin.post('/api/m/member/list', { idCard: idCard(1) })).body.totalElements).toBe(0);
    const received = await step('transfer-in', a.recvBranch, id, 'complete', { arriveDate: today });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    expect(received.body).toMatchObject({ state: 2, stateLabel: '已转入', arriveDate: today });
    const member = (await admin.get(`/api/m/member/${received.body.memberId}`)).body;
    expect(member).toMatchObject({ name: '转入1', idCard: idCard(1), orgId: w.org(a.to.key), memberType: '2', partyStatus: '1', joinDate: addMonths(today, -5) });
    const trail = (await admin.get(`/api/m/member/${member.id}/trail`)).body.content;
    expect(trail).toHaveLength(1);
    expect(trail[0].source).toMatchObject({ module: 'transfer-in', recordId: id });
    // The receipt to send back: waiting until recorded.
    expect((await step('transfer-in', a.recvBranch, id, 'receipt', { receiptDate: today })).body.receiptDate).toBe(today);
  });

  it('validity: a letter is received on day N of N, refused on day N+1 naming the expiry date', async () => {
    const dayN = await register(letter(2, { issueDate: addDays(today, -30), validDays: 30 }));
    expect((await step('transfer-in', a.orgdept, dayN, 'submit')).status).toBe(200);
    const late = await register(letter(3, { issueDate: addDays(today, -31), validDays: 30 }));
    const refused = await step('transfer-in', a.orgdept, late, 'submit');
    expect(refused.status).toBe(400);
    const [y, m, d] = addDays(today, -1).split('-').map(Number);
    expect(refused.body.message).toBe(`介绍信已过有效期（有效期至${y}年${m}月${d}日），不能接收，请党员向原党组织重新开具介绍信`);
    expect(refused.body.errors[0]).toMatchObject({ field: 'issueDate', rule: 'transfer.letterValid' });
    // The open steps say why before anyone tries.
    const open = (await a.orgdept.get(`/api/m/transfer-in/${late}/transitions`)).body as { id: string; blocked: string[] }[];
    expect(open.find((s) => s.id === 'submit')!.blocked[0]).toContain('介绍信已过有效期');
    // Received by the branch on day N as well.
    await step('transfer-in', a.recvCommittee, dayN, 'approve', { toOrgId: w.org(a.to.key) });
    expect((await step('transfer-in', a.recvBranch, dayN, 'complete', { arriveDate: today })).status).toBe(200);
    expect((await step('transfer-in', a.recvBranch, dayN, 'complete', { arriveDate: addDays(today, 1) })).status).toBe(400);
  });

  it('a member who once left comes back: the same record is re-activated in the receiving branch', async () => {
    const gone = w.membersOf(a.from)[5];
    await sql`UPDATE m_member SET party_status = '6' WHERE id = ${w.member(gone)}`.execute(t.database.db);
    const onRoster = await a.orgdept.post('/api/m/transfer-in', letter(4, { idCard: w.membersOf(a.from)[4].idCard }));
    expect(onRoster.body.message).toContain('已在本校党员名册中');
    const id = await register(letter(5, { idCard: gone.idCard, name: gone.name, memberType: '1', fullDate: addMonths(today, -30), joinDate: addMonths(today, -42) }));
    await step('transfer-in', a.orgdept, id, 'submit');
    await step('transfer-in', a.recvCommittee, id, 'approve', { toOrgId: w.org(a.to.key) });
    const received = await step('transfer-in', a.recvBranch, id, 'complete');
    expect(received.body.memberId).toBe(w.member(gone));
    expect((await admin.get(`/api/m/member/${w.member(gone)}`)).body).toMatchObject({ partyStatus: '1', orgId: w.org(a.to.key), memberType: '1' });
  });

  it('floating out: registered, approved with the 活动证 number, ended by the return; the member stays where they are', async () => {
    const m = w.membersOf(a.from)[0];
    const leaveDate = addMonths(today, -7);
    const created = await a.sendBranch.post('/api/m/floating', { type: 'out', memberId: w.member(m), name: '-', orgId: w.org(a.from.key), leaveDate, expectedReturnDate: addMonths(today, 5), destination: '广东省深圳市', reason: '务工经商', floatingOrgName: '中共深圳市某某区流动党员党委' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ name: m.name, typeLabel: '外出流动', state: -1 });
    const twice = await a.sendBranch.post('/api/m/floating', { type: 'out', memberId: w.member(m), name: '-', orgId: w.org(a.from.key), leaveDate, destination: '长沙' });
    expect(twice.body.message).toBe(`${m.name}已有未结束的流动党员登记`);
    expect((await step('floating', a.sendBranch, id, 'submit')).body.state).toBe(0);
    expect((await step('floating', a.sendCommittee, id, 'approve', { certificateNo: 'LD2026001' })).body).toMatchObject({ state: 1, stateLabel: '流动中', certificateNo: 'LD2026001' });
    expect((await step('floating', a.sendBranch, id, 'complete', { returnDate: addDays(leaveDate, -1) })).body.message).toContain('返回日期不能早于');
    expect((await step('floating', a.sendBranch, id, 'complete')).body.message).toBe('返回日期不能为空');
    const ended = await step('floating', a.sendBranch, id, 'complete', { returnDate: today });
    expect(ended.body).toMatchObject({ state: 2, returnDate: today });
    expect((await admin.get(`/api/m/member/${w.member(m)}`)).body).toMatchObject({ orgId: w.org(a.from.key), partyStatus: '1' });
  });

  it('floating out takes name and branch from the member (the form asks for neither); an inflow must state its name', async () => {
    const m = w.membersOf(a.from)[2];
    const out = await a.sendBranch.post('/api/m/floating', { type: 'out', memberId: w.member(m), leaveDate: addMonths(today, -7), destination: '广东省广州市' });
    expect(out.status, JSON.stringify(out.body)).toBe(201);
    expect(out.body).toMatchObject({ name: m.name, orgId: w.org(a.from.key), state: -1 });
    const nameless = await a.recvBranch.post('/api/m/floating', { type: 'in', orgId: w.org(a.to.key), leaveDate: addMonths(today, -1), destination: '湖北省武汉市' });
    expect(nameless.status).toBe(400);
    expect(nameless.body.errors).toEqual([expect.objectContaining({ field: 'name', message: '流入党员须填写姓名' })]);
    // Without a branch, an inflow registered by a branch joins that branch.
    const ownBranch = await a.recvBranch.post('/api/m/floating', { type: 'in', name: '流入党员乙', leaveDate: addMonths(today, -1), destination: '湖北省武汉市' });
    expect(ownBranch.body).toMatchObject({ name: '流入党员乙', orgId: w.org(a.to.key) });
  });

  it('floating in: a member from elsewhere joins a branch here', async () => {
    const created = await a.recvBranch.post('/api/m/floating', { type: 'in', name: '流入党员', idCard: idCard(9), orgId: w.org(a.to.key), leaveDate: addMonths(today, -1), destination: '湖北省武汉市', floatingOrgName: '中共武汉市某某街道委员会', certificateNo: 'HB2025017' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await step('floating', a.recvBranch, id, 'submit')).status).toBe(200);
    expect((await step('floating', a.recvCommittee, id, 'approve')).body.stateLabel).toBe('流动中');
    const list = (await a.recvBranch.post('/api/m/floating/list', { type: 'in' })).body;
    expect(list.content.map((r: { id: number }) => r.id)).toContain(id);
  });

  it('reminds the branch once when a floating member\'s expected return date has passed', async () => {
    const m = w.membersOf(a.from)[1];
    const created = await a.sendBranch.post('/api/m/floating', { type: 'out', memberId: w.member(m), name: '-', orgId: w.org(a.from.key), leaveDate: addMonths(today, -8), expectedReturnDate: addDays(today, -1), destination: '上海市' });
    const id = created.body.id as number;
    await step('floating', a.sendBranch, id, 'submit');
    await step('floating', a.sendCommittee, id, 'approve', { certificateNo: 'LD2026002' });
    const services = { runtime: t.app.runtime, db: t.database.db, messages: t.app.services.messages };
    expect(await sendTransferReminders(services, today)).toBeGreaterThanOrEqual(1);
    const sent = (await sql<{ user_id: number; title: string; link: string }>`SELECT user_id, title, link FROM msg_push_history WHERE type = 'remind' AND title LIKE ${`%${m.name}%`}`.execute(t.database.db)).rows;
    expect(sent).toEqual([{ user_id: a.userIds.sendBranch, title: `流动党员预计返回日期已过：${m.name}`, link: `/transfer/floating?id=${id}` }]);
    expect(await sendTransferReminders(services, today)).toBe(0);
  });
});

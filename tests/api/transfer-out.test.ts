// engines: both — concurrent approvals numbering letters
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, yearOf } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login } from '../support/auth.js';
import { duesItemsOf, startedDuesBatch } from '../support/area-links.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, transferActors, type TransferActors, type TransferWorld } from '../support/transfers.js';

const today = localToday();
const year = yearOf(today);
const no = (n: number) => `${year}-${String(n).padStart(4, '0')}`;

describe(`转出校外 (transfer-out) and its introduction letter on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let a: TransferActors;
  let admin: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database, 500);
    a = await transferActors(t.app, w);
    admin = client(t.app, await login(t.app));
  }, 180_000);
  afterAll(() => t.app.close());

  const step = async (who: ReturnType<typeof client>, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') => {
    const current = (await admin.get(`/api/m/transfer-out/${id}`)).body;
    return who.post(`/api/m/transfer-out/${id}/transitions/${transition}`, { version: current.version, comment, values });
  };
  const create = async (memberIndex: number, extra: Record<string, unknown> = {}) => {
    const m = w.membersOf(a.from)[memberIndex];
    const res = await a.sendBranch.post('/api/m/transfer-out', { memberId: w.member(m), toOrgName: '中共长沙市某某区委员会组织部', destination: '某某区人民政府', reason: '工作调动', kind: '正式组织关系', memberPhone: '13800138000', ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id as number, memberId: w.member(m), member: m };
  };

  it('walks branch → committee → organisation department (letter numbered) → completion → receipt; the member leaves the roster once, at the end', async () => {
    const { id, memberId, member } = await create(0);
    expect((await step(a.sendBranch, id, 'submit')).body.state).toBe(0);
    expect((await step(a.sendCommittee, id, 'approve')).body.state).toBe(1);
    // The organisation department's approval issues the letter: the year's first number.
    expect((await step(a.sendCommittee, id, 'approve')).status).toBe(403);
    const issued = await step(a.orgdept, id, 'approve', { validDays: 60, duesPaidTo: '2026-05' });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body).toMatchObject({ state: 2, letterNo: no(1), issueDate: today, validDays: 60, expiryDate: addDays(today, 60), duesPaidTo: '2026-05' });
    expect((await admin.get(`/api/m/member/${memberId}`)).body.partyStatus).toBe('1');

    const letter = await a.sendBranch.get(`/api/transfers/letters/${id}`);
    expect(letter.status).toBe(200);
    expect(letter.body).toMatchObject({ letterNo: no(1), status: 'issued', name: member.name, toOrgName: '中共长沙市某某区委员会组织部', duesPaidTo: '2026-05', validDays: 60 });
    expect(letter.body.fromOrgName).toMatch(/委员会$/);
    const xlsx = await t.app.inject({ url: `/api/transfers/letters/${id}/xlsx`, headers: { authorization: `Bearer ${await login(t.app)}` } });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const texts: string[] = [];
    book.worksheets[0].eachRow((row) => texts.push(String(row.getCell(1).value ?? '')));
    expect(texts).toContain('中国共产党党员组织关系介绍信');
    expect(texts).toContain('（存　根）');
    expect(texts).toContain('中国共产党党员组织关系介绍信回执');
    expect(texts.some((x) => x.includes(`〔${year}〕第0001号`))).toBe(true);
    expect(texts.some((x) => x.includes('该同志党费已交到2026年5月'))).toBe(true);

    const rosterCount = async () => {
      const res = await t.app.inject({ url: `/api/member/roster/export?orgId=${w.org(a.from.key)}`, headers: { authorization: `Bearer ${await login(t.app)}` } });
      const roster = new ExcelJS.Workbook();
      await roster.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return Number(/共(\d+)人/.exec(String(roster.worksheets[0].getRow(1).getCell(1).value))![1]);
    };
    const onRoster = await rosterCount();
    const done = await step(a.sendBranch, id, 'complete', { leaveDate: today });
    expect(await rosterCount()).toBe(onRoster - 1);
    expect(done.body).toMatchObject({ state: 3, stateLabel: '已转出', leaveDate: today });
    const after = (await admin.get(`/api/m/member/${memberId}`)).body;
    expect(after).toMatchObject({ partyStatus: '6', partyStatusLabel: '转出', orgId: w.org(a.from.key) });
    const trail = (await admin.get(`/api/m/member/${memberId}/trail`)).body.content as { changes: { field: string }[]; source: { module: string; recordId: number } | null }[];
    const statusChanges = trail.filter((c) => c.changes.some((x) => x.field === 'partyStatus'));
    expect(statusChanges).toHaveLength(1);
    expect(statusChanges[0].source).toMatchObject({ module: 'transfer-out', recordId: id });

    // The receipt comes back: waiting for the organisation department until recorded.
    const waiting = (await a.orgdept.post('/api/m/transfer-out/list', { $waiting: true })).body;
    expect(waiting.content.map((r: { id: number }) => r.id)).toContain(id);
    expect((await step(a.orgdept, id, 'receipt', { receiptDate: addDays(today, 1) })).body.message).toBe('回执日期不能晚于今天');
    const receipt = await step(a.orgdept, id, 'receipt', { receiptDate: today, receiptNote: '已收到回执' });
    expect(receipt.body).toMatchObject({ state: 3, receiptDate: today });
    expect((await step(a.orgdept, id, 'receipt', { receiptDate: today })).status).toBe(400);
    const log = (await admin.get(`/api/m/transfer-out/${id}/approvals`)).body as { transition: string; level: string }[];
    expect(log.map((l) => `${l.transition}:${l.level}`)).toEqual(['submit:branch', 'approve:committee', 'approve:orgdept', 'complete:branch', 'receipt:orgdept']);
  });

  it('re-issuing cancels the number, which stays cancelled; a return after issue cancels too; numbers never repeat or skip', async () => {
    const { id } = await create(1);
    await step(a.sendBranch, id, 'submit');
    await step(a.sendCommittee, id, 'approve');
    const first = (await step(a.orgdept, id, 'approve')).body.letterNo as string;
    const reissued = await step(a.orgdept, id, 'reissue', { validDays: 30 }, '姓名有误，重开');
    expect(reissued.status, JSON.stringify(reissued.body)).toBe(200);
    expect(reissued.body.letterNo).not.toBe(first);
    const back = await step(a.orgdept, id, 'return', {}, '转入单位名称有误');
    expect(back.body).toMatchObject({ state: 1, letterNo: null });
    const third = (await step(a.orgdept, id, 'approve')).body.letterNo as string;
    const register = (await a.orgdept.get(`/api/transfers/letters?year=${year}`)).body as { letterNo: string; status: string; serial: number }[];
    const mine = register.filter((l) => [first, reissued.body.letterNo, third].includes(l.letterNo));
    expect(mine.map((l) => l.status)).toEqual(['cancelled', 'cancelled', 'issued']);
    const serials = register.map((l) => l.serial);
    expect(serials).toEqual(Array.from({ length: serials.length }, (_x, i) => i + 1));
    // The print page marks a cancelled letter; the current one prints normally.
    expect((await a.orgdept.get(`/api/transfers/letters/${id}`)).body).toMatchObject({ letterNo: third, status: 'issued' });
  });

  it('[dues] refuses a transfer out while the member has unpaid months in the dues area; paid on site, the letter takes the paid-up-to month', async () => {
    const { id, memberId, member } = await create(2);
    // Real dues: the member's standard, a started quarter, nothing paid yet.
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => (method === 'GET' ? admin.get(url) : admin.post(url, payload));
    expect((await admin.post('/api/m/dues-standard', { memberId, year: 2026, category: 'student' })).status).toBe(201);
    const batch = await startedDuesBatch(call, '2026-01', 3);
    const refused = await step(a.sendBranch, id, 'submit');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('2026-01、2026-02、2026-03');
    expect((await admin.get(`/api/m/transfer-out/${id}`)).body.state).toBe(-1);
    const items = await duesItemsOf(call, batch, member.name);
    const paid = await admin.post('/api/dues/payments', { method: 'cash', entries: [{ memberId, itemIds: items.filter((i) => i.memberId === memberId).map((i) => i.id) }] });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect((await step(a.sendBranch, id, 'submit')).status).toBe(200);
    await step(a.sendCommittee, id, 'approve');
    expect((await step(a.orgdept, id, 'approve')).body.duesPaidTo).toBe('2026-03');
  });

  it('a temporary letter keeps the member on the roster; it needs an end date', async () => {
    const m = w.membersOf(a.from)[3];
    const missing = await a.sendBranch.post('/api/m/transfer-out', { memberId: w.member(m), toOrgName: '中共某某大学委员会', kind: '临时组织关系' });
    expect(missing.body.message).toBe('临时组织关系须填写截止日期');
    const { id, memberId } = await create(3, { kind: '临时组织关系', endDate: addDays(today, 180), reason: '外出学习' });
    for (const [who, s] of [[a.sendBranch, 'submit'], [a.sendCommittee, 'approve'], [a.orgdept, 'approve'], [a.orgdept, 'complete']] as const) {
      expect((await step(who, id, s)).status, s).toBe(200);
    }
    expect((await admin.get(`/api/m/member/${memberId}`)).body.partyStatus).toBe('1');
  });

  it('200 concurrent letter requests give 200 distinct consecutive numbers', async () => {
    // 200 transfers waiting for the organisation department (set up directly: the steps before are tested above).
    const members = w.u.members.filter((m) => m.partyStatus === '1' && m.orgKey !== a.from.key).slice(0, 200);
    expect(members).toHaveLength(200);
    const ids: number[] = [];
    for (const m of members) {
      const row = await sql<{ id: number }>`
        INSERT INTO m_transfer_out (school, member_id, name, org_id, kind, to_org_name, valid_days, state, apply_date)
        VALUES ('hntb', ${w.member(m)}, ${m.name}, ${w.org(m.orgKey)}, '正式组织关系', '中共某某委员会', 30, 1, ${today}) RETURNING id`.execute(t.database.db);
      ids.push(row.rows[0].id);
    }
    const before = (await a.orgdept.get(`/api/transfers/letters?year=${year}`)).body.length as number;
    const results = await Promise.all(ids.map((id) => a.orgdept.post(`/api/m/transfer-out/${id}/transitions/approve`, { version: 1, values: {} })));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const numbers = results.map((r) => Number((r.body.letterNo as string).split('-')[1])).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_x, i) => before + i + 1));
  }, 120_000);
});

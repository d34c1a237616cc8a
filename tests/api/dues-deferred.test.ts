// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the dead end walked through dues and the transfer workflow on each engine (issue 33.1)
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duesStatusOf } from '../../src/server/domain/dues/index.js';
import { linkUserToMember } from '../../src/server/domain/member/accounts.js';
import { seedDues } from '../../src/server/seed/dues.js';
import { login, userWithRole } from '../support/auth.js';
import { allowSimulator, batchStep, caller, duesWorld, type Call, type DuesWorld } from '../support/dues.js';
import { TEST_DB } from '../support/test-app.js';
import { transferPermissions } from '../support/transfers.js';

/**
 * Issue 33.1: a member whose months were deferred (缓交) long ago could never transfer out — the transfer
 * waits for the dues, and nobody could pay months more than six months back. Deferred months (for a
 * proper reason) stay payable: by the member online and by the branch on site; then the transfer goes.
 */
describe(`deferred dues and the transfer out (issue 33.1) on ${TEST_DB}`, () => {
  let w: DuesWorld;
  let call: Call;
  let member: { id: number; name: string; orgId: number; committeeId: number };
  /** The member's unpaid months of closed batches, oldest first: item, month, deferral kind. */
  let unpaid: { id: number; month: string; kind: string | null; due: number }[];
  const PASS = 'Deferred#2026a';
  const account = async (username: string, permissions: string[], orgId: number, dataScope: 'own' | 'all' = 'own') => {
    const id = await userWithRole(w.t.app, w.admin, { username, permissions, dataScope, orgId, password: PASS });
    return { id, token: await login(w.t.app, username, PASS) };
  };

  beforeAll(async () => {
    w = await duesWorld(300, 21);
    call = caller(w.t.app, () => w.admin);
    // Eleven months of demo dues: 2026-01 … 2026-10 closed (unpaid months deferred), 2026-11 started.
    await seedDues(w.t.database, 'hntb', { currentMonth: '2026-11', today: 20, months: 11 });
    // A member of a branch unpaid in November, with a month deferred for a proper reason more than six
    // months back, two or more unpaid closed months, and none deferred without a reason (党章第九条 cases).
    const rows = (await sql<{ memberId: number; name: string; orgId: number; committeeId: number; months: string[]; kinds: string[] }>`
      SELECT m.id AS "memberId", m.name, m.org_id AS "orgId", o.parent_id AS "committeeId",
             array_agg(b.first_month ORDER BY b.first_month) AS months, array_agg(d.kind ORDER BY b.first_month) AS kinds
      FROM m_member m JOIN m_org o ON o.id = m.org_id AND o.type = '3'
      JOIN dues_item i ON i.member_id = m.id AND i.payment_id IS NULL JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
      LEFT JOIN dues_deferral d ON d.item_id = i.id
      WHERE m.party_status = '1' AND EXISTS (SELECT 1 FROM dues_item c JOIN dues_batch cb ON cb.id = c.batch_id AND cb.state = 3 WHERE c.member_id = m.id AND c.payment_id IS NULL)
      GROUP BY m.id, m.name, m.org_id, o.parent_id ORDER BY m.id`.execute(w.t.database.db)).rows;
    const pick = rows.find((r) => r.months.length >= 2 && r.months[0] <= '2026-04' && ['approved', 'hardship'].includes(r.kinds[0]) && !r.kinds.includes('no-reason'));
    expect(pick, 'a member with a deferred month more than six months back').toBeTruthy();
    member = { id: pick!.memberId, name: pick!.name, orgId: pick!.orgId, committeeId: pick!.committeeId };
    unpaid = (await sql<{ id: number; month: string; kind: string | null; due: number }>`
      SELECT i.id, b.first_month AS month, d.kind, i.due_cents AS due FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
      LEFT JOIN dues_deferral d ON d.item_id = i.id WHERE i.member_id = ${member.id} AND i.payment_id IS NULL ORDER BY b.first_month`.execute(w.t.database.db)).rows;
  }, 300_000);
  afterAll(() => w.t.app.close(), 120_000);

  it('[33.1] a member with months deferred long ago pays them online and the branch on site; then the transfer out goes through', async () => {
    const db = w.t.database.db;
    const root = (await sql<{ id: number }>`SELECT id FROM m_org WHERE parent_id IS NULL ORDER BY id LIMIT 1`.execute(db)).rows[0].id;
    const perms = transferPermissions();
    const branch = await account('df_branch', [...perms, 'dues-onsite:list', 'dues-onsite:pay'], member.orgId);
    const committee = await account('df_committee', perms, member.committeeId);
    const orgdept = await account('df_orgdept', perms, root, 'all');
    const self = await account('df_member', ['dues-my:list'], member.orgId);
    await linkUserToMember(db, self.id, member.id);
    allowSimulator(w); // the simulator is a demo's (issue 38.16)
    expect((await call('PUT', '/api/dues/settings/online', { provider: 'simulator' })).status).toBe(200);

    // The transfer out is refused, naming the months and how to settle them.
    const created = await call('POST', '/api/m/transfer-out', { memberId: member.id, toOrgName: '中共长沙市某某区委员会组织部', destination: '某某区人民政府', reason: '工作调动', kind: '正式组织关系', memberPhone: '13800138000' }, branch.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const transferId = created.body.id as number;
    const step = async (token: string, transition: string, values: Record<string, unknown> = {}) => {
      const current = (await call('GET', `/api/m/transfer-out/${transferId}`)).body;
      return call('POST', `/api/m/transfer-out/${transferId}/transitions/${transition}`, { version: current.version, comment: '', values }, token);
    };
    const refused = await step(branch.token, 'submit');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`该党员尚有未交党费（${unpaid[0].month}、`);
    expect(refused.body.message).toContain('本人可在“我的党费”中在线缴纳，或由党支部在“现场缴费”中补缴');

    // 我的党费 offers the deferred month seven or more months back; the member pays it online with November.
    const mine = (await call('GET', '/api/dues/my?year=2026', undefined, self.token)).body;
    const oldest = mine.items.find((i: { id: number }) => i.id === unpaid[0].id);
    expect(oldest).toMatchObject({ status: 'deferred', canPay: true, backPay: true });
    const november = mine.items.find((i: { state: number; canPay: boolean }) => i.state === 3 && i.canPay);
    const online = unpaid.slice(0, -1);
    const order = await call('POST', '/api/dues/my/orders', { itemIds: [november.id, ...online.map((u) => u.id)] }, self.token);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const paid = await call('POST', `/api/dues/pay/simulator/${order.body.id}`, { result: 'success' }, self.token);
    expect(paid.body, JSON.stringify(paid.body)).toMatchObject({ status: 2, receipt: { method: 'online' } });
    expect(paid.body.receipt.amount).toBe(((Math.round(Number(november.due) * 100) + online.reduce((s, u) => s + u.due, 0)) / 100).toFixed(2));
    expect((await duesStatusOf(db, member.id)).unpaidMonths).toEqual([unpaid.at(-1)!.month]);

    // The branch pays the last month on site with December (a new started month).
    const created12 = await call('POST', '/api/m/dues-batch', { firstMonth: '2026-12' });
    expect((await batchStep(call, created12.body.id, 'configure', { allowMissing: true })).status).toBe(200);
    expect((await batchStep(call, created12.body.id, 'start')).status).toBe(200);
    const onsite = (await call('GET', `/api/dues/onsite/members?name=${encodeURIComponent(member.name)}&size=50`, undefined, branch.token)).body.content.find((m: { memberId: number }) => m.memberId === member.id);
    expect(onsite.backPay.map((b: { itemId: number }) => b.itemId)).toEqual([unpaid.at(-1)!.id]);
    const cash = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: member.id, itemIds: onsite.open.map((o: { itemId: number }) => o.itemId), backPayItemIds: [unpaid.at(-1)!.id] }] }, branch.token);
    expect(cash.status, JSON.stringify(cash.body)).toBe(201);
    expect(await duesStatusOf(db, member.id)).toMatchObject({ hasUnpaid: false, paidUpTo: '2026-12' });

    // Now the transfer out goes through, and the letter says dues are paid up to December.
    expect((await step(branch.token, 'submit')).status).toBe(200);
    const approved = await step(committee.token, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const letter = await step(orgdept.token, 'approve');
    expect(letter.status, JSON.stringify(letter.body)).toBe(200);
    expect(letter.body.duesPaidTo).toBe('2026-12');
  }, 180_000);

  it('[33.1] a month unpaid without a proper reason more than six months back is not paid back (党章第九条); the branch settles it by an approved exemption, recorded (第七条)', async () => {
    const chronic = (await sql<{ id: number; memberId: number; month: string }>`
      SELECT i.id, i.member_id AS "memberId", b.first_month AS month FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
      JOIN dues_deferral d ON d.item_id = i.id AND d.kind = 'no-reason' WHERE i.payment_id IS NULL AND b.first_month <= '2026-04'
      AND EXISTS (SELECT 1 FROM dues_item t JOIN dues_batch tb ON tb.id = t.batch_id AND tb.first_month = '2026-11' WHERE t.member_id = i.member_id AND t.payment_id IS NULL)
      ORDER BY i.id LIMIT 1`.execute(w.t.database.db)).rows[0];
    expect(chronic, 'a month deferred without a proper reason').toBeTruthy();
    const target = (await sql<{ id: number }>`SELECT i.id FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.first_month = '2026-11' WHERE i.member_id = ${chronic.memberId}`.execute(w.t.database.db)).rows[0];
    const res = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: chronic.memberId, itemIds: [target.id], backPayItemIds: [chronic.id] }] });
    // The same month was refused before the deferral counted, and still is: no payment was written.
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_adjustment WHERE source_item_id = ${chronic.id}`.execute(w.t.database.db)).rows[0].n).toBe(0);

    // The branch settles it by the rules instead: an exemption approved by the committee (第七条), recorded.
    expect((await duesStatusOf(w.t.database.db, chronic.memberId)).unpaidMonths).toContain(chronic.month);
    const name = (await sql<{ name: string }>`SELECT name FROM m_member WHERE id = ${chronic.memberId}`.execute(w.t.database.db)).rows[0].name;
    const onsite = async () => ((await call('GET', `/api/dues/onsite/members?name=${encodeURIComponent(name)}&size=50`)).body.content as { memberId: number; backPay: { itemId: number }[]; overdue: { itemId: number }[] }[]).find((m) => m.memberId === chronic.memberId)!;
    // 现场缴费 lists it apart: not payable, for an exemption.
    expect((await onsite()).overdue.map((o) => o.itemId)).toContain(chronic.id);
    expect((await onsite()).backPay.map((o) => o.itemId)).not.toContain(chronic.id);
    const body = { itemIds: [chronic.id], reason: '经济确有困难，经支部研究', approval: '经二级党委批准（党委〔2026〕3号）' };
    const started = await call('POST', `/api/dues/members/${chronic.memberId}/waivers`, { ...body, itemIds: [target.id] });
    expect(started).toMatchObject({ status: 400, body: { message: '2026年11月党费尚未关闭，本期应交金额请通过调整更正' } });
    expect((await call('POST', `/api/dues/members/${chronic.memberId}/waivers`, { ...body, approval: '' })).status).toBe(400);
    const waived = await call('POST', `/api/dues/members/${chronic.memberId}/waivers`, body);
    expect(waived.body, JSON.stringify(waived.body)).toMatchObject({ waived: 1 });
    expect((await duesStatusOf(w.t.database.db, chronic.memberId)).unpaidMonths).not.toContain(chronic.month);
    expect((await onsite()).overdue.map((o) => o.itemId)).not.toContain(chronic.id);
    expect((await sql<{ approval: string; reason: string }>`SELECT approval, reason FROM dues_waiver WHERE item_id = ${chronic.id}`.execute(w.t.database.db)).rows)
      .toEqual([{ approval: body.approval, reason: body.reason }]);
    expect((await call('POST', `/api/dues/members/${chronic.memberId}/waivers`, body)).status).toBe(409);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/距今已超过6个月，且不是经批准或因生活困难缓交的月份/);
  }, 60_000);
});

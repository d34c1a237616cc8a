// engines: both — concurrent payments of one month and money sums
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkUserToMember } from '../../src/server/domain/member/accounts.js';
import { duesStatusOf } from '../../src/server/domain/dues/index.js';
import { allowSimulator, batchStep, branchWith, caller, duesWorld, itemOf, membersOf, scopedUser, standardsForAll, startedBatch, type Call, type DuesWorld } from '../support/dues.js';
import { TEST_DB } from '../support/test-app.js';

describe(`dues payments (现场缴费, 在线缴纳) on ${TEST_DB}`, () => {
  let w: DuesWorld;
  let call: Call;
  let branch: number;
  let members: { id: number; name: string }[];
  let collector: string;
  let october: number;
  let november: number;
  beforeAll(async () => {
    w = await duesWorld(200, 21);
    call = caller(w.t.app, () => w.admin);
    await standardsForAll(w, call, 2026, (id) => (id % 2 ? '3000.00' : '3000.01'));
    october = await startedBatch(call, '2026-10');
    november = await startedBatch(call, '2026-11');
    branch = await branchWith(w, 4);
    members = await membersOf(w, branch);
    collector = await scopedUser(w, 'dues_collector', ['dues-onsite:list', 'dues-onsite:pay', 'dues-onsite:reverse'], branch);
  });
  afterAll(() => w.t.app.close());

  it('50 concurrent payments of the same member and month: exactly one wins, the others are told it is paid', async () => {
    const member = members[0];
    const item = await itemOf(w, november, member.id);
    const body = { method: 'cash', entries: [{ memberId: member.id, itemIds: [item.id] }] };
    const results = await Promise.all(Array.from({ length: 50 }, () => call('POST', '/api/dues/payments', body, collector)));
    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status !== 201);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) expect(r).toMatchObject({ status: 409, body: { message: `党员“${member.name}”2026年11月党费已缴纳，请勿重复缴费` } });
    const entries = (await sql<{ n: number; sum: number }>`SELECT count(*)::int AS n, sum(l.amount_cents)::int AS sum FROM dues_payment_line l WHERE l.item_id = ${item.id}`.execute(w.t.database.db)).rows[0];
    expect(entries).toEqual({ n: 1, sum: item.due_cents });
    expect((await itemOf(w, november, member.id)).payment_id).toBe(won[0].body[0].id);
  });

  it('several members and months at once, one receipt per member; a bad entry writes nothing', async () => {
    const [a, b] = [members[1], members[2]];
    const [a10, a11, b11] = [await itemOf(w, october, a.id), await itemOf(w, november, a.id), await itemOf(w, november, b.id)];
    const paidBefore = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_payment`.execute(w.t.database.db)).rows[0].n;
    // b's November is paid first, so the batch of a and b fails as a whole.
    await call('POST', '/api/dues/payments', { method: 'transfer', entries: [{ memberId: b.id, itemIds: [b11.id] }] }, collector);
    const both = await call('POST', '/api/dues/payments', { method: 'cash', payer: '代缴人', entries: [{ memberId: a.id, itemIds: [a10.id, a11.id] }, { memberId: b.id, itemIds: [b11.id] }] }, collector);
    expect(both.status).toBe(409);
    expect((await itemOf(w, october, a.id)).payment_id).toBeNull();
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_payment`.execute(w.t.database.db)).rows[0].n).toBe(paidBefore + 1);
    const one = await call('POST', '/api/dues/payments', { method: 'cash', payer: '代缴人', entries: [{ memberId: a.id, itemIds: [a10.id, a11.id], extra: '10.00' }] }, collector);
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    const receipt = one.body[0];
    expect(receipt).toMatchObject({
      kind: 1, memberName: a.name, method: 'cash', methodLabel: '现金', payer: '代缴人', collector: 'dues_collector', large: false,
      amount: ((a10.due_cents + a11.due_cents + 1000) / 100).toFixed(2),
    });
    expect(receipt.receiptNo).toMatch(/^DF\d{6}\d{7}$/);
    expect(receipt.lines.map((l: { monthsLabel: string }) => l.monthsLabel)).toEqual(['2026年10月', '2026年11月']);
    // The voluntary extra goes with the latest month.
    expect(receipt.lines[1].amount).toBe(((a11.due_cents + 1000) / 100).toFixed(2));
    const fetched = await call('GET', `/api/dues/payments/${receipt.id}`, undefined, collector);
    expect(fetched.body).toEqual(receipt);
  });

  it('flags a single payment of 1000 yuan or more; 999.99 is not flagged', async () => {
    const c = members[3];
    const c11 = await itemOf(w, november, c.id);
    const extra = (cents: number) => ((cents - c11.due_cents) / 100).toFixed(2);
    const small = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: c.id, itemIds: [c11.id], extra: extra(99_999) }] }, collector);
    expect(small.body[0]).toMatchObject({ amount: '999.99', large: false });
    expect((await call('POST', `/api/dues/payments/${small.body[0].id}/reverse`, { reason: '测试冲正' }, collector)).status).toBe(200);
    const large = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: c.id, itemIds: [c11.id], extra: extra(100_000) }] }, collector);
    expect(large.body[0]).toMatchObject({ amount: '1000.00', large: true });
  });

  it('a reversal is a new entry; the month is unpaid again and can be paid; a payment is reversed once', async () => {
    const m = members[0];
    const item = await itemOf(w, november, m.id);
    const original = item.payment_id!;
    expect((await call('POST', `/api/dues/payments/${original}/reverse`, { reason: '' }, collector)).status).toBe(400);
    const reversal = await call('POST', `/api/dues/payments/${original}/reverse`, { reason: '金额收错' }, collector);
    expect(reversal.status, JSON.stringify(reversal.body)).toBe(200);
    expect(reversal.body).toMatchObject({ kind: 2, kindLabel: '冲正', amount: `-${(item.due_cents / 100).toFixed(2)}`, reason: '金额收错', reverses: { id: original } });
    expect((await call('GET', `/api/dues/payments/${original}`)).body.reversedBy).toMatchObject({ id: reversal.body.id, reason: '金额收错' });
    expect((await itemOf(w, november, m.id)).payment_id).toBeNull();
    const twice = await Promise.all([1, 2].map(() => call('POST', `/api/dues/payments/${original}/reverse`, { reason: '再次' }, collector)));
    expect(twice.map((r) => r.status)).toEqual([409, 409]);
    expect((await call('POST', `/api/dues/payments/${reversal.body.id}/reverse`, { reason: 'x' }, collector)).body.message).toBe('冲正记录不能再冲正');
    const again = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: m.id, itemIds: [item.id] }] }, collector);
    expect(again.status).toBe(201);
    const lines = (await sql<{ amount: number }>`SELECT amount_cents AS amount FROM dues_payment_line WHERE item_id = ${item.id} ORDER BY id`.execute(w.t.database.db)).rows.map((r) => r.amount);
    expect(lines).toEqual([item.due_cents, -item.due_cents, item.due_cents]);
    // The list of the branch's payments: newest first, the reversed one no longer reversible.
    const list = (await call('GET', `/api/dues/payments?memberId=${m.id}&size=10`, undefined, collector)).body;
    expect(list.content.map((r: { kind: number; reversible: boolean }) => [r.kind, r.reversible])).toEqual([[1, true], [2, false], [1, false]]);
    expect(new Set((await call('GET', '/api/dues/payments?size=100', undefined, collector)).body.content.map((r: { orgId: number }) => r.orgId))).toEqual(new Set([branch]));
  });

  it('a collector pays only for their own branch', async () => {
    const other = (await sql<{ memberId: number; id: number }>`SELECT member_id AS "memberId", id FROM dues_item WHERE batch_id = ${november} AND org_id <> ${branch} AND payment_id IS NULL LIMIT 1`.execute(w.t.database.db)).rows[0];
    const res = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: other.memberId, itemIds: [other.id] }] }, collector);
    expect(res.status).toBe(403);
    const list = await call('GET', '/api/dues/onsite/members?size=100', undefined, collector);
    expect(list.body.content.every((m: { orgId: number }) => m.orgId === branch)).toBe(true);
    expect(list.body.content.find((m: { memberId: number }) => m.memberId === members[1].id).open).toEqual([]);
  });

  it('online: the simulator marks the month paid through the same path; a second notice changes nothing; a month paid in cash meanwhile closes the order', async () => {
    const m = members.at(-1)!;
    const token = await scopedUser(w, 'dues_member', ['dues-my:list'], branch);
    const userId = (await w.t.database.db.selectFrom('users').select('id').where('username', '=', 'dues_member').executeTakeFirstOrThrow()).id;
    expect((await call('GET', '/api/dues/my', undefined, token)).body.member).toBeNull();
    await linkUserToMember(w.t.database.db, userId, m.id);
    const mine = await call('GET', '/api/dues/my?year=2026', undefined, token);
    expect(mine.body.member).toMatchObject({ id: m.id, name: m.name });
    const payable = mine.body.items.filter((i: { canPay: boolean }) => i.canPay);
    expect(payable.map((i: { title: string }) => i.title).sort()).toEqual(['2026年10月党费', '2026年11月党费']);
    // Online payment is off until an administrator chooses a provider (issue 25.4).
    const off = await call('POST', '/api/dues/my/orders', { itemIds: payable.map((i: { id: number }) => i.id) }, token);
    expect(off).toMatchObject({ status: 409, body: { message: '本校未开通在线缴纳党费，请到党支部现场缴纳' } });
    // Outside a demo the simulator is not offered (issue 38.16); this app plays a demo from here on.
    expect(await call('PUT', '/api/dues/settings/online', { provider: 'simulator' })).toMatchObject({ status: 400, body: { message: '支付渠道不存在' } });
    allowSimulator(w);
    expect((await call('PUT', '/api/dues/settings/online', { provider: 'simulator' })).body).toMatchObject({ provider: 'simulator', maxAmount: '2000.00' });
    const order = await call('POST', '/api/dues/my/orders', { itemIds: payable.map((i: { id: number }) => i.id) }, token);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({ status: 1, statusLabel: '待支付', provider: { id: 'simulator' } });
    const done = await call('POST', `/api/dues/pay/simulator/${order.body.id}`, { result: 'success' }, token);
    expect(done.body).toMatchObject({ status: 2, statusLabel: '已支付', receipt: { method: 'online', methodLabel: '在线支付', memberId: m.id } });
    const again = await call('POST', `/api/dues/pay/simulator/${order.body.id}`, { result: 'success' }, token);
    expect(again.body.receipt.id).toBe(done.body.receipt.id);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_payment WHERE order_id = ${order.body.id}`.execute(w.t.database.db)).rows[0].n).toBe(1);
    const status = await duesStatusOf(w.t.database.db, m.id);
    expect(status).toMatchObject({ paidUpTo: '2026-11', unpaidMonths: [], hasUnpaid: false });
    // Someone else's order is not found.
    expect((await call('POST', `/api/dues/pay/simulator/${order.body.id}`, { result: 'success' })).status).toBe(404);

    // Cash at the branch while an online order is open: the order closes, nothing is paid twice.
    const reversal = await call('POST', `/api/dues/payments/${done.body.receipt.id}/reverse`, { reason: '测试' }, collector);
    expect(reversal.status).toBe(200);
    const open = await call('POST', '/api/dues/my/orders', { itemIds: [payable[0].id] }, token);
    await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: m.id, itemIds: [payable[0].id] }] }, collector);
    const late = await call('POST', `/api/dues/pay/simulator/${open.body.id}`, { result: 'success' }, token);
    expect(late.body).toMatchObject({ status: 3, statusLabel: '已关闭', receipt: null });
    expect(late.body.message).toMatch(/已缴纳，请勿重复缴费，订单已关闭（款项原路退回）$/);
  });

  it('back payment (补缴) of a closed month goes onto the current batch, at most six months back, once', async () => {
    // Close October with the unpaid members deferred; pay one of them back with November.
    const open = (await sql<{ id: number }>`SELECT id FROM dues_item WHERE batch_id = ${october} AND payment_id IS NULL`.execute(w.t.database.db)).rows;
    expect((await call('POST', `/api/dues/batches/${october}/deferrals`, { itemIds: open.map((o) => o.id), kind: 'approved', reason: '经支部同意缓交' })).status).toBe(200);
    const flat: { orgId: number; level: string }[] = [];
    const walk = (nodes: { orgId: number; level: string; children?: unknown[] }[]) => nodes.forEach((n) => (flat.push(n), walk((n.children ?? []) as never)));
    walk((await call('GET', `/api/dues/batches/${october}/progress`)).body);
    for (const level of ['branch', 'committee']) for (const n of flat.filter((x) => x.level === level)) expect((await batchStep(call, october, 'report', { orgId: n.orgId })).status).toBe(200);
    expect((await batchStep(call, october, 'close')).status).toBe(200);

    const m = members[2];
    const [o10, n11] = [await itemOf(w, october, m.id), await itemOf(w, november, m.id)];
    expect(o10.payment_id).toBeNull();
    expect(n11.payment_id).not.toBeNull(); // paid in transfer earlier: reverse it to pay both now
    const paidBefore = (await sql<{ paymentId: number }>`SELECT payment_id AS "paymentId" FROM dues_item WHERE id = ${n11.id}`.execute(w.t.database.db)).rows[0].paymentId;
    await call('POST', `/api/dues/payments/${paidBefore}/reverse`, { reason: '与补缴一并缴纳' }, collector);
    const onsite = (await call('GET', `/api/dues/onsite/members?name=${encodeURIComponent(m.name)}`, undefined, collector)).body.content.find((x: { memberId: number }) => x.memberId === m.id);
    expect(onsite.backPay.map((x: { itemId: number }) => x.itemId)).toEqual([o10.id]);
    // Back payment alone is refused: it needs a month of a started batch to go with.
    expect((await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: m.id, itemIds: [], backPayItemIds: [o10.id] }] }, collector)).body.message).toBe('补缴须与一个进行中批次的党费一起缴纳');
    const paid = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: m.id, itemIds: [n11.id], backPayItemIds: [o10.id] }] }, collector);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body[0].amount).toBe(((o10.due_cents + n11.due_cents) / 100).toFixed(2));
    // October stays as it closed; the member's standing counts it paid back.
    expect((await itemOf(w, october, m.id)).payment_id).toBeNull();
    expect(await duesStatusOf(w.t.database.db, m.id)).toMatchObject({ paidUpTo: '2026-11', unpaidMonths: [] });
    const adj = (await call('GET', `/api/dues/batches/${november}/adjustments`)).body.find((a: { memberId: number }) => a.memberId === m.id);
    expect(adj).toMatchObject({ kind: 'arrear', kindLabel: '补缴', sourceMonth: '2026-10', reason: '补缴2026年10月党费' });
    // Once only.
    const again = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: m.id, itemIds: [n11.id], backPayItemIds: [o10.id] }] }, collector);
    expect(again.status).toBe(409);
  });

  it('back payment covers at most six months: the seventh month back, deferred without a proper reason, is refused', async () => {
    const year = 2027;
    await standardsForAll(w, call, year);
    // A closed batch of 2026-04 (seven months before November): configure, start, report everything, close.
    const april = await startedBatch(call, '2026-04');
    const open = (await sql<{ id: number }>`SELECT id FROM dues_item WHERE batch_id = ${april}`.execute(w.t.database.db)).rows;
    await call('POST', `/api/dues/batches/${april}/deferrals`, { itemIds: open.map((o) => o.id), kind: 'no-reason', reason: '已催缴，未说明理由' });
    const flat: { orgId: number; level: string }[] = [];
    const walk = (nodes: { orgId: number; level: string; children?: unknown[] }[]) => nodes.forEach((n) => (flat.push(n), walk((n.children ?? []) as never)));
    walk((await call('GET', `/api/dues/batches/${april}/progress`)).body);
    for (const level of ['branch', 'committee']) for (const n of flat.filter((x) => x.level === level)) await batchStep(call, april, 'report', { orgId: n.orgId });
    expect((await batchStep(call, april, 'close')).status).toBe(200);
    const m = members[3];
    const [a4, n11] = [await itemOf(w, april, m.id), await itemOf(w, november, m.id)];
    if (n11.payment_id) await call('POST', `/api/dues/payments/${n11.payment_id}/reverse`, { reason: '重新缴纳' }, collector);
    const refused = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: m.id, itemIds: [n11.id], backPayItemIds: [a4.id] }] }, collector);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('2026年4月距今已超过6个月，且不是经批准或因生活困难缓交的月份；按规定补交一般不超过6个月，请报上级党组织处理');
    expect((await itemOf(w, november, m.id)).payment_id).toBeNull();
  });
});

// engines: both — a repeated signed notification records one payment (order row lock)
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkUserToMember } from '../../src/server/domain/member/accounts.js';
import { branchWith, caller, duesWorld, membersOf, scopedUser, standardsForAll, startedBatch, type Call, type DuesWorld } from '../support/dues.js';
import { sign } from '../support/signing-provider.js';
import { TEST_DB } from '../support/test-app.js';

/** Issue 25.4: a member cannot confirm their own online payment; the provider is a setting, its callback signed. */
describe(`online payment providers (issue 25.4) on ${TEST_DB}`, () => {
  let w: DuesWorld;
  let call: Call;
  let token: string;
  let items: { id: number; canPay: boolean; due: string }[];
  beforeAll(async () => {
    w = await duesWorld(120, 23);
    call = caller(w.t.app, () => w.admin);
    await standardsForAll(w, call, 2026);
    await startedBatch(call, '2026-10');
    await startedBatch(call, '2026-11');
    const branch = await branchWith(w, 2);
    const [m] = await membersOf(w, branch);
    token = await scopedUser(w, 'gw_member', ['dues-my:list'], branch);
    const userId = (await w.t.database.db.selectFrom('users').select('id').where('username', '=', 'gw_member').executeTakeFirstOrThrow()).id;
    await linkUserToMember(w.t.database.db, userId, m.id);
    items = (await call('GET', '/api/dues/my?year=2026', undefined, token)).body.items.filter((i: { canPay: boolean }) => i.canPay);
    expect(items).toHaveLength(2);
  }, 300_000);
  afterAll(() => w.t.app.close(), 120_000);

  const notify = (payload: unknown, headers: Record<string, string> = {}) =>
    w.t.app.inject({ method: 'POST', url: '/api/dues/pay/notify/signed-fake', payload: payload as object, headers }).then((r) => ({ status: r.statusCode, body: r.json() }));

  it('[25.4] online payment is off by default: no order, and the simulator cannot confirm anything', async () => {
    expect((await call('GET', '/api/dues/settings')).body.online).toMatchObject({ provider: null, maxAmount: '2000.00' });
    expect((await call('GET', '/api/dues/my', undefined, token)).body.online.provider).toBeNull();
    const order = await call('POST', '/api/dues/my/orders', { itemIds: [items[0].id] }, token);
    expect(order).toMatchObject({ status: 409, body: { message: '本校未开通在线缴纳党费，请到党支部现场缴纳' } });
    expect((await call('POST', '/api/dues/pay/simulator/1', { result: 'success' }, token)).status).toBe(404);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_order`.execute(w.t.database.db)).rows[0].n).toBe(0);
    const unknown = await call('PUT', '/api/dues/settings/online', { provider: 'nobody' });
    expect(unknown).toMatchObject({ status: 400, body: { message: '支付渠道不存在' } });
  });

  it('[25.4] with a signing provider: the member cannot confirm it; forged or unsigned notices are refused; a signed one pays once, however often repeated', async () => {
    expect((await call('PUT', '/api/dues/settings/online', { provider: 'signed-fake', maxAmount: '500.00' })).body).toMatchObject({ provider: 'signed-fake', providerName: '测试网关', maxAmount: '500.00' });
    const order = await call('POST', '/api/dues/my/orders', { itemIds: [items[0].id] }, token);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({ provider: { id: 'signed-fake', name: '测试网关' }, payUrl: `https://gateway.example/pay/${order.body.id}` });
    const cents = Math.round(Number(order.body.amount) * 100);
    const notice = { orderId: order.body.id as number, providerRef: `GW${order.body.id}`, amountCents: cents, result: 'success' };

    // The member's own confirmation (the attack of issue 25.4) no longer pays anything.
    expect((await call('POST', `/api/dues/pay/simulator/${order.body.id}`, { result: 'success' }, token)).status).toBe(404);
    expect(await notify(notice)).toMatchObject({ status: 401, body: { message: '支付通知的签名无效' } });
    expect((await notify(notice, { 'x-signature': sign(notice, 'guessed') })).status).toBe(401);
    // A signature of another amount does not cover this one; a signed notice of a wrong amount is refused.
    expect((await notify({ ...notice, amountCents: cents + 100 }, { 'x-signature': sign(notice) })).status).toBe(401);
    const wrong = { ...notice, amountCents: cents + 100 };
    expect(await notify(wrong, { 'x-signature': sign(wrong) })).toMatchObject({ status: 400, body: { message: '支付金额与订单金额不符' } });
    const otherRef = { ...notice, providerRef: 'GW999999' };
    expect((await notify(otherRef, { 'x-signature': sign(otherRef) })).status).toBe(404);
    const payments = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_payment WHERE order_id = ${order.body.id}`.execute(w.t.database.db)).rows[0].n;
    expect(await payments()).toBe(0);

    const signed = await Promise.all(Array.from({ length: 5 }, () => notify(notice, { 'x-signature': sign(notice) })));
    for (const r of signed) expect(r, JSON.stringify(r.body)).toMatchObject({ status: 200, body: { status: 2, receipt: { method: 'online', amount: order.body.amount } } });
    expect(new Set(signed.map((r) => r.body.receipt.id)).size).toBe(1);
    expect(await payments()).toBe(1);
    expect(signed[0].body.receipt.collector).toBe('在线支付（测试网关）');
  });

  it('[25.4] a single online payment above the school\'s limit is refused', async () => {
    const over = await call('POST', '/api/dues/my/orders', { itemIds: [items[1].id], extra: '500.00' }, token);
    expect(over).toMatchObject({ status: 400, body: { message: '单笔在线缴纳不能超过500.00元，请分次缴纳或到党支部现场缴纳' } });
    const under = await call('POST', '/api/dues/my/orders', { itemIds: [items[1].id], extra: '1.00' }, token);
    expect(under.status, JSON.stringify(under.body)).toBe(201);
  });
});

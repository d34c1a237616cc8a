// engines: pglite — request parsing and look-ups in handlers; no engine-specific SQL
/**
 * Issue 25.10: codes named like members every object inherits answered 500. `kind: "constructor"` on a
 * deferral passed `kind in DeferralKindLabel`, and `extra: {"toString": 1}` made `String(extra)` throw in
 * the online order and the on-site payment. Each answers 400 with a Chinese message and changes nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkUserToMember } from '../../src/server/domain/member/accounts.js';
import { branchWith, caller, duesWorld, itemOf, membersOf, scopedUser, standardsForAll, startedBatch, type Call, type DuesWorld } from '../support/dues.js';
import { TEST_DB } from '../support/test-app.js';

const CRAFTED = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
const CHINESE = /[\u4e00-\u9fa5]/;

describe(`crafted keys answer 400, not 500, on ${TEST_DB}`, () => {
  let w: DuesWorld;
  let call: Call;
  let batch: number;
  let members: { id: number; name: string }[];
  let secretary: string;
  let member: string;
  beforeAll(async () => {
    w = await duesWorld(200, 21);
    call = caller(w.t.app, () => w.admin);
    await standardsForAll(w, call, 2026);
    batch = await startedBatch(call, '2026-10');
    const branch = await branchWith(w, 4);
    members = await membersOf(w, branch);
    secretary = await scopedUser(w, 'crafted_secretary', ['dues-batch:list', 'dues-batch:defer', 'dues-onsite:list', 'dues-onsite:pay'], branch);
    member = await scopedUser(w, 'crafted_member', ['dues-my:list'], branch);
    const userId = (await w.t.database.db.selectFrom('users').select('id').where('username', '=', 'crafted_member').executeTakeFirstOrThrow()).id;
    await linkUserToMember(w.t.database.db, userId, members[0].id);
  });
  afterAll(() => w.t.app.close());

  const counts = async () =>
    (await sql<{ deferrals: number; orders: number; payments: number }>`SELECT (SELECT count(*)::int FROM dues_deferral) AS deferrals,
      (SELECT count(*)::int FROM dues_order) AS orders, (SELECT count(*)::int FROM dues_payment) AS payments`.execute(w.t.database.db)).rows[0];

  it('[25.10] a deferral kind named constructor, toString, __proto__ or hasOwnProperty is refused with 400', async () => {
    const item = await itemOf(w, batch, members[1].id);
    const before = await counts();
    for (const kind of CRAFTED) {
      const res = await call('POST', `/api/dues/batches/${batch}/deferrals`, { itemIds: [item.id], kind, reason: '生活困难' }, secretary);
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ status: 400, message: '请选择缓交类别', errors: [{ field: 'kind' }] });
    }
    expect(await counts()).toEqual(before);
    // A real kind still goes through.
    expect((await call('POST', `/api/dues/batches/${batch}/deferrals`, { itemIds: [item.id], kind: 'hardship', reason: '生活困难' }, secretary)).status).toBe(200);
  });

  it('[25.10] an extra amount {"toString": 1} on the member’s online order is refused with 400', async () => {
    const item = await itemOf(w, batch, members[0].id);
    const before = await counts();
    for (const extra of [{ toString: 1 }, { valueOf: 'x', toString: 'y' }]) {
      const res = await call('POST', '/api/dues/my/orders', { itemIds: [item.id], extra }, member);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(CHINESE);
    }
    const crafted = await call('POST', '/api/dues/my/orders', { itemIds: [{ toString: 1 }] }, member);
    expect(crafted.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('[25.10] an extra amount {"toString": 1} on an on-site payment is refused with 400', async () => {
    const item = await itemOf(w, batch, members[2].id);
    const before = await counts();
    const res = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: members[2].id, itemIds: [item.id], extra: { toString: 1 } }] }, secretary);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toEqual({ status: 400, message: '请求内容包含不允许的字段名“toString”' });
    const memberId = await call('POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: { toString: 1 }, itemIds: [item.id] }] }, secretary);
    expect(memberId.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('[25.10] a query or list filter named like an inherited member is a 400 too, and ordinary codes still work', async () => {
    const status = await call('GET', `/api/dues/batches/${batch}/items?status=constructor`, undefined, secretary);
    expect(status.status, JSON.stringify(status.body)).toBe(400);
    expect(status.body.message).toBe('缴费状态只能是 paid、unpaid、deferred 或 open');
    expect((await call('GET', `/api/dues/batches/${batch}/items?status=unpaid`, undefined, secretary)).status).toBe(200);
    const list = await call('POST', '/api/m/member/list?page=0&size=5', { constructor: '1' });
    expect(list).toMatchObject({ status: 400, body: { message: '请求内容包含不允许的字段名“constructor”' } });
  });
});

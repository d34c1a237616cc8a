// engines: pglite — what the demo accounts see of the demo dues; the scope filter is plain SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { caller, type Call } from '../support/dues.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/** The dues of a fresh demo start, seen by the demo accounts (issues 25.6, 25.4, 33.1). */
describe(`demo dues on ${TEST_DB}`, () => {
  let t: TestApp;
  let call: Call;
  let zbsj: string;
  let dy: string;
  beforeAll(async () => {
    t = await createTestApp({ DEMO_DATA: 'true' });
    const admin = await login(t.app);
    call = caller(t.app, () => admin);
    zbsj = await login(t.app, 'zbsj', DEMO_USER_PASSWORD);
    dy = await login(t.app, 'dy', DEMO_USER_PASSWORD);
  }, 300_000);
  afterAll(() => t.app.close(), 120_000);

  it('[25.6] the batch log shows the demo 支部书记 only their branch: not another branch\'s deferrals and adjustments', async () => {
    const own = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
    const batch = ((await call('GET', '/api/dues/batches')).body as { id: number; state: number }[]).find((b) => b.state === 3)!;
    const open = (await call('GET', `/api/dues/batches/${batch.id}/items?status=open&size=1000`)).body.content as { id: number; memberId: number; orgId: number }[];
    const others = open.filter((i) => i.orgId !== own);
    const mine = open.find((i) => i.orgId === own)!;
    expect(others.length).toBeGreaterThanOrEqual(2);
    expect((await call('POST', `/api/dues/batches/${batch.id}/deferrals`, { itemIds: [others[0].id], kind: 'hardship', reason: '其他支部：家庭困难' })).status).toBe(200);
    expect((await call('POST', `/api/dues/batches/${batch.id}/adjustments`, { memberId: others[1].memberId, amount: '3.00', reason: '其他支部：更正基数' })).status).toBe(201);
    expect((await call('POST', `/api/dues/batches/${batch.id}/deferrals`, { itemIds: [mine.id], kind: 'approved', reason: '本支部：经批准缓交' })).status).toBe(200);

    const everything = (await call('GET', `/api/dues/batches/${batch.id}/log`)).body as { comment: string }[];
    expect(everything.filter((e) => e.comment.includes('其他支部'))).toHaveLength(2);
    const seen = await call('GET', `/api/dues/batches/${batch.id}/log`, undefined, zbsj);
    expect(seen.status).toBe(200);
    const entries = seen.body as { action: string; orgId: number | null; comment: string }[];
    expect(entries.filter((e) => e.comment.includes('其他支部'))).toEqual([]);
    expect(entries.every((e) => e.orgId === null || e.orgId === own)).toBe(true);
    expect(entries.find((e) => e.action === 'defer' && e.orgId === own)?.comment).toBe('1人：经批准缓交，本支部：经批准缓交');
    // The batch's changes of state stay visible, without the school's figures.
    expect(entries.find((e) => e.action === 'start')).toMatchObject({ orgId: null, comment: '' });
    // The engine's approval log of the school-wide batch holds the same entries: the secretary reads their own organisation's only.
    const approvals = await call('GET', `/api/m/dues-batch/${batch.id}/approvals`, undefined, zbsj);
    expect(approvals.status).toBe(200);
    expect((approvals.body as { comment: string }[]).filter((e) => e.comment.includes('其他支部'))).toEqual([]);
    expect((approvals.body as { comment: string }[]).some((e) => e.comment === '1人：经批准缓交，本支部：经批准缓交')).toBe(true);
    expect(((await call('GET', `/api/m/dues-batch/${batch.id}/approvals`)).body as { comment: string }[]).filter((e) => e.comment.includes('其他支部'))).toHaveLength(2);
  });

  it('[25.4] the demo chose the simulator; [33.1] 我的党费 offers the member every month deferred for a proper reason', async () => {
    expect((await call('GET', '/api/dues/settings')).body.online).toMatchObject({ provider: 'simulator' });
    const mine = (await call('GET', '/api/dues/my', undefined, dy)).body as { online: { provider: string }; items: { state: number; paymentId: number | null; canPay: boolean; backPay: boolean; deferral: { kind: string } | null }[] };
    expect(mine.online.provider).toBe('simulator');
    const startedOpen = mine.items.some((i) => i.state === 3 && i.paymentId === null);
    expect(startedOpen).toBe(true);
    const justified = mine.items.filter((i) => i.state === 4 && i.paymentId === null && ['approved', 'hardship'].includes(i.deferral?.kind ?? ''));
    for (const i of justified) expect(i).toMatchObject({ canPay: true, backPay: true });
  });
});

// engines: pglite — the content of the demo transfers; seeding on both engines is foundation's
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';
import { client } from '../support/transfers.js';

describe(`demo transfers on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let zbsj: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createDemoTestApp({ DEMO_TRANSFERS: '30' });
    admin = client(t.app, await login(t.app));
    zbsj = client(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
  }, 180_000);
  afterAll(() => t.app.close());

  const states = async (who: ReturnType<typeof client>, module: string) =>
    new Set(((await who.post(`/api/m/${module}/list?size=1000`, {})).body.content as { state: number }[]).map((r) => r.state));

  it('every process has records in every state, and the demo branch secretary sees one of each (of a transfer in: once assigned to the branch)', async () => {
    const expected: Record<string, number[]> = {
      'transfer-internal': [-2, -1, 0, 1, 2, 3],
      'transfer-out': [-2, -1, 0, 1, 2, 3],
      'transfer-in': [-2, -1, 0, 1, 2],
      floating: [-2, -1, 0, 1, 2],
    };
    for (const [module, codes] of Object.entries(expected)) {
      expect([...(await states(admin, module))].sort((x, y) => x - y), module).toEqual(codes);
      // A letter from outside reaches the branch once its committee assigned it there.
      const own = module === 'transfer-in' ? [1, 2] : codes;
      expect([...(await states(zbsj, module))].sort((x, y) => x - y), `${module} for zbsj`).toEqual(own);
    }
  });

  it('the records are consistent: approval logs, letter numbers in order with one cancelled, members moved or gone', async () => {
    const done = (await admin.post('/api/m/transfer-internal/list?size=1000&fields=all', { state: [3] })).body.content as { id: number; memberId: number; toOrgId: number }[];
    for (const r of done.slice(0, 5)) {
      expect((await admin.get(`/api/m/member/${r.memberId}`)).body.orgId).toBe(r.toOrgId);
      const log = (await admin.get(`/api/m/transfer-internal/${r.id}/approvals`)).body as { transition: string }[];
      expect(log.map((l) => l.transition)).toEqual(['submit', 'approve', 'approve', 'complete']);
    }
    const year = new Date().getFullYear();
    const letters = [...(await admin.get(`/api/transfers/letters?year=${year}`)).body, ...(await admin.get(`/api/transfers/letters?year=${year - 1}`)).body] as { status: string }[];
    expect(letters.some((l) => l.status === 'cancelled')).toBe(true);
    const out = (await admin.post('/api/m/transfer-out/list?size=1000&fields=all', { state: [3], kind: '正式组织关系' })).body.content as { memberId: number }[];
    expect(out.length).toBeGreaterThan(0);
    expect((await admin.get(`/api/m/member/${out[0].memberId}`)).body.partyStatus).toBe('6');
    expect(((await admin.get('/api/transfers/lost-contact')).body as unknown[]).length).toBeGreaterThan(0);
    const stats = (await admin.get(`/api/transfers/stats?year=${year}`)).body as { kinds: { key: string; underway: number }[] };
    expect(stats.kinds.find((k) => k.key === 'internal')!.underway).toBeGreaterThan(0);
  });

  it('[33.14] every seeded to-do of a workflow record opens that record (transfers and floating members too)', async () => {
    const todos = await t.database.db.selectFrom('msg_todo').select(['module', 'ref_id', 'link']).where('module', 'in', ['transfer-internal', 'transfer-out', 'transfer-in', 'floating', 'development']).execute();
    expect(new Set(todos.map((x) => x.module)).size).toBeGreaterThanOrEqual(4);
    for (const x of todos) expect(x.link, `${x.module} ${x.ref_id}`).toBe(`${x.module === 'development' ? '/development/process' : `/transfer/${{ 'transfer-internal': 'internal', 'transfer-out': 'out', 'transfer-in': 'in', floating: 'floating' }[x.module as string]}`}?id=${String(x.ref_id).split(':')[0]}`);
  });
});

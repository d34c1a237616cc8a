// engines: pglite — who may message whom: no engine-specific SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/core/passwords.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12, finding 3: an outsider who registered listed every username through the private-message
 * recipient lookup, to try the shared initial password on each. The lookup and private messages now
 * reach only people the caller has a reason to reach (core/messages/reach.ts).
 */
describe(`the recipient lookup and private messages reach only the caller's circle on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const PASS = 'Reach#20260';

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    const org = async (name: string, parentId?: number) => (await call('POST', '/api/m/org', { name, type: parentId ? '3' : '1', ...(parentId ? { parentId } : {}) }, admin)).json().id as number;
    const root = await org('中共某大学委员会');
    const branchA = await org('甲党支部', root);
    const branchB = await org('乙党支部', root);
    ids.sec = await userWithRole(t.app, admin, { username: 'sec', permissions: ['member:list'], dataScope: 'own', orgId: root, password: PASS });
    const plain = async (username: string, orgId: number | null) => {
      const res = await call('POST', '/api/users', { username, nickName: `${username}名`, orgId }, admin);
      expect(res.statusCode, res.body).toBe(201);
      await t.database.db.updateTable('users').set({ password_hash: await hashPassword(PASS), password_weak: false }).where('id', '=', res.json().id).execute();
      return res.json().id as number;
    };
    ids.a1 = await plain('a1', branchA);
    ids.a2 = await plain('a2', branchA);
    ids.b1 = await plain('b1', branchB);
    ids.loner = await plain('loner', null);
    for (const u of ['sec', 'a1', 'loner']) tokens[u] = await login(t.app, u, PASS);
  });
  afterAll(() => t.app.close());

  const call = (method: 'GET' | 'POST', url: string, payload: unknown, token: string) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const lookup = async (token: string, keyword = '') =>
    ((await call('GET', `/api/msgPushHistory/recipients?keyword=${encodeURIComponent(keyword)}`, undefined, token)).json().content as { username: string }[]).map((u) => u.username).sort();

  it('a branch member finds their branch and the committee above it, not another branch', async () => {
    expect(await lookup(tokens.a1)).toEqual(['a1', 'a2', 'sec']);
    expect(await lookup(tokens.a1, 'b1')).toEqual([]);
  });

  it('an account without organisation or role finds nobody — until someone writes to it', async () => {
    expect(await lookup(tokens.loner)).toEqual([]);
    expect(await lookup(tokens.loner, 'admin')).toEqual([]);
    expect((await call('POST', '/api/msgPushHistory', { userIds: [ids.loner], title: '欢迎' }, admin)).statusCode).toBe(201);
    expect(await lookup(tokens.loner)).toEqual(['admin']);
  });

  it('a private message to someone out of reach is refused and nothing is sent', async () => {
    const refused = await call('POST', '/api/msgPushHistory', { userIds: [ids.a2, ids.b1], title: '越界' }, tokens.a1);
    expect(refused.json()).toMatchObject({ status: 400, errors: [{ field: 'userIds' }] });
    expect(await t.database.db.selectFrom('msg_push_history').select('id').where('title', '=', '越界').execute()).toEqual([]);
    expect((await call('POST', '/api/msgPushHistory', { userIds: [ids.a2, ids.sec], title: '支部内' }, tokens.a1)).statusCode).toBe(201);
  });

  it('a scoped administrator reaches their scope; the superuser everyone', async () => {
    expect(await lookup(tokens.sec)).toEqual(['a1', 'a2', 'b1', 'sec']);
    expect((await lookup(admin)).length).toBeGreaterThanOrEqual(6);
  });
});

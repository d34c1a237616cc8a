import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12: every /api route × anonymous, 党员 (dy), 支部书记 (zbsj), 党委组织部 (dwzzb) and the administrator,
 * called through the real HTTP layer and compared with the reviewed matrix in route-matrix.json. A route
 * added, removed, or whose permission changes fails here until the matrix is updated on purpose:
 *     UPDATE_ROUTE_MATRIX=1 npx vitest run --project api-pglite tests/api/route-matrix.test.ts
 * and the diff of route-matrix.json is reviewed with the change.
 *
 * Each cell: U = refused as not signed in (401), F = refused by the permission guard (403 没有访问权限),
 * A = let through to the handler (whatever it then answers to an empty request for a record that does not exist).
 * Path parameters are filled with an id no record has, and no body is sent, so nothing is changed.
 */
const MATRIX_FILE = path.join(import.meta.dirname, 'route-matrix.json');
const CALLERS = ['anonymous', 'dy', 'zbsj', 'dwzzb', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

describe.skipIf(TEST_DB !== 'pglite')('the route × role matrix', () => {
  let t: TestApp;
  const tokens: Partial<Record<Caller, string>> = {};

  beforeAll(async () => {
    t = await createTestApp({ DEMO_DATA: 'true', DEMO_MEMBERS: '40' });
    tokens.admin = await login(t.app);
    for (const user of ['dy', 'zbsj', 'dwzzb'] as const) tokens[user] = await login(t.app, user, DEMO_USER_PASSWORD);
  }, 180_000);
  afterAll(() => t?.app.close());

  async function routes(): Promise<string[]> {
    const html = (await t.app.inject({ url: '/doc.html', headers: bearer(tokens.admin!) })).body;
    const found = [...html.matchAll(/<tr><td>([A-Z]+)<\/td><td><code>([^<]+)<\/code>/g)].map(([, method, url]) => `${method} ${url.replace(/&amp;/g, '&')}`);
    return [...new Set(found.filter((r) => / \/api\//.test(r)))].sort();
  }

  async function probe(route: string, caller: Caller): Promise<'U' | 'F' | 'A'> {
    const [method, template] = route.split(' ');
    const url = template.replace(/:[A-Za-z_]+/g, '999999999').replace(/\*$/, 'x');
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = tokens[caller];
      const res = await t.app.inject({ method: method as 'GET', url, headers: token ? bearer(token) : {} });
      if (res.statusCode === 401 && caller !== 'anonymous' && attempt === 0) {
        // A route may have ended the caller's session (a logout, a password change): sign in again once.
        tokens[caller] = caller === 'admin' ? await login(t.app) : await login(t.app, caller, DEMO_USER_PASSWORD);
        continue;
      }
      if (res.statusCode === 401) return 'U';
      if (res.statusCode === 403 && res.json().message === '没有访问权限') return 'F';
      return 'A';
    }
    return 'U';
  }

  it('every /api route answers each caller as the reviewed matrix says', async () => {
    const actual: Record<string, string> = {};
    for (const route of await routes()) {
      const cells: string[] = [];
      for (const caller of CALLERS) cells.push(await probe(route, caller));
      actual[route] = cells.join(' ');
    }
    expect(Object.keys(actual).length).toBeGreaterThan(200);
    // Nobody anonymous gets past the guard except the few public routes; the administrator passes everywhere.
    expect(Object.entries(actual).filter(([, c]) => c.endsWith('U') || c.endsWith('F'))).toEqual([]);
    if (process.env.UPDATE_ROUTE_MATRIX) {
      fs.writeFileSync(MATRIX_FILE, `${JSON.stringify({ callers: CALLERS.join(' '), routes: actual }, null, 2)}\n`);
    }
    const reviewed = JSON.parse(fs.readFileSync(MATRIX_FILE, 'utf8')) as { callers: string; routes: Record<string, string> };
    expect(reviewed.callers).toBe(CALLERS.join(' '));
    expect(actual).toEqual(reviewed.routes);
  }, 300_000);
});

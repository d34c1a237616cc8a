// engines: pglite — the route and role matrix: permissions only
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';
import { processCases } from '../support/process-cases.js';
import { scanResponses } from '../support/response-scanner.js';
import { MODULE_BUTTONS, PAGE_BUTTONS } from '../../src/shared/page-actions.js';

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
 * The second table (`scopes`) holds what each caller sees of each module's records (see its test).
 */
const MATRIX_FILE = path.join(import.meta.dirname, 'route-matrix.json');
const CALLERS = ['anonymous', 'dy', 'zbsj', 'dwzzb', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
/** The callers whose records are compared with the administrator's. */
const SCOPED_CALLERS = ['dy', 'zbsj', 'dwzzb'] as const;
interface Matrix {
  callers: string;
  routes: Record<string, string>;
  scopeCallers?: string;
  scopes?: Record<string, string>;
  processes?: Record<string, string>;
}

/** The reviewed matrix; with UPDATE_ROUTE_MATRIX set, `measured` is written into it first (the diff is then reviewed). */
function reviewedMatrix(measured: Partial<Matrix>): Matrix {
  const read = () => JSON.parse(fs.readFileSync(MATRIX_FILE, 'utf8')) as Matrix;
  if (process.env.UPDATE_ROUTE_MATRIX) fs.writeFileSync(MATRIX_FILE, `${JSON.stringify({ ...read(), ...measured }, null, 2)}\n`);
  return read();
}

describe.skipIf(TEST_DB !== 'pglite')('the route × role matrix', () => {
  let t: TestApp;
  const tokens: Partial<Record<Caller, string>> = {};

  beforeAll(async () => {
    t = await createDemoTestApp({ DEMO_MEMBERS: '40' });
    tokens.admin = await login(t.app);
    for (const user of ['dy', 'zbsj', 'dwzzb'] as const) tokens[user] = await login(t.app, user, DEMO_USER_PASSWORD);
  }, 600_000);
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
    const reviewed = reviewedMatrix({ callers: CALLERS.join(' '), routes: actual });
    expect(reviewed.callers).toBe(CALLERS.join(' '));
    expect(actual).toEqual(reviewed.routes);
  }, 300_000);

  it('[issue 43.1] a button is shown only with the permission its call requires: for each module page, hand-written page and caller', async () => {
    const { routes: matrix } = reviewedMatrix({});
    const cell = (route: string, caller: Caller) => matrix[route]?.split(' ')[CALLERS.indexOf(caller)];
    const held = async (caller: Caller) => new Set((await t.app.inject({ url: '/auth/info', headers: bearer(tokens[caller]!) })).json().roles as string[]);
    // A condition no record meets, so an allowed export writes an empty file.
    const nothing = (field: string) => ({ and: [{ field, op: 'isNull' }, { field, op: 'notNull' }] });
    const wrong: string[] = [];
    let checked = 0;
    for (const caller of SCOPED_CALLERS) {
      const permissions = await held(caller);
      for (const m of t.app.runtime.registry.list()) {
        for (const b of MODULE_BUTTONS) {
          const answer = cell(b.call.replace(':module', m.id), caller);
          if (!answer) continue; // the module has no such route, and the renderer offers no such button
          checked++;
          if (permissions.has(m.permissions[b.action]) !== (answer === 'A')) wrong.push(`${caller} ${m.id} ${b.label}: ${m.permissions[b.action]} shown=${permissions.has(m.permissions[b.action])}, ${b.call} ${answer}`);
        }
      }
      for (const b of Object.values(PAGE_BUTTONS)) {
        checked++;
        if (permissions.has(b.permission) !== (cell(b.call, caller) === 'A')) wrong.push(`${caller} ${b.page} ${b.label}: ${b.permission}, ${b.call} ${cell(b.call, caller)}`);
      }
      // 综合查询's 导出结果 follows the module's export permission, which the export checks past the route's guard.
      const modules = (await t.app.inject({ url: '/api/query/modules', headers: bearer(tokens[caller]!) })).json() as { id: string; export: boolean; fields: { name: string; stored: boolean }[] }[] | { status: number };
      for (const q of Array.isArray(modules) ? modules : []) {
        const res = await t.app.inject({ method: 'POST', url: '/api/query/export', payload: { module: q.id, where: nothing(q.fields.find((f) => f.stored)!.name) }, headers: bearer(tokens[caller]!) });
        checked++;
        if (q.export !== (res.statusCode !== 403)) wrong.push(`${caller} 综合查询 ${q.id} 导出结果: shown=${q.export}, answered ${res.statusCode}`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
  }, 120_000);

  /**
   * What each caller sees of each module's records, against the administrator (scope all):
   * `all` the same records, `part` some of them, `none` none, `F` refused; for `part`, a record outside the
   * caller's scope read by id answers `404` (as if it did not exist) or the status it gets. A module whose
   * scope changes (one that stops filtering by organisation shows `all` for the 支部书记) fails here.
   */
  it('every module list answers each caller within its data scope as the reviewed matrix says', async () => {
    const lists = (await routes()).map((r) => /^POST \/api\/m\/([a-z0-9-]+)\/list$/.exec(r)?.[1]).filter((m): m is string => !!m);
    expect(lists.length).toBeGreaterThan(20);
    const ids = async (module: string, caller: Caller) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/m/${module}/list?page=0&size=1000`, payload: {}, headers: bearer(tokens[caller]!) });
      if (res.statusCode === 403) return undefined;
      expect(res.statusCode, `${module} as ${caller}: ${res.body}`).toBe(200);
      return new Set((res.json() as { content: { id: number }[] }).content.map((r) => r.id));
    };
    const actual: Record<string, string> = {};
    for (const module of lists) {
      const every = (await ids(module, 'admin'))!;
      if (!every.size) {
        actual[module] = 'no demo records';
        continue;
      }
      const cells: string[] = [];
      for (const caller of SCOPED_CALLERS) {
        const seen = await ids(module, caller);
        if (!seen) cells.push('F');
        else if (!seen.size) cells.push('none');
        else if ([...every].every((id) => seen.has(id))) cells.push('all');
        else {
          const outside = [...every].find((id) => !seen.has(id))!;
          const res = await t.app.inject({ url: `/api/m/${module}/${outside}`, headers: bearer(tokens[caller]!) });
          cells.push(`part/${res.statusCode}`);
        }
      }
      actual[module] = cells.join(' ');
    }
    const reviewed = reviewedMatrix({ scopeCallers: SCOPED_CALLERS.join(' '), scopes: actual });
    expect(reviewed.scopeCallers).toBe(SCOPED_CALLERS.join(' '));
    expect(actual).toEqual(reviewed.scopes);
    // Nobody limited to part of the records reads one outside it by id.
    expect(Object.entries(actual).filter(([, c]) => /(^| )part\/(?!404)/.test(c))).toEqual([]);
  }, 300_000);

  /**
   * Issue 25 "Also": each x-workflow module of the registry (a new one inherits the cases) on its demo
   * records in flight: a record outside the caller's scope (404), a level the caller does not hold (403),
   * a stale version (409), acting on one's own record (403), a step value outside the caller's scope
   * (403, where a step writes an organisation), generic PUT and DELETE (409). The cases each module ran
   * are the reviewed `processes` table: a module that stops holding one, or loses its case, fails here.
   */
  it('[25 Also] every x-workflow module holds its process against each attack as the reviewed matrix says', async () => {
    const ejdw = await login(t.app, 'ejdw', DEMO_USER_PASSWORD);
    const actual = await processCases(t, { admin: tokens.admin!, zbsj: tokens.zbsj!, ejdw });
    expect(Object.keys(actual).length).toBeGreaterThanOrEqual(5);
    const reviewed = reviewedMatrix({ processes: actual });
    expect(actual).toEqual(reviewed.processes);
  }, 300_000);

  /**
   * Issue 38, the response scanner (tests/support/response-scanner.ts): as every demo role, every GET route
   * and every list/query route of the index, with ids of records in and out of the role's scope; no answer
   * carries a whole identity number of a record the role may not edit, nor a phone or an address of a person
   * outside its scope. A new route is scanned because the index names it.
   */
  it('[38 scanner] no answer of any route serves a role a whole number it may not edit, or an outsider\'s phone or address', async () => {
    const all = await routes();
    const found: Record<string, unknown[]> = {};
    let calls = 0;
    for (const user of ['dy', 'zbsj', 'jszb', 'ejdw', 'dwzzb']) {
      const token = tokens[user as Caller] ?? (await login(t.app, user, DEMO_USER_PASSWORD));
      const result = await scanResponses(t, all, token);
      calls += result.calls;
      // Every scoped role has numbers it may not edit and people outside its scope (党委组织部 may edit all).
      if (user !== 'dwzzb') expect([result.forbidden.idCards, result.forbidden.personal].every((n) => n > 0), user).toBe(true);
      expect(result.scanned, user).toBeGreaterThan(50);
      if (result.hits.length) found[user] = result.hits;
    }
    expect(calls).toBeGreaterThan(1000);
    expect(found).toEqual({});
  }, 300_000);
});

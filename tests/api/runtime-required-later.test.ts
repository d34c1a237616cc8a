// engines: pglite — validation of a school override: no engine-specific SQL
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SCHEMAS, createRuntimeApp, idCard } from '../fixtures/runtime-app.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, reopenableTestDatabase, type TestApp } from '../support/test-app.js';

const BASE = '/api/m/test-person';
const REQUIRED = ['name', 'gender', 'idCard', 'orgId'];

/**
 * Issue 13 item 7: a school override that makes a field required after records exist binds new records;
 * existing ones can still be edited without it (unless x-required-from is "update"), and the records that
 * lack it are listed.
 */
describe(`a required field added later on ${TEST_DB}`, () => {
  let dir: string;
  let store: Awaited<ReturnType<typeof reopenableTestDatabase>>;
  const ids: number[] = [];

  const setOverride = (dormitory: Record<string, unknown>) => {
    const file = path.join(dir, 'schools', 'hnsoft.json');
    const school = JSON.parse(fs.readFileSync(file, 'utf8'));
    school.overrides['test-person'].properties.dormitory = { type: 'string', title: '宿舍', maxLength: 30, ...dormitory };
    school.overrides['test-person'].required = [...REQUIRED, 'dormitory'];
    fs.writeFileSync(file, JSON.stringify(school));
  };

  async function withApp<R>(fn: (t: TestApp, call: (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => Promise<{ status: number; body: any }>) => Promise<R>): Promise<R> {
    const database = await store.open();
    const t = await createRuntimeApp({ SCHOOL: 'hnsoft' }, undefined, { schemasDir: dir, database }).catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
    try {
      const token = await login(t.app);
      return await fn(t, async (method, url, payload) => {
        const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload && { payload }) });
        return { status: res.statusCode, body: res.body ? res.json() : undefined };
      });
    } finally {
      await t.app.close();
    }
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'required-later-'));
    fs.cpSync(FIXTURE_SCHEMAS, dir, { recursive: true });
    store = await reopenableTestDatabase();
    // Two records stored before the school asks for a dormitory.
    await withApp(async (_t, call) => {
      for (const n of [1, 2]) {
        const res = await call('POST', BASE, { name: `旧人员${n}`, gender: '1', idCard: idCard('1980-01-01', n), orgId: 1 });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids.push(res.body.id);
      }
    });
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    store.dispose();
  });

  it('binds new records; existing records stay editable without it, cannot lose it once given, and are listed', async () => {
    setOverride({});
    await withApp(async (_t, call) => {
      const fresh = await call('POST', BASE, { name: '新人员', gender: '2', idCard: idCard('1990-01-01', 3), orgId: 1 });
      expect(fresh.status).toBe(400);
      expect(fresh.body.errors).toEqual([{ field: 'dormitory', message: '宿舍不能为空' }]);
      const edited = await call('PUT', BASE, { id: ids[0], version: 1, name: '旧人员一' });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      const listed = await call('GET', `${BASE}/incomplete?size=10&sort=id,asc`);
      expect(listed.status).toBe(200);
      expect(listed.body.totalElements).toBe(2);
      expect(listed.body.content.map((r: { id: number; name: string; missing: string[] }) => [r.id, r.name, r.missing])).toEqual([
        [ids[0], '旧人员一', ['dormitory']],
        [ids[1], '旧人员2', ['dormitory']],
      ]);
      // Filled in once, it is required from then on.
      expect((await call('PUT', BASE, { id: ids[0], version: 2, dormitory: '1号楼' })).status).toBe(200);
      const cleared = await call('PUT', BASE, { id: ids[0], version: 3, dormitory: null });
      expect(cleared.body.errors).toEqual([{ field: 'dormitory', message: '宿舍不能为空' }]);
      expect((await call('GET', `${BASE}/incomplete`)).body.content.map((r: { id: number }) => r.id)).toEqual([ids[1]]);
    });
  });

  it('x-required-from "update": every save asks for it, existing records included', async () => {
    setOverride({ 'x-required-from': 'update' });
    await withApp(async (_t, call) => {
      const edited = await call('PUT', BASE, { id: ids[1], version: 1, name: '旧人员二' });
      expect(edited.status).toBe(400);
      expect(edited.body.errors).toEqual([{ field: 'dormitory', message: '宿舍不能为空' }]);
      expect((await call('PUT', BASE, { id: ids[1], version: 1, name: '旧人员二', dormitory: '2号楼' })).status).toBe(200);
    });
  });
});

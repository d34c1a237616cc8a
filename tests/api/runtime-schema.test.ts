// engines: both — schema changes become DDL on the engine
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import { FIXTURE_SCHEMAS, createRuntimeApp, idCard } from '../fixtures/runtime-app.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, reopenableTestDatabase } from '../support/test-app.js';

/** A scratch copy of the fixture schemas that a test may edit. */
function copyFixtures(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-schemas-'));
  fs.cpSync(FIXTURE_SCHEMAS, dir, { recursive: true });
  return dir;
}

function editModule(dir: string, id: string, edit: (schema: Record<string, any>) => void): void {
  const file = path.join(dir, 'modules', `${id}.json`);
  const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(schema);
  fs.writeFileSync(file, JSON.stringify(schema, null, 2));
}

async function columnsOf(database: Database, table: string): Promise<Record<string, string>> {
  const rows = await sql<{ column_name: string; data_type: string }>`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ${table}`.execute(database.db);
  return Object.fromEntries(rows.rows.map((r) => [r.column_name, r.data_type]));
}

describe(`module tables follow the schemas on ${TEST_DB}`, () => {
  let dir: string;
  let store: Awaited<ReturnType<typeof reopenableTestDatabase>>;
  let recordId: number;

  beforeAll(async () => {
    dir = copyFixtures();
    store = await reopenableTestDatabase();
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    store.dispose();
  });

  /** Starts the app on the shared database; the caller closes it. */
  async function start(env: Record<string, string> = {}) {
    const database = await store.open();
    try {
      return await createRuntimeApp(env, undefined, { schemasDir: dir, database });
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  it('creates the table with typed columns, system columns and indexes', async () => {
    const t = await start();
    try {
      const columns = await columnsOf(t.database, 'm_test_person');
      expect(columns).toMatchObject({
        id: 'integer', school: 'text', created_at: 'timestamp with time zone', created_by: 'integer', updated_at: 'timestamp with time zone', updated_by: 'integer', version: 'integer',
        name: 'text', birth_date: 'date', checked_at: 'timestamp with time zone', child_count: 'integer', score: 'double precision', is_cadre: 'boolean', tags: 'jsonb', org_id: 'integer',
      });
      expect(columns).not.toHaveProperty('age'); // computed, never stored
      const indexes = await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'm_test_person'`.execute(t.database.db);
      const defs = indexes.rows.map((r) => r.indexdef);
      expect(defs.some((d) => /UNIQUE INDEX .* \(id_card\)/.test(d))).toBe(true);
      expect(defs.some((d) => /UNIQUE INDEX .* \(code\)/.test(d))).toBe(true);
      for (const col of ['join_date', 'gender', 'birth_date']) expect(defs.some((d) => d.includes(`(${col})`)), col).toBe(true);
      // The scope column leads (org_id, join_date): no index of its own beside it.
      expect(defs.some((d) => d.includes('(org_id, join_date)'))).toBe(true);
      expect(defs.some((d) => d.includes('(org_id)'))).toBe(false);
      // "Contains" search on the name: a GIN index over its lower-cased characters (db/text-search.ts).
      expect(defs.find((d) => d.includes('m_test_person__name_chars'))).toMatch(/USING gin \(string_to_array\(lower\(name\), NULL::text\)\) WITH \(fastupdate='?off'?\)/);
      const child = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE tablename = 'm_test_person_reward'`.execute(t.database.db);
      expect(child.rows.some((r) => r.indexdef.includes('(person_id)'))).toBe(true);
      const res = await t.app.inject({ method: 'POST', url: '/api/m/test-person', headers: bearer(await login(t.app)), payload: { name: '老记录', gender: '1', idCard: idCard('1980-01-01', 1), orgId: 1, birthDate: '1980-01-01', remark: '保留的备注' } });
      expect(res.statusCode, res.body).toBe(201);
      recordId = res.json().id;
      const state = await t.database.db.selectFrom('runtime_modules').selectAll().where('module', '=', 'test-person').executeTakeFirstOrThrow();
      expect(state.table_name).toBe('m_test_person');
      expect(state.columns.birthDate).toEqual({ column: 'birth_date', kind: 'date', sqlType: 'date' });
    } finally {
      await t.app.close();
    }
  });

  it('an unchanged schema skips the sync on the next start', async () => {
    const before = await (async () => {
      const db = await store.open();
      try {
        return (await db.db.selectFrom('runtime_modules').select(['hash', 'applied_at']).where('module', '=', 'test-person').executeTakeFirstOrThrow());
      } finally {
        await db.close();
      }
    })();
    const t = await start();
    const after = await t.database.db.selectFrom('runtime_modules').select(['hash', 'applied_at']).where('module', '=', 'test-person').executeTakeFirstOrThrow();
    await t.app.close();
    expect(after).toEqual(before);
  });

  it('adding a field adds its column and keeps the data', async () => {
    editModule(dir, 'test-person', (s) => {
      s.properties.nickname = { type: 'string', title: '曾用名' };
      s['x-list'].filters.push({ field: 'nickname', op: 'like' });
    });
    const t = await start();
    try {
      expect(await columnsOf(t.database, 'm_test_person')).toMatchObject({ nickname: 'text', name: 'text' });
      const token = await login(t.app);
      const old = await t.app.inject({ url: `/api/m/test-person/${recordId}`, headers: bearer(token) });
      expect(old.json()).toMatchObject({ name: '老记录', remark: '保留的备注', nickname: null, version: 1 });
      const put = await t.app.inject({ method: 'PUT', url: '/api/m/test-person', headers: bearer(token), payload: { id: recordId, version: 1, nickname: '小李' } });
      expect(put.statusCode, put.body).toBe(200);
      const found = await t.app.inject({ method: 'POST', url: '/api/m/test-person/list', headers: bearer(token), payload: { nickname: '小' } });
      expect(found.json().totalElements).toBe(1);
    } finally {
      await t.app.close();
    }
  });

  it('removing a field keeps its column and data, and records it as retired', async () => {
    editModule(dir, 'test-person', (s) => {
      delete s.properties.remark;
      s['x-list'].columns = s['x-list'].columns.filter((c: unknown) => (typeof c === 'string' ? c : (c as { field: string }).field) !== 'remark');
      for (const g of s['x-form'].groups) g.fields = g.fields.filter((f: string) => f !== 'remark');
    });
    const t = await start();
    try {
      expect(await columnsOf(t.database, 'm_test_person')).toHaveProperty('remark', 'text');
      const kept = await sql<{ remark: string }>`SELECT remark FROM m_test_person WHERE id = ${recordId}`.execute(t.database.db);
      expect(kept.rows[0].remark).toBe('保留的备注');
      const state = await t.database.db.selectFrom('runtime_modules').select(['retired', 'columns']).where('module', '=', 'test-person').executeTakeFirstOrThrow();
      expect(state.retired.remark).toMatchObject({ field: 'remark', column: 'remark', kind: 'string' });
      expect(state.columns).not.toHaveProperty('remark');
      const res = await t.app.inject({ url: `/api/m/test-person/${recordId}`, headers: bearer(await login(t.app)) });
      expect(res.json()).not.toHaveProperty('remark');
    } finally {
      await t.app.close();
    }
  });

  it('a safe type change is applied: integer to number', async () => {
    editModule(dir, 'test-person', (s) => {
      s.properties.childCount = { type: 'number', title: '子女数', minimum: 0 };
    });
    const t = await start();
    try {
      expect((await columnsOf(t.database, 'm_test_person')).child_count).toBe('double precision');
    } finally {
      await t.app.close();
    }
  });

  it('an incompatible type change stops the start with one clear line, and changes nothing', async () => {
    editModule(dir, 'test-person', (s) => {
      s.properties.birthDate = { type: 'integer', title: '出生日期' };
      s['x-list'].filters = s['x-list'].filters.filter((f: { field: string }) => f.field !== 'birthDate');
    });
    await expect(start()).rejects.toThrow(/^module test-person: field birthDate changed from date to integer; migrate the data by hand \(see docs\/schema\.md\)$/);
    const db = await store.open();
    try {
      expect((await columnsOf(db, 'm_test_person')).birth_date).toBe('date');
    } finally {
      await db.close();
    }
  });
});

describe(`schemas that stop the start on ${TEST_DB}`, () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const scratch = () => {
    const dir = copyFixtures();
    dirs.push(dir);
    return dir;
  };

  it('a broken school override names the school, the module and the problem on one line', async () => {
    const dir = scratch();
    const file = path.join(dir, 'schools', 'hnsoft.json');
    const school = JSON.parse(fs.readFileSync(file, 'utf8'));
    school.overrides['test-person'].properties.dormitory.type = 'text';
    fs.writeFileSync(file, JSON.stringify(school));
    const error = await createRuntimeApp({ SCHOOL: 'hnsoft' }, undefined, { schemasDir: dir }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/^school hnsoft: the override of module test-person breaks it: \/properties\/dormitory\/type must be equal to one of the allowed values/);
    expect(error?.message).not.toContain('\n');
  });

  it('[issue 13.3] a field naming a dictionary that does not exist stops the start with one line', async () => {
    const dir = scratch();
    const file = path.join(dir, 'schools', 'hnsoft.json');
    const school = JSON.parse(fs.readFileSync(file, 'utf8'));
    school.overrides['test-person'].properties.dormitory['x-dict'] = 'HNSOFT_NOPE';
    fs.writeFileSync(file, JSON.stringify(school));
    const error = await createRuntimeApp({ SCHOOL: 'hnsoft' }, undefined, { schemasDir: dir }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toBe('school hnsoft: module test-person: dormitory.x-dict names dictionary HNSOFT_NOPE, which does not exist (add schemas/dicts/HNSOFT_NOPE.json)');
  });

  it('an override of a module that does not exist is refused', async () => {
    const dir = scratch();
    const file = path.join(dir, 'schools', 'hnsoft.json');
    fs.writeFileSync(file, JSON.stringify({ school: 'hnsoft', overrides: { 'no-such-module': { title: 'x' } } }));
    await expect(createRuntimeApp({ SCHOOL: 'hnsoft' }, undefined, { schemasDir: dir })).rejects.toThrow('school hnsoft: overrides name unknown module(s) no-such-module');
  });

  it('a hook that no service registered stops the app before it serves', async () => {
    const dir = scratch();
    editModule(dir, 'test-person-reward', (s) => {
      s['x-hooks'] = { afterWrite: ['nobody.registeredThis'] };
    });
    await expect(createRuntimeApp({}, undefined, { schemasDir: dir })).rejects.toThrow(/test-person-reward: nobody\.registeredThis/);
  });

  it('references and children must point at modules that exist, with integer ids', async () => {
    const dir = scratch();
    editModule(dir, 'test-person-reward', (s) => {
      s.properties.kind['x-ref'] = 'test-person';
    });
    await expect(createRuntimeApp({}, undefined, { schemasDir: dir })).rejects.toThrow('module test-person-reward: kind.x-ref needs type integer');
    const dir2 = scratch();
    editModule(dir2, 'test-person', (s) => {
      s['x-children'][0].foreignKey = 'kind';
    });
    await expect(createRuntimeApp({}, undefined, { schemasDir: dir2 })).rejects.toThrow('x-children foreign key "kind" must be a field of "test-person-reward" with x-ref "test-person"');
  });
});

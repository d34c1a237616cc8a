// engines: both — migrations, first-start seeding, closing the database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { PUBLIC } from '../../src/server/core/auth/guard.js';
import { migrate, readMigrations } from '../../src/server/db/migrate.js';
import { verifyPassword } from '../../src/server/core/passwords.js';
import { discardUnfinishedDemo, initialiseDatabase } from '../../src/server/seed/index.js';
import { DEMO_ACCOUNTS, demoSeeders } from '../../src/server/seed/demo.js';
import { TEST_DB, createTestApp, openMigratedTestDatabase, openTestDatabase, testConfig, type TestApp } from '../support/test-app.js';

describe(`foundation on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      app.get('/api/test/echo-method', { config: PUBLIC }, async (req) => ({ method: req.method }));
      app.put('/api/test/echo-method', { config: PUBLIC }, async (req) => ({ method: req.method }));
      app.delete('/api/test/echo-method', { config: PUBLIC }, async (req) => ({ method: req.method, body: req.body }));
    });
  });
  afterAll(() => t.app.close());

  it('GET /api/health reports the database up', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'UP', db: 'UP', kind: TEST_DB });
  });

  it('answers unknown API paths with a 404 {status, message} in Chinese', async () => {
    const res = await t.app.inject('/api/no/such/thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, message: '请求的资源不存在' });
  });

  it('honours X-HTTP-Method-Override on POST for PUT and DELETE', async () => {
    const put = await t.app.inject({ method: 'POST', url: '/api/test/echo-method', headers: { 'x-http-method-override': 'PUT' } });
    expect(put.json()).toEqual({ method: 'PUT' });
    const del = await t.app.inject({ method: 'POST', url: '/api/test/echo-method', headers: { 'x-http-method-override': 'delete' }, payload: [1, 2] });
    expect(del.json()).toEqual({ method: 'DELETE', body: [1, 2] });
    const get = await t.app.inject({ method: 'GET', url: '/api/test/echo-method', headers: { 'x-http-method-override': 'DELETE' } });
    expect(get.json()).toEqual({ method: 'GET' }); // only POST may be overridden
  });

  it('a second migration run applies nothing', async () => {
    expect(await migrate(t.database)).toEqual([]);
    const rows = await t.database.db.selectFrom('schema_migrations' as never).select('name' as never).execute();
    expect(rows.length).toBe(readMigrations().length);
  });

  it('creates the administrator once with ADMIN_PASSWORD (hashed) and no demo data when DEMO_DATA=false', async () => {
    const admin = await t.database.db.selectFrom('users').selectAll().where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(admin.enabled).toBe(true);
    expect(admin.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin.password_hash, t.config.adminPassword)).toBe(true);
    const count = await t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    expect(await initialiseDatabase({ database: t.database, config: t.config, log: t.app.log })).toBe(false);
  });
});

describe(`graceful shutdown on ${TEST_DB}`, () => {
  it('lets a request in flight finish, then closes the database', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = await createTestApp({}, (app) => {
      app.get('/api/test/slow', { config: PUBLIC }, async () => {
        await gate;
        return { done: true };
      });
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const pending = fetch(`http://127.0.0.1:${port}/api/test/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 200)); // the request has reached the handler
    const closing = t.app.close();
    setTimeout(release, 200);
    expect(await pending).toEqual({ done: true });
    await closing;
    await expect(sql`SELECT 1`.execute(t.database.db)).rejects.toThrow();
  });
});

describe(`database initialisation on ${TEST_DB}`, () => {
  // The demo university and party school take a while to seed on a loaded machine.
  it('seeds demo data once on the first start and uses ADMIN_PASSWORD for admin', { timeout: 120_000 }, async () => {
    // A first start on an empty database: every migration, then every seeder (a small university: the
    // seeders' sizes are the demo tests' concern).
    const database = await openTestDatabase();
    const members = process.env.DEMO_MEMBERS;
    process.env.DEMO_MEMBERS = '40';
    try {
      await migrate(database);
      const config = testConfig({ DEMO_DATA: 'true', ADMIN_PASSWORD: 'Another#Pass9' });
      const log = (await buildApp({ config, database: { ...database, close: async () => {} }, logger: false })).log;
      expect(await initialiseDatabase({ database, config, log })).toBe(true);
      const users = await database.db.selectFrom('users').select(['username', 'password_hash']).orderBy('id').execute();
      // admin, then the demo accounts (the party school's demo learners xy01.. follow them).
      expect(users.map((u) => u.username).slice(0, DEMO_ACCOUNTS.length + 1)).toEqual(['admin', ...DEMO_ACCOUNTS.map((a) => a.username)]);
      expect(await verifyPassword(users[0].password_hash, 'Another#Pass9')).toBe(true);
      // A second start changes nothing, even with another password configured.
      expect(await initialiseDatabase({ database, config: testConfig({ DEMO_DATA: 'true', ADMIN_PASSWORD: 'Changed#Pass9' }), log })).toBe(false);
      const again = await database.db.selectFrom('users').select(['password_hash']).where('username', '=', 'admin').executeTakeFirstOrThrow();
      expect(await verifyPassword(again.password_hash, 'Another#Pass9')).toBe(true);
    } finally {
      if (members === undefined) delete process.env.DEMO_MEMBERS;
      else process.env.DEMO_MEMBERS = members;
      await database.close();
    }
  });

  it('[issue 12] a first start that died while seeding the demo starts over on the next start', { timeout: 120_000 }, async () => {
    const database = await openMigratedTestDatabase();
    const members = process.env.DEMO_MEMBERS;
    process.env.DEMO_MEMBERS = '120';
    const first = demoSeeders.filter((s) => ['demo-accounts', 'demo-roles', 'demo-university'].includes(s.name));
    const config = testConfig({ DEMO_DATA: 'true', ADMIN_PASSWORD: 'Another#Pass9' });
    // As startServer does: migrate, drop what an unfinished first start left, build the app, initialise.
    const start = async (seeders: typeof demoSeeders) => {
      await migrate(database);
      const discarded = await discardUnfinishedDemo(database);
      if (discarded) await migrate(database);
      const app = await buildApp({ config, database: { ...database, close: async () => {} }, logger: false });
      try {
        return { discarded, initialised: await initialiseDatabase({ database, config, log: app.log }, seeders) };
      } finally {
        await app.close();
      }
    };
    try {
      const dies = { name: 'dies', run: async () => { throw new Error('killed while seeding'); } };
      await expect(start([...first, dies])).rejects.toThrow('killed while seeding');
      const memberCount = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member`.execute(database.db)).rows[0].n;
      expect(await memberCount()).toBe(120); // the university was seeded before the start died
      // The next start discards the partial demo and seeds it once: no duplicate, no unique-key failure.
      expect(await start(first)).toEqual({ discarded: true, initialised: true });
      expect(await memberCount()).toBe(120);
      const admins = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE username = 'admin'`.execute(database.db);
      expect(admins.rows[0].n).toBe(1);
      // A finished first start is never discarded.
      expect(await start(first)).toEqual({ discarded: false, initialised: false });
      expect(await memberCount()).toBe(120);
    } finally {
      if (members === undefined) delete process.env.DEMO_MEMBERS;
      else process.env.DEMO_MEMBERS = members;
      await database.close();
    }
  });

  it('a failing migration leaves the database as it was', async () => {
    const database = await openTestDatabase();
    try {
      const good = { name: '0001_a.sql', sql: 'CREATE TABLE a (id int);' };
      const bad = { name: '0002_b.sql', sql: 'CREATE TABLE b (id int); SELECT no_such_function();' };
      await expect(migrate(database, [good, bad])).rejects.toThrow(/migration 0002_b.sql failed/);
      const tables = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('a', 'b', 'schema_migrations')`.execute(database.db);
      expect(tables.rows[0].n).toBe(0);
      expect(await migrate(database, [good])).toEqual(['0001_a.sql']);
      expect(await migrate(database, [good])).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('the web app under /web in history mode', () => {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(webDir, 'assets', 'main-abc123.js'), 'console.log(1)');
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.close();
    const database = await openTestDatabase();
    await migrate(database);
    t = { ...t, database, app: await buildApp({ config: t.config, database, logger: false, webDir }) };
  });
  afterAll(() => t.app.close());

  it('[S2.N1] answers index.html for any /web path that is not a file', async () => {
    for (const url of ['/web/', '/web/login', '/web/any/deep/path', '/web/dashboard?x=1']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>app</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves built assets with a long cache and 404s missing files', async () => {
    const asset = await t.app.inject('/web/assets/main-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject('/web/assets/missing.js')).statusCode).toBe(404);
    expect((await t.app.inject('/web/../package.json')).statusCode).not.toBe(200);
  });

  it('redirects / and /web to /web/', async () => {
    for (const url of ['/', '/web']) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/web/');
    }
  });
});

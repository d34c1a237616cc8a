import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type AppConfig } from '../../src/server/config.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { initialiseDatabase } from '../../src/server/seed/index.js';
import { createDatabase } from './postgres.js';

/** Which engine this test project runs on: the api-postgres project sets TEST_DB=postgres. */
export const TEST_DB: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A fresh, empty database: in-memory PGlite, or a new database on the run's PostgreSQL server. */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_DB === 'postgres') return openDatabase({ databaseUrl: await createDatabase(inject('postgresUrl')) });
  return openDatabase({});
}

let pgliteTemplate: Blob | undefined;

/**
 * A fresh database with every migration applied: a copy of the run's template (global setup), or, in a
 * project without one, an empty database migrated here.
 */
export async function openMigratedTestDatabase(): Promise<Database> {
  if (TEST_DB === 'postgres') {
    const template = inject('postgresTemplate');
    return openDatabase({ databaseUrl: await createDatabase(inject('postgresUrl'), template) });
  }
  const file = inject('pgliteTemplate');
  if (file) pgliteTemplate ??= new Blob([fs.readFileSync(file)]);
  return openDatabase({ pgliteDump: pgliteTemplate });
}

/**
 * A database that survives an app's close, for restart tests: `open()` gives a new connection to the same
 * data each time (an on-disk PGlite directory, or one database on the run's PostgreSQL server).
 */
export async function reopenableTestDatabase(): Promise<{ open(): Promise<Database>; dispose(): void }> {
  if (TEST_DB === 'postgres') {
    const url = await createDatabase(inject('postgresUrl'));
    return { open: () => openDatabase({ databaseUrl: url }), dispose: () => undefined };
  }
  // The first open fills the new directory from the run's migrated template (initdb and the migrations are slow on disk).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-test-db-'));
  const file = inject('pgliteTemplate');
  if (file) pgliteTemplate ??= new Blob([fs.readFileSync(file)]);
  return { open: () => openDatabase({ dataDir, pgliteDump: pgliteTemplate }), dispose: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({ LOG_LEVEL: 'silent', CAPTCHA: 'off', DEMO_DATA: 'false', ...env });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: AppConfig;
}

export interface TestAppOptions {
  /** Schemas (modules, dicts, menus, schools) from here instead of the repository's `schemas/`. */
  schemasDir?: string;
  /** An existing database (a restart test); by default a fresh one. */
  database?: Database;
  /** Logger options (tests that read the log pass a stream); by default no logger. */
  logger?: FastifyServerOptions['logger'];
  /** A built web app to serve under /web (tests of the pages the server writes into); by default dist/web. */
  webDir?: string;
}

/** The real app on a fresh database, migrated and initialised; requests go through `app.inject`. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const database = options.database ?? (await openMigratedTestDatabase());
  await migrate(database);
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, database, logger: options.logger ?? false, schemasDir: options.schemasDir, webDir: options.webDir });
  } catch (error) {
    // A start that fails (tests of bad schemas) leaves no connection behind.
    if (!options.database) await database.close();
    throw error;
  }
  if (await initialiseDatabase({ database, config, log: app.log, app })) await app.runtime.fillSortKeys();
  try {
    beforeReady?.(app);
    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return { app, database, config };
}

/**
 * The real app on the demo data (DEMO_DATA=true plus `env`), for files that read the demo rather than test
 * seeding itself. On PGlite the demo is seeded once per run and configuration: the first file to ask seeds
 * it and keeps a dump in the run's folder, a file asking meanwhile waits for that dump, and every app
 * starts from a copy of it (seeding took most of such a file's time). On PostgreSQL each app seeds its own.
 */
export async function createDemoTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const demoEnv = { DEMO_DATA: 'true', ...env };
  const dir = TEST_DB === 'pglite' ? inject('pgliteRunDir') : undefined;
  if (!dir) return createTestApp(demoEnv);
  const key = crypto.createHash('sha1').update(JSON.stringify([process.env.DEMO_MEMBERS ?? '', Object.entries(demoEnv).sort()])).digest('hex').slice(0, 12);
  const dump = path.join(dir, `demo-${key}.tar`);
  const lock = `${dump}.lock`;
  let seeding = false;
  if (!fs.existsSync(dump)) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      seeding = !fs.existsSync(dump); // finished just before the lock was taken: use it
      if (!seeding) fs.rmSync(lock, { force: true });
    } catch {
      // Another file seeds this configuration: wait for its dump, or seed here if it gave up.
      while (!fs.existsSync(dump) && fs.existsSync(lock)) await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (!seeding && fs.existsSync(dump)) {
    const database = await openDatabase({ pgliteDump: new Blob([fs.readFileSync(dump)]) });
    return createTestApp(demoEnv, undefined, { database });
  }
  try {
    const t = await createTestApp(demoEnv);
    if (seeding) {
      const data = Buffer.from(await (await t.database.dump!()).arrayBuffer());
      fs.writeFileSync(`${dump}.partial`, data);
      fs.renameSync(`${dump}.partial`, dump); // whole or not at all for the files waiting
    }
    return t;
  } finally {
    if (seeding) fs.rmSync(lock, { force: true });
  }
}

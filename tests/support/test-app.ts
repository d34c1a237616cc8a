import type { FastifyInstance } from 'fastify';
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

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({ LOG_LEVEL: 'silent', CAPTCHA: 'off', DEMO_DATA: 'false', ...env });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: AppConfig;
}

/** The real app on a fresh database, migrated and initialised; requests go through `app.inject`. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const config = testConfig(env);
  const database = await openTestDatabase();
  await migrate(database);
  const app = await buildApp({ config, database, logger: false });
  await initialiseDatabase({ database, config, log: app.log });
  beforeReady?.(app);
  await app.ready();
  return { app, database, config };
}

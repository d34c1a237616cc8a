import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { createDatabase, startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A database with every migration applied: test apps start from a copy (CREATE DATABASE ... TEMPLATE). */
    postgresTemplate: string;
  }
}

/** globalSetup of the api-postgres project: one real PostgreSQL server for the whole run. */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  project.provide('postgresTemplate', await createMigratedTemplate(server.url));
  return () => server.stop();
}

/** Migrates one database once per run; it must have no connection left when copied. */
async function createMigratedTemplate(serverUrl: string): Promise<string> {
  const url = await createDatabase(serverUrl);
  const database = await openDatabase({ databaseUrl: url });
  await migrate(database);
  await database.close();
  return new URL(url).pathname.slice(1);
}

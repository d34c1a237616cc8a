import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Serialises migrations when several app servers start at once against one PostgreSQL server. */
export const MIGRATION_LOCK_KEY = 727_072_001;

export interface Migration {
  name: string;
  sql: string;
}

/** The ordered plain-SQL migrations: files named `NNNN_description.sql`. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, all in one transaction:
 * either the database moves to the new version or it stays as it was.
 * Returns the names applied (empty on a second start).
 */
export async function migrate(database: Database, migrations = readMigrations()): Promise<string[]> {
  return database.scriptTransaction(async (run) => {
    await run.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await run.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const done = new Set((await run.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      try {
        await run.exec(m.sql);
      } catch (error) {
        throw new Error(`migration ${m.name} failed: ${(error as Error).message}`);
      }
      await run.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}

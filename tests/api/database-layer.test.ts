// engines: both — the database layer itself
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR_LOCK, openDatabase, type Database } from '../../src/server/db/database.js';
import { TEST_DB, openTestDatabase } from '../support/test-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- a table made by the test */

// Data statements run prepared on both engines (issue 14): same answers, and a schema change made
// elsewhere (another app server's table sync) does not break a prepared `select *`.
describe(`prepared statements (${TEST_DB})`, () => {
  let database: Database;
  const db = () => database.db as any;

  beforeAll(async () => {
    database = await openTestDatabase();
    await database.scriptTransaction((run) => run.exec(`CREATE TABLE stmt_t (id serial PRIMARY KEY, name text UNIQUE, extra jsonb)`));
  }, 60_000);
  afterAll(async () => {
    await database.close();
  });

  it('a statement run again is prepared on the server, and answers new values', async () => {
    for (const name of ['甲', '乙', '丙'])
      await db()
        .insertInto('stmt_t')
        .values({ name, extra: JSON.stringify({ name }) })
        .execute();
    const byName = (name: string) => db().selectFrom('stmt_t').select(['name', 'extra']).where('name', '=', name).executeTakeFirst();
    expect(await byName('甲')).toEqual({ name: '甲', extra: { name: '甲' } });
    expect(await byName('丙')).toEqual({ name: '丙', extra: { name: '丙' } });
    // Read on the connection that ran them (one at a time, the pool hands back the same one).
    const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(database.db);
    expect(prepared.rows.some((r) => r.statement.includes('"stmt_t"') && r.statement.includes('where "name" = $1'))).toBe(true);
  });

  it('a refused statement leaves the next one working, and a transaction rolls back whole', async () => {
    await expect(db().insertInto('stmt_t').values({ name: '甲' }).execute()).rejects.toMatchObject({ code: '23505' });
    await expect(
      db()
        .transaction()
        .execute(async (trx: any) => {
          await trx.insertInto('stmt_t').values({ name: '丁' }).execute();
          await trx.insertInto('stmt_t').values({ name: '甲' }).execute();
        }),
    ).rejects.toMatchObject({ code: '23505' });
    const names = (await db().selectFrom('stmt_t').select('name').orderBy('id').execute()).map((r: { name: string }) => r.name);
    expect(names).toEqual(['甲', '乙', '丙']);
  });

  it('a prepared select * answers the columns a schema change added, wherever the change was made', async () => {
    const all = () => db().selectFrom('stmt_t').selectAll().orderBy('id').execute();
    expect(Object.keys((await all())[0]).sort()).toEqual(['extra', 'id', 'name']);
    expect(Object.keys((await all())[0]).sort()).toEqual(['extra', 'id', 'name']);
    await database.scriptTransaction((run) => run.exec(`ALTER TABLE stmt_t ADD COLUMN note text DEFAULT '备注'`));
    expect((await all())[0]).toMatchObject({ name: '甲', note: '备注' });
    // Through the query layer too.
    await sql`ALTER TABLE stmt_t ADD COLUMN note2 text DEFAULT '二'`.execute(database.db);
    expect((await all())[0]).toMatchObject({ note: '备注', note2: '二' });
  });
});

describe('closing the database', () => {
  it.skipIf(TEST_DB === 'pglite')('a database used only for scripts (a migrated template) leaves no connection open', async () => {
    const database = await openTestDatabase();
    const [{ name }] = await database.scriptTransaction((run) => run.query<{ name: string }>('SELECT current_database() AS name'));
    await database.close();
    const observer = await openTestDatabase();
    try {
      const open = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${name}`.execute(observer.db);
      expect(open.rows[0].n).toBe(0);
    } finally {
      await observer.close();
    }
  });
});

describe.skipIf(TEST_DB === 'postgres')('one process per embedded database directory', () => {
  it('a second process is refused while the first runs; a lock left by a process that is gone is taken over; closing releases it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-lock-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const lock = path.join(dataDir, DATA_DIR_LOCK);
      fs.writeFileSync(lock, String(other.pid));
      await expect(openDatabase({ dataDir })).rejects.toThrow(`is in use by another server process (pid ${other.pid})`);
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(other.pid));
      other.kill('SIGKILL');
      await once(other, 'exit');
      const database = await openDatabase({ dataDir });
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
      expect((await sql<{ n: number }>`SELECT 1 AS n`.execute(database.db)).rows[0].n).toBe(1);
      await database.close();
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      other.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

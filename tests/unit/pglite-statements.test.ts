import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../src/server/db/pglite-dialect.js';
import { PreparedStatements } from '../../src/server/db/pglite-statements.js';
import { MAX_PREPARED, runsPrepared } from '../../src/server/db/statements.js';
import { containsText } from '../../src/server/db/text-search.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tables made by the test */

// The embedded engine's statements run prepared: same answers as PGlite's own query(), fewer parses.
describe('embedded engine: prepared statements', () => {
  let pglite: PGlite;
  let statements: PreparedStatements;
  let db: Kysely<any>;
  const prepared = async () => Number((await pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n);

  beforeAll(async () => {
    pglite = await PGlite.create();
    statements = new PreparedStatements(pglite);
    db = new Kysely<any>({ dialect: new PGliteDialect(pglite, statements) });
    await pglite.exec(`CREATE TABLE t (id serial PRIMARY KEY, name text UNIQUE, born date, extra jsonb, tags text[], ok boolean)`);
  }, 60_000);
  afterAll(async () => {
    await db.destroy();
  });

  it('prepares a text once and answers as query() does, values serialised alike', async () => {
    const before = statements.size;
    const row = { name: '张三', born: '1990-01-02', extra: JSON.stringify({ a: [1, '二'] }), tags: ['甲', '乙'], ok: true };
    await db.insertInto('t').values(row).execute();
    await db
      .insertInto('t')
      .values({ ...row, name: '李四', extra: null, tags: null, ok: false })
      .execute();
    expect(statements.size).toBe(before + 1);
    const select = (name: string) => db.selectFrom('t').selectAll().where('name', '=', name).execute();
    const mine = [...(await select('张三')), ...(await select('李四'))];
    expect(statements.size).toBe(before + 2);
    const theirs = (await pglite.query('SELECT * FROM t ORDER BY id', [], { rowMode: 'object' })).rows;
    expect(mine).toEqual(theirs);
    expect(mine[0]).toMatchObject({ name: '张三', extra: { a: [1, '二'] }, tags: ['甲', '乙'], ok: true });
    const updated = await db.updateTable('t').set({ ok: true }).where('ok', '=', false).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
  });

  it('runs data statements prepared, not a text search (its plan must see the searched text) nor other statements', async () => {
    const byId = db.selectFrom('t').selectAll().where('id', '=', 1).compile().sql;
    const search = db.selectFrom('t').selectAll().where(containsText('name', '张')).compile().sql;
    expect(runsPrepared(byId)).toBe(true);
    expect(runsPrepared(db.updateTable('t').set({ ok: true }).where('id', '=', 1).compile().sql)).toBe(true);
    expect(runsPrepared(search)).toBe(false);
    expect(runsPrepared(`SELECT 1 WHERE 'a' ILIKE $1`)).toBe(false);
    expect(runsPrepared('VACUUM (ANALYZE)')).toBe(false);
    expect(runsPrepared('ALTER TABLE t ADD COLUMN x int')).toBe(false);
    const before = statements.size;
    expect(await db.selectFrom('t').select('name').where(containsText('name', '张')).execute()).toEqual([{ name: '张三' }]);
    expect(statements.size).toBe(before);
  });

  it('a refused statement rejects with the engine error and leaves the next one working; a transaction rolls back', async () => {
    await expect(db.insertInto('t').values({ name: '张三' }).execute()).rejects.toMatchObject({ code: '23505' });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ name: '王五' }).execute();
        await trx.insertInto('t').values({ name: '张三' }).execute();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const names = (await db.selectFrom('t').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(names).toEqual(['张三', '李四']);
  });

  it('after a schema change a prepared select * answers the new columns', async () => {
    const all = () => db.selectFrom('t').selectAll().orderBy('id').execute();
    expect(Object.keys((await all())[0])).not.toContain('note');
    await sql`ALTER TABLE t ADD COLUMN note text DEFAULT '备注'`.execute(db);
    expect((await all())[0]).toMatchObject({ note: '备注' });
    // A change the cache did not see (another path): the engine refuses the old plan, it is prepared again.
    await pglite.exec(`ALTER TABLE t ADD COLUMN note2 text DEFAULT '二'`);
    expect((await all())[0]).toMatchObject({ note: '备注', note2: '二' });
  });

  it(`keeps at most ${MAX_PREPARED} names, closing the least recently used`, async () => {
    for (let i = 0; i < MAX_PREPARED + 20; i++) await sql`SELECT ${i}::int + ${i % 7} AS n, 'text ${sql.raw(String(i))}' AS s`.execute(db);
    expect(statements.size).toBe(MAX_PREPARED);
    // Closes travel with the next prepare: at most the one statement prepared since.
    expect(await prepared()).toBeLessThanOrEqual(MAX_PREPARED + 1);
    statements.clear();
    await sql`SELECT 1 AS one`.execute(db);
    expect(await prepared()).toBe(1);
  });

  it('a statement outside any transaction waits for a running script transaction instead of joining it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const script = pglite.transaction(async (tx) => {
      await tx.query(`INSERT INTO t (name) VALUES ('赵六')`);
      inserted();
      await held;
      await tx.rollback();
    });
    await insertedYet;
    let answered = false;
    const count = db
      .selectFrom('t')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('name', '=', '赵六')
      .executeTakeFirstOrThrow()
      .then((r) => ((answered = true), r.n));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    release();
    await script;
    expect(await count).toBe(0);
  });
});

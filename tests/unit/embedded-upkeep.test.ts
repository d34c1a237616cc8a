import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedUpkeep } from '../../src/server/db/upkeep.js';

// The embedded engine has no autovacuum: the upkeep applies autovacuum's default thresholds when idle.
describe('embedded engine: vacuum and statistics', () => {
  let pglite: PGlite;
  let now = 0;
  const upkeep = () => new EmbeddedUpkeep(pglite, () => now);
  const fill = async (table: string, rows: number) => {
    await pglite.exec(`CREATE TABLE ${table} (id int PRIMARY KEY, v int)`);
    await pglite.exec(`INSERT INTO ${table} SELECT g, 0 FROM generate_series(1, ${rows}) g`);
  };

  beforeAll(async () => {
    pglite = await PGlite.create();
  }, 60_000);
  afterAll(async () => {
    await pglite.close();
  });

  it('analyses a table with more than 50 + 10% changed rows, and not one with exactly that many', async () => {
    await fill('a50', 50);
    await fill('a51', 51);
    const done = await upkeep().run();
    expect(done.analysed).toContain('a51');
    expect(done.analysed).not.toContain('a50');
    expect(done.vacuumed).toEqual([]);
    const analysed = await pglite.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'a51'`);
    expect(analysed.rows[0].reltuples).toBe(51);
    // Done is done: nothing is due again until rows change.
    expect((await upkeep().run()).analysed).not.toContain('a51');
  });

  it('vacuums a table with more than 50 + 20% dead rows (after its statistics counted 100 rows), not at exactly that', async () => {
    for (const t of ['d70', 'd71']) {
      await fill(t, 100);
      await pglite.exec(`ANALYZE ${t}`);
    }
    await pglite.exec(`UPDATE d70 SET v = 1 WHERE id <= 70`);
    await pglite.exec(`UPDATE d71 SET v = 1 WHERE id <= 71`);
    const done = await upkeep().run();
    expect(done.vacuumed).toEqual(['d71']);
    // 70 changed rows are past the analyze threshold (50 + 10 of 100).
    expect(done.analysed).toContain('d70');
    // The vacuumed table's pages are all visible (index-only scans), and its dead rows are gone.
    const pages = await pglite.query<{ relpages: number; relallvisible: number }>(`SELECT relpages, relallvisible FROM pg_class WHERE relname = 'd71'`);
    expect(pages.rows[0].relpages).toBeGreaterThan(0);
    expect(pages.rows[0].relallvisible).toBe(pages.rows[0].relpages);
    await pglite.exec('SELECT pg_stat_force_next_flush()');
    const stats = await pglite.query<{ n_dead_tup: number }>(`SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'd71'`);
    expect(Number(stats.rows[0].n_dead_tup)).toBe(0);
  });

  it('gives way when the application queries during a run, leaving the rest for the next idle time', async () => {
    await fill('w1', 60);
    await fill('w2', 60);
    let calls = 0;
    // The application queries again after the upkeep's first table.
    const interrupted = new EmbeddedUpkeep(pglite, () => (calls++ < 2 ? 0 : 1));
    const first = await interrupted.run();
    expect(first.interrupted).toBe(true);
    expect(first.analysed).toHaveLength(1);
    const rest = await upkeep().run();
    expect([...first.analysed, ...rest.analysed].sort()).toEqual(['w1', 'w2']);
  });

  it('stopped during a run, ends it after the current table', async () => {
    await fill('x1', 60);
    await fill('x2', 60);
    const stopping = upkeep();
    const run = stopping.run();
    await stopping.stop();
    const done = await run;
    expect(done.interrupted).toBe(true);
    expect(done.analysed.length).toBeLessThan(2);
    expect((await upkeep().run()).analysed.filter((t) => t.startsWith('x'))).toHaveLength(2 - done.analysed.length);
  });

  it('started, runs when the application has been idle long enough, and logs what it did', async () => {
    await fill('s1', 60);
    const logged: object[] = [];
    const log = { info: (details: object) => logged.push(details), warn: () => undefined };
    now = performance.now();
    const busy = upkeep();
    busy.start(log, { everyMs: 20, idleMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await busy.stop();
    expect(logged).toEqual([]);
    const idle = upkeep();
    idle.start(log, { everyMs: 20, idleMs: 0 });
    await expect.poll(() => logged.length, { timeout: 5000 }).toBe(1);
    await idle.stop();
    expect(logged[0]).toMatchObject({ analysed: ['s1'] });
  });
});

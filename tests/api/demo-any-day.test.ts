// engines: pglite — the demo seeded with the clock set to the days that break date arithmetic
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 43.15: demo data and the tests that read it must hold on every day of the year. The demo is seeded
 * here with the clock (the app's and the embedded database's: PGlite reads the JS clock) set to the 1st of
 * January, the 1st of December and the 29th of February, and each time it must give what the pages and the
 * suite rely on: every module that holds records when seeded today holds records then too, and the dues of
 * this year and the last are both there (the dues-collected report test failed on a 1st of December).
 */
const DAYS = ['2027-01-01', '2026-12-01', '2028-02-29'];
// The demo's size is read from the process environment (the project sets 300): 40 members are enough here.
const ENV = { DEMO_MEMBERS: '40' };
const projectMembers = process.env.DEMO_MEMBERS;
beforeAll(() => {
  process.env.DEMO_MEMBERS = ENV.DEMO_MEMBERS;
});
afterAll(() => {
  process.env.DEMO_MEMBERS = projectMembers;
});

/** The modules whose list is not empty for the administrator. */
async function modulesWithRecords(t: TestApp, token: string): Promise<string[]> {
  const filled: string[] = [];
  for (const m of t.app.runtime.registry.list()) {
    const res = await t.app.inject({ method: 'POST', url: `/api/m/${m.id}/list?size=1`, headers: bearer(token), payload: {} });
    if (res.statusCode === 200 && (res.json() as { totalElements: number }).totalElements > 0) filled.push(m.id);
  }
  return filled.sort();
}

/** The years holding dues batches. */
async function duesYears(t: TestApp): Promise<number[]> {
  const rows = (await sql<{ y: number }>`SELECT DISTINCT substr(first_month, 1, 4)::int AS y FROM dues_batch ORDER BY 1`.execute(t.database.db)).rows;
  return rows.map((r) => r.y);
}

describe.skipIf(TEST_DB !== 'pglite')('the demo on any day of the year', () => {
  afterEach(() => vi.useRealTimers());

  it('[43.15] seeded on 1 January, 1 December and 29 February, the demo fills the same modules as today and holds this year\'s and last year\'s dues', { timeout: 900_000 }, async () => {
    const today = await createDemoTestApp(ENV);
    let expected: string[];
    try {
      expected = await modulesWithRecords(today, await login(today.app));
    } finally {
      await today.app.close();
    }
    expect(expected.length).toBeGreaterThan(20);

    for (const day of DAYS) {
      // Only Date is faked, and it keeps running: timers, sockets and the database's waits stay real.
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: new Date(`${day}T09:30:00+08:00`) });
      const t = await createTestApp({ DEMO_DATA: 'true', ...ENV });
      try {
        const year = Number(day.slice(0, 4));
        expect(await duesYears(t), day).toEqual(expect.arrayContaining([year - 1, year]));
        const token = await login(t.app);
        expect(await modulesWithRecords(t, token), day).toEqual(expected);
        for (const y of [year, year - 1]) {
          const res = await t.app.inject({ method: 'POST', url: '/api/reports/dues-collected/run', headers: bearer(token), payload: { params: { year: y } } });
          expect(res.statusCode, res.body).toBe(200);
          expect((res.json() as { totals: Record<string, number> }).totals['|members'], `${day}: ${y}`).toBeGreaterThan(0);
        }
      } finally {
        await t.app.close();
        vi.useRealTimers();
      }
    }
  });
});

/**
 * `npm run bench cadres` (issue 26): the reminder refresh of the cadre base for 600 cadres (budget 2 s):
 * every cadre module's x-reminders recomputed (the six types: ages and retirements of the cadres, terms
 * and probations of their posts, secondments, trips' passports not returned, passports' custody and expiry), as the daily run and `POST
 * /api/reminders/refresh` do, on the embedded database. Also reports how long seeding the cadres took.
 * Median of 5 runs after a warm-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { openDatabase } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { CADRE_REMINDER_MODULES, seedCadres } from '../../../src/server/seed/cadres.js';
import { seedCadreAbroad } from '../../../src/server/seed/cadre-abroad.js';
import { initialiseDatabase } from '../../../src/server/seed/index.js';
import { seedUniversity } from '../../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../../src/server/seed/university/university.js';
import { median, type BenchResult } from '../lib.js';

const CADRES = 600;
/** Issue 39's bench size: the cadres' passports and trip applications. */
const PASSPORTS = 3000;
const APPLICATIONS = 1000;
/** A university whose serving staff outnumber the cadres. */
const MEMBERS = 3000;

export async function cadresSuite(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-cadres-'));
  const database = await openDatabase({ dataDir });
  try {
    await migrate(database);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD: 'Bench#2026pass' });
    const app = await buildApp({ config, database, logger: false });
    try {
      await initialiseDatabase({ database, config, log: app.log });
      await seedUniversity(database, generateUniversity({ members: MEMBERS }), config.school);
      const t0 = performance.now();
      const counts = await seedCadres(database, { count: CADRES });
      const abroad = await seedCadreAbroad(database, { passports: PASSPORTS, applications: APPLICATIONS });
      const seedMs = performance.now() - t0;
      await sql`ANALYZE`.execute(database.db);
      const refresh = () => app.runtime.reminders.refresh({ modules: CADRE_REMINDER_MODULES });
      await refresh();
      const times: number[] = [];
      let started = 0;
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const c = await refresh();
        times.push(performance.now() - t);
        started = Object.values(c).reduce((s, byType) => s + Object.values(byType).reduce((a, b) => a + b, 0), 0);
      }
      const reminders = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM reminders WHERE module = ANY(${CADRE_REMINDER_MODULES}::text[])`.execute(database.db)).rows[0].n;
      return [
        {
          suite: 'cadres',
          name: `reminder refresh of ${counts.cadres} cadres (six types and the passports', ${counts.records} records, ${abroad.passports} passports, ${abroad.applications} trips)`,
          value: Number(median(times).toFixed(0)),
          unit: 'ms',
          budget: 2000,
          note: `${reminders} reminders, ${started} started; seeding the cadres took ${seedMs.toFixed(0)} ms`,
        },
      ];
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

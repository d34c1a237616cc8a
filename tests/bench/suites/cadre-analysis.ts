/**
 * `npm run bench cadre-analysis` (issue 26): the team structure analysis over 600 cadres (budget 200 ms:
 * every dimension counted in one grouping-sets scan, labels from the dictionaries) and one cadre's 任免审批表
 * as .xlsx (budget 1 s: the form assembled from the cadre base — résumé, rewards, results, family — and the
 * workbook written), on the embedded database. Median of 5 runs after a warm-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { openDatabase } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { analyseStructure } from '../../../src/server/domain/cadre/analysis.js';
import { lrmxForm } from '../../../src/server/domain/cadre/lrmx.js';
import { lrmxWorkbook } from '../../../src/server/domain/cadre/lrmx-xlsx.js';
import { SYSTEM_ACTOR } from '../../../src/server/runtime/index.js';
import { seedCadres } from '../../../src/server/seed/cadres.js';
import { initialiseDatabase } from '../../../src/server/seed/index.js';
import { seedUniversity } from '../../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../../src/server/seed/university/university.js';
import { median, type BenchResult } from '../lib.js';

const CADRES = 600;
const MEMBERS = 3000;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return Number(median(times).toFixed(1));
}

export async function cadreAnalysisSuite(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-cadre-analysis-'));
  const database = await openDatabase({ dataDir });
  try {
    await migrate(database);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD: 'Bench#2026pass' });
    const app = await buildApp({ config, database, logger: false });
    try {
      await initialiseDatabase({ database, config, log: app.log });
      await seedUniversity(database, generateUniversity({ members: MEMBERS }), config.school);
      const counts = await seedCadres(database, { count: CADRES });
      await sql`ANALYZE`.execute(database.db);
      const structureMs = await timed(() => analyseStructure(app, sql<boolean>`true`));
      const total = (await analyseStructure(app, sql<boolean>`true`)).total;
      // The cadre with the longest résumé.
      const id = (await sql<{ id: number }>`SELECT cadre_id AS id FROM m_cadre_resume GROUP BY cadre_id ORDER BY count(*) DESC, cadre_id LIMIT 1`.execute(database.db)).rows[0].id;
      let bytes = 0;
      const lrmxMs = await timed(async () => {
        const form = await lrmxForm(app, id, SYSTEM_ACTOR);
        bytes = (await lrmxWorkbook(form).xlsx.writeBuffer()).byteLength;
      });
      return [
        { suite: 'cadre-analysis', name: `team structure analysis over ${total} current cadres (8 dimensions)`, value: structureMs, unit: 'ms', budget: 200, note: `${counts.cadres} cadres seeded` },
        { suite: 'cadre-analysis', name: '任免审批表 .xlsx of one cadre (form assembled and written)', value: lrmxMs, unit: 'ms', budget: 1000, note: `${bytes} bytes` },
      ];
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

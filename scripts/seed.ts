/**
 * `npm run seed -- --members N [--seed S] [--transfers T]`: loads a generated university with N party members (and T
 * records per transfer process, in every state) into the
 * configured database (DATA_DIR or DATABASE_URL), e.g. for benchmarks. Refuses when organisations exist
 * unless `--force`, which first empties the six base modules.
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrate } from '../src/server/db/migrate.js';
import { initialiseDatabase } from '../src/server/seed/index.js';
import { seedUniversity } from '../src/server/seed/university/seed.js';
import { generateUniversity } from '../src/server/seed/university/university.js';
import { seedTransfers } from '../src/server/seed/transfers.js';
import { SCHEMAS_DIR } from '../src/server/paths.js';

const { values } = parseArgs({ options: { members: { type: 'string', default: '3000' }, seed: { type: 'string' }, force: { type: 'boolean', default: false }, transfers: { type: 'string', default: '0' } } });
const members = Number(values.members);
if (!Number.isInteger(members) || members < 1) {
  console.error('--members must be a positive whole number');
  process.exit(1);
}
const config = loadConfig({ ...process.env, DEMO_DATA: 'false', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrate(database);
const app = await buildApp({ config, database });
await initialiseDatabase({ database, config, log: app.log });
const { n } = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_org`.execute(database.db)).rows[0];
if (n > 0 && !values.force) {
  console.error(`The database already has ${n} organisations: run with --force to replace the base data.`);
  await app.close();
  process.exit(1);
}
if (n > 0) await sql`TRUNCATE m_member, m_student, m_teacher, m_class, m_org, m_unit, m_transfer_internal, m_transfer_out, m_transfer_in, m_floating, m_member_contact, transfer_letters, transfer_letter_serial RESTART IDENTITY`.execute(database.db);
const started = performance.now();
const university = generateUniversity({ members, seed: values.seed ? Number(values.seed) : undefined });
const { counts } = await seedUniversity(database, university, config.school);
console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s:`, counts);
const transfers = Number(values.transfers);
if (transfers > 0) {
  const at = performance.now();
  const seeded = await seedTransfers(database, { school: config.school, schemasDir: SCHEMAS_DIR, count: transfers, seed: values.seed ? Number(values.seed) : undefined });
  console.log(`Transfers seeded in ${((performance.now() - at) / 1000).toFixed(1)} s:`, seeded);
}
await app.close();

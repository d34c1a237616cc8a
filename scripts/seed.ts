/**
 * `npm run seed -- --members N [--applicants A] [--transfers T] [--seed S] [--dues]`: loads a generated
 * university with N party members (and A applications for membership in every step of the development
 * workflow, T records per transfer process in every state) into the configured database (DATA_DIR or
 * DATABASE_URL), e.g. for benchmarks; `--dues` adds a year of party dues (standards, 12 monthly batches
 * with payments, src/server/seed/dues.ts). Refuses when organisations exist unless `--force`, which first
 * empties the base modules, the applications, the transfers and the dues.
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrate } from '../src/server/db/migrate.js';
import { initialiseDatabase } from '../src/server/seed/index.js';
import { seedDevelopment } from '../src/server/seed/development.js';
import { seedDues } from '../src/server/seed/dues.js';
import { seedUniversity } from '../src/server/seed/university/seed.js';
import { generateUniversity } from '../src/server/seed/university/university.js';
import { seedTransfers } from '../src/server/seed/transfers.js';
import { SCHEMAS_DIR } from '../src/server/paths.js';

const { values } = parseArgs({ options: { members: { type: 'string', default: '3000' }, applicants: { type: 'string', default: '0' }, transfers: { type: 'string', default: '0' }, seed: { type: 'string' }, force: { type: 'boolean', default: false }, dues: { type: 'boolean', default: false } } });
const members = Number(values.members);
if (!Number.isInteger(members) || members < 1) {
  console.error('--members must be a positive whole number');
  process.exit(1);
}
const applicants = Number(values.applicants);
if (!Number.isInteger(applicants) || applicants < 0) {
  console.error('--applicants must be a whole number');
  process.exit(1);
}
const config = loadConfig({ ...process.env, DEMO_DATA: 'false', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrate(database);
const app = await buildApp({ config, database });
await initialiseDatabase({ database, config, log: app.log, app });
const { n } = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_org`.execute(database.db)).rows[0];
if (n > 0 && !values.force) {
  console.error(`The database already has ${n} organisations: run with --force to replace the base data.`);
  await app.close();
  process.exit(1);
}
if (n > 0) {
  await sql`TRUNCATE m_member, m_student, m_teacher, m_class, m_org, m_unit, m_dues_standard, dues_batch, dues_payment, dues_payment_line, m_development, m_development_book_range, development_book_numbers,
    m_transfer_internal, m_transfer_out, m_transfer_in, m_floating, m_member_contact, transfer_letters, transfer_letter_serial, party_status_decisions RESTART IDENTITY CASCADE`.execute(database.db);
  // The approval log is append-only (a trigger refuses DELETE); TRUNCATE empties it with the applications.
  await sql`TRUNCATE workflow_log, reminders, reminder_outbox`.execute(database.db);
}
const started = performance.now();
const university = generateUniversity({ members, seed: values.seed ? Number(values.seed) : undefined });
const { counts } = await seedUniversity(database, university, config.school);
await app.runtime.fillSortKeys(); // names in pinyin order
console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s:`, counts);
if (values.dues) {
  const at = performance.now();
  const now = new Date();
  const dues = await seedDues(database, config.school, { currentMonth: `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`, today: now.getDate() });
  console.log(`Dues seeded in ${((performance.now() - at) / 1000).toFixed(1)} s:`, dues);
}
if (applicants > 0) {
  const t0 = performance.now();
  const development = await seedDevelopment(database, { count: applicants, school: config.school, seed: values.seed ? Number(values.seed) : undefined });
  console.log(`Applications seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, development);
}
const transfers = Number(values.transfers);
if (transfers > 0) {
  const t0 = performance.now();
  const seeded = await seedTransfers(database, { school: config.school, schemasDir: SCHEMAS_DIR, count: transfers, seed: values.seed ? Number(values.seed) : undefined });
  console.log(`Transfers seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, seeded);
}
// After a bulk load (PostgreSQL documentation, "Populating a Database"): the planner's statistics, and the
// visibility map for index-only scans. The embedded engine has no autovacuum to do it later under load.
const vacuumAt = performance.now();
await sql`VACUUM (ANALYZE)`.execute(database.db);
console.log(`Vacuumed and analysed in ${((performance.now() - vacuumAt) / 1000).toFixed(1)} s`);
await app.close();

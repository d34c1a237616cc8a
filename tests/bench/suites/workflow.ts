/**
 * The workflow engine on the development of new members at scale (issue 15): a generated university
 * (3,000 members) with 20,000 applications in every state, served by the real server process
 * (`npm run serve`'s build), on PostgreSQL (when its binaries are installed) and on the embedded engine.
 * - "待我审批" (`POST list` with `$waiting`) for a 支部书记, a 二级党委 and the 组织部: p50/p99, one connection;
 * - one step (`talk`) on distinct records in sequence: p50/p99 per request;
 * - a batch approval of 500 records (`talk`): wall time.
 * Budgets of the issue: waiting list p99 ≤ 50 ms (PostgreSQL), a step p99 ≤ 30 ms, 500 in a batch ≤ 5 s.
 * The data is a running deployment's: the reminders of its deadlines were sent during seeding.
 * Run alone with `npm run bench workflow`. BENCH_WORKFLOW_ENGINE=postgres (or embedded) runs one engine only;
 * BENCH_WORKFLOW_PROFILE=1 runs the server with `node --cpu-prof` and prints where its CPU time went
 * (tests/bench/cpu-profile.ts; the profile stays in .tmp/profiles/).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { hashPassword } from '../../../src/server/core/passwords.js';
import { sendDevelopmentReminders } from '../../../src/server/domain/development/index.js';
import { openDatabase, type Database } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { seedDevelopment } from '../../../src/server/seed/development.js';
import { initialiseDatabase } from '../../../src/server/seed/index.js';
import { seedUniversity } from '../../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../../src/server/seed/university/university.js';
import { localToday } from '../../../src/shared/module-schema/computed.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { serveNodeFlags } from '../../../src/server/server-build.js';
import { printBreakdown } from '../cpu-profile.js';
import { benchLogin, load, startServerProcess, type BenchResult } from '../lib.js';

const SUITE = 'workflow';
const APPLICATIONS = 20_000;
const MEMBERS = 3_000;
const STEPS = 200;
const BATCH = 500;
const PASSWORD = 'Bench#2026a';

interface Engine {
  label: string;
  env: Record<string, string>;
  open(): Promise<Database>;
  /** The waiting list's budget applies on PostgreSQL. */
  waitingBudget?: number;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
/** The machine's 1-minute load average, written beside every figure (other processes share the cores). */
const loadNote = () => `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** Every permission of the development page, for the three levels' roles. */
async function developmentPermissions(database: Database): Promise<string[]> {
  const rows = await sql<{ permission: string }>`SELECT permission FROM menus WHERE permission LIKE 'development%'`.execute(database.db);
  return rows.rows.map((r) => r.permission);
}

interface Seeded {
  branch: number;
  committee: number;
  applications: number;
}

/** The tables through the app, the university, 20,000 applications, and a user at each level. */
async function seed(engine: Engine): Promise<Seeded> {
  const database = await engine.open();
  await migrate(database);
  const config = loadConfig({ ...engine.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD: PASSWORD });
  const app = await buildApp({ config, database, logger: false });
  try {
    await initialiseDatabase({ database, config, log: app.log });
    await seedUniversity(database, generateUniversity({ members: MEMBERS }), config.school);
    const t0 = performance.now();
    const counts = await seedDevelopment(database, { count: APPLICATIONS, school: config.school });
    console.error(`workflow (${engine.label}): ${counts.applications} applications, ${counts.logEntries} log entries seeded in ${round((performance.now() - t0) / 1000, 1)} s`);
    // The branch with the most applications waiting for its talk, and its committee.
    const busiest = (await sql<{ org_id: number; parent_id: number }>`
      SELECT d.org_id, o.parent_id FROM m_development d JOIN m_org o ON o.id = d.org_id WHERE d.state = 0 GROUP BY d.org_id, o.parent_id ORDER BY count(*) DESC LIMIT 1`.execute(database.db)).rows[0];
    const root = (await sql<{ id: number }>`SELECT id FROM m_org WHERE parent_id IS NULL ORDER BY id LIMIT 1`.execute(database.db)).rows[0].id;
    const permissions = await developmentPermissions(database);
    const hash = await hashPassword(PASSWORD);
    for (const [username, scope, orgId] of [['benchbranch', 'own', busiest.org_id], ['benchcommittee', 'own', busiest.parent_id], ['benchorgdept', 'all', root]] as const) {
      const role = await database.db.insertInto('roles').values({ name: username, code: username, permissions, data_scope: scope }).returning('id').executeTakeFirstOrThrow();
      const user = await database.db.insertInto('users').values({ username, nick_name: username, password_hash: hash, password_weak: false, org_id: orgId }).returning('id').executeTakeFirstOrThrow();
      await database.db.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
    }
    // The deadlines' reminders as a running deployment has already sent them: the server's own first run
    // (20 s after its start, in the middle of the measurements) then finds nothing new, as every later run.
    const t1 = performance.now();
    const reminded = await sendDevelopmentReminders(app);
    console.error(`workflow (${engine.label}): ${reminded} reminders sent beforehand in ${round((performance.now() - t1) / 1000, 1)} s`);
    await sql`ANALYZE`.execute(database.db);
    return { branch: busiest.org_id, committee: busiest.parent_id, applications: counts.applications };
  } finally {
    await app.close();
  }
}


async function measure(engine: Engine, seeded: Seeded): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const profileDir = path.resolve('.tmp/profiles');
  const profiling = !!process.env.BENCH_WORKFLOW_PROFILE;
  if (profiling) fs.mkdirSync(profileDir, { recursive: true });
  const before = profiling ? new Set(fs.readdirSync(profileDir)) : new Set<string>();
  const server = await startServerProcess(
    { ...engine.env, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '100000' },
    undefined,
    profiling ? { nodeFlags: [...serveNodeFlags(), '--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {},
  );
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const listUrl = `${base}/api/m/development/list?page=0&size=20`;
    const body = JSON.stringify({ $waiting: true });
    for (const [username, who] of [['benchbranch', '支部书记'], ['benchcommittee', '二级党委'], ['benchorgdept', '组织部']] as const) {
      const headers = { authorization: `Bearer ${await benchLogin(base, PASSWORD, username)}`, 'content-type': 'application/json' };
      const check = await fetch(listUrl, { method: 'POST', headers, body });
      const page = (await check.json()) as { totalElements: number };
      if (!check.ok) throw new Error(`waiting list failed: ${check.status} ${JSON.stringify(page)}`);
      await load(listUrl, { method: 'POST', body, headers, seconds: 2, connections: 1 }); // warm-up
      const latency = await load(listUrl, { method: 'POST', body, headers, seconds: 5, connections: 1 });
      results.push({
        suite: SUITE,
        name: `"待我审批" of a ${who} on ${seeded.applications.toLocaleString('en')} applications (${engine.label}): p99`,
        value: latency.p99,
        unit: 'ms',
        budget: engine.waitingBudget,
        note: `p50 ${latency.p50} ms, ${Math.round(latency.requestsPerSecond)} req/s, one connection; ${page.totalElements} waiting, page of 20 with the count; ${loadNote()}`,
      });
    }

    // One step at a time on distinct records (as the administrator: every record is in scope).
    const adminHeaders = { authorization: `Bearer ${await benchLogin(base, PASSWORD)}`, 'content-type': 'application/json' };
    const database = await engine.open();
    const ids = (await sql<{ id: number }>`SELECT id FROM m_development WHERE state = 0 ORDER BY id LIMIT ${STEPS + BATCH + 20}`.execute(database.db)).rows.map((r) => r.id);
    await database.close();
    if (ids.length < STEPS + BATCH + 20) throw new Error(`only ${ids.length} applications wait for their talk`);
    const values = { talkDate: localToday(), talker: '支部书记' };
    const take = async (id: number) => {
      const res = await fetch(`${base}/api/m/development/${id}/transitions/talk`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ version: 1, values }) });
      if (!res.ok) throw new Error(`step failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (const id of ids.slice(0, 20)) await take(id); // warm-up
    const times: number[] = [];
    for (const id of ids.slice(20, 20 + STEPS)) {
      const t0 = performance.now();
      await take(id);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    results.push({
      suite: SUITE,
      name: `one step (talk) on an application (${engine.label}): p99`,
      value: round(percentile(times, 99)),
      unit: 'ms',
      budget: 30,
      note: `p50 ${round(percentile(times, 50))} ms over ${STEPS} steps in sequence: guards, state change, effects, trail, log, to-dos, answer; ${loadNote()}`,
    });

    const batch = ids.slice(20 + STEPS, 20 + STEPS + BATCH);
    const t1 = performance.now();
    const res = await fetch(`${base}/api/m/development/transitions/talk`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ ids: batch, values, comment: '批量' }) });
    const answer = (await res.json()) as { done: number; failed: number };
    const batchMs = performance.now() - t1;
    if (!res.ok || answer.done !== BATCH) throw new Error(`batch failed: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
    results.push({ suite: SUITE, name: `batch approval of ${BATCH} applications (${engine.label}): time`, value: round(batchMs / 1000), unit: 's', budget: 5, note: `each record in its own transaction, answered per record; ${loadNote()}` });
  } finally {
    await server.stop();
  }
  if (profiling) {
    const file = fs.readdirSync(profileDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    if (file) printBreakdown(path.join(profileDir, file));
  }
  return results;
}

async function benchEngine(engine: Engine): Promise<BenchResult[]> {
  const seeded = await seed(engine);
  return measure(engine, seeded);
}

export async function workflowSuite(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const only = process.env.BENCH_WORKFLOW_ENGINE;
  if (only && only !== 'postgres' && only !== 'embedded') throw new Error(`BENCH_WORKFLOW_ENGINE: postgres or embedded, not "${only}"`);
  if (only === 'embedded') {
    // PostgreSQL skipped on request.
  } else if (postgresBinDir()) {
    const server = await startPostgres();
    try {
      const url = await createDatabase(server.url);
      results.push(...(await benchEngine({ label: 'PostgreSQL', env: { DATABASE_URL: url }, open: () => openDatabase({ databaseUrl: url }), waitingBudget: 50 })));
    } finally {
      await server.stop();
    }
  } else {
    console.error('workflow: PostgreSQL binaries not found, PostgreSQL figures skipped');
  }
  if (only === 'postgres') return results;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-workflow-'));
  try {
    results.push(...(await benchEngine({ label: 'embedded', env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) })));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

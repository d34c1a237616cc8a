/**
 * The schema runtime on 100,000 records of the fixture module test-person, on the embedded database
 * and (when its binaries are installed) on a PostgreSQL server:
 * - the list call (filter + sort + page of 20) through the real server: p50/p99 and req/s with autocannon,
 *   against the same two SQL statements run bare (ratio);
 * - export of all 100,000 rows (time, peak RSS of the server process);
 * - import of 10,000 rows (time until the job has finished).
 * Run alone with `npm run bench runtime`. The server process is `tests/bench/runtime-server.ts` (the real
 * server on the fixture schemas), compiled to dist/bench first and run as plain JavaScript with the Node flags
 * of `npm run serve` (see `startServerProcess`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { buildApp } from '../../../src/server/app.js';
import { ROOT_DIR } from '../../../src/server/paths.js';
import { loadConfig } from '../../../src/server/config.js';
import { openDatabase, type Database } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { initialiseDatabase } from '../../../src/server/seed/index.js';
import { buildServer } from '../../../src/server/server-build.js';
import { FIXTURE_SCHEMAS, idCard } from '../../fixtures/runtime-hooks.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { benchLogin, load, startServerProcess, type BenchResult } from '../lib.js';

const SUITE = 'runtime';
const RECORDS = 100_000;
const IMPORT_ROWS = 10_000;
const ADMIN_PASSWORD = 'Bench#2026a';
const SERVER_DIR = path.join(ROOT_DIR, 'dist', 'bench');
/** The list call measured: organisation subtree + dictionary filter, default sort (join date desc), first page of 20. */
const LIST_FILTER = { orgId: 7, gender: '2' };
const LIST_QUERY = 'page=0&size=20&sort=joinDate,desc';

interface Engine {
  label: string;
  /** Environment of the server process for this database. */
  env: Record<string, string>;
  open(): Promise<Database>;
  budgetP99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Creates the tables through the app, the administrator, then 100,000 records in one INSERT ... SELECT. */
async function seed(engine: Engine): Promise<void> {
  const database = await engine.open();
  await migrate(database);
  const config = loadConfig({ ...engine.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD });
  const app = await buildApp({ config, database, logger: false, schemasDir: FIXTURE_SCHEMAS });
  try {
    await initialiseDatabase({ database, config, log: app.log });
    await sql`
      INSERT INTO m_test_person (school, created_by, updated_by, name, gender, id_card, birth_date, mobile, level, tags, org_id,
                                 contact_user_id, join_date, score, child_count, is_cadre, status, remark)
      SELECT 'hntb', 1, 1,
             (ARRAY['张','王','李','赵','刘','陈','杨','黄','周','吴'])[1 + g % 10] || (ARRAY['伟','芳','娜','敏','静','磊','洋','勇','艳','杰','军','丽'])[1 + (g / 10) % 12] || g,
             (1 + (g / 3) % 2)::text,
             '110105' || lpad(g::text, 12, '0'),
             date '1960-01-01' + (g * 37 % 16000),
             '138' || lpad((g % 100000000)::text, 8, '0'),
             (ARRAY['A','B','C'])[1 + g % 3],
             CASE WHEN g % 4 = 0 THEN '["t1"]'::jsonb END,
             1 + g % 50,
             1,
             date '1985-01-01' + (g * 53 % 14000),
             (g % 1001) / 10.0,
             g % 4,
             g % 10 = 0,
             CASE WHEN g % 20 = 0 THEN '离校' ELSE '在册' END,
             CASE WHEN g % 5 = 0 THEN '备注' || g END
      FROM generate_series(1, ${RECORDS}::int) AS g`.execute(database.db);
    await sql`ANALYZE m_test_person`.execute(database.db);
  } finally {
    await app.close();
  }
}

/** The two statements the list call runs (page and count), bare on the database: p50/p99 in ms. */
async function bareList(engine: Engine): Promise<{ p50: number; p99: number }> {
  const database = await engine.open();
  try {
    const run = async () => {
      await sql`SELECT id, version, name, gender, id_card, birth_date, level, org_id, join_date, score, remark FROM m_test_person
                WHERE org_id IN (${LIST_FILTER.orgId}) AND gender = ${LIST_FILTER.gender} ORDER BY join_date DESC, id DESC LIMIT 20 OFFSET 0`.execute(database.db);
      await sql`SELECT count(*)::int AS total FROM m_test_person WHERE org_id IN (${LIST_FILTER.orgId}) AND gender = ${LIST_FILTER.gender}`.execute(database.db);
    };
    for (let i = 0; i < 50; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t0 = performance.now();
      await run();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await database.close();
  }
}


/** Resident set size of a process now and at its peak since the last reset, in MB (Linux /proc). */
function rssOf(pid: number): { now: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** A workbook of IMPORT_ROWS new people in the template's layout (titles in row 2, data from row 3). */
async function importFile(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('测试人员');
  sheet.addRow(['填写说明']);
  sheet.addRow(['姓名*', '性别*', '身份证号*', '出生日期', '手机号码', '级别', '所属组织*', '入党日期', '积分', '是否干部']);
  for (let n = 0; n < IMPORT_ROWS; n++) {
    const birth = new Date(Date.UTC(1990, 0, 1 + Math.floor(n / 1000)));
    sheet.addRow([`导入${n}`, n % 2 ? '男' : '女', idCard(birth.toISOString().slice(0, 10), n % 1000), birth, `139${String(n).padStart(8, '0')}`, ['一级', '二级', '三级'][n % 3], 1 + (n % 50), '2015-07-01', n % 100, n % 7 ? '否' : '是']);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function measureServer(engine: Engine, bare: { p50: number; p99: number }): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const env = { ...engine.env, RUNTIME_BENCH_SCHEMAS: FIXTURE_SCHEMAS, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn' };
  const server = await startServerProcess(env, path.join(SERVER_DIR, 'runtime-server.js'));
  try {
    const rssAtStart = rssOf(server.child.pid!).now;
    const base = `http://127.0.0.1:${server.port}`;
    const token = await benchLogin(base, ADMIN_PASSWORD);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const listUrl = `${base}/api/m/test-person/list?${LIST_QUERY}`;
    const body = JSON.stringify(LIST_FILTER);
    const check = await fetch(listUrl, { method: 'POST', headers, body });
    const page = (await check.json()) as { content: unknown[]; totalElements: number };
    if (!check.ok || page.content.length !== 20) throw new Error(`list call failed: ${check.status} ${JSON.stringify(page).slice(0, 200)}`);

    await load(listUrl, { method: 'POST', body, headers, seconds: 2, connections: 1 }); // warm-up
    const latency = await load(listUrl, { method: 'POST', body, headers, seconds: 5, connections: 1 });
    const throughput = await load(listUrl, { method: 'POST', body, headers, seconds: 5, connections: 10 });
    const what = `POST list on ${RECORDS.toLocaleString('en')} records (${engine.label}): org-subtree + eq filter, sort, page of 20, ${page.totalElements} matches`;
    results.push({ suite: SUITE, name: `${what}: p50`, value: latency.p50, unit: 'ms', ratio: round(latency.p50 / Math.max(bare.p50, 0.01)), baseline: `bare SQL (page + count) p50 ${round(bare.p50)} ms` });
    results.push({
      suite: SUITE,
      name: `${what}: p99`,
      value: latency.p99,
      unit: 'ms',
      budget: engine.budgetP99,
      ratio: round(latency.p99 / Math.max(bare.p99, 0.01)),
      baseline: `bare SQL (page + count) p99 ${round(bare.p99)} ms`,
      note: 'one connection (requests in sequence)',
    });
    results.push({ suite: SUITE, name: `${what}: throughput`, value: Math.round(throughput.requestsPerSecond), unit: 'req/s', note: `10 connections, p99 ${throughput.p99} ms; one connection: ${Math.round(latency.requestsPerSecond)} req/s` });

    // Export of every record: time to the last byte, peak RSS of the server while it streams.
    const pid = server.child.pid!;
    const rssBefore = rssOf(pid).now;
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets the peak (VmHWM) to the current RSS
    let sampled = 0;
    const sampler = setInterval(() => (sampled = Math.max(sampled, rssOf(pid).now)), 50);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/m/test-person/export`, { headers });
    const bytes = (await res.arrayBuffer()).byteLength;
    const exportMs = performance.now() - t0;
    clearInterval(sampler);
    if (!res.ok) throw new Error(`export failed: ${res.status}`);
    const peak = Math.max(rssOf(pid).peak, sampled);
    results.push({ suite: SUITE, name: `export of ${RECORDS.toLocaleString('en')} rows (${engine.label}): time`, value: round(exportMs / 1000), unit: 's', budget: 20, note: `${(bytes / 1024 / 1024).toFixed(1)} MB .xlsx, streamed` });
    results.push({ suite: SUITE, name: `export of ${RECORDS.toLocaleString('en')} rows (${engine.label}): peak RSS of the server`, value: Math.round(peak), unit: 'MB', budget: 300, note: `RSS after start ${Math.round(rssAtStart)} MB, before the export ${Math.round(rssBefore)} MB (the export's own share: ${Math.round(peak - rssBefore)} MB)` });

    // Import of IMPORT_ROWS rows: upload until the job reports success.
    const file = await importFile();
    const form = new FormData();
    form.append('mode', 'partial');
    form.append('file', new Blob([new Uint8Array(file)]), 'import.xlsx');
    const t1 = performance.now();
    const started = await fetch(`${base}/api/m/test-person/import`, { method: 'POST', headers: { authorization: headers.authorization }, body: form });
    if (!started.ok) throw new Error(`import failed: ${started.status} ${await started.text()}`);
    const { jobId } = (await started.json()) as { jobId: number };
    let job: { status: number; imported: number; errors: unknown[]; message: string };
    for (;;) {
      job = (await (await fetch(`${base}/api/m/test-person/import/${jobId}`, { headers })).json()) as typeof job;
      if (job.status === 3 || job.status === 4) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const importMs = performance.now() - t1;
    if (job.imported !== IMPORT_ROWS) throw new Error(`import: ${job.message} ${JSON.stringify(job.errors).slice(0, 300)}`);
    results.push({ suite: SUITE, name: `import of ${IMPORT_ROWS.toLocaleString('en')} rows (${engine.label}): time`, value: round(importMs / 1000), unit: 's', budget: 15, note: 'validated, hooks and trail per row, 1,000 rows per transaction' });
  } finally {
    await server.stop();
  }
  return results;
}

async function benchEngine(engine: Engine): Promise<BenchResult[]> {
  await seed(engine);
  const bare = await bareList(engine);
  return measureServer(engine, bare);
}

export async function runtimeSuite(): Promise<BenchResult[]> {
  await buildServer({ entryPoints: { 'runtime-server': 'tests/bench/runtime-server.ts' }, outdir: SERVER_DIR });
  const results: BenchResult[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-runtime-'));
  try {
    results.push(
      ...(await benchEngine({ label: 'embedded', env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }), budgetP99: 50 })),
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (postgresBinDir()) {
    const server = await startPostgres();
    try {
      const url = await createDatabase(server.url);
      results.push(...(await benchEngine({ label: 'PostgreSQL', env: { DATABASE_URL: url }, open: () => openDatabase({ databaseUrl: url }), budgetP99: 20 })));
    } finally {
      await server.stop();
    }
  } else {
    console.error('runtime: PostgreSQL binaries not found, PostgreSQL figures skipped');
  }
  return results;
}


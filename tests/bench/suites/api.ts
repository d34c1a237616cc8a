/**
 * `npm run bench api` (issue 14): the member list as users call it, on 100,000 generated members, against
 * the bare-SQL floor on the same table in the same run.
 *
 * On a throw-away PostgreSQL server: the compiled server (as `npm run serve` runs it, default log level)
 * and `tests/bench/bare-list-server.ts` (node:http + pg, same JSON, same page and count) answer
 * a. all members, 入党日期 desc, page of 20;  b. one branch, 入党日期 desc, page 3;
 * c. name contains 张 and category 1, id desc (c also against the bare server's plain ILIKE, the scan
 * every contestant did before the character index). Both answers are compared first (same JSON). Then
 * autocannon with 10 connections: a warm-up, and rounds alternating between the two servers, so a
 * machine shared with other work slows both alike; throughput, p50, p99 and the ratio to the floor.
 * On the embedded database: query b through the compiled server (budget: p99 ≤ 20 ms); BENCH_API_DATA_DIR
 * keeps its seeded data directory for the next run (seeded when empty), and BENCH_API_PROFILE=b profiles it.
 * BENCH_API_SECONDS (default 15) is each side's measured time per query; BENCH_MEMBERS the size;
 * BENCH_API_ENGINES=postgres or embedded runs one; BENCH_API_DATABASE_URL reuses a seeded database
 * (profiling: no new server, no seeding); BENCH_API_PROFILE=b (or a, c) instead runs only that query
 * against the project with `node --cpu-prof` and prints where the server's CPU time went
 * (tests/bench/cpu-profile.ts; the profile stays in .tmp/profiles/).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ROOT_DIR } from '../../../src/server/paths.js';
import { openDatabase, type OpenOptions } from '../../../src/server/db/database.js';
import { buildServer, serveNodeFlags } from '../../../src/server/server-build.js';
import { printBreakdown } from '../cpu-profile.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { benchLogin, percentile, startServerProcess, timedLoad, type BenchResult, type ServerProcess, type TimedLoad } from '../lib.js';

const SUITE = 'api';
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
const ROUNDS = 3;
const CONNECTIONS = 10;
const ADMIN_PASSWORD = 'Bench#2026a';
const BARE_DIR = path.join(ROOT_DIR, 'dist', 'bench-api');
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

interface Query {
  key: 'a' | 'b' | 'c';
  what: string;
  body: Record<string, unknown>;
  params: string;
}

function queries(branch: { id: number; members: number }): Query[] {
  return [
    { key: 'a', what: 'a. all members, 入党日期 desc, page of 20, with count', body: {}, params: 'page=0&size=20&sort=joinDate,desc' },
    { key: 'b', what: `b. one branch (${branch.members} members), 入党日期 desc, page 3, with count`, body: { orgId: branch.id }, params: 'page=2&size=20&sort=joinDate,desc' },
    { key: 'c', what: 'c. name contains 张 and category 1, id desc, with count', body: { name: '张', category: ['1'] }, params: 'page=0&size=20&sort=id,desc' },
  ];
}

/** Loads a generated university with MEMBERS members through `npm run seed` into the database of `env`. */
function seed(env: Record<string, string>): void {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--members', String(MEMBERS)], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`seed failed: ${result.stderr}`);
  console.error(`api: seeded ${MEMBERS} members in ${round((performance.now() - started) / 1000)} s`);
}

/** The branch (an organisation without sub-organisations) whose member count is nearest the issue's 313. */
async function pickBranch(where: OpenOptions): Promise<{ id: number; members: number }> {
  const database = await openDatabase(where);
  try {
    return await database.scriptTransaction(async (run) => {
      await run.exec('ANALYZE');
      const [branch] = await run.query<{ id: number; members: number }>(`
        SELECT m.org_id AS id, count(*)::int AS members FROM m_member m
        WHERE NOT EXISTS (SELECT 1 FROM m_org c WHERE c.parent_id = m.org_id)
        GROUP BY m.org_id ORDER BY abs(count(*) - 313), m.org_id LIMIT 1`);
      return branch;
    });
  } finally {
    await database.close();
  }
}


interface Target {
  label: string;
  url: (q: Query) => string;
  headers: Record<string, string>;
}

async function answer(target: Target, q: Query): Promise<{ content: { id: number }[]; totalElements: number }> {
  const res = await fetch(target.url(q), { method: 'POST', headers: target.headers, body: JSON.stringify(q.body) });
  if (!res.ok) throw new Error(`${target.label} ${q.key}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { content: { id: number }[]; totalElements: number };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

function figures(runs: TimedLoad[]): Figures {
  const times = runs.flatMap((r) => r.times).sort((a, b) => a - b);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  return { rps: Math.round(times.length / seconds), p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** Warm-up, then ROUNDS rounds alternating between the targets; figures per target. */
async function compare(targets: Target[], q: Query): Promise<Figures[]> {
  const load = (t: Target, seconds: number) => timedLoad(t.url(q), { seconds, connections: CONNECTIONS, body: JSON.stringify(q.body), headers: t.headers });
  for (const t of targets) await load(t, WARMUP_SECONDS);
  const runs: TimedLoad[][] = targets.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which target goes first, so neither always follows the other's load.
    const order = r % 2 ? [...targets.keys()].reverse() : [...targets.keys()];
    for (const i of order) runs[i].push(await load(targets[i], SECONDS / ROUNDS));
  }
  return runs.map(figures);
}

const ms = (n: number) => `${round(n)} ms`;

async function onPostgres(): Promise<BenchResult[]> {
  const reuse = process.env.BENCH_API_DATABASE_URL;
  const server = reuse ? undefined : await startPostgres();
  const servers: ServerProcess[] = [];
  try {
    const url = reuse ?? (await createDatabase(server!.url));
    const env = { DATABASE_URL: url, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD };
    if (!reuse) seed(env);
    const branch = await pickBranch({ databaseUrl: url });
    const profiled = process.env.BENCH_API_PROFILE;
    if (profiled) return await profile(env, queries(branch).find((q) => q.key === profiled)!);
    // As `npm run serve` runs it: the default log level (every request logged).
    const project = await startServerProcess({ ...env, LOG_LEVEL: 'info', AUTH_RATE_LIMIT: '100000' });
    servers.push(project);
    const bare = await startServerProcess({ DATABASE_URL: url }, path.join(BARE_DIR, 'bare-list-server.js'), { nodeFlags: [] });
    servers.push(bare);
    const plain = await startServerProcess({ DATABASE_URL: url, TEXT_CONDITION: 'plain' }, path.join(BARE_DIR, 'bare-list-server.js'), { nodeFlags: [] });
    servers.push(plain);
    const projectBase = `http://127.0.0.1:${project.port}`;
    const json = { 'content-type': 'application/json' };
    const ours: Target = { label: 'project', url: (q) => `${projectBase}/api/m/member/list?${q.params}`, headers: { ...json, authorization: `Bearer ${await benchLogin(projectBase, ADMIN_PASSWORD)}` } };
    const floor: Target = { label: 'bare SQL', url: (q) => `http://127.0.0.1:${bare.port}/list?${q.params}`, headers: json };
    const scan: Target = { label: 'bare SQL, plain ILIKE', url: (q) => `http://127.0.0.1:${plain.port}/list?${q.params}`, headers: json };

    const results: BenchResult[] = [];
    for (const q of queries(branch)) {
      const [mine, base, before] = await Promise.all([answer(ours, q), answer(floor, q), answer(scan, q)]);
      if (!isDeepStrictEqual(mine, base) || !isDeepStrictEqual(base, before)) {
        throw new Error(`query ${q.key}: the answers differ\nproject: ${JSON.stringify(mine).slice(0, 600)}\nbare: ${JSON.stringify(base).slice(0, 600)}`);
      }
      const targets = q.key === 'c' ? [ours, floor, scan] : [ours, floor];
      const [p, b, s] = await compare(targets, q);
      // A shared machine: the load during the query's runs, beside its figures.
      const load = `load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`;
      const what = `${q.what} (PostgreSQL, ${MEMBERS.toLocaleString('en')} members, ${q.key === 'a' ? '' : `${mine.totalElements} matches, `}${CONNECTIONS} connections)`;
      const budgetShare = q.key === 'b' ? 0.5 : q.key === 'a' ? 0.8 : undefined;
      results.push({
        suite: SUITE,
        name: `${what}: throughput`,
        value: p.rps,
        unit: 'req/s',
        ...(budgetShare && { budget: Math.round(b.rps * budgetShare) }),
        ratio: round(p.rps / b.rps, 2),
        baseline: `bare SQL ${b.rps} req/s, p50 ${ms(b.p50)}, p99 ${ms(b.p99)}`,
        note: budgetShare ? `budget: ${budgetShare * 100}% of the bare SQL` : `bare SQL with a plain ILIKE (a table scan): ${s.rps} req/s, p99 ${ms(s.p99)}; ${round(p.rps / s.rps, 1)}× that`,
      });
      results.push({ suite: SUITE, name: `${what}: p50`, value: round(p.p50), unit: 'ms', ratio: round(p.p50 / b.p50, 2), baseline: `bare SQL ${ms(b.p50)}`, note: load });
      results.push({ suite: SUITE, name: `${what}: p99`, value: round(p.p99), unit: 'ms', ...(q.key === 'b' && { budget: 10 }), ratio: round(p.p99 / b.p99, 2), baseline: `bare SQL ${ms(b.p99)}`, note: load });
    }
    return results;
  } finally {
    for (const s of servers) await s.stop();
    await server?.stop();
  }
}

/** The project alone under the load of one query, with V8's CPU profiler on; prints the breakdown. */
async function profile(env: Record<string, string>, q: Query): Promise<BenchResult[]> {
  const dir = path.resolve('.tmp/profiles');
  fs.mkdirSync(dir, { recursive: true });
  const before = new Set(fs.readdirSync(dir));
  const project = await startServerProcess({ ...env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', AUTH_RATE_LIMIT: '100000' }, undefined, {
    nodeFlags: [...serveNodeFlags(), '--cpu-prof', `--cpu-prof-dir=${dir}`],
  });
  let requests = 0;
  try {
    const base = `http://127.0.0.1:${project.port}`;
    const target: Target = { label: 'project', url: () => `${base}/api/m/member/list?${q.params}`, headers: { 'content-type': 'application/json', authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}` } };
    const warm = await timedLoad(target.url(q), { seconds: WARMUP_SECONDS, connections: CONNECTIONS, body: JSON.stringify(q.body), headers: target.headers });
    const run = await timedLoad(target.url(q), { seconds: SECONDS, connections: CONNECTIONS, body: JSON.stringify(q.body), headers: target.headers });
    // The profile covers the warm-up too.
    requests = warm.requests + run.requests;
    console.error(`api: profiled ${q.key}: ${Math.round(run.requests / run.seconds)} req/s`);
  } finally {
    await project.stop();
  }
  const file = fs.readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no CPU profile written');
  printBreakdown(path.join(dir, file), requests);
  return [];
}

async function onEmbedded(): Promise<BenchResult[]> {
  const reuse = process.env.BENCH_API_DATA_DIR;
  const dataDir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-api-'));
  try {
    const env = { DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD };
    if (!reuse || !fs.existsSync(path.join(dataDir, 'pgdata'))) seed(env);
    const branch = await pickBranch({ dataDir });
    if (process.env.BENCH_API_PROFILE === 'b') return await profile(env, queries(branch)[1]);
    const project = await startServerProcess({ ...env, LOG_LEVEL: 'info', AUTH_RATE_LIMIT: '100000' });
    try {
      const base = `http://127.0.0.1:${project.port}`;
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}` };
      const q = queries(branch)[1];
      const target: Target = { label: 'project (embedded)', url: () => `${base}/api/m/member/list?${q.params}`, headers };
      const page = await answer(target, q);
      if (page.totalElements !== branch.members) throw new Error(`embedded b: ${page.totalElements} matches, SQL counted ${branch.members}`);
      const [p] = await compare([target], q);
      const what = `${q.what} (embedded PGlite, ${MEMBERS.toLocaleString('en')} members, ${CONNECTIONS} connections)`;
      return [
        { suite: SUITE, name: `${what}: throughput`, value: p.rps, unit: 'req/s' },
        { suite: SUITE, name: `${what}: p99`, value: round(p.p99), unit: 'ms', budget: 20, note: `p50 ${ms(p.p50)}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}` },
      ];
    } finally {
      await project.stop();
    }
  } finally {
    if (!reuse) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function apiSuite(): Promise<BenchResult[]> {
  await buildServer({ entryPoints: { 'bare-list-server': 'tests/bench/bare-list-server.ts' }, outdir: BARE_DIR });
  const engines = (process.env.BENCH_API_ENGINES ?? 'postgres,embedded').split(',');
  const results: BenchResult[] = [];
  if (engines.includes('postgres')) {
    if (postgresBinDir() || process.env.BENCH_API_DATABASE_URL) results.push(...(await onPostgres()));
    else console.error('api: PostgreSQL binaries not found, PostgreSQL figures skipped');
  }
  if (engines.includes('embedded')) results.push(...(await onEmbedded()));
  return results;
}

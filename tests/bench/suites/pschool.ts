/**
 * The party school under load (issue 18 budgets):
 * - 500 learners, each posting video progress every 10 s for 60 s, against one real server process on the
 *   embedded database: p99 ≤ 50 ms, no error. Learners, their sessions and the course are seeded in this
 *   process first; the load is open-loop (each learner on its own 10-second clock, staggered).
 * - marking 10,000 objective answer sheets ≤ 10 s: the re-marking path (`remarkExam`: read the sheets,
 *   mark every answer, write marks and scores back in batches) on 10,000 stored sheets of 30 questions,
 *   and the pure marking of the same sheets in memory.
 * Run alone with `npm run bench pschool`. BENCH_PSCHOOL_PART=progress (or marking) runs one part only;
 * BENCH_PSCHOOL_PROFILE=1 runs the progress server with `node --cpu-prof` and prints where its CPU time
 * went (tests/bench/cpu-profile.ts; the profile stays in .tmp/profiles/) and the latencies second by second;
 * BENCH_NODE_FLAGS adds flags to the server's node.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { buildApp } from '../../../src/server/app.js';
import { ASSETS_DIR } from '../../../src/server/paths.js';
import { loadConfig } from '../../../src/server/config.js';
import { FileStore } from '../../../src/server/core/files/store.js';
import { openDatabase, type Database } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { remarkExam } from '../../../src/server/domain/pschool/exam-marking.js';
import { pschoolDb } from '../../../src/server/domain/pschool/tables.js';
import { initialiseDatabase } from '../../../src/server/seed/index.js';
import { generateQuestions } from '../../../src/server/seed/pschool/questions.js';
import { markSheet, type KeyedQuestion, type QuestionTypeValue } from '../../../src/shared/pschool/marking.js';
import { composeByRules, seededRandom } from '../../../src/shared/pschool/paper.js';
import { serveNodeFlags } from '../../../src/server/server-build.js';
import { printBreakdown } from '../cpu-profile.js';
import { load, startServerProcess, type BenchResult } from '../lib.js';

const SUITE = 'pschool';
const LEARNERS = 500;
const INTERVAL_S = 10;
const DURATION_S = 60;
const SHEETS = 10_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function openApp(database: Database, dataDir: string) {
  await migrate(database);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: 'false', CAPTCHA: 'off' });
  const app = await buildApp({ config, database, logger: false });
  await initialiseDatabase({ database, config, log: app.log });
  await app.ready();
  return { app, config };
}

/** A course with one 10-minute video node, and learners with sessions; answers their tokens and the node. */
async function seedLearners(dataDir: string): Promise<{ tokens: string[]; nodeId: number }> {
  const database = await openDatabase({ dataDir });
  const { app, config } = await openApp(database, dataDir);
  try {
    const db = database.db;
    const store = new FileStore(database, config.dataDir);
    const file = await store.save(Readable.from([fs.readFileSync(path.join(ASSETS_DIR, 'pschool', 'demo-lecture.webm'))]), { originalName: 'bench.webm', mime: 'video/webm', moduleName: 'course-node', ownerId: null, maxBytes: 10_000_000 });
    const q = pschoolDb(db);
    const course = await q.insertInto('m_course').values({ school: config.school, title: '压测课程', published: true, evaluation: '2' } as never).returning('id').executeTakeFirstOrThrow();
    const node = await q
      .insertInto('m_course_node')
      .values({ school: config.school, course_id: course.id, node_type: '2', title: '压测视频', kind: 'video', file: `/api/file/view?id=${file.id}`, duration: 600, hours: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await db.selectFrom('roles').select('id').where('code', '=', 'pschool_learner').executeTakeFirstOrThrow();
    const users = await db.insertInto('users').values(Array.from({ length: LEARNERS }, (_, i) => ({ username: `bench${i}`, nick_name: `压测${i}`, password_hash: 'x', password_weak: false }))).returning('id').execute();
    await db.insertInto('user_roles').values(users.map((u) => ({ user_id: u.id, role_id: role.id }))).execute();
    const tokens: string[] = [];
    for (const u of users) tokens.push((await app.services.sessions.create(u.id, {})).token);
    return { tokens, nodeId: node.id };
  } finally {
    await app.close();
  }
}

async function progressLoad(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-pschool-'));
  try {
    const { tokens, nodeId } = await seedLearners(dataDir);
    const profileDir = path.resolve('.tmp/profiles');
    const profiling = !!process.env.BENCH_PSCHOOL_PROFILE;
    if (profiling) fs.mkdirSync(profileDir, { recursive: true });
    const before = profiling ? new Set(fs.readdirSync(profileDir)) : new Set<string>();
    // BENCH_NODE_FLAGS: extra flags for the server's node (experiments with V8's settings).
    const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
    const nodeFlags = [...serveNodeFlags(), ...extra, ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
    const server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: 'false' }, undefined, { nodeFlags });
    let profiled = 0;
    try {
      const url = `http://127.0.0.1:${server.port}/api/pschool/progress`;
      const latencies: number[] = [];
      const failures: string[] = [];
      /** [second of the run, latency] of every report, for the profile's timeline. */
      const timeline: [number, number][] = [];
      let started = 0;
      const post = async (token: string, position: number) => {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ nodeId, position }) });
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`HTTP ${res.status}`);
        } catch (error) {
          failures.push((error as Error).message);
        }
        latencies.push(performance.now() - t0);
        timeline.push([Math.floor((t0 - started) / 1000), performance.now() - t0]);
      };
      // Each learner starts at a random moment of the first interval and reports every 10 s: 50 reports a second.
      started = performance.now();
      await Promise.all(
        tokens.map(async (token, i) => {
          await new Promise((r) => setTimeout(r, (i / tokens.length) * INTERVAL_S * 1000));
          const first = performance.now();
          for (let tick = 0; tick * INTERVAL_S < DURATION_S; tick++) {
            const due = first + tick * INTERVAL_S * 1000;
            await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
            await post(token, tick * INTERVAL_S);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const sorted = [...latencies].sort((a, b) => a - b);
      // What the route can take right now (closed loop, one learner rewinding): shows how much of the
      // machine the server had, which other processes on a shared machine take away.
      const capacity = await load(url, { method: 'POST', seconds: 5, connections: 10, headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' }, body: JSON.stringify({ nodeId, position: 0 }) });
      const loadAverage = os.loadavg()[0].toFixed(1);
      if (profiling) {
        profiled = latencies.length;
        const bySecond = new Map<number, number[]>();
        for (const [second, ms] of timeline) bySecond.set(second, [...(bySecond.get(second) ?? []), ms]);
        for (const [second, times] of [...bySecond].sort((a, b) => a[0] - b[0])) {
          const sorted = times.sort((a, b) => a - b);
          console.error(`  second ${second}: ${times.length} reports, p50 ${round(percentile(sorted, 50))} ms, max ${round(sorted[sorted.length - 1])} ms`);
        }
      }
      return [
        {
          suite: SUITE,
          name: `${LEARNERS} learners posting progress every ${INTERVAL_S} s for ${DURATION_S} s (embedded database): p99`,
          value: round(percentile(sorted, 99)),
          unit: 'ms',
          budget: 50,
          note: `${latencies.length} reports in ${round(seconds)} s, ${failures.length} errors${failures.length ? ` (${[...new Set(failures)].slice(0, 3).join(', ')})` : ''}; p50 ${round(percentile(sorted, 50))} ms, max ${round(sorted[sorted.length - 1])} ms; route capacity ${Math.round(capacity.requestsPerSecond)} req/s closed loop; load average ${loadAverage} on ${os.cpus().length} cores`,
        },
        { suite: SUITE, name: 'progress reports that failed', value: failures.length, unit: 'errors', budget: 0 },
      ];
    } finally {
      await server.stop();
      const file = profiling ? fs.readdirSync(profileDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile')) : undefined;
      if (file) printBreakdown(path.join(profileDir, file), profiled);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function marking(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-marking-'));
  const database = await openDatabase({ dataDir });
  const { app, config } = await openApp(database, dataDir);
  try {
    const db = pschoolDb(database.db);
    const bank = generateQuestions(600).filter((g) => g.type !== '4');
    const ids = await db
      .insertInto('m_question')
      .values(bank.map((g) => ({ school: config.school, type: g.type, stem: g.stem, answer: g.answer, tags: JSON.stringify(g.tags), score: g.score, ...Object.fromEntries(g.options.map((o, i) => [`option_${'abcdef'[i]}`, o])) })) as never)
      .returning('id')
      .execute();
    const rows = bank.map((g, i) => ({ id: ids[i].id, type: Number(g.type) as QuestionTypeValue, tags: g.tags, score: g.score, answer: g.answer }));
    const keys = new Map<number, KeyedQuestion>(rows.map((r) => [r.id, r]));
    const exam = await db
      .insertInto('m_exam')
      .values({ school: config.school, title: '阅卷压测', start_at: new Date(), end_at: new Date(Date.now() + 3_600_000), duration: 60, pass_mark: 36, compose: '2', published: true, partial_credit: true } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const rules = [{ type: 0, count: 15 }, { type: 1, count: 5 }, { type: 2, count: 5 }, { type: 3, count: 5 }].map((r) => ({ ...r, type: r.type as QuestionTypeValue }));
    const users = await database.db.insertInto('users').values(Array.from({ length: SHEETS }, (_, i) => ({ username: `sheet${i}`, password_hash: 'x' }))).returning('id').execute();
    const random = seededRandom(18);
    const sheets = users.map((u, i) => {
      const paper = composeByRules(rules, rows, i + 1);
      const answers = Object.fromEntries(paper.map((p) => {
        const key = keys.get(p.q)!;
        const right = random() < 0.7;
        return [p.q, p.type === 3 ? [right ? key.answer.split('|')[0] : '错'] : right ? key.answer : p.type === 2 ? (key.answer === '正确' ? '错误' : '正确') : 'A'];
      }));
      return { exam_id: exam.id, user_id: u.id, attempt: 1, deadline: new Date(), submitted_at: new Date(), status: 3, paper: JSON.stringify(paper), answers: JSON.stringify(answers), marks: '{}' };
    });
    for (let i = 0; i < sheets.length; i += 1000) await db.insertInto('pschool_exam_sessions').values(sheets.slice(i, i + 1000) as never).execute();

    const pure0 = performance.now();
    for (const s of sheets) markSheet(JSON.parse(s.paper), JSON.parse(s.answers), keys, { partialCredit: true });
    const pureMs = performance.now() - pure0;

    const t0 = performance.now();
    const result = await remarkExam(db, exam.id);
    const remarkMs = performance.now() - t0;
    const check = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pschool_exam_sessions WHERE exam_id = ${exam.id} AND score IS NOT NULL AND status = 3`.execute(database.db);
    if (result.sheets !== SHEETS || check.rows[0].n !== SHEETS) throw new Error(`marked ${result.sheets} sheets, ${check.rows[0].n} scored`);
    return [
      { suite: SUITE, name: `marking ${SHEETS.toLocaleString('en')} objective answer sheets of 30 questions (read, mark, write back; embedded database)`, value: Math.round(remarkMs), unit: 'ms', budget: 10_000 },
      { suite: SUITE, name: `marking the same ${SHEETS.toLocaleString('en')} sheets in memory only`, value: Math.round(pureMs), unit: 'ms' },
    ];
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function pschoolSuite(): Promise<BenchResult[]> {
  const part = process.env.BENCH_PSCHOOL_PART;
  if (part && part !== 'progress' && part !== 'marking') throw new Error(`BENCH_PSCHOOL_PART: progress or marking, not "${part}"`);
  return [...(part === 'progress' ? [] : await marking()), ...(part === 'marking' ? [] : await progressLoad())];
}

/**
 * The exam day (issue 44.3): 3,000 learners open one exam on two app servers on one PostgreSQL behind one
 * port, autosave every 15 s for 10 minutes (40 autosaves each), submit within the last 60 s before the bell;
 * one server is killed with SIGKILL once half of the autosaves are in. Budgets: autosave p99 ≤ 200 ms,
 * every sheet marked ≤ 30 s after the bell, zero lost or duplicated answers (tests/support/exam-day.ts checks
 * every sheet against what each learner was told). BENCH_EXAM_LEARNERS and BENCH_EXAM_ROUNDS shrink it
 * (fewer autosaves: time compressed, the interval and the concurrency kept).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { examDay } from '../../support/exam-day.js';
import { percentile } from '../../support/cluster.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import type { BenchResult } from '../lib.js';

const SUITE = 'exam-day';

export async function examDaySuite(): Promise<BenchResult[]> {
  const learners = Number(process.env.BENCH_EXAM_LEARNERS ?? 3000);
  const rounds = Number(process.env.BENCH_EXAM_ROUNDS ?? 40);
  const pg = await startPostgres();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-exam-'));
  try {
    const url = await createDatabase(pg.url);
    const r = await examDay(url, dataDir, { learners, saveEveryMs: 15_000, rounds, submitWindowMs: 60_000, walkAway: Math.round(learners / 100), realBell: true }, (line) => console.error(`  ${line}`));
    const saves = [...r.saves].sort((a, b) => a - b);
    const submits = [...r.submits].sort((a, b) => a - b);
    const load = `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
    const scenario = `${learners} learners, ${rounds} autosaves 15 s apart${rounds < 40 ? ` (time compressed from 40)` : ''}, one of two servers SIGKILLed at ${Math.round(r.killedAtMs / 1000)} s`;
    return [
      { suite: SUITE, name: `${learners} learners autosaving every 15 s on two app servers (PostgreSQL), one killed half way: p99`, value: Number(percentile(saves, 99).toFixed(1)), unit: 'ms', budget: 200, note: `${scenario}; ${saves.length} autosaves, p50 ${percentile(saves, 50).toFixed(1)} ms, ${r.saveRetries} retried; ${load}` },
      { suite: SUITE, name: 'every sheet marked after the bell', value: Number((r.allMarkedMs / 1000).toFixed(1)), unit: 's', budget: 30, note: `${submits.length} submissions (p99 ${percentile(submits, 99).toFixed(0)} ms, ${r.submitRetries} retried, ${r.late} late), ${r.learners - submits.length} walked away (closed by the servers' sweep)` },
      { suite: SUITE, name: 'lost or duplicated answers, sheets or submissions', value: r.problems.length, unit: 'errors', budget: 0, note: r.problems.slice(0, 3).join('; ') || `proxy: ${r.proxy.forwarded} forwarded, ${r.proxy.cutOff} cut off by the kill (502, retried by the page), ${r.proxy.refused} refused (sent to the other server)` },
    ];
  } finally {
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

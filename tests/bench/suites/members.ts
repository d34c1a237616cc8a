import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchLogin, median, rssOf, startServerProcess, type BenchResult } from '../lib.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const ADMIN_PASSWORD = 'Bench#Admin2026';


/** The organisation tree and the roster export on a university of 100,000 members (about 5,000 organisations). */
export async function membersSuite(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-members-'));
  const env = { DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn' };
  try {
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--members', String(MEMBERS)], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
    const server = await startServerProcess(env);
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const headers = { authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}` };
      const times: number[] = [];
      let orgs = 0;
      for (let i = 0; i < 12; i++) {
        const t = performance.now();
        const tree = (await (await fetch(`${base}/api/dzzxx/buildtree`, { headers })).json()) as { children?: unknown[] }[];
        times.push(performance.now() - t);
        if (i === 0) {
          const count = (nodes: { children?: unknown[] }[]): number => nodes.reduce((s, n) => s + 1 + count((n.children ?? []) as typeof nodes), 0);
          orgs = count(tree);
        }
      }
      const warm = times.slice(2);
      // Over 10,000 rows both exports are jobs: timed from the request to the job's end.
      const roster = await exportAsJob(base, headers, server.child.pid!, '/api/member/roster/export?columns=name,gender,ethnicity,birthDate,idCard,education,category,memberType,joinDate,fullDate,orgId,phone');
      const exportMs = roster.ms;
      const bytes = roster.bytes;
      const job = await exportAsJob(base, headers, server.child.pid!, '/api/m/member/export');
      return [
        { suite: 'members', name: `member list export as a job, ${job.rows} rows: time`, value: Math.round(job.ms), unit: 'ms', budget: 30_000, note: `${(job.bytes / 1024 / 1024).toFixed(1)} MB .xlsx` },
        { suite: 'members', name: `member list export as a job, ${job.rows} rows: server peak RSS`, value: Math.round(job.peak), unit: 'MB', budget: 400, note: `${Math.round(job.before)} MB before` },
        { suite: 'members', name: `GET /api/dzzxx/buildtree, ${MEMBERS} members, ${orgs} organisations (p50)`, value: Math.round(median(warm)), unit: 'ms', budget: 200, note: `max ${Math.round(Math.max(...warm))} ms` },
        { suite: 'members', name: `roster export, ${MEMBERS} members, 12 columns`, value: Math.round(exportMs), unit: 'ms', budget: 20_000, note: `${(bytes / 1024 / 1024).toFixed(1)} MB .xlsx` },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * An export of every member (over 10,000 rows, a job): from the request to the job's end,
 * then the file downloaded; the server's peak resident memory meanwhile (the rows stream to the file).
 */
async function exportAsJob(base: string, headers: Record<string, string>, pid: number, url: string) {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets the peak (VmHWM) to the current RSS
  const before = rssOf(pid).now;
  const t = performance.now();
  const res = await fetch(`${base}${url}`, { headers });
  if (res.status !== 202) throw new Error(`expected a job, got ${res.status}`);
  const { jobId, totalElements } = (await res.json()) as { jobId: number; totalElements: number };
  let job: { state: number; message: string; result: { download: { url: string; params: Record<string, string> } } };
  for (;;) {
    job = (await (await fetch(`${base}/api/jobs/${jobId}`, { headers })).json()) as typeof job;
    if (job.state !== 1) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (job.state !== 2) throw new Error(`export job failed: ${job.message}`);
  const ms = performance.now() - t;
  const peak = rssOf(pid).peak;
  const file = job.result.download;
  const bytes = (await (await fetch(`${base}${file.url}?${new URLSearchParams(file.params)}`, { headers })).arrayBuffer()).byteLength;
  return { rows: totalElements, ms, peak, before, bytes };
}

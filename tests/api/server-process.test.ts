// engines: both — the compiled server started on each engine
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDatabase } from '../support/postgres.js';
import { serveNodeFlags } from '../../src/server/server-build.js';
import { TEST_DB } from '../support/test-app.js';
import { encryptPassword } from '../../src/server/core/auth/rsa.js';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { ABANDONED_MESSAGE } from '../../src/server/runtime/jobs.js';
import { ExportState } from '../../src/shared/jobs.js';
import { TaskStatus } from '../../src/shared/constants.js';
import { streamedWorkbook } from '../support/xlsx-files.js';

const MAIN = path.resolve('src/server/main.ts');
/** What `npm run serve` runs: the compiled server (built first when stale), with the same Node flags. */
const SERVE = [...serveNodeFlags(), path.resolve('scripts/run-server.mjs')];

interface Running {
  port: number;
  output: () => string;
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts the server as `npm run serve` does, as a real process, and waits for its banner. */
async function startProcess(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, SERVE, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const deadline = Date.now() + 300_000;
  while (!/is running: http:\/\/[^:]+:(\d+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const port = Number(/is running: http:\/\/[^:]+:(\d+)/.exec(out)![1]);
  return {
    port,
    output: () => out,
    stop: (signal) =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** Signs in as the demo administrator over HTTP (the password encrypted with the server's key). */
async function httpLogin(base: string): Promise<Record<string, string>> {
  const { publicKey } = (await (await fetch(`${base}/auth/publicKey`)).json()) as { publicKey: string };
  const res = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: encryptPassword(publicKey, DEMO_ADMIN_PASSWORD) }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

describe(`the server process on ${TEST_DB}`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-proc-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // The data of the first test, reused by the job test (a start on existing data is the quick kind).
  // A small demo university: what is tested is the process, not the seeders (the demo tests size those).
  const env: Record<string, string> = { DATA_DIR: dataDir, DEMO_MEMBERS: '40', DEMO_APPLICANTS: '40', DEMO_TRANSFERS: '10' };

  it('starts, reuses its data on a second start, and stops cleanly on SIGTERM and SIGINT', async () => {
    // PostgreSQL seeds the demo only when told (issue 38.16).
    if (TEST_DB === 'postgres') Object.assign(env, { DATABASE_URL: await createDatabase(inject('postgresUrl')), DEMO_DATA: 'true' });

    const first = await startProcess(env);
    const health = await fetch(`http://127.0.0.1:${first.port}/api/health`);
    expect(await health.json()).toEqual({ status: 'UP', db: 'UP', kind: TEST_DB });
    // The compiled server serves the web app too (npm test builds it first, as `npm start` does).
    const login = await fetch(`http://127.0.0.1:${first.port}/web/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('<div id="app">');
    expect(first.output()).toContain('administrator: admin');
    expect(first.output()).toContain('"msg":"seeding demo data"');
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output()).toContain('stopped cleanly');

    const second = await startProcess(env);
    expect(second.output()).not.toContain('seeding demo data');
    expect(await second.stop('SIGINT')).toBe(0);
    expect(second.output()).toContain('stopped cleanly');
  }, 600_000);

  // Issues 29 and 30: a job left running by a dead server is failed, never stuck, and its owner told.
  // The embedded database has one server: the next start fails it. On PostgreSQL other servers may run
  // jobs, so only a heartbeat older than the limit (1 s here) counts.
  it('a job left running by a killed server is failed with its reason at the next start, and its owner is told', async () => {
    const jobEnv: Record<string, string> = { ...env, CAPTCHA: 'off', JOB_ABANDONED_AFTER: '1' };
    const first = await startProcess(jobEnv);
    const base = `http://127.0.0.1:${first.port}`;
    const auth = await httpLogin(base);
    // A long import (20,000 rows), killed while it reads them.
    const fd = new FormData();
    fd.append('mode', 'partial');
    fd.append('file', new Blob([new Uint8Array(await streamedWorkbook(20_000, ['标题', '类别', '发布日期'], ['制度', '党内法规', '2024-01-02']))]), '制度.xlsx');
    const res = await fetch(`${base}/api/m/regulation/import`, { method: 'POST', headers: auth, body: fd });
    expect(res.status, await res.clone().text()).toBe(202);
    const { jobId } = (await res.json()) as { jobId: number };
    expect(await first.stop('SIGKILL')).toBeNull();

    const second = await startProcess(jobEnv);
    try {
      const again = `http://127.0.0.1:${second.port}`;
      const headers = await httpLogin(again);
      let job: { state: number; message: string; title: string } | undefined;
      for (let i = 0; i < 100 && job?.state !== ExportState.ERROR; i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        job = (await (await fetch(`${again}/api/jobs/${jobId}`, { headers })).json()) as typeof job;
      }
      expect(job).toMatchObject({ state: ExportState.ERROR, message: ABANDONED_MESSAGE });
      const status = (await (await fetch(`${again}/api/m/regulation/import/${jobId}`, { headers })).json()) as { status: number; message: string };
      expect(status).toMatchObject({ status: TaskStatus.ERROR, message: ABANDONED_MESSAGE });
      const messages = (await (await fetch(`${again}/api/msgPushHistory?size=20`, { headers })).json()) as { content: { title: string }[] };
      expect(messages.content.map((m) => m.title)).toContain(`${job!.title}失败：${ABANDONED_MESSAGE}`);
    } finally {
      await second.stop('SIGTERM');
    }
  }, 600_000);

  it('stops with one clear line on a bad configuration value', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', MAIN], {
      env: { ...process.env, DATA_DIR: dataDir, SCHOOL: 'atlantis' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: SCHOOL must be one of .*hntb.*, got "atlantis"$/);
    expect(result.stdout).toBe('');
  });
});

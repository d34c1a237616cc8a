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
  const deadline = Date.now() + 120_000;
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

describe(`the server process on ${TEST_DB}`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-proc-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts, reuses its data on a second start, and stops cleanly on SIGTERM and SIGINT', async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (TEST_DB === 'postgres') env.DATABASE_URL = await createDatabase(inject('postgresUrl'));

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
  }, 300_000);

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

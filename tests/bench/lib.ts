import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { encryptPassword } from '../../src/server/core/auth/rsa.js';
import { ensureServerBuilt, SERVER_DIST_DIR, serveNodeFlags } from '../../src/server/server-build.js';

export interface BenchResult {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** Budget from the issue, in the same unit, when one exists. */
  budget?: number;
  /** Our figure divided by a baseline's (a bare route, the bare SQL query, ...), when one exists. */
  ratio?: number;
  baseline?: string;
  note?: string;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Resident set size of a process now and at its peak since the last reset, in MB (Linux /proc; reset: write 5 to clear_refs). */
export function rssOf(pid: number): { now: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * Starts the real server process as `npm run serve` runs it: by default the compiled server (built first
 * when stale), or another compiled entry that prints the same banner. Resolves once /api/health answers.
 */
export async function startServerProcess(
  env: Record<string, string>,
  entry?: string,
  options: { nodeFlags?: string[] } = {},
): Promise<ServerProcess & { startMs: number }> {
  if (!entry) await ensureServerBuilt(console.error);
  const script = path.resolve(entry ?? path.join(SERVER_DIST_DIR, 'main.js'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? serveNodeFlags()), script], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The banner, then only the last lines (for an error message): a server logging every request under
  // load must not fill this process's memory.
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let port = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    const m = /is running: http:\/\/[^:]+:(\d+)/.exec(out);
    if (m) {
      port = Number(m[1]);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const startMs = performance.now() - t0;
  return {
    child,
    port,
    startMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

/** Requests of a load run and the response time of each, for percentiles over several runs. */
export interface TimedLoad {
  requests: number;
  seconds: number;
  /** Response times in ms, in arrival order. */
  times: number[];
}

/** A bounded load like `load`, keeping every response time (autocannon's own percentiles cannot be merged across runs). */
export async function timedLoad(url: string, options: { seconds: number; connections: number; body?: string; headers?: Record<string, string> }): Promise<TimedLoad> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const opts = { url, duration: options.seconds, connections: options.connections, method: options.body === undefined ? ('GET' as const) : ('POST' as const), body: options.body, headers: options.headers };
    const instance = autocannon(opts, (err, r) => (err ? reject(err as Error) : resolve(r)));
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load on ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requests: times.length, seconds: options.seconds, times };
}

export function percentile(sortedValues: number[], p: number): number {
  return sortedValues[Math.min(sortedValues.length - 1, Math.floor((sortedValues.length * p) / 100))];
}

/** A bounded load on a loopback URL with autocannon. */
export async function load(url: string, options: { seconds?: number; connections?: number; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const result = await autocannon({
    url,
    duration: options.seconds ?? 5,
    connections: options.connections ?? 20,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.headers,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load on ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Signs in to a bench server through its real login (RSA-encrypted password) and answers the token. */
export async function benchLogin(base: string, password: string, username = 'admin'): Promise<string> {
  const { publicKey } = (await (await fetch(`${base}/auth/publicKey`)).json()) as { publicKey: string };
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: encryptPassword(publicKey, password) }),
  });
  if (!res.ok) throw new Error(`login ${username} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

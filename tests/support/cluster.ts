/**
 * Two (or more) real app server processes on one PostgreSQL database behind one port, for the load-day
 * tests and benches (issue 44): the compiled server (tests/support/cluster-server.ts, built like `npm run
 * serve`), and a tiny reverse proxy in this process that behaves like a user's load balancer (nginx's
 * defaults): round robin; a server that refuses the connection is skipped for a while and the request
 * goes to the next; a request cut off by a server dying answers 502 (the client's page retries it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type AppConfig } from '../../src/server/config.js';
import { hashToken } from '../../src/server/core/auth/sessions.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { buildServer, serveNodeFlags } from '../../src/server/server-build.js';
import { initialiseDatabase } from '../../src/server/seed/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD_DIR = path.join(ROOT, 'dist', 'cluster');

export interface AppServer {
  child: ChildProcess;
  port: number;
  /** The process's last output (for an error message). */
  output(): string;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

let built: Promise<void> | undefined;

/** Builds the cluster server once per process (the two load days of one test file share it; a build is ~10 s on a loaded machine). */
export function buildClusterServer(): Promise<void> {
  built ??= buildServer({ entryPoints: { 'cluster-server': 'tests/support/cluster-server.ts' }, outdir: BUILD_DIR }).catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

/** Starts one compiled app server (built by buildClusterServer) and waits for /api/health. */
export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  const child = spawn(process.execPath, [...serveNodeFlags(), path.join(BUILD_DIR, 'cluster-server.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', CAPTCHA: 'off', DEMO_DATA: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 180_000;
  let port = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    const m = /is running: http:\/\/[^:]+:(\d+)/.exec(out);
    if (m) {
      port = Number(m[1]);
      if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    port,
    output: () => out,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export interface Proxy {
  port: number;
  url: string;
  /** Requests answered 502 because their server died under them, and connections refused (then sent elsewhere). */
  stats: { cutOff: number; refused: number; forwarded: number };
  close(): Promise<void>;
}

/** How long a server that refused a connection is left out of the rotation. */
const DOWN_MS = 2000;

/** A round-robin reverse proxy to `ports` on 127.0.0.1. */
export async function startProxy(ports: number[]): Promise<Proxy> {
  const down = new Map<number, number>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const stats = { cutOff: 0, refused: 0, forwarded: 0 };
  let next = 0;
  const pick = (tried: Set<number>): number | undefined => {
    for (let i = 0; i < ports.length; i++) {
      const port = ports[(next + i) % ports.length];
      if (tried.has(port) || (down.get(port) ?? 0) > Date.now()) continue;
      next = (next + i + 1) % ports.length;
      return port;
    }
    return ports.find((p) => !tried.has(p));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<number>();
      const forward = () => {
        const port = pick(tried);
        if (port === undefined) {
          res.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"no app server"}');
          return;
        }
        tried.add(port);
        let connected = false;
        const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
          stats.forwarded++;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });
        upstream.on('socket', (socket) => {
          if (!socket.connecting) connected = true;
          else socket.once('connect', () => (connected = true));
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (res.headersSent) return void res.destroy();
          // Never connected: the request did not reach that server; another may take it.
          if (!connected || error.code === 'ECONNREFUSED') {
            stats.refused++;
            down.set(port, Date.now() + DOWN_MS);
            return forward();
          }
          // Sent and cut off: it may have run there, so it is not replayed here (the client decides).
          stats.cutOff++;
          res.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"bad gateway"}');
        });
        upstream.end(body);
      };
      forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Bearer tokens for users, written straight into the sessions table (no password round trip for thousands of learners). */
export async function bulkSessions(db: Kysely<any>, userIds: number[]): Promise<string[]> {
  const tokens = userIds.map(() => crypto.randomBytes(32).toString('base64url'));
  const rows = userIds.map((id, i) => ({ token_hash: hashToken(tokens[i]), user_id: id, terminal: 1, expires_at: new Date(Date.now() + 86_400_000) }));
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('sessions').values(rows.slice(i, i + 1000)).execute();
  return tokens;
}

/**
 * Prepares a PostgreSQL database as a first start would (migrations, the built-in roles and the
 * administrator, no demo data), then runs `seed` with the app in this process, and closes it: the app
 * servers then start on prepared data.
 */
export async function prepareDatabase<T>(databaseUrl: string, dataDir: string, seed: (app: FastifyInstance, config: AppConfig) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl });
  await migrate(database);
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: 'false', CAPTCHA: 'off' });
  const app = await buildApp({ config, database, logger: false });
  try {
    await initialiseDatabase({ database, config, log: app.log });
    await app.ready();
    return await seed(app, config);
  } finally {
    await app.close();
  }
}

export const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : 0);

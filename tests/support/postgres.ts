import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresBinDir } from './prerequisites.js';

export interface PostgresServer {
  /** URL of the `postgres` maintenance database. */
  url: string;
  stop(): Promise<void>;
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` (or `nobody`) user. */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name]).toString().trim());
      const gid = Number(execFileSync('id', ['-g', name]).toString().trim());
      return { uid, gid };
    } catch {
      // try the next one
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL');
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited early: ${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`postgres did not start in 30 s: ${log()}`);
}

/**
 * The server listens on a unix socket in its own temp dir only, never on a TCP port: two test runs on one
 * machine (two checkouts) cannot pick the same port. The port number just names the socket file.
 */
const SOCKET_PORT = 5432;

/** Starts a throw-away PostgreSQL server in a temp dir, tuned for tests (no fsync). */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server not found: install it with "apt-get install -y postgresql"');
  const user = unprivilegedUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-pg-'));
  const dataDir = path.join(dir, 'data');
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const spawnOpts = { ...(user ?? {}), cwd: dir, env: { ...process.env, LC_ALL: 'C' } };
  execFileSync(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    ...spawnOpts,
    stdio: 'pipe',
  });
  let output = '';
  const child = spawn(
    path.join(bin, 'postgres'),
    ['-D', dataDir, '-p', String(SOCKET_PORT), '-k', dir, '-c', 'listen_addresses=', '-c', 'fsync=off',
      '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    { ...spawnOpts, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}&port=${SOCKET_PORT}`;
  await waitUntilReady(url, child, () => output.slice(-2000));
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates a database on the server and returns its URL (one per test file keeps files independent): empty,
 * or a copy of `template`.
 */
export async function createDatabase(serverUrl: string, template?: string): Promise<string> {
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

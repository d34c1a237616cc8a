import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { CONNECTION_USES, namedStatementsPool } from './pg-statements.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PreparedStatements } from './pglite-statements.js';
import { IDLE_TRANSACTION_TIMEOUT_S } from './timeouts.js';
import { EmbeddedUpkeep } from './upkeep.js';
import type { DB } from './types.js';

/** A connection-bound handle used for plain-SQL scripts (migrations) inside one transaction. */
export interface ScriptRunner {
  exec(sqlText: string): Promise<void>;
  query<R = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  /** The query layer every piece of server code uses. */
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction on a single connection; multi-statement SQL allowed. */
  scriptTransaction<T>(fn: (runner: ScriptRunner) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a connection of its own; `onPayload` gets every NOTIFY
   * payload (from any app server on this database), `onLost` is called if the connection breaks.
   * Answers the function that stops listening. The embedded engine has one process, so nothing to relay.
   */
  listen?(channel: string, onPayload: (payload: string) => void, onLost: (error: Error) => void): Promise<() => Promise<void>>;
  /** Embedded engine only: a tarball of the data directory, to start another database from (tests). */
  dump?(): Promise<Blob>;
  /** Embedded engine only: vacuum and statistics when idle (a server has autovacuum); the server starts it. */
  upkeep?: EmbeddedUpkeep;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory of the embedded database; omitted means in memory (tests). */
  dataDir?: string;
  /** A new embedded database (in memory, or a new `dataDir`) starts as a copy of this dump (`Database.dump`), skipping initdb (tests). */
  pgliteDump?: Blob;
  /** PostgreSQL: seconds a transaction may sit idle before the database ends it (IDLE_TRANSACTION_TIMEOUT_S). */
  idleTransactionTimeoutS?: number;
}

// PostgreSQL `date` values stay 'YYYY-MM-DD' strings: a Date object would shift them by the time zone.
const DATE_OID = 1082;
// bigint (count(*), sums) as a JS number; ids are integers well below 2^53.
const INT8_OID = 20;
const parseInt8 = (v: string) => Number(v);

/**
 * PostgreSQL settings of the embedded engine. Its shared memory lives in the WebAssembly heap, which is
 * touched at start and never given back: the default shared_buffers (128 MB) alone held ~120 MB of the
 * server's resident memory. 16 MB still holds the hot pages of a 100,000-record table (list p50 unchanged;
 * 8 MB tripled it); other pages come from the OS file cache.
 */
const PGLITE_SETTINGS = { shared_buffers: '16MB' };
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.idleTransactionTimeoutS ?? IDLE_TRANSACTION_TIMEOUT_S) : openPglite(options.dataDir, options.pgliteDump);
}

/** The lock file of an embedded database's directory: the pid of the process that has it open. */
export const DATA_DIR_LOCK = 'server.lock';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One process per embedded database: a second server started on the same files (a second `npm start`)
 * corrupted them for good (`xlog flush request … is not satisfied` on every later write). A lock left by a
 * process that no longer runs (killed) is taken over; this process may open its own directory again.
 * Answers the release, run on close.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, DATA_DIR_LOCK);
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid === process.pid) break;
      if (Number.isSafeInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new Error(`the data directory ${dataDir} is in use by another server process (pid ${pid}): stop it first, or set another DATA_DIR (delete ${file} if no server runs)`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  return () => {
    try {
      if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // gone already
    }
  };
}

async function openPglite(dataDir?: string, dump?: Blob): Promise<Database> {
  let dir: string | undefined;
  let release = () => undefined as void;
  if (dataDir) {
    dir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    release = lockDataDir(dataDir);
    // A new directory: created, or filled from the dump given (a test's copy of the migrated template).
    if (!fs.existsSync(path.join(dir, 'PG_VERSION')) && !dump) await createPgliteFiles(dir);
    else if (fs.existsSync(path.join(dir, 'PG_VERSION'))) dump = undefined;
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dir, {
      ...(dump ? { loadDataDir: dump } : {}),
      startParams: PGLITE_START_PARAMS,
      parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: parseInt8 },
    });
  } catch (error) {
    release();
    throw error;
  }
  const statements = new PreparedStatements(pglite);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, statements) });
  const upkeep = new EmbeddedUpkeep(pglite, () => statements.lastUsed);
  let closed = false;
  return {
    db,
    kind: 'pglite',
    upkeep,
    // Scripts change the schema (migrations, table sync): prepared statements are dropped after each.
    scriptTransaction: (fn) =>
      pglite
        .transaction((tx) =>
          fn({
            exec: async (sqlText) => {
              await tx.exec(sqlText);
            },
            query: async <R,>(sqlText: string, params?: unknown[]) => (await tx.query<R>(sqlText, params)).rows,
          }),
        )
        .finally(() => statements.clear()),
    dump: () => pglite.dumpDataDir('none'),
    close: async () => {
      if (closed) return;
      closed = true;
      await upkeep.stop();
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      release();
    },
  };
}

/**
 * Creates a new embedded database's files (initdb) in a short-lived child process: run in the server, the
 * initdb instance's WebAssembly memory stayed in it for good (first start ~460 MB resident instead of ~230).
 */
async function createPgliteFiles(dir: string): Promise<void> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(${JSON.stringify(entry)}).PGlite.create(${JSON.stringify(dir)}, { startParams: ${JSON.stringify(PGLITE_START_PARAMS)} }).then((pg) => pg.close())`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`could not create the embedded database in ${dir}: ${stderr.trim()}`);
}

async function openPostgres(databaseUrl: string, idleTransactionTimeoutS: number): Promise<Database> {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      if (oid === DATE_OID) return (v: string) => v;
      if (oid === INT8_OID) return parseInt8;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    types,
    maxUses: CONNECTION_USES,
    idle_in_transaction_session_timeout: idleTransactionTimeoutS * 1000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // Fail fast with a clear error when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementsPool(pool) }) });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    scriptTransaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          exec: async (sqlText) => {
            await client.query(sqlText);
          },
          query: async <R,>(sqlText: string, params?: unknown[]) => (await client.query(sqlText, params)).rows as R[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: async (channel, onPayload, onLost) => {
      const client = new pg.Client({ connectionString: databaseUrl });
      let stopped = false;
      client.on('notification', (n) => {
        if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
      });
      // Reported once, however many 'error' and 'end' events the broken connection emits.
      let lost = false;
      const lose = (error: Error) => {
        if (stopped || lost) return;
        lost = true;
        client.end().catch(() => undefined);
        onLost(error);
      };
      client.on('error', lose);
      client.on('end', () => lose(new Error('the listening connection ended')));
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        stopped = true;
        await client.end().catch(() => undefined);
      };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely ends the pool only if it ever ran a query: a database used for scripts alone (a migrated
      // template) kept its connections open.
      if (!pool.ending) await pool.end();
    },
  };
}

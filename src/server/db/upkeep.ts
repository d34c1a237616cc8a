import type { PGlite } from '@electric-sql/pglite';

/**
 * Autovacuum for the embedded engine. On a PostgreSQL server, autovacuum clears the dead row versions
 * updates and deletes leave, sets the visibility map (index-only scans) and keeps the planner's statistics
 * fresh. PGlite runs PostgreSQL as one process without background workers, so nothing did it there: after
 * the seed's updates, a branch's member count read 568 table pages for 313 members, where a vacuumed table
 * answers from 5 index pages.
 *
 * This does autovacuum's work with autovacuum's default thresholds (PostgreSQL documentation, "The
 * Autovacuum Daemon"), while the server is idle, one table at a time, and stops as soon as the application
 * queries again (the engine answers one statement at a time: a vacuum makes requests wait).
 */
export const IDLE_MS = 30_000;
const CHECK_MS = 60_000;

/** Tables past autovacuum's thresholds: dead rows (vacuum), inserted rows (vacuum), changed rows (analyze). */
const DUE = `
  SELECT s.relname AS name,
         s.n_dead_tup > 50 + 0.2 * t.rows OR s.n_ins_since_vacuum > 1000 + 0.2 * t.rows AS vacuum
  FROM pg_stat_user_tables s
  JOIN pg_class c ON c.oid = s.relid
  CROSS JOIN LATERAL (SELECT greatest(c.reltuples, 0) AS rows) t
  WHERE s.n_dead_tup > 50 + 0.2 * t.rows OR s.n_ins_since_vacuum > 1000 + 0.2 * t.rows OR s.n_mod_since_analyze > 50 + 0.1 * t.rows
  ORDER BY s.n_dead_tup + s.n_mod_since_analyze DESC, s.relname`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface UpkeepRun {
  vacuumed: string[];
  analysed: string[];
  /** True when a query came and the remaining tables were left for the next idle time. */
  interrupted: boolean;
}

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export class EmbeddedUpkeep {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopping = false;

  /** `lastQuery`: when the application last queried (performance.now()). */
  constructor(
    private readonly pglite: PGlite,
    private readonly lastQuery: () => number,
  ) {}

  /** Checks every minute whether the server is idle and a table is due. */
  start(log: Log, { everyMs = CHECK_MS, idleMs = IDLE_MS } = {}): void {
    this.#stopping = false;
    this.#timer ??= setInterval(() => {
      if (this.#running || performance.now() - this.lastQuery() < idleMs) return;
      this.#running = this.run()
        .then((done) => {
          if (done.vacuumed.length || done.analysed.length) log.info(done, 'embedded database: tables vacuumed and analysed');
        })
        .catch((err: unknown) => log.warn({ err }, 'embedded database: vacuum failed'))
        .finally(() => (this.#running = undefined));
    }, everyMs).unref();
  }

  /** Stops checking; a run in progress ends after its current table (the server's shutdown waits for it). */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Vacuums or analyses every table past the thresholds, giving way when the application queries. */
  async run(): Promise<UpkeepRun> {
    const since = this.lastQuery();
    const done: UpkeepRun = { vacuumed: [], analysed: [], interrupted: false };
    // The engine's counters reach the statistics views at the end of a statement.
    await this.pglite.exec('SELECT pg_stat_force_next_flush()');
    const due = (await this.pglite.query<{ name: string; vacuum: boolean }>(DUE)).rows;
    for (const table of due) {
      if (this.lastQuery() !== since || this.#stopping) {
        done.interrupted = true;
        break;
      }
      await this.pglite.exec(`${table.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${quoteIdent(table.name)}`);
      (table.vacuum ? done.vacuumed : done.analysed).push(table.name);
    }
    return done;
  }
}

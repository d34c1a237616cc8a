import type { PGlite, Transaction } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import type { PreparedStatements } from './pglite-statements.js';
import { runsPrepared } from './statements.js';

/**
 * Kysely dialect for the embedded engine. Kysely 0.29 ships one, but 0.29 declares Node ≥ 22 while we run
 * on Node 20 (issue 13 item 11), so this is the same design on 0.28:
 * - PGlite has one connection: a mutex hands it to one query or one transaction at a time;
 * - a transaction is PGlite's exclusive `transaction()`, so plain-SQL scripts run through
 *   `pglite.transaction` elsewhere (migrations) never interleave with it;
 * - data statements run prepared (`PreparedStatements`, `statements.ts`), the rest through PGlite's `query()`.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly statements: PreparedStatements,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.statements);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(
    private readonly pglite: PGlite,
    statements: PreparedStatements,
  ) {
    this.#connection = new PGliteConnection(pglite, statements);
  }
  async init() {
    await this.pglite.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
    return this.#connection;
  }
  async releaseConnection() {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
  async beginTransaction() {
    await this.#connection.begin();
  }
  async commitTransaction() {
    await this.#connection.end(true);
  }
  async rollbackTransaction() {
    await this.#connection.end(false);
  }
  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quote(name)}`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quote(name)}`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quote(name)}`));
  }
  async destroy() {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** Statements that change the schema: prepared statements may then answer other columns. */
const DDL = /^\s*(alter|create|drop|truncate|comment)\b/i;

class PGliteConnection implements DatabaseConnection {
  #tx: Transaction | undefined;
  #finish: ((commit: boolean) => void) | undefined;
  #closed: Promise<unknown> | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly statements: PreparedStatements,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.statements.lastUsed = performance.now();
    let result;
    if (runsPrepared(query.sql)) {
      result = await this.statements.query<R>(query.sql, query.parameters, !!this.#tx);
    } else {
      result = await (this.#tx ?? this.pglite).query<R>(query.sql, query.parameters as unknown[], { rowMode: 'object' });
      if (DDL.test(query.sql)) this.statements.clear();
    }
    return {
      rows: result.rows ?? [],
      numAffectedRows: result.affectedRows != null ? BigInt(result.affectedRows) : undefined,
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }

  async begin() {
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const decided = new Promise<boolean>((resolve) => (this.#finish = resolve));
    this.#closed = this.pglite.transaction(async (tx) => {
      this.#tx = tx;
      begun();
      if (!(await decided)) await tx.rollback();
    });
    // A BEGIN that fails rejects #closed before `begun` is called.
    await Promise.race([started, this.#closed]);
  }

  async end(commit: boolean) {
    this.#finish?.(commit);
    try {
      await this.#closed;
    } catch (error) {
      if (commit) throw error;
    } finally {
      this.#tx = undefined;
      this.#finish = undefined;
      this.#closed = undefined;
    }
  }
}

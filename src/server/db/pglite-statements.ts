import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import { RecentStatements, isChangedResult } from './statements.js';

/**
 * Prepared statements for the embedded engine. PGlite's `query()` sends a statement's text and has it
 * parsed, described and planned on every call, in six calls into WebAssembly; the runtime sends the same
 * few texts over and over with new values (a list page, a record, a session). Each text seen is prepared
 * once under a name, and later calls bind the values to that name and execute it in one call: the member
 * list of one branch costs the engine 0.8 ms instead of 1.8 (the planner keeps a generic plan after five
 * runs, as it does for any driver's prepared statements).
 *
 * Which statements are prepared: `statements.ts`. A schema change can change what a prepared `*` returns,
 * so every name is dropped after DDL (`clear`), and a statement the engine refuses as changed is prepared
 * again once.
 */

interface Statement {
  name: string;
  /** Parameter type ids, to serialise values as `query()` does. */
  types: number[];
}

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class PreparedStatements {
  readonly #statements = new RecentStatements<Statement>();
  #next = 0;
  /** Names to close at the next call (evicted or cleared). */
  #closing: string[] = [];

  constructor(private readonly pglite: PGlite) {}

  /** When the application last ran a statement, prepared or not (performance.now(), set by the dialect): the upkeep waits for idle times. */
  lastUsed = performance.now();

  /** Names currently prepared (tests). */
  get size(): number {
    return this.#statements.size;
  }

  /**
   * Runs one statement with its values. `inTransaction`: called inside a transaction, which already holds
   * PGlite's transaction lock; outside one, the call takes it, like `query()`, so it never lands inside
   * somebody else's transaction.
   */
  async query<R>(sqlText: string, params: readonly unknown[], inTransaction: boolean): Promise<Results<R>> {
    const run = () => this.pglite.runExclusive(() => this.#run<R>(sqlText, params, inTransaction));
    return inTransaction ? run() : this.pglite._runExclusiveTransaction(run);
  }

  /** Drops every name (after a schema change). */
  clear(): void {
    this.#close(this.#statements.clear());
  }

  async #run<R>(sqlText: string, params: readonly unknown[], inTransaction: boolean): Promise<Results<R>> {
    const statement = await this.#prepared(sqlText);
    try {
      return await this.#execute<R>(statement, params, inTransaction);
    } catch (error) {
      if (!isChangedResult(error)) throw error;
      this.#close(this.#statements.delete(sqlText));
      // Inside a transaction the error has aborted it: only the caller can start again.
      if (inTransaction) throw error;
      return this.#execute<R>(await this.#prepared(sqlText), params, inTransaction);
    }
  }

  async #prepared(sqlText: string): Promise<Statement> {
    const known = this.#statements.get(sqlText);
    if (known) return known;
    const name = `dj_${++this.#next}`;
    const messages = await this.pglite.execProtocolStream(
      concat([...this.#closes(), serialize.parse({ name, text: sqlText }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    this.#close(this.#statements.set(sqlText, statement));
    return statement;
  }

  async #execute<R>(statement: Statement, params: readonly unknown[], inTransaction: boolean): Promise<Results<R>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pglite.serializers[statement.types[i]];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await this.pglite.execProtocolStream(
      concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      { syncToFs: !inTransaction },
    );
    return parse.parseResults(messages, this.pglite.parsers, { rowMode: 'object' })[0] as Results<R>;
  }

  /** These names are closed ahead of the next Parse. */
  #close(dropped: Statement[]): void {
    this.#closing.push(...dropped.map((d) => d.name));
  }

  /** Close messages for the names dropped since the last call, sent ahead of the next Parse. */
  #closes(): Uint8Array[] {
    const closes = this.#closing.map((name) => serialize.close({ type: 'S', name }));
    this.#closing = [];
    return closes;
  }
}

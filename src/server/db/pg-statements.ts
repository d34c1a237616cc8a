import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { RecentStatements, isChangedResult, runsPrepared } from './statements.js';

/**
 * Named statements on a PostgreSQL server. The runtime sends the same few statement texts over and over
 * with new values (a list page, a record, a session). node-postgres parses a named statement once per
 * connection and afterwards only binds the values, so the server neither parses nor plans it again (it
 * keeps a generic plan after five runs) and the text is not sent again. Which statements are named:
 * `statements.ts`. A statement the server refuses after a schema change is prepared again under a new name,
 * outside a transaction (inside one the error has aborted it).
 */
const BEGIN = /^\s*(begin|start transaction)\b/i;
const END = /^\s*(commit|rollback)\s*$/i;
/** A connection is replaced after this many queries, which bounds the statements one connection holds. */
export const CONNECTION_USES = 20_000;

export class StatementNames {
  readonly #names = new RecentStatements<string>();
  #next = 0;

  /** The name of a data statement's text (a new one the first time), or undefined for other statements. */
  nameOf(text: string): string | undefined {
    return this.#names.get(text) ?? (runsPrepared(text) ? this.rename(text) : undefined);
  }

  /** A new name for a text (node-postgres refuses one name for two texts, so names are never reused). */
  rename(text: string): string {
    const name = `dj_${++this.#next}`;
    this.#names.set(text, name);
    return name;
  }
}

/** A Kysely pool whose clients run data statements named. */
export function namedStatementsPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  return {
    connect: async () => named(await pool.connect(), names),
    end: () => pool.end(),
  };
}

function named(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
  let inTransaction = false;
  const query = async (text: string, values: ReadonlyArray<unknown>) => {
    const name = names.nameOf(text);
    if (!name) {
      if (BEGIN.test(text)) inTransaction = true;
      else if (END.test(text)) inTransaction = false;
      return client.query(text, values as unknown[]);
    }
    try {
      return await client.query({ name, text, values: values as unknown[] });
    } catch (error) {
      if (inTransaction || !isChangedResult(error)) throw error;
      return client.query({ name: names.rename(text), text, values: values as unknown[] });
    }
  };
  return {
    query: query as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  };
}

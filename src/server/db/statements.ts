/**
 * Which statements run prepared, on both engines (`pglite-statements.ts`, `pg-statements.ts`). The runtime
 * sends the same few texts again and again with new values; a prepared statement is parsed once per
 * connection, and after five runs PostgreSQL keeps a generic plan, made without the values.
 *
 * Prepared: data statements (SELECT, INSERT, UPDATE, DELETE, WITH). Not prepared: statements whose plan
 * must see the values. A text search (`db/text-search.ts`) is one: its plan folds away the ILIKE of a
 * one-character search and weighs how many rows hold the characters; a generic plan did neither and ran
 * the name search at half the speed of a plan made for the values.
 */
const DATA = /^\s*(select|insert|update|delete|with)\b/i;
const PLANNED_FOR_VALUES = /\bilike\b|\bstring_to_array\(/i;

/** Names beyond this are closed or forgotten, least recently used first (each holds a plan). */
export const MAX_PREPARED = 200;

/** Prepared statements by text, at most MAX_PREPARED; the least recently used goes first. */
export class RecentStatements<V> {
  // Map order is the order of use: the first entry is the least recently used.
  readonly #byText = new Map<string, V>();

  get size(): number {
    return this.#byText.size;
  }

  /** The value of a text, marked as just used. */
  get(text: string): V | undefined {
    const value = this.#byText.get(text);
    if (value !== undefined) {
      this.#byText.delete(text);
      this.#byText.set(text, value);
    }
    return value;
  }

  /** Sets a text's value; answers the values that no longer have a place (replaced or least recently used). */
  set(text: string, value: V): V[] {
    const dropped = this.delete(text);
    this.#byText.set(text, value);
    if (this.#byText.size > MAX_PREPARED) {
      const [oldest] = this.#byText.keys();
      dropped.push(...this.delete(oldest));
    }
    return dropped;
  }

  /** Removes a text; answers its value, if it had one. */
  delete(text: string): V[] {
    const value = this.#byText.get(text);
    if (value === undefined) return [];
    this.#byText.delete(text);
    return [value];
  }

  /** Removes every text; answers their values. */
  clear(): V[] {
    const values = [...this.#byText.values()];
    this.#byText.clear();
    return values;
  }
}

export function runsPrepared(sqlText: string): boolean {
  return DATA.test(sqlText) && !PLANNED_FOR_VALUES.test(sqlText);
}

/** The engine refuses a prepared statement whose result columns a schema change altered (`select *`). */
export function isChangedResult(error: unknown): boolean {
  return error instanceof Error && error.message.includes('cached plan must not change result type');
}

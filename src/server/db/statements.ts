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

export function runsPrepared(sqlText: string): boolean {
  return DATA.test(sqlText) && !PLANNED_FOR_VALUES.test(sqlText);
}

/** The engine refuses a prepared statement whose result columns a schema change altered (`select *`). */
export function isChangedResult(error: unknown): boolean {
  return error instanceof Error && error.message.includes('cached plan must not change result type');
}

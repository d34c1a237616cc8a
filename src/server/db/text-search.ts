/**
 * "Contains" text search that an index serves, in Chinese as in any language, on PostgreSQL servers
 * and on the embedded engine alike.
 *
 * The index is a GIN index over the characters of the lower-cased text:
 *   CREATE INDEX ... USING gin (string_to_array(lower(name), NULL))
 * and a search for “张伟” asks for rows holding every character of it (`@> '{张,伟}'`, answered by the
 * index) that also contain it (`ILIKE '%张伟%'`, checked on those rows only). A row containing the text
 * holds each of its characters, so the index condition never loses a match; ILIKE keeps the answer
 * exact.
 *
 * Why not pg_trgm: trigrams need three characters of search text (“张” or “张伟” give none), and under
 * the C locale of the embedded engine (and of many servers) pg_trgm drops CJK characters altogether, so
 * its index matched every row of a Chinese name column: slower than no index.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** The indexed expression, as DDL text for `column` (an identifier already quoted). */
export function charsIndexExpression(quotedColumn: string): string {
  return `string_to_array(lower(${quotedColumn}), NULL)`;
}

/** A LIKE/ILIKE pattern matching `text` anywhere, with %, _ and \ in the text taken literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` contains `text` (case-insensitive, wildcards literal), written so the character index of
 * the column serves it. `column` is a reference like `name` or `m.name`.
 *
 * For a one-character text the index condition is the whole answer (ILIKE compares lower-cased text:
 * containing “张” is holding the character 张), so the ILIKE is left out and PostgreSQL folds it away
 * when it plans the statement: the most common search (a surname) reads no name it does not count.
 */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  const lowered = sql`lower(${text}::text)`;
  return sql<SqlBool>`(string_to_array(lower(${ref}), NULL) @> string_to_array(${lowered}, NULL) AND (char_length(${lowered}) <= 1 OR ${ref} ILIKE ${likeContains(text)}))`;
}

/**
 * Pinyin order for name columns (issue 13 item 12). PostgreSQL's `zh-x-icu` collation would do it, but
 * the embedded engine (PGlite) ships ICU without locale data (its `zh` collation orders 周 before 阿), so
 * the runtime stores a sort key beside a module's name field and sorts by it, the same on both engines.
 * The key is ASCII (syllables with their tone number, which also ends each syllable: zhan1 < zhang1),
 * in a `COLLATE "C"` column, so no locale can reorder it.
 */
import { pinyin } from 'pinyin-pro';
import type { FieldInfo } from './module.js';

/** The sort key of a name: 阿依古丽 → a1yi1gu3li4, 张三 → zhang1san1; other letters and digits lower-cased. */
export function pinyinKey(text: unknown): string | null {
  if (text === null || text === undefined || text === '') return null;
  // The first character read as a surname: 单 shan, 曾 zeng.
  const syllables = pinyin(String(text), { toneType: 'num', type: 'array', surname: 'head', nonZh: 'consecutive', v: true });
  return syllables.join('').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The column holding a field's pinyin key. */
export const pinyinColumnOf = (field: FieldInfo) => `${field.column}__py`;

/** The key column's SQL type: ASCII compared byte by byte on every engine. */
export const PINYIN_SQL_TYPE = 'text COLLATE "C"';

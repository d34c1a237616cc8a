import type { ColumnType, Generated, Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { RuntimeModule } from './module.js';

/**
 * Identity-card numbers (issue 33.5, 38.4): lists and exports carry them masked, keeping the region code
 * (the first 6 characters) only; a record's detail carries them whole only for a caller who may edit that
 * record (read-policy.ts), and each such read is logged in sensitive_reads (migration 0150).
 */
declare module '../db/types.js' {
  interface DB {
    sensitive_reads: {
      id: Generated<number>;
      module: string;
      record_id: number;
      fields: string;
      user_id: number | null;
      username: ColumnType<string, string | undefined, string>;
      address: ColumnType<string, string | undefined, string>;
      at: ColumnType<Date, Date | undefined, Date>;
    };
  }
}

/** Field formats whose values are masked outside a record's detail. */
const SENSITIVE_FORMATS = new Set(['id-card']);

/** Whether a field's values are sensitive (masked; never sorted on, filtered by whole value only: read-policy.ts). */
export const isSensitiveFormat = (format: unknown): boolean => SENSITIVE_FORMATS.has(String(format));

/**
 * `110101199001011234` → `110101************`; values too short to hide anything are hidden whole. The birth
 * date, the sequence and the check digit are all hidden: the birth date and the gender are served beside
 * the number (member lists), and they fix 8 digits and the parity of the 17th; what is left of the
 * sequence (3 digits, one parity: 500 values) decides the check digit, so a masked number with everything
 * else the caller sees leaves 500 candidates (docs/security.md, "Masking"). Keeping the last 1 or 4
 * characters would leave 1000 / 11 ≈ 91, or one.
 */
export function maskIdCard(value: string): string {
  if (value.length <= 10) return '*'.repeat(value.length);
  return `${value.slice(0, 6)}${'*'.repeat(value.length - 6)}`;
}

/** A value as masked by maskIdCard (or by its earlier form, first 6 and last 4 kept): importing an exported file back must not store it over the real one. */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && /^[^*]{0,6}\*+[^*]{0,4}$/.test(value) && value.includes('****');
}

const cache = new WeakMap<RuntimeModule, string[]>();

/** Names of a module's sensitive fields (none for most modules). */
export function sensitiveFields(m: RuntimeModule): string[] {
  let names = cache.get(m);
  if (!names) {
    names = [...m.fields.values()].filter((f) => f.column && SENSITIVE_FORMATS.has(String(f.schema.format))).map((f) => f.name);
    cache.set(m, names);
  }
  return names;
}

/** Masks the sensitive fields of records in place (list rows, export rows); answers the records. */
export function maskRecords<T extends Record<string, unknown>>(m: RuntimeModule, records: T[]): T[] {
  const names = sensitiveFields(m);
  if (!names.length) return records;
  for (const r of records) {
    for (const name of names) {
      const v = r[name];
      if (typeof v === 'string' && v) (r as Record<string, unknown>)[name] = maskIdCard(v);
    }
  }
  return records;
}

/** Records that the reader saw a record's sensitive fields whole (only when it has any, filled in). */
export async function logSensitiveRead(
  db: Kysely<DB>,
  m: RuntimeModule,
  record: Record<string, unknown>,
  reader: { id: number | null; username: string },
  address: string,
): Promise<void> {
  const shown = sensitiveFields(m).filter((name) => typeof record[name] === 'string' && record[name] !== '');
  if (!shown.length) return;
  await db
    .insertInto('sensitive_reads')
    .values({ module: m.id, record_id: record.id as number, fields: shown.join(','), user_id: reader.id, username: reader.username, address })
    .execute();
}

import type { Kysely } from 'kysely';
import { computeField, localToday } from '../../shared/module-schema/computed.js';
import type { DB } from '../db/types.js';
import type { RuntimeContext } from './context.js';
import type { FieldInfo, RuntimeModule } from './module.js';

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]);

/** What the select list must read for these fields: their own columns and the inputs of computed ones. */
export function columnsFor(m: RuntimeModule, fields: FieldInfo[]): FieldInfo[] {
  const names = new Set<string>();
  for (const f of fields) {
    if (f.column) names.add(f.name);
    f.schema['x-computed']?.args.forEach((a) => names.add(a));
  }
  return [...names].map((n) => m.field(n)!).filter((f) => f?.column);
}

/** `column as field` select items: rows come back keyed by API field names. */
export function selection(fields: FieldInfo[], system: string[]): string[] {
  return [...system, ...fields.map((f) => `${f.column} as ${f.name}`)];
}

/**
 * Turns stored rows into API records: computed fields computed, dictionary labels under `<field>Label`,
 * reference names under `<field>Name` (one query per referenced module for the whole page, unless the
 * rows carry them already: `namedInRows`, read by the list statement), and only the requested fields
 * kept besides the system ones.
 */
export async function decorate(
  ctx: RuntimeContext,
  m: RuntimeModule,
  rows: Record<string, unknown>[],
  fields: FieldInfo[],
  system: string[],
  /** A transaction's handle when called inside one; labels then bypass the dictionary cache. */
  db: Kysely<DB> = ctx.db,
  /** Reference fields whose `<field>Name` the rows carry. */
  namedInRows: ReadonlySet<string> = new Set(),
): Promise<Record<string, unknown>[]> {
  const today = localToday();
  const out = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const s of system) record[s] = row[s];
    for (const f of fields) {
      const spec = f.schema['x-computed'];
      record[f.name] = spec ? computeField(spec, row, today) : (row[f.name] ?? null);
    }
    return record;
  });
  for (const f of fields) {
    if (f.dict) {
      const labels = await ctx.dictLabels(f.dict, db);
      const key = `${f.name}Label`;
      for (const r of out) {
        const v = r[f.name];
        r[key] = v === null ? null : typeof v === 'string' ? (labels.get(v) ?? v) : labelOf(v, (x) => labels.get(String(x)));
      }
    }
    if (f.schema['x-choices'] === 'modules') {
      for (const r of out) r[`${f.name}Label`] = labelOf(r[f.name], (v) => ctx.registry.get(String(v))?.title);
    }
    if (f.labels) {
      const labels = f.labels;
      for (const r of out) r[`${f.name}Label`] = labelOf(r[f.name], (v) => labels.get(String(v)));
    }
    if (f.ref && namedInRows.has(f.name)) {
      const key = `${f.name}Name`;
      out.forEach((r, i) => (r[key] = rows[i][key] ?? null));
    } else if (f.ref) {
      const ids = [...new Set(out.flatMap((r) => listOf(r[f.name]) as number[]))];
      const names = await ctx.refNames(f.ref, ids, db);
      for (const r of out) r[`${f.name}Name`] = labelOf(r[f.name], (v) => names.get(v as number), false);
    }
  }
  return out;
}

/**
 * The label of a value, or of each element of an array joined with 、; null for empty. A value without a
 * label shows as itself (a dictionary value since removed), or is left out (`keepUnknown` false: an id
 * whose record cannot be named).
 */
export function labelOf(value: unknown, lookup: (v: unknown) => string | undefined, keepUnknown = true): string | null {
  const labels = listOf(value).flatMap((v) => {
    const label = lookup(v);
    return label !== undefined ? [label] : keepUnknown ? [String(v)] : [];
  });
  return labels.length ? labels.join('、') : null;
}

/**
 * What a template's placeholders may name, and their values for one record (docs/work.md "Templates"):
 * every field of the source module by its name or its title (`{name}` or `{姓名}`), a field of a referenced
 * record through the reference field (`{orgId.name}`, `{所在党组织.组织名称}`), a table-of-rows field as a loop
 * over its columns, and `{今天}` / `{today}`. Values are as people read them: dictionary labels, names of
 * organisations and persons, dates as 2026年11月27日, 是/否. Pure: records come in decorated (labels and
 * names) and already masked where the reader may not see a value whole.
 */
import { formOrder, isRowTable } from '../../../shared/module-schema/fields.js';
import { fieldInfo, type FieldInfo, type RuntimeModule } from '../../runtime/module.js';
import type { TemplateData, TemplateTags } from './placeholders.js';

export const TODAY_NAMES = ['今天', 'today'];

type Record_ = Record<string, unknown>;

/** '2026-11-27' (or a Date, or an ISO time) → 2026年11月27日. */
export function chineseDate(value: unknown): string {
  const d = value instanceof Date ? value.toISOString() : String(value ?? '');
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(d);
  return m ? `${Number(m[1])}年${Number(m[2])}月${Number(m[3])}日` : d;
}

/** A field's value as text for a document. */
export function fieldText(f: Pick<FieldInfo, 'name' | 'kind' | 'dict' | 'ref' | 'labels' | 'schema'>, record: Record_): string {
  const v = record[f.name];
  if (v === null || v === undefined || v === '') return '';
  if (f.dict || f.labels) return String(record[`${f.name}Label`] ?? v);
  if (f.ref) return String(record[`${f.name}Name`] ?? (Array.isArray(v) ? v.join('、') : v));
  switch (f.kind) {
    case 'boolean':
      return v ? '是' : '否';
    case 'date':
    case 'date-time':
      return chineseDate(v);
    case 'array':
      return Array.isArray(v) ? v.join('、') : String(v);
    default:
      return String(v);
  }
}

/** The columns of a table-of-rows field. */
function rowColumns(f: FieldInfo): FieldInfo[] {
  const props = (f.schema.items?.properties ?? {}) as Record<string, FieldInfo['schema']>;
  return Object.entries(props).map(([name, schema]) => fieldInfo(name, schema));
}

const fieldsOf = (m: RuntimeModule) => formOrder(m.schema).map((n) => m.field(n)!).filter(Boolean);
const namesOf = (f: Pick<FieldInfo, 'name' | 'title'>) => (f.title && f.title !== f.name ? [f.name, f.title] : [f.name]);

/** What a module's templates may name: plain names, and each loop's column names. */
export interface Vocabulary {
  names: Set<string>;
  loops: Map<string, Set<string>>;
}

export function vocabulary(m: RuntimeModule, moduleOf: (id: string) => RuntimeModule | undefined): Vocabulary {
  const names = new Set(TODAY_NAMES);
  const loops = new Map<string, Set<string>>();
  for (const f of fieldsOf(m)) {
    if (isRowTable(f.schema)) {
      const columns = new Set(rowColumns(f).flatMap(namesOf));
      for (const n of namesOf(f)) loops.set(n, columns);
      continue;
    }
    namesOf(f).forEach((n) => names.add(n));
    const target = f.ref && f.kind !== 'array' ? moduleOf(f.ref) : undefined;
    if (target) for (const n of namesOf(f)) for (const g of fieldsOf(target)) if (!isRowTable(g.schema)) namesOf(g).forEach((gn) => names.add(`${n}.${gn}`));
  }
  return { names, loops };
}

/** The placeholders of a template that its module does not know, as written (`{x}`, `{#rows}…{y}`). */
export function unknownPlaceholders(tags: TemplateTags, v: Vocabulary): string[] {
  const unknown = tags.names.filter((n) => !v.names.has(n)).map((n) => `{${n}}`);
  for (const [loop, inner] of Object.entries(tags.loops)) {
    const columns = v.loops.get(loop);
    // A section over a plain field (`{#党员}…{/党员}`, shown when filled) is allowed too.
    if (!columns && !v.names.has(loop)) unknown.push(`{#${loop}}`);
    else for (const n of inner) if (!columns?.has(n) && !v.names.has(n)) unknown.push(`{${n}}`);
  }
  return [...new Set(unknown)];
}

/** The reference fields a template reaches through (`orgId` of `{orgId.name}`), by the field's own name. */
export function referencedFields(m: RuntimeModule, tags: TemplateTags): FieldInfo[] {
  const heads = new Set([...tags.names, ...Object.values(tags.loops).flat()].filter((n) => n.includes('.')).map((n) => n.slice(0, n.indexOf('.'))));
  return fieldsOf(m).filter((f) => f.ref && namesOf(f).some((n) => heads.has(n)));
}

/**
 * The values of one decorated record, under every name its placeholders may use. `referenced` holds the
 * decorated records of reference fields (field name → its module and record) the template reaches through.
 */
export function recordData(m: RuntimeModule, record: Record_, referenced: Map<string, { module: RuntimeModule; record: Record_ }>, today: string): TemplateData {
  const data: TemplateData = {};
  for (const n of TODAY_NAMES) data[n] = chineseDate(today);
  for (const f of fieldsOf(m)) {
    if (isRowTable(f.schema)) {
      const columns = rowColumns(f);
      const rows = (Array.isArray(record[f.name]) ? record[f.name] : []) as Record_[];
      const items = rows.map((row) => Object.fromEntries(columns.flatMap((c) => namesOf(c).map((n) => [n, fieldText(c, row)]))));
      for (const n of namesOf(f)) data[n] = items;
      continue;
    }
    const text = fieldText(f, record);
    for (const n of namesOf(f)) data[n] = text;
    const ref = referenced.get(f.name);
    if (ref) for (const n of namesOf(f)) for (const g of fieldsOf(ref.module)) if (!isRowTable(g.schema)) for (const gn of namesOf(g)) data[`${n}.${gn}`] = fieldText(g, ref.record);
  }
  return data;
}

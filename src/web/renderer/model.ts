/**
 * Readings of a module schema for the pages: list columns, filters, how a value is shown. Pure
 * functions, so tests can check them without rendering.
 */
import { parseTime } from '../../shared/format';
import { fieldKind, formOrder, isWritable, listColumnFields, type FieldKind } from '../../shared/module-schema/fields';
import type { FieldSchema, FilterOp, ModuleSchema } from '../../shared/module-schema/types';
import { stateCodes, stateTitle, stateTone, type WorkflowSchema } from '../../shared/module-schema/workflow';

export interface ColumnSpec {
  field: string;
  title: string;
  width?: number;
  fixed?: 'left' | 'right';
  ellipsis: boolean;
  /** The server sorts on stored, non-array fields only. */
  sortable: boolean;
  schema: FieldSchema;
  /** A workflow's state column: how each value is shown (a coloured tag). */
  tone?: (value: unknown) => string;
}

export interface FilterSpec {
  field: string;
  op: FilterOp;
  title: string;
  kind: FieldKind;
  schema: FieldSchema;
  /** Choices with labels (a workflow's states). */
  options?: { value: number | string; label: string }[];
}

/** Width of a column the schema leaves open, by what it usually holds. */
function defaultWidth(f: FieldSchema): number {
  const kind = fieldKind(f);
  if (kind === 'date') return 110;
  if (kind === 'date-time') return 160;
  if (kind === 'boolean' || kind === 'integer' || kind === 'number') return 90;
  if (f.format === 'id-card') return 180;
  if (f.format === 'mobile') return 125;
  if (f['x-ref']) return 180;
  if (f['x-dict'] || f.enum) return 110;
  return Math.max(100, Math.min(200, f.title.length * 16 + 40));
}

/** Room for a column's title and its sort arrows, so a header is never cut (党籍状态, not 党籍状). */
const titleWidth = (title: string) => title.length * 15 + 60;

/** Room for the longest state tag of a workflow (递交入党申请书 whole, not 递交申请…). */
function stateWidth(wf: WorkflowSchema): number {
  const longest = Math.max(0, ...Object.keys(wf.states).map((code) => stateTitle(wf, code).length));
  return Math.min(260, longest * 13 + 56);
}

/** The list columns of x-list.columns (else the first six fields), with widths and sortability. */
export function listColumns(schema: ModuleSchema): ColumnSpec[] {
  const wf = schema['x-workflow'];
  const details = new Map((schema['x-list']?.columns ?? []).flatMap((c) => (typeof c === 'string' ? [] : [[c.field, c] as const])));
  return listColumnFields(schema)
    .filter((name) => schema.properties[name])
    .map((name) => {
      const f = schema.properties[name];
      const d = details.get(name);
      return {
        field: name,
        title: f.title,
        width: Math.max(d?.width ?? defaultWidth(f), titleWidth(f.title), wf?.stateField === name ? stateWidth(wf) : 0),
        fixed: d?.fixed,
        ellipsis: d?.ellipsis ?? true,
        // Identity numbers are not sorted on (the server refuses it: the order would tell masked values).
        sortable: !f['x-computed'] && f.type !== 'array' && f.format !== 'id-card',
        schema: f,
        ...(wf?.stateField === name && { tone: (v: unknown) => stateTone(wf, v) }),
      };
    });
}

/** The filter bar of x-list.filters. */
export function listFilters(schema: ModuleSchema): FilterSpec[] {
  const wf = schema['x-workflow'];
  const declared = schema['x-list']?.filters ?? [];
  // A workflow's list always filters on its state (the server accepts it whether or not x-list names it).
  const all = wf && !declared.some((f) => f.field === wf.stateField) ? [...declared, { field: wf.stateField, op: 'in' as const, title: undefined }] : declared;
  return all
    .filter((f) => schema.properties[f.field])
    .map((f) => {
      const field = schema.properties[f.field];
      const options = wf?.stateField === f.field ? stateCodes(wf).map((code) => ({ value: code, label: stateTitle(wf, code) })) : undefined;
      return { field: f.field, op: f.op, title: f.title ?? field.title, kind: fieldKind(field), schema: field, ...(options && { options }) };
    });
}

/** The default sort of x-list (`field,dir`), if any. */
export function defaultSort(schema: ModuleSchema): { id: string; desc: boolean } | undefined {
  const [field, dir] = (schema['x-list']?.sort ?? '').split(',');
  return field && schema.properties[field] ? { id: field, desc: dir === 'desc' } : undefined;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.every(isEmpty));

/**
 * The filter bar's values as the list body: empty inputs left out, ranges as `[from, to]` with an open
 * end as null, numbers typed as text turned into numbers.
 */
export function filterBody(specs: FilterSpec[], values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of specs) {
    const v = values[spec.field];
    if (isEmpty(v)) continue;
    if (spec.op === 'range') {
      const [from, to] = v as unknown[];
      body[spec.field] = [isEmpty(from) ? null : from, isEmpty(to) ? null : to];
    } else if ((spec.kind === 'integer' || spec.kind === 'number') && typeof v === 'string') {
      const n = Number(v.trim());
      if (Number.isFinite(n)) body[spec.field] = n;
    } else body[spec.field] = typeof v === 'string' ? v.trim() : v;
  }
  return body;
}

/** 'YYYY-MM-DD HH:mm' of an instant, in the browser's time zone. */
export const formatDateTime = (value: unknown): string => parseTime(value as string, '{y}-{m}-{d} {h}:{i}');

/**
 * A stored file reference: `/api/file/view?id=<key>&name=<file name>` (what the upload widget writes; the
 * key is the file's unguessable one, older references carry its number).
 */
export function fileRef(value: unknown): { id: string; name: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /[?&]id=([0-9a-f]{32}|\d+)(?=&|$)/.exec(value);
  if (!match) return undefined;
  const name = /[?&]name=([^&]*)/.exec(value);
  return { id: match[1], name: name ? decodeURIComponent(name[1]) : '附件' };
}

export function fileRefValue(file: { id: string | number; name: string }): string {
  return `/api/file/view?id=${file.id}&name=${encodeURIComponent(file.name)}`;
}

/**
 * The text of a field of an API record: the dictionary label or reference name the API added, 是/否,
 * dates and instants formatted, lists joined with 、, a file by its name. Empty is ''.
 */
export function displayText(record: Record<string, unknown>, name: string, f: FieldSchema): string {
  const value = record[name];
  // Dictionary labels, and the labels the API adds to other coded fields (a workflow's state).
  if (f['x-dict'] || typeof record[`${name}Label`] === 'string') return textOf(record[`${name}Label`] ?? value);
  if (f['x-ref']) return textOf(record[`${name}Name`] ?? value);
  if (isEmpty(value)) return '';
  if (f.type === 'boolean') return value ? '是' : '否';
  if (f.format === 'date-time') return formatDateTime(value);
  if (f.format === 'file' || f.format === 'image') return fileRef(value)?.name ?? String(value);
  return textOf(value);
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join('、');
  return String(value);
}

/** Whether a field with x-show-if is shown for the value of the field it depends on. */
export function showIfMatches(condition: NonNullable<FieldSchema['x-show-if']>, value: unknown): boolean {
  if (isEmpty(value)) return false;
  if (!condition.in) return true;
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => condition.in!.some((c) => String(c) === String(v)));
}

/** The fields a record's detail shows, in form order. */
export function detailFields(schema: ModuleSchema): string[] {
  return formOrder(schema);
}

/** Field values of a record the form can hold: schema fields only, no nulls (ajv would call them wrong types). */
export function toFormData(schema: ModuleSchema, record: Record<string, unknown> | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (!record) return data;
  for (const name of Object.keys(schema.properties)) {
    const v = record[name];
    if (v !== null && v !== undefined) data[name] = v;
  }
  return data;
}

/**
 * The write body of a form: every writable field (null for empty, so an update clears it), fields
 * hidden by x-show-if emptied, plus id and version for an update.
 */
export function toWriteBody(schema: ModuleSchema, values: Record<string, unknown>, editing?: { id: number; version: number }): Record<string, unknown> {
  const body: Record<string, unknown> = editing ? { id: editing.id, version: editing.version } : {};
  for (const [name, f] of Object.entries(schema.properties)) {
    if (!isWritable(f)) continue;
    const condition = f['x-show-if'];
    const shown = !condition || showIfMatches(condition, values[condition.field]);
    body[name] = shown && !isEmpty(values[name]) ? values[name] : null;
  }
  return body;
}

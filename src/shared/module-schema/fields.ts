/**
 * Readings of a module schema that the server and the web renderer must agree on: which fields are
 * visible, writable, listed; the storage kind of a field; the permission of each action.
 */
import { MODULE_ACTIONS, type FieldSchema, type ModuleAction, type ModuleSchema } from './types.js';

/** How a field is stored and compared: its type, refined by the date formats. */
export type FieldKind = 'string' | 'date' | 'date-time' | 'integer' | 'number' | 'boolean' | 'array';

export function fieldKind(field: FieldSchema): FieldKind {
  if (field.type === 'string' && (field.format === 'date' || field.format === 'date-time')) return field.format;
  return field.type;
}

/** A table of rows: an array whose items are objects with their own columns (items.properties). */
export function isRowTable(field: FieldSchema): boolean {
  return field.type === 'array' && field.items?.type === 'object';
}

/** Typed in by users (forms, imports): not read-only and not computed. */
export function isWritable(field: FieldSchema): boolean {
  return !field.readOnly && !field['x-computed'];
}

/** Has a database column: everything except computed fields. */
export function isStored(field: FieldSchema): boolean {
  return !field['x-computed'];
}

/** The permission string of every action: x-permissions, else `<id>:<action>`. */
export function modulePermissions(schema: ModuleSchema): Record<ModuleAction, string> {
  const own = schema['x-permissions'] ?? {};
  return Object.fromEntries(MODULE_ACTIONS.map((a) => [a, own[a] ?? `${schema['x-id']}:${a}`])) as Record<ModuleAction, string>;
}

/** An empty value: nothing, an empty text or an empty list. */
export const isBlank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Required fields a stored record lacks that a save of it may leave empty: a field made required after
 * records existed binds new records, and existing ones only with `x-required-from: "update"`.
 */
export function requiredLackedBy(schema: ModuleSchema, stored: Record<string, unknown>): string[] {
  return (schema.required ?? []).filter((name) => schema.properties[name]?.['x-required-from'] !== 'update' && isBlank(stored[name]));
}

/** Field names of the list columns: x-list.columns, else the first six fields that are not arrays. */
export function listColumnFields(schema: ModuleSchema): string[] {
  const columns = schema['x-list']?.columns;
  if (columns?.length) return columns.map((c) => (typeof c === 'string' ? c : c.field));
  return Object.entries(schema.properties).filter(([, f]) => f.type !== 'array').slice(0, 6).map(([name]) => name);
}

/** The field that names a record for references: x-name-field, else the first string list column. */
export function nameFieldOf(schema: ModuleSchema): string | undefined {
  if (schema['x-name-field']) return schema['x-name-field'];
  return listColumnFields(schema).find((name) => fieldKind(schema.properties[name]) === 'string');
}

/** Field names in form order: x-form.order, then x-form.groups, then the remaining properties. */
export function formOrder(schema: ModuleSchema): string[] {
  const seen = new Set<string>();
  const form = schema['x-form'];
  for (const name of [...(form?.order ?? []), ...(form?.groups ?? []).flatMap((g) => g.fields), ...Object.keys(schema.properties)]) {
    if (schema.properties[name]) seen.add(name);
  }
  return [...seen];
}

/**
 * The schema with every x-hidden field removed, and every mention of it too (required, columns, filters,
 * sort, form, unique sets, conditions, computed fields that read it). This is what the API serves and
 * validates against: a hidden field does not exist for users, while its column and data stay.
 */
export function effectiveSchema(merged: ModuleSchema): ModuleSchema {
  const hidden = new Set(Object.entries(merged.properties).filter(([, f]) => f['x-hidden']).map(([name]) => name));
  // A computed field that reads a hidden field is hidden with it.
  for (const [name, f] of Object.entries(merged.properties)) {
    if (f['x-computed']?.args.some((a) => hidden.has(a))) hidden.add(name);
  }
  if (hidden.size === 0) return merged;
  const keep = (name: string) => !hidden.has(name);
  const properties = Object.fromEntries(
    Object.entries(merged.properties)
      .filter(([name]) => keep(name))
      .map(([name, f]) => {
        if (!f['x-show-if'] || keep(f['x-show-if'].field)) return [name, f];
        const { 'x-show-if': _dropped, ...rest } = f;
        return [name, rest];
      }),
  );
  const result: ModuleSchema = { ...merged, properties };
  if (merged.required) result.required = merged.required.filter(keep);
  const list = merged['x-list'];
  if (list) {
    result['x-list'] = {
      ...list,
      ...(list.columns && { columns: list.columns.filter((c) => keep(typeof c === 'string' ? c : c.field)) }),
      ...(list.filters && { filters: list.filters.filter((f) => keep(f.field)) }),
    };
    if (list.sort && !keep(list.sort.split(',')[0])) delete result['x-list'].sort;
  }
  const form = merged['x-form'];
  if (form) {
    result['x-form'] = {
      ...form,
      ...(form.order && { order: form.order.filter(keep) }),
      ...(form.groups && { groups: form.groups.map((g) => ({ ...g, fields: g.fields.filter(keep) })) }),
    };
  }
  if (merged['x-unique']) result['x-unique'] = merged['x-unique'].filter((set) => set.every(keep));
  if (merged['x-name-field'] && !keep(merged['x-name-field'])) delete result['x-name-field'];
  return result;
}

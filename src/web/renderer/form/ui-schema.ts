/**
 * A module schema as rjsf needs it: the JSON schema of the form, the uiSchema naming a widget for every
 * field, and the layout (groups or tabs, columns) of x-form.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { fieldKind, formOrder, isRowTable, isWritable } from '../../../shared/module-schema/fields.js';
import type { FieldSchema, ModuleSchema } from '../../../shared/module-schema/types.js';
import type { RecordWidgetName } from './widgets.js';

export interface FormSection {
  title?: string;
  fields: string[];
}

export interface FormLayout {
  kind: 'single' | 'groups' | 'tabs';
  columns: number;
  sections: FormSection[];
  /** Fields that take a whole row (text areas, files). */
  wide: Set<string>;
}

/** The widget of a field: x-widget when it names one, else by type, format, dictionary or reference. */
export function widgetOf(f: FieldSchema): { widget: RecordWidgetName; options?: Record<string, unknown> } {
  if (isRowTable(f)) return { widget: 'rows', options: { readonly: !isWritable(f) } };
  if (!isWritable(f)) return { widget: 'readonly' };
  const w = f['x-widget'];
  const mode = w === 'radio' ? 'radio' : w === 'checkbox' ? 'checkbox' : 'select';
  if (w === 'roster' && f['x-ref'] && f.type === 'array') return { widget: 'roster' };
  if (f['x-ref']) return { widget: 'ref' };
  if (f['x-dict']) return { widget: 'dict', options: { mode } };
  if (f.enum || f.items?.enum) return { widget: 'enum', options: { mode } };
  if (f['x-choices'] === 'modules') return { widget: 'modules', options: { mode: 'select' } };
  if (f.format === 'file' || f.format === 'image' || w === 'upload' || w === 'image') return { widget: 'upload' };
  const kind = fieldKind(f);
  if (kind === 'date' || w === 'date') return { widget: 'date' };
  if (kind === 'date-time' || w === 'datetime') return { widget: 'date', options: { time: true } };
  if (kind === 'boolean' || w === 'switch') return { widget: 'switch' };
  if (kind === 'integer' || kind === 'number' || w === 'number') return { widget: 'number' };
  if (f.format === 'textarea' || f.format === 'rich-text' || w === 'textarea' || w === 'rich-text') return { widget: 'textarea' };
  return { widget: 'text' };
}

function placeholderOf(f: FieldSchema, widget: RecordWidgetName): string | undefined {
  if (f['x-placeholder']) return f['x-placeholder'];
  if (widget === 'readonly' || widget === 'upload' || widget === 'switch') return undefined;
  const choose = widget === 'dict' || widget === 'enum' || widget === 'modules' || widget === 'ref' || widget === 'date';
  return `${choose ? '请选择' : '请输入'}${f.title}`;
}

/** The form's JSON schema: the module's visible fields, as the server validates them. */
export function formSchema(schema: ModuleSchema): RJSFSchema {
  return {
    type: 'object',
    properties: schema.properties as unknown as RJSFSchema['properties'],
    required: schema.required ?? [],
    additionalProperties: false,
  };
}

export function formUiSchema(schema: ModuleSchema): UiSchema {
  const ui: UiSchema = {
    'ui:order': formOrder(schema),
    'ui:submitButtonOptions': { norender: true },
  };
  for (const [name, f] of Object.entries(schema.properties)) {
    const { widget, options } = widgetOf(f);
    ui[name] = { 'ui:widget': widget, 'ui:placeholder': placeholderOf(f, widget), ...(options && { 'ui:options': options }) };
  }
  return ui;
}

const isWide = (f: FieldSchema) =>
  isRowTable(f) || f.format === 'textarea' || f.format === 'rich-text' || f.format === 'file' || f['x-widget'] === 'textarea' || f['x-widget'] === 'rich-text';

/** The sections of x-form: its groups (fields not in any group follow in a last one), or one section. */
export function formLayout(schema: ModuleSchema): FormLayout {
  const form = schema['x-form'];
  const order = formOrder(schema);
  const columns = form?.columns ?? (order.length > 8 ? 2 : 1);
  const wide = new Set(order.filter((n) => isWide(schema.properties[n])));
  const kind = form?.layout ?? 'single';
  if (kind === 'single' || !form?.groups?.length) return { kind: 'single', columns, sections: [{ fields: order }], wide };
  const grouped = new Set(form.groups.flatMap((g) => g.fields));
  const sections: FormSection[] = form.groups
    .map((g) => ({ title: g.title, fields: g.fields.filter((n) => schema.properties[n]) }))
    .filter((s) => s.fields.length);
  const rest = order.filter((n) => !grouped.has(n));
  if (rest.length) sections.push({ title: '其他信息', fields: rest });
  return { kind, columns, sections, wide };
}

/** Fields whose values other fields read (x-show-if conditions, x-computed arguments). */
export function watchedFields(schema: ModuleSchema): string[] {
  const names = new Set<string>();
  for (const f of Object.values(schema.properties)) {
    if (f['x-show-if']) names.add(f['x-show-if'].field);
    f['x-computed']?.args.forEach((a) => names.add(a));
  }
  // x-fill asks the server when its fields change (fills.ts).
  for (const f of schema['x-fill'] ?? []) f.on.forEach((n) => names.add(n));
  return [...names];
}

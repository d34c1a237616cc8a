/**
 * The designer's model of a form: a list of fields of the runtime's kinds, turned into the module
 * schema the server stores (and the preview renders). Pure, so the page and its tests share it.
 */
import type { FieldSchema, ModuleSchema, RowFieldSchema } from '../../../shared/module-schema/types';

export type FieldKindName = 'text' | 'textarea' | 'number' | 'date' | 'dict' | 'org' | 'person' | 'file' | 'rows' | 'computed';

export const FIELD_KINDS: { value: FieldKindName; label: string }[] = [
  { value: 'text', label: '文本' },
  { value: 'textarea', label: '多行文本' },
  { value: 'number', label: '数字' },
  { value: 'date', label: '日期' },
  { value: 'dict', label: '字典选项' },
  { value: 'org', label: '党组织' },
  { value: 'person', label: '人员' },
  { value: 'file', label: '附件' },
  { value: 'rows', label: '表格（多行）' },
  { value: 'computed', label: '计算字段' },
];

export interface DesignColumn {
  name: string;
  title: string;
  type: 'string' | 'number' | 'date';
  required?: boolean;
}

export interface DesignField {
  name: string;
  title: string;
  kind: FieldKindName;
  required?: boolean;
  description?: string;
  min?: number;
  max?: number;
  maxLength?: number;
  dict?: string;
  columns?: DesignColumn[];
  /** computed: a function of src/shared/module-schema/computed.ts and its fields. */
  fn?: string;
  args?: string[];
}

/** The next free name with this prefix (field names are the schema's property names). */
export function nextName(prefix: string, taken: string[]): string {
  let n = taken.length + 1;
  while (taken.includes(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

function columnSchema(c: DesignColumn): RowFieldSchema {
  if (c.type === 'number') return { type: 'number', title: c.title };
  if (c.type === 'date') return { type: 'string', title: c.title, format: 'date' };
  return { type: 'string', title: c.title, maxLength: 200 };
}

export function fieldSchema(f: DesignField): FieldSchema {
  const base = { title: f.title, ...(f.description && { description: f.description }) };
  switch (f.kind) {
    case 'textarea':
      return { ...base, type: 'string', format: 'textarea', maxLength: f.maxLength ?? 2000 };
    case 'number':
      return { ...base, type: 'number', ...(f.min !== undefined && { minimum: f.min }), ...(f.max !== undefined && { maximum: f.max }) };
    case 'date':
      return { ...base, type: 'string', format: 'date' };
    case 'dict':
      return { ...base, type: 'string', 'x-dict': f.dict ?? '', 'x-widget': 'select' };
    case 'org':
      return { ...base, type: 'integer', 'x-ref': 'org', 'x-widget': 'org-tree' };
    case 'person':
      return { ...base, type: 'integer', 'x-ref': 'member', 'x-widget': 'person' };
    case 'file':
      return { ...base, type: 'string', format: 'file' };
    case 'rows': {
      const columns = f.columns ?? [];
      const required = columns.filter((c) => c.required).map((c) => c.name);
      return {
        ...base, type: 'array', maxItems: 200,
        items: { type: 'object', additionalProperties: false, properties: Object.fromEntries(columns.map((c) => [c.name, columnSchema(c)])), ...(required.length && { required }) },
      };
    }
    case 'computed':
      return { ...base, type: f.fn === 'addDays' ? 'string' : 'integer', ...(f.fn === 'addDays' && { format: 'date' }), 'x-computed': { fn: f.fn ?? '', args: f.args ?? [] } } as FieldSchema;
    default:
      return { ...base, type: 'string', maxLength: f.maxLength ?? 200 };
  }
}

/** The designed form as a module schema (the server adds the filling organisation and the form's keywords). */
export function designedSchema(title: string, fields: DesignField[]): ModuleSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
    required: fields.filter((f) => f.required && f.kind !== 'computed').map((f) => f.name),
  } as unknown as ModuleSchema;
}

/** The designer's fields back from a stored schema (editing a form); the filling organisation is the server's. */
export function designFields(schema: ModuleSchema): DesignField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .filter(([name]) => name !== 'orgId')
    .map(([name, f]) => {
      const common = { name, title: f.title, required: required.has(name), description: f.description };
      if (f['x-computed']) return { ...common, kind: 'computed', fn: f['x-computed'].fn, args: f['x-computed'].args };
      if (f.type === 'array' && f.items?.type === 'object') {
        const cols = f.items.properties ?? {};
        const req = new Set(f.items.required ?? []);
        return { ...common, kind: 'rows', columns: Object.entries(cols).map(([c, s]) => ({ name: c, title: s.title, type: s.format === 'date' ? 'date' : s.type === 'string' ? 'string' : 'number', ...(req.has(c) && { required: true }) })) };
      }
      if (f['x-ref'] === 'org') return { ...common, kind: 'org' };
      if (f['x-ref']) return { ...common, kind: 'person' };
      if (f['x-dict']) return { ...common, kind: 'dict', dict: f['x-dict'] };
      if (f.format === 'file') return { ...common, kind: 'file' };
      if (f.format === 'date') return { ...common, kind: 'date' };
      if (f.format === 'textarea') return { ...common, kind: 'textarea', maxLength: f.maxLength };
      if (f.type === 'number' || f.type === 'integer') return { ...common, kind: 'number', min: f.minimum, max: f.maximum };
      return { ...common, kind: 'text', maxLength: f.maxLength };
    }) as DesignField[];
}

/**
 * What the designer refuses before saving, in Chinese, by field name (issue 43.2): shown on the field, so
 * no schema error of the server reaches the designer for a field left incomplete.
 */
export function designProblems(fields: DesignField[]): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (f: DesignField, text: string) => (problems[f.name] ??= []).push(text);
  const titles = new Map<string, number>();
  for (const f of fields) titles.set(f.title.trim(), (titles.get(f.title.trim()) ?? 0) + 1);
  for (const f of fields) {
    if (!f.title.trim()) add(f, '请填写字段名称');
    else if ((titles.get(f.title.trim()) ?? 0) > 1) add(f, `字段名称“${f.title.trim()}”重复`);
    if (f.kind === 'dict' && !f.dict) add(f, '请选择字典');
    if (f.kind === 'number' && f.min !== undefined && f.max !== undefined && f.min > f.max) add(f, '最小值不能大于最大值');
    if (f.kind === 'computed' && !f.fn) add(f, '请选择计算方式');
    if (f.kind === 'computed' && !f.args?.length) add(f, '请选择参与计算的字段');
    if (f.kind === 'rows' && !f.columns?.length) add(f, '请至少添加一列');
    if (f.kind === 'rows' && f.columns?.some((c) => !c.title.trim())) add(f, '请填写每一列的名称');
  }
  return problems;
}

import metaSchema from '../../../schemas/meta/module.schema.json' with { type: 'json' };
import { Ajv2020, addFormats, type Ajv } from './ajv.js';
import { COMPUTED_FUNCTIONS } from './computed.js';
import { fieldKind } from './fields.js';
import type { FieldSchema, FilterOp, ModuleSchema } from './types.js';
import { checkReminders } from './reminders.js';
import { checkWorkflow } from './workflow-check.js';
import { duplicateParamNames, isDeclaration, paramEntries, paramInfo, paramValueProblem } from './params.js';
import { ownValue } from '../own.js';

/** The x- keywords a module schema may carry on a field; ajv must know them to stay strict. */
export const FIELD_KEYWORDS = ['x-dict', 'x-ref', 'x-computed', 'x-widget', 'x-placeholder', 'x-show-if', 'x-hidden', 'x-required-from', 'x-enum-titles', 'x-choices', 'x-ref-eligible'];
export const MODULE_KEYWORDS = ['x-id', 'x-list', 'x-form', 'x-children', 'x-permissions', 'x-trail', 'x-unique', 'x-hooks', 'x-fill', 'x-scope', 'x-scope-self', 'x-name-field', 'x-workflow', 'x-links', 'x-related', 'x-reminders', 'x-params', 'x-table', 'x-page', 'x-owner', 'x-progress'];

/** Custom string formats of module schemas, as names only; validators are added by the runtime. */
export const CUSTOM_FORMATS = ['id-card', 'mobile', 'money', 'textarea', 'rich-text', 'file', 'image'];

/** An ajv instance that knows the module keywords, so a module schema compiles in strict mode. */
export function createModuleAjv(): Ajv {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addVocabulary([...FIELD_KEYWORDS, ...MODULE_KEYWORDS]);
  for (const name of CUSTOM_FORMATS) ajv.addFormat(name, true);
  return ajv;
}

let metaValidator: ReturnType<Ajv['compile']> | undefined;

/**
 * Checks one module schema: against the meta-schema, then the cross-references the meta-schema cannot
 * express (every named field exists, the schema compiles). Returns readable problems, empty when fine.
 */
export function checkModuleSchema(schema: unknown, expectedId?: string): string[] {
  if (!metaValidator) {
    const metaAjv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(metaAjv);
    metaValidator = metaAjv.compile(metaSchema);
  }
  if (!metaValidator(schema)) {
    return (metaValidator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }
  const module = schema as ModuleSchema;
  const problems: string[] = [];
  if (expectedId && module['x-id'] !== expectedId) problems.push(`x-id "${module['x-id']}" does not match the file name "${expectedId}"`);
  const fields = new Set(Object.keys(module.properties));
  const refer = (where: string, field: string) => {
    if (!fields.has(field)) problems.push(`${where} names unknown field "${field}"`);
  };
  module.required?.forEach((f) => refer('required', f));
  module['x-list']?.columns?.forEach((c) => refer('x-list.columns', typeof c === 'string' ? c : c.field));
  module['x-list']?.filters?.forEach((f) => refer('x-list.filters', f.field));
  const sortField = module['x-list']?.sort?.split(',')[0];
  if (sortField) refer('x-list.sort', sortField);
  module['x-form']?.order?.forEach((f) => refer('x-form.order', f));
  module['x-form']?.groups?.forEach((g) => g.fields.forEach((f) => refer(`x-form.groups "${g.title}"`, f)));
  module['x-unique']?.forEach((set) => set.forEach((f) => refer('x-unique', f)));
  if (module['x-scope']) refer('x-scope', module['x-scope']);
  const self = module['x-scope-self'];
  if (self) {
    refer('x-scope-self.parentField', self.parentField);
    self.public.forEach((f) => refer('x-scope-self.public', f));
    if (module['x-scope']) problems.push('x-scope and x-scope-self exclude each other: choose one');
  }
  if (module['x-name-field']) refer('x-name-field', module['x-name-field']);
  module['x-links']?.forEach((l) => l['x-show-if'] && refer(`x-links "${l.title}".x-show-if`, l['x-show-if'].field));
  module['x-links']?.forEach((l) => l.download && !l.path.startsWith('/api/') && problems.push(`x-links "${l.title}": a download's path is a file of the API (/api/…)`));
  module['x-related']?.forEach((r) => r.key && refer(`x-related "${r.module}".key`, r.key));
  module['x-fill']?.forEach((f) => [...f.on, ...f.sets].forEach((n) => refer(`x-fill "${f.name}"`, n)));
  for (const [name, field] of Object.entries(module.properties)) {
    if (field['x-show-if']) refer(`${name}.x-show-if`, field['x-show-if'].field);
    if (field.enum && field['x-dict']) problems.push(`${name} has both enum and x-dict: choose one`);
    const titles = field['x-enum-titles'];
    const values = field.enum ?? field.items?.enum;
    if (titles && (!values || values.length !== titles.length)) problems.push(`${name}.x-enum-titles needs an enum of the same length (${values?.length ?? 0} values, ${titles.length} titles)`);
    if (field['x-choices'] && (field.enum || field['x-dict'] || field['x-ref'] || field.type !== 'string')) problems.push(`${name}.x-choices needs type string without enum, x-dict or x-ref`);
    field['x-computed']?.args.forEach((a) => refer(`${name}.x-computed`, a));
    const eligible = field['x-ref-eligible'];
    if (eligible) {
      eligible.on.forEach((n) => refer(`${name}.x-ref-eligible`, n));
      if (!field['x-ref']) problems.push(`${name}.x-ref-eligible needs an x-ref field`);
    }
  }
  if (problems.length === 0) problems.push(...checkRuntimeRules(module));
  if (problems.length > 0) return problems;
  try {
    createModuleAjv().compile(schema as object);
  } catch (error) {
    problems.push(`does not compile: ${(error as Error).message}`);
  }
  return problems;
}

/** Which field kinds each filter operator works on. */
const FILTER_KINDS: Record<FilterOp, string[]> = {
  eq: ['string', 'date', 'date-time', 'integer', 'number', 'boolean', 'array'],
  like: ['string'],
  in: ['string', 'integer', 'number', 'array'],
  range: ['date', 'date-time', 'integer', 'number'],
  'org-subtree': ['integer'],
};

/** What the runtime needs beyond the meta-schema: fields it can store, filter, sort, reference and compute. */
function checkRuntimeRules(module: ModuleSchema): string[] {
  const problems: string[] = [];
  const fields = module.properties;
  const computed = (name: string) => !!fields[name]['x-computed'];
  for (const [name, field] of Object.entries(fields)) {
    const spec = field['x-computed'];
    if (spec) {
      const fn = ownValue(COMPUTED_FUNCTIONS, spec.fn);
      if (!fn) problems.push(`${name}.x-computed names unknown function "${spec.fn}" (see src/shared/module-schema/computed.ts)`);
      else {
        if (fn.arity !== spec.args.length) problems.push(`${name}.x-computed: ${spec.fn} takes ${fn.arity} field(s), got ${spec.args.length}`);
        if (fn.result !== field.type) problems.push(`${name}.x-computed: ${spec.fn} gives ${fn.result}, the field is ${field.type}`);
      }
      if (spec.args.some(computed)) problems.push(`${name}.x-computed reads another computed field`);
      if (module.required?.includes(name)) problems.push(`${name} is computed and cannot be required`);
    }
    if (field['x-required-from'] && !module.required?.includes(name)) problems.push(`${name}.x-required-from applies to required fields: add "${name}" to required`);
    if (field['x-dict'] && !isStringLike(field)) problems.push(`${name}.x-dict needs type string (or an array of strings): dictionary values are strings`);
    if (field.type === 'array' && !field.items?.type) problems.push(`${name} is an array: give items.type`);
    const rows = field.items?.properties;
    if (field.type === 'array' && field.items?.type === 'object') {
      // A table of rows: its columns are named, and nothing else describes the items.
      if (!rows) problems.push(`${name} is a table of rows (items.type object): give items.properties, its columns`);
      if (field.items.enum) problems.push(`${name}: a table of rows has no items.enum`);
      if (field['x-dict'] || field['x-ref']) problems.push(`${name}: a table of rows cannot name x-dict or x-ref`);
      field.items.required?.forEach((c) => rows && !rows[c] && problems.push(`${name}.items.required names unknown column "${c}"`));
    } else if (rows || field.items?.required) problems.push(`${name}: items.properties and items.required belong to a table of rows (items.type object)`);
    for (const suffix of ['Label', 'Name']) {
      if (name.endsWith(suffix) && fields[name.slice(0, -suffix.length)]) {
        problems.push(`${name} collides with the ${suffix.toLowerCase()} the API adds for "${name.slice(0, -suffix.length)}": rename it`);
      }
    }
  }
  for (const f of module['x-list']?.filters ?? []) {
    const field = fields[f.field];
    if (computed(f.field)) problems.push(`x-list.filters: "${f.field}" is computed and cannot be filtered on`);
    else if (!FILTER_KINDS[f.op].includes(fieldKind(field))) problems.push(`x-list.filters: "${f.op}" does not apply to ${f.field} (${fieldKind(field)})`);
  }
  const sortField = module['x-list']?.sort?.split(',')[0];
  if (sortField && fields[sortField] && (computed(sortField) || fields[sortField].type === 'array')) {
    problems.push(`x-list.sort: "${sortField}" cannot be sorted on`);
  }
  for (const set of module['x-unique'] ?? []) {
    if (set.some((f) => computed(f) || fields[f].type === 'array')) problems.push(`x-unique [${set.join(', ')}]: computed and array fields cannot be unique`);
  }
  const scope = module['x-scope'];
  if (scope && (fields[scope].type !== 'integer' || computed(scope) || fields[scope]['x-hidden'])) {
    problems.push(`x-scope: "${scope}" must be a stored, visible integer field (an organisation id)`);
  }
  const nameField = module['x-name-field'];
  if (nameField && (fieldKind(fields[nameField]) !== 'string' || computed(nameField))) problems.push(`x-name-field: "${nameField}" must be a stored string field`);
  problems.push(...checkWorkflow(module));
  problems.push(...checkReminders(module));
  problems.push(...checkParams(module));
  return problems;
}

/**
 * References store record ids, so an x-ref field is an integer (or an array of integers). Checked by the
 * runtime when it loads modules (with the other cross-module checks), not by checkModuleSchema.
 */
export function checkReferenceTypes(module: ModuleSchema): string[] {
  return Object.entries(module.properties)
    .filter(([, f]) => f['x-ref'] && !(f.type === 'integer' || (f.type === 'array' && f.items?.type === 'integer')))
    .map(([name]) => `${name}.x-ref needs type integer (or an array of integers): references store record ids`);
}

function isStringLike(field: FieldSchema): boolean {
  return field.type === 'string' || (field.type === 'array' && field.items?.type === 'string');
}

/** A declared parameter's default must be one of its own values; a name is declared once. */
function checkParams(module: ModuleSchema): string[] {
  const problems = duplicateParamNames(module).map((n) => `parameter ${n} is declared in both x-workflow.params and x-params`);
  for (const [name, raw] of paramEntries(module)) {
    if (!isDeclaration(raw)) continue;
    const info = paramInfo(module['x-id'], name, raw);
    const problem = paramValueProblem({ ...info, editable: true }, info.default);
    if (problem) problems.push(`parameter ${name}: its default ${JSON.stringify(info.default)} is not one of its values (${problem})`);
    if (info.min !== null && info.max !== null && info.min > info.max) problems.push(`parameter ${name}: min ${info.min} is above max ${info.max}`);
  }
  return problems;
}

import metaSchema from '../../../schemas/meta/module.schema.json' with { type: 'json' };
import { Ajv2020, addFormats, type Ajv } from './ajv.js';
import type { ModuleSchema } from './types.js';

/** The x- keywords a module schema may carry on a field; ajv must know them to stay strict. */
export const FIELD_KEYWORDS = ['x-dict', 'x-ref', 'x-computed', 'x-widget', 'x-placeholder', 'x-show-if', 'x-hidden'];
export const MODULE_KEYWORDS = ['x-id', 'x-list', 'x-form', 'x-children', 'x-permissions', 'x-trail', 'x-unique', 'x-hooks', 'x-scope'];

/** Custom string formats of module schemas, as names only; validators are added by the runtime. */
export const CUSTOM_FORMATS = ['id-card', 'mobile', 'textarea', 'rich-text', 'file', 'image'];

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
  for (const [name, field] of Object.entries(module.properties)) {
    if (field['x-show-if']) refer(`${name}.x-show-if`, field['x-show-if'].field);
    if (field.enum && field['x-dict']) problems.push(`${name} has both enum and x-dict: choose one`);
  }
  if (problems.length > 0) return problems;
  try {
    createModuleAjv().compile(schema as object);
  } catch (error) {
    problems.push(`does not compile: ${(error as Error).message}`);
  }
  return problems;
}

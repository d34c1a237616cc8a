/**
 * A JSON Schema (2020-12) validator that interprets the schema instead of compiling code (issue 43.3): the
 * browser's CSP forbids `eval`, so the forms designed in the browser (stored schemas, no build-time
 * validator) are checked with this. It covers the keywords the runtime's stored schemas use; errors have
 * ajv's shape (keyword, instancePath, params), so the Chinese wording of validation-messages.ts applies.
 * The server still validates every write with ajv (runtime/validate.ts).
 */
import { RECORD_FORMATS } from './formats';
import { ownValue } from '../own';

export interface InterpretedError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type Schema = Record<string, unknown> | boolean;

const pad = (n: number) => String(n).padStart(2, '0');
function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` === value;
}
const isTime = (value: string) => /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i.test(value);

/** ajv-formats' formats the schemas use, and the record formats of the runtime. */
const FORMATS: Record<string, (value: string) => boolean> = {
  ...RECORD_FORMATS,
  date: isDate,
  time: isTime,
  'date-time': (v) => { const [d, t] = v.split(/[T ]/); return !!t && isDate(d) && isTime(t); },
  uri: (v) => /^[a-z][a-z\d+.-]*:\S+$/i.test(v),
  uuid: (v) => /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i.test(v),
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
const hasType = (value: unknown, type: string) => { const t = typeOf(value); return t === type || (type === 'number' && t === 'integer'); };
const equal = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every error of `value` against `schema` (all errors, as ajv's allErrors). */
export function interpretSchema(schema: Schema, value: unknown, path = ''): InterpretedError[] {
  if (schema === true) return [];
  if (schema === false) return [{ keyword: 'false schema', instancePath: path, params: {} }];
  const s = schema as Record<string, unknown>;
  const errors: InterpretedError[] = [];
  const fail = (keyword: string, params: Record<string, unknown> = {}) => errors.push({ keyword, instancePath: path, params });

  if (s.type !== undefined) {
    const types = ([] as string[]).concat(s.type as string);
    if (!types.some((t) => hasType(value, t))) {
      fail('type', { type: types.join(',') });
      return errors; // the other keywords of a mistyped value only repeat it
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(e, value))) fail('enum', { allowedValues: s.enum });
  if ('const' in s && !equal(s.const, value)) fail('const', { allowedValue: s.const });

  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s.minLength === 'number' && length < s.minLength) fail('minLength', { limit: s.minLength });
    if (typeof s.maxLength === 'number' && length > s.maxLength) fail('maxLength', { limit: s.maxLength });
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) fail('pattern', { pattern: s.pattern });
    if (typeof s.format === 'string' && !(ownValue(FORMATS, s.format)?.(value) ?? true)) fail('format', { format: s.format });
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) fail('minimum', { comparison: '>=', limit: s.minimum });
    if (typeof s.maximum === 'number' && value > s.maximum) fail('maximum', { comparison: '<=', limit: s.maximum });
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) fail('exclusiveMinimum', { comparison: '>', limit: s.exclusiveMinimum });
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) fail('exclusiveMaximum', { comparison: '<', limit: s.exclusiveMaximum });
    if (typeof s.multipleOf === 'number' && Math.abs(value / s.multipleOf - Math.round(value / s.multipleOf)) > 1e-9) fail('multipleOf', { multipleOf: s.multipleOf });
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) fail('minItems', { limit: s.minItems });
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) fail('maxItems', { limit: s.maxItems });
    if (s.items !== undefined) value.forEach((v, i) => errors.push(...interpretSchema(s.items as Schema, v, `${path}/${i}`)));
    if (s.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) fail('uniqueItems', {});
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const name of (s.required as string[] | undefined) ?? []) if (record[name] === undefined) fail('required', { missingProperty: name });
    for (const [name, v] of Object.entries(record)) {
      if (v === undefined) continue;
      if (properties[name] !== undefined) errors.push(...interpretSchema(properties[name], v, `${path}/${escape(name)}`));
      else if (s.additionalProperties === false) fail('additionalProperties', { additionalProperty: name });
      else if (typeof s.additionalProperties === 'object') errors.push(...interpretSchema(s.additionalProperties as Schema, v, `${path}/${escape(name)}`));
    }
  }
  for (const sub of (s.allOf as Schema[] | undefined) ?? []) errors.push(...interpretSchema(sub, value, path));
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub: Schema) => !interpretSchema(sub, value, path).length)) fail('anyOf');
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub: Schema) => !interpretSchema(sub, value, path).length).length !== 1) fail('oneOf');
  if (s.not !== undefined && !interpretSchema(s.not as Schema, value, path).length) fail('not');
  if (s.if !== undefined) {
    const branch = interpretSchema(s.if as Schema, value, path).length ? s.else : s.then;
    if (branch !== undefined) errors.push(...interpretSchema(branch as Schema, value, path));
  }
  return errors;
}

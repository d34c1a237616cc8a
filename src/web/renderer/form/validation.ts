/**
 * Form validation with the module's own schema: ajv through @rjsf/validator-ajv8 with the record formats
 * the server uses (id-card, mobile, email ...), and ajv's errors in the server's Chinese wording.
 */
import { hashForSchema, toErrorSchema, type ErrorTransformer, type RJSFSchema, type RJSFValidationError, type ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, customizeValidator } from '@rjsf/validator-ajv8';
import { Ajv2020 } from '../../../shared/module-schema/ajv';
import { RECORD_FORMATS } from '../../../shared/module-schema/formats';
import { interpretSchema } from '../../../shared/module-schema/interpret';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { FORMAT_MESSAGES } from '../../../shared/validators';
import { translateAjvError } from '../../../shared/validation-messages';

import precompiled from './precompiled-validators';

/** Compiles at run time: where `eval` is allowed (the dev server, tests); ajv caches each schema it compiles. */
const runtimeValidator = customizeValidator({
  AjvClass: Ajv2020 as never,
  customFormats: RECORD_FORMATS as Record<string, (value: string) => boolean>,
});

/** rjsf's errors from the interpreting validator (the property path as @rjsf/validator-ajv8 writes it). */
function interpretedErrors(schema: RJSFSchema, data: unknown): RJSFValidationError[] {
  return interpretSchema(schema as never, data ?? {}).map((e) => {
    const path = e.instancePath.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required') path.push(String(e.params.missingProperty));
    const property = path.length ? `.${path.join('.')}` : '';
    return { name: e.keyword, property, params: e.params, message: e.keyword, stack: `${property} ${e.keyword}`.trim(), schemaPath: '' };
  });
}

/**
 * Validates without compiling code (issue 43.3): for the schemas the build did not precompile (the forms
 * designed in the browser), where the CSP forbids `eval`.
 */
export const interpretingValidator: ValidatorType = {
  validateFormData(formData, schema, customValidate, transformErrors) {
    let errors = interpretedErrors(schema, formData);
    if (transformErrors) errors = transformErrors(errors);
    return { errors, errorSchema: toErrorSchema(errors) };
  },
  isValid: (schema, formData) => !interpretSchema(schema as never, formData).length,
  rawValidation: (schema, formData) => ({ errors: interpretSchema(schema as never, formData) as never[] }),
};

/**
 * The validator of a form schema: its precompiled functions from the build (the server's CSP forbids
 * compiling in the browser), else the interpreting one in the built app, ajv at run time in development
 * and tests (no CSP there).
 */
export function validatorFor(schema: RJSFSchema): ValidatorType {
  if (precompiled[hashForSchema(schema)]) return createPrecompiledValidator(precompiled, schema);
  return import.meta.env.PROD ? interpretingValidator : runtimeValidator;
}

/** Formats whose message says what is expected, as the server words them (runtime/validate.ts). */

/** The field an rjsf error belongs to (top-level name; `.a.b` → `a`). */
export function errorField(e: RJSFValidationError): string {
  return (e.property ?? '').replace(/^\./, '').split('.')[0] ?? '';
}

/**
 * Chinese messages for ajv errors, with the field titles of the module schema. `optional`: required
 * fields that may stay empty (the edited record lacks them, see requiredLackedBy) lose their 不能为空.
 */
export function chineseErrors(schema: Pick<ModuleSchema, 'properties'>, optional: string[] = []): ErrorTransformer {
  const titleOf = (name: string) => schema.properties[name.split('.')[0]]?.title;
  return (errors) =>
    errors
      .filter((e) => !(e.name === 'required' && optional.includes(String((e.params as { missingProperty?: string })?.missingProperty))))
      .map((e) => {
      const field = errorField(e);
      const params = (e.params ?? {}) as Record<string, unknown>;
      if (e.name === 'format' && FORMAT_MESSAGES[params.format as string])
        return { ...e, message: FORMAT_MESSAGES[params.format as string], stack: FORMAT_MESSAGES[params.format as string] };
      const path = e.name === 'required' ? '' : `/${field}`;
      const { message } = translateAjvError({ keyword: e.name ?? '', instancePath: path, params }, titleOf);
      return { ...e, message, stack: message };
    });
}

let warned = false;

/**
 * Field → its Chinese messages, for a whole record. A schema that cannot be compiled (no precompiled
 * validator and no `eval`) yields no messages: the server's 400 field messages then apply alone.
 */
export function validateRecord(
  validator: ValidatorType,
  schema: RJSFSchema,
  transform: ErrorTransformer,
  values: Record<string, unknown>,
): Record<string, string[]> {
  const { errors } = validator.validateFormData(values, schema, undefined, transform);
  const byField: Record<string, string[]> = {};
  for (const e of errors) {
    const field = errorField(e);
    if (!field) {
      if (!warned) console.warn('表单校验不可用，保存时由服务器校验：', e.stack);
      warned = true;
      continue;
    }
    if (e.message && !byField[field]?.includes(e.message)) (byField[field] ??= []).push(e.message);
  }
  return byField;
}

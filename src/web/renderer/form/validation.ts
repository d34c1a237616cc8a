/**
 * Form validation with the module's own schema: ajv through @rjsf/validator-ajv8 with the record formats
 * the server uses (id-card, mobile, email ...), and ajv's errors in the server's Chinese wording.
 */
import { hashForSchema, type ErrorTransformer, type RJSFSchema, type RJSFValidationError, type ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, customizeValidator } from '@rjsf/validator-ajv8';
import { Ajv2020 } from '../../../shared/module-schema/ajv';
import { RECORD_FORMATS } from '../../../shared/module-schema/formats';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { FORMAT_MESSAGES } from '../../../shared/validators';
import { translateAjvError } from '../../../shared/validation-messages';

import precompiled from './precompiled-validators';

/** Compiles at run time: where `eval` is allowed (the dev server, tests); ajv caches each schema it compiles. */
const runtimeValidator = customizeValidator({
  AjvClass: Ajv2020 as never,
  customFormats: RECORD_FORMATS as Record<string, (value: string) => boolean>,
});

/**
 * The validator of a form schema: its precompiled functions from the build (the server's CSP forbids
 * compiling in the browser), else ajv at run time.
 */
export function validatorFor(schema: RJSFSchema): ValidatorType {
  return precompiled[hashForSchema(schema)] ? createPrecompiledValidator(precompiled, schema) : runtimeValidator;
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

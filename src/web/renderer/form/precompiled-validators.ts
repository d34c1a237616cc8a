/**
 * Precompiled ajv validate functions of the module form schemas, by rjsf schema hash. Empty here: the
 * Vite plugin `recordValidators()` (generators/lib/form-validators.ts) replaces this module with the generated code in the
 * build. Without it (tests) forms compile their schema with ajv at run time.
 */
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';

const validators: ValidatorFunctions = {};
export default validators;

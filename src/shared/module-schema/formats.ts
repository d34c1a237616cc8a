import { isEmail, isIdCard, isMobile, isMoney } from '../validators.js';
import { Ajv2020, addFormats, type Ajv } from './ajv.js';
import { FIELD_KEYWORDS, MODULE_KEYWORDS } from './check.js';

/**
 * String formats of module records with real validators, shared by the server and the web form so a
 * value is judged the same on both sides. Display-only formats (textarea, file, ...) accept anything.
 */
export const RECORD_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  'id-card': (value) => isIdCard(value),
  mobile: isMobile,
  email: isEmail,
  money: isMoney,
  textarea: () => true,
  'rich-text': () => true,
  file: () => true,
  image: () => true,
};

/** An ajv instance for validating records against a module schema (strict, all errors, real formats). */
export function createRecordAjv(): Ajv {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addVocabulary([...FIELD_KEYWORDS, ...MODULE_KEYWORDS]);
  for (const [name, validate] of Object.entries(RECORD_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}

import fs from 'node:fs';
import path from 'node:path';
import dictMetaSchema from '../../schemas/meta/dict.schema.json' with { type: 'json' };
import { Ajv2020, addFormats, type Ajv } from '../../src/shared/module-schema/ajv.js';
import { SCHEMAS_DIR } from './schemas.js';

export type { Dict, DictEntry } from '../../src/shared/dicts.js';
import type { Dict } from '../../src/shared/dicts.js';

/** The dictionaries spec §3 names; each must exist. */
export const SPEC_DICT_CODES = [
  'DJ_COMM_XB', 'DJ_COMM_MZXX', 'DJ_COMM_ZZMM', 'DJ_DY_RYLBXX', 'DJ_DY_DJZTXX', 'DJ_DYJBXX_RYLX', 'DJ_DY_XLXX',
  'DJ_JBXX_ZYJSZC', 'DJ_DY_GZGWXX', 'GB_JBXX_XL', 'GB_JBXX_XW', 'GB_JBXX_GBLB', 'GB_JBXX_XZJB', 'GB_JBXX_RZZT',
  'GB_JBXX_ZWSX', 'GB_JBXX_ZW', 'GB_JBXX_BZLX', 'GB_JBXX_ZYJSZC',
] as const;

/** Every dictionary file under `<schemasDir>/dicts`, sorted by file name. */
export function dictFiles(schemasDir = SCHEMAS_DIR): string[] {
  const dir = path.join(schemasDir, 'dicts');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f));
}

/** All dictionaries, sorted by code. It trusts the files: run `checkDictsDir` (schemas:check) to validate them. */
export function loadDicts(schemasDir = SCHEMAS_DIR): Dict[] {
  return dictFiles(schemasDir)
    .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as Dict)
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)); // code-point order, not locale
}

let validateMeta: ReturnType<Ajv['compile']> | undefined;

/** Problems of one parsed dictionary file that the meta-schema cannot express. */
function checkDict(dict: Dict, expectedCode: string): string[] {
  const problems: string[] = [];
  if (dict.code !== expectedCode) problems.push(`code "${dict.code}" does not match the file name "${expectedCode}"`);
  const values = new Set<string>();
  dict.entries.forEach((entry, i) => {
    if (values.has(entry.value)) problems.push(`entries[${i}] repeats value "${entry.value}"`);
    values.add(entry.value);
    if (entry.label.trim() === '') problems.push(`entries[${i}] (value "${entry.value}") has an empty label`);
  });
  dict.entries.forEach((entry, i) => {
    if (entry.parent === undefined) return;
    if (entry.parent === entry.value) problems.push(`entries[${i}] is its own parent`);
    else if (!values.has(entry.parent)) problems.push(`entries[${i}] names unknown parent "${entry.parent}"`);
  });
  return problems;
}

/**
 * Validates every dictionary under `schemasDir`: meta-schema, file name = code, values unique, labels
 * non-empty, parents exist; that the spec's dictionaries all exist; and that every `x-dict` of a module
 * schema names a dictionary. Returns "file: problem" lines, empty when all is well.
 */
export function checkDictsDir(schemasDir = SCHEMAS_DIR): string[] {
  if (!validateMeta) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    validateMeta = ajv.compile(dictMetaSchema);
  }
  const problems: string[] = [];
  const codes = new Set<string>();
  for (const file of dictFiles(schemasDir)) {
    const rel = path.relative(schemasDir, file);
    const expected = path.basename(file, '.json');
    codes.add(expected);
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${rel}: not valid JSON: ${(error as Error).message}`);
      continue;
    }
    if (!validateMeta(json)) {
      for (const e of validateMeta.errors ?? []) {
        problems.push(`${rel}: ${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      }
      continue;
    }
    problems.push(...checkDict(json as Dict, expected).map((p) => `${rel}: ${p}`));
  }
  for (const code of SPEC_DICT_CODES) {
    if (!codes.has(code)) problems.push(`dicts/${code}.json: missing (spec §3 names this dictionary)`);
  }
  // Module fields (of every school) naming dictionaries: checkSchemasDir, as the server checks them.
  return problems;
}

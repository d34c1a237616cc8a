/**
 * `npm run schemas:check`: validates module schemas, dictionaries and the menu tree under schemas/, and
 * warns (without failing) when a school override drops a guard the base schema declares.
 */
import { SCHOOL_CODES } from '../src/shared/schools.js';
import { checkDictsDir, loadDicts } from './lib/dicts.js';
import { checkMenus } from './lib/menus.js';
import { overrideGuardWarnings } from './lib/override-guards.js';
import { SCHEMAS_DIR, checkSchemasDir, moduleFiles } from './lib/schemas.js';

const problems = [...checkSchemasDir(), ...checkDictsDir(), ...checkMenus()];
for (const w of overrideGuardWarnings(SCHEMAS_DIR, SCHOOL_CODES)) console.warn(`⚠ ${w}`);
if (problems.length) {
  for (const p of problems) console.error(`✗ ${p}`);
  console.error(`${problems.length} problem(s) in schemas/`);
  process.exit(1);
}
console.log(`✓ ${moduleFiles().length} module schema(s), ${loadDicts().length} dictionaries and the menu tree are valid`);

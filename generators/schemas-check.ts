/** `npm run schemas:check`: validates module schemas, dictionaries and the menu tree under schemas/. */
import { checkDictsDir, loadDicts } from './lib/dicts.js';
import { checkMenus } from './lib/menus.js';
import { checkSchemasDir, moduleFiles } from './lib/schemas.js';

const problems = [...checkSchemasDir(), ...checkDictsDir(), ...checkMenus()];
if (problems.length) {
  for (const p of problems) console.error(`✗ ${p}`);
  console.error(`${problems.length} problem(s) in schemas/`);
  process.exit(1);
}
console.log(`✓ ${moduleFiles().length} module schema(s), ${loadDicts().length} dictionaries and the menu tree are valid`);

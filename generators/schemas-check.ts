/** `npm run schemas:check`: validates every module schema under schemas/ against the meta-schema. */
import { checkSchemasDir, moduleFiles } from './lib/schemas.js';

const problems = checkSchemasDir();
if (problems.length) {
  for (const p of problems) console.error(`✗ ${p}`);
  console.error(`${problems.length} problem(s) in module schemas`);
  process.exit(1);
}
console.log(`✓ ${moduleFiles().length} module schema(s) valid`);

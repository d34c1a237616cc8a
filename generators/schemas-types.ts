/** `npm run schemas:types`: writes src/shared/generated/modules.ts from the module schemas. */
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_TYPES_FILE, ROOT, generateTypes } from './lib/schemas.js';

const text = await generateTypes();
fs.mkdirSync(path.dirname(GENERATED_TYPES_FILE), { recursive: true });
fs.writeFileSync(GENERATED_TYPES_FILE, text);
console.log(`✓ wrote ${path.relative(ROOT, GENERATED_TYPES_FILE)}`);

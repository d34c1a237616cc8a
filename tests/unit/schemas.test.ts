import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES_FILE, SCHEMAS_DIR, checkSchemasDir, generateTypes, moduleFiles } from '../../generators/lib/schemas.js';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';

const valid = () => JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'modules/regulation.json'), 'utf8'));

function tempSchemas(modules: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
  fs.mkdirSync(path.join(dir, 'modules'));
  for (const [name, body] of Object.entries(modules)) {
    fs.writeFileSync(path.join(dir, 'modules', `${name}.json`), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}

describe('schema toolchain', () => {
  // Every module for every school: seconds on a loaded machine.
  it('every module schema in the repository is valid', { timeout: 30_000 }, () => {
    expect(moduleFiles().length).toBeGreaterThan(0);
    expect(checkSchemasDir()).toEqual([]);
  });

  it('schemas:check fails on a broken schema', () => {
    const broken = valid();
    broken.properties.title.type = 'text'; // not a field type
    broken['x-list'].filters.push({ field: 'nosuch', op: 'eq' });
    const dir = tempSchemas({ regulation: broken, bad: '{ not json' });
    const problems = checkSchemasDir(dir);
    expect(problems.some((p) => p.startsWith('modules/regulation.json') && p.includes('/properties/title/type'))).toBe(true);
    expect(problems.some((p) => p.startsWith('modules/bad.json: not valid JSON'))).toBe(true);
  });

  it('finds references to fields that do not exist', () => {
    const schema = valid();
    schema['x-list'].filters.push({ field: 'nosuch', op: 'eq' });
    schema.required.push('alsoMissing');
    expect(checkModuleSchema(schema, 'regulation')).toEqual([
      'required names unknown field "alsoMissing"',
      'x-list.filters names unknown field "nosuch"',
    ]);
  });

  it('refuses unknown x- keywords, a mismatched id, reserved field names and bad regexes', () => {
    const typo = valid();
    typo.properties.title['x-dcit'] = 'DJ_COMM_XB';
    expect(checkModuleSchema(typo).length).toBeGreaterThan(0);
    expect(checkModuleSchema(valid(), 'other')).toEqual(['x-id "regulation" does not match the file name "other"']);
    const reserved = valid();
    reserved.properties.version = { type: 'integer', title: '版本' };
    expect(checkModuleSchema(reserved).length).toBeGreaterThan(0);
    const regex = valid();
    regex.properties.title.pattern = '([unclosed';
    expect(checkModuleSchema(regex).length).toBeGreaterThan(0);
  });

  it('checks children and references across modules', () => {
    const parent = valid();
    parent['x-children'] = [{ module: 'missing-child', foreignKey: 'parentId' }];
    parent.properties.issuer['x-ref'] = 'no-such-module';
    const problems = checkSchemasDir(tempSchemas({ regulation: parent }));
    expect(problems).toContain('modules/regulation.json: x-children names unknown module "missing-child"');
    expect(problems).toContain('modules/regulation.json: issuer.x-ref names unknown module "no-such-module"');
  });

  it('the committed generated types are up to date (run `npm run schemas:types` after changing a schema)', async () => {
    const expected = await generateTypes();
    const committed = fs.existsSync(GENERATED_TYPES_FILE) ? fs.readFileSync(GENERATED_TYPES_FILE, 'utf8') : '';
    expect(committed, 'src/shared/generated/modules.ts is stale: run `npm run schemas:types`').toBe(expected);
    expect(expected).toContain('export interface RegulationRecord');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES_FILE, SCHEMAS_DIR, checkSchemasDir, generateTypes, moduleFiles } from '../../generators/lib/schemas.js';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';

const valid = () => JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'modules/regulation.json'), 'utf8'));

function tempSchemas(modules: Record<string, unknown>, overrides?: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
  fs.mkdirSync(path.join(dir, 'modules'));
  fs.cpSync(path.join(SCHEMAS_DIR, 'dicts'), path.join(dir, 'dicts'), { recursive: true });
  if (overrides) {
    fs.mkdirSync(path.join(dir, 'schools'));
    fs.writeFileSync(path.join(dir, 'schools', 'hnsoft.json'), JSON.stringify({ school: 'hnsoft', overrides }));
  }
  for (const [name, body] of Object.entries(modules)) {
    fs.writeFileSync(path.join(dir, 'modules', `${name}.json`), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}

describe('schema toolchain', () => {
  // Every module for every school: seconds on a quiet machine, minutes at a load of 19 on two cores.
  it('every module schema in the repository is valid', { timeout: 180_000 }, () => {
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
    parent.properties.issuer = { type: 'integer', title: '发文单位', 'x-ref': 'no-such-module' };
    const problems = checkSchemasDir(tempSchemas({ regulation: parent }));
    expect(problems, problems.join('\n')).toContain('module regulation: x-children names unknown module "missing-child"');
    expect(problems).toContain('module regulation: issuer.x-ref names unknown module "no-such-module"');
  });

  it('checks x-related: the module exists, its foreign key references the record (or its key field\'s module), and it filters on it with eq', () => {
    const note = (refTo: string, filtered: boolean) => ({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      'x-id': 'regulation-note',
      title: '制度批注',
      type: 'object',
      properties: { regulationId: { type: 'integer', title: '制度', 'x-ref': refTo }, note: { type: 'string', title: '批注' } },
      'x-list': { columns: ['regulationId', 'note'], ...(filtered && { filters: [{ field: 'regulationId', op: 'eq' }] }) },
    });
    const parent = valid();
    parent['x-related'] = [{ module: 'regulation-note', foreignKey: 'regulationId', title: '批注' }];
    expect(checkSchemasDir(tempSchemas({ regulation: parent, 'regulation-note': note('regulation', true) }))).toEqual([]);
    expect(checkSchemasDir(tempSchemas({ regulation: parent, 'regulation-note': note('regulation', false) }))).toEqual([
      'module regulation: x-related "regulation-note": "regulation-note" must filter on "regulationId" with eq (x-list.filters)',
    ]);
    expect(checkSchemasDir(tempSchemas({ regulation: parent, 'regulation-note': note('member', true) }))).toEqual([
      'module regulation: x-related "regulation-note": foreign key "regulationId" must be a field of "regulation-note" with x-ref "regulation"',
    ]);
    expect(checkSchemasDir(tempSchemas({ regulation: parent }))).toEqual(['module regulation: x-related names unknown module "regulation-note"']);
    // With a key: the foreign key references what the key field references, never the record itself.
    const keyed = valid();
    keyed['x-related'] = [{ module: 'regulation-note', foreignKey: 'regulationId', key: 'title' }];
    expect(checkSchemasDir(tempSchemas({ regulation: keyed, 'regulation-note': note('regulation', true) }))).toEqual([
      'module regulation: x-related "regulation-note": key "title" must be a field with x-ref',
    ]);
    keyed['x-related'] = [{ module: 'regulation-note', foreignKey: 'regulationId', key: 'nosuch' }];
    expect(checkSchemasDir(tempSchemas({ regulation: keyed, 'regulation-note': note('regulation', true) }))[0]).toContain('x-related "regulation-note".key names unknown field "nosuch"');
  });

  describe('checks every school as the server will load it (issue 13 item 3)', () => {
    it('an override of a module that does not exist', () => {
      expect(checkSchemasDir(tempSchemas({ regulation: valid() }, { 'no-such-module': { title: '无' } }))).toEqual([
        'school hnsoft: overrides name unknown module(s) no-such-module',
      ]);
    });

    it('an override giving a field a type that does not exist', () => {
      const problems = checkSchemasDir(tempSchemas({ regulation: valid() }, { regulation: { properties: { issuer: { type: 'text' } } } }));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^school hnsoft: the override of module regulation breaks it: \/properties\/issuer\/type must be equal to one of the allowed values/);
    });

    it('a field naming a dictionary that does not exist, in a module or in an override', () => {
      const own = valid();
      own.properties.issuer['x-dict'] = 'DJ_NOPE';
      expect(checkSchemasDir(tempSchemas({ regulation: own }))).toEqual([
        'module regulation: issuer.x-dict names dictionary DJ_NOPE, which does not exist (add schemas/dicts/DJ_NOPE.json)',
      ]);
      const overridden = checkSchemasDir(tempSchemas({ regulation: valid() }, { regulation: { properties: { documentNo: { 'x-dict': 'HNSOFT_NOPE' } } } }));
      expect(overridden).toEqual([
        'school hnsoft: module regulation: documentNo.x-dict names dictionary HNSOFT_NOPE, which does not exist (add schemas/dicts/HNSOFT_NOPE.json)',
      ]);
    });

    it('a child table whose foreign key does not reference the parent', () => {
      const parent = valid();
      parent['x-children'] = [{ module: 'regulation-note', foreignKey: 'regulationId' }];
      const child = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        'x-id': 'regulation-note',
        title: '制度批注',
        type: 'object',
        properties: { regulationId: { type: 'integer', title: '制度' }, note: { type: 'string', title: '批注' } },
      };
      expect(checkSchemasDir(tempSchemas({ regulation: parent, 'regulation-note': child }))).toEqual([
        'module regulation: x-children foreign key "regulationId" must be a field of "regulation-note" with x-ref "regulation"',
      ]);
      (child.properties.regulationId as Record<string, unknown>)['x-ref'] = 'regulation';
      expect(checkSchemasDir(tempSchemas({ regulation: parent, 'regulation-note': child }))).toEqual([]);
    });

    it('[43.12] a child grid names writable fields of the child, sums its numbers and is bounded by a number of the parent', () => {
      const parent = valid();
      const child = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        'x-id': 'regulation-note',
        title: '制度批注',
        type: 'object',
        properties: {
          regulationId: { type: 'integer', title: '制度', 'x-ref': 'regulation' },
          yes: { type: 'integer', title: '赞成' },
          no: { type: 'integer', title: '反对' },
          note: { type: 'string', title: '批注' },
          seen: { type: 'string', format: 'date', title: '阅读日期' },
        },
      };
      const grid = (g: unknown) => ({ ...parent, 'x-children': [{ module: 'regulation-note', foreignKey: 'regulationId', grid: g }] });
      expect(checkSchemasDir(tempSchemas({ regulation: grid({ fields: ['yes', 'no', 'note'], sum: { title: '合计', fields: ['yes', 'no'] } }), 'regulation-note': child }))).toEqual([]);
      expect(checkSchemasDir(tempSchemas({ regulation: grid({ fields: ['yes', 'nosuch', 'seen'], sum: { title: '合计', fields: ['yes', 'note'], max: 'title' } }), 'regulation-note': child }))).toEqual([
        'module regulation: x-children "regulation-note" grid: "nosuch" is not a writable field of "regulation-note"',
        'module regulation: x-children "regulation-note" grid: "seen" (date) cannot be entered in a grid cell',
        'module regulation: x-children "regulation-note" grid.sum: "note" is not a number field of the grid',
        'module regulation: x-children "regulation-note" grid.sum.max: "title" is not a number field of "regulation"',
      ]);
    });
  });

  it('the committed generated types are up to date (run `npm run schemas:types` after changing a schema)', async () => {
    const expected = await generateTypes();
    const committed = fs.existsSync(GENERATED_TYPES_FILE) ? fs.readFileSync(GENERATED_TYPES_FILE, 'utf8') : '';
    expect(committed, 'src/shared/generated/modules.ts is stale: run `npm run schemas:types`').toBe(expected);
    expect(expected).toContain('export interface RegulationRecord');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { hashForSchema, type RJSFSchema } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { beforeAll, describe, expect, it } from 'vitest';
import { ModuleRegistry } from '../../src/server/runtime/registry';
import { requiredLackedBy } from '../../src/shared/module-schema/fields';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { SCHOOL_CODES } from '../../src/shared/schools';
import { idCardCheckChar } from '../../src/shared/validators';
import { allFormSchemas, recordValidatorsModule } from '../../generators/lib/form-validators';
import { formSchema } from '../../src/web/renderer/form/ui-schema';
import { chineseErrors, validateRecord } from '../../src/web/renderer/form/validation';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCHEMAS = path.join(ROOT, 'schemas');

/**
 * The server forbids `eval` (CSP script-src 'self'), so the browser validates forms with ajv code
 * generated at build time. The generated module must cover every module of every school and judge
 * records exactly as the run-time ajv does.
 */
describe('precompiled form validators', () => {
  let fns: ValidatorFunctions;

  beforeAll(async () => {
    const file = path.join(ROOT, 'dist/.cache/record-validators.test.mjs');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, recordValidatorsModule(allFormSchemas(SCHEMAS)));
    fns = (await import(/* @vite-ignore */ file)).default as ValidatorFunctions;
  }, 300_000);

  it('cover the form schema of every module as each school is served it', { timeout: 300_000 }, () => {
    for (const school of SCHOOL_CODES) {
      for (const m of ModuleRegistry.load(SCHEMAS, school).list()) {
        const schema = formSchema(JSON.parse(JSON.stringify(m.schema)) as ModuleSchema);
        expect(typeof fns[hashForSchema(schema)], `${school}/${m.id}`).toBe('function');
      }
    }
  });

  it('judge a member record like the server: formats with checksums, lengths, required fields, Chinese messages', () => {
    const member = ModuleRegistry.load(SCHEMAS, 'hntb').get('member')!.schema;
    const schema: RJSFSchema = formSchema(JSON.parse(JSON.stringify(member)) as ModuleSchema);
    const validator = createPrecompiledValidator(fns, schema);
    const transform = chineseErrors(member);
    const first17 = '43010219900307123';
    const good = {
      name: '张三',
      gender: '1',
      idCard: first17 + idCardCheckChar(first17),
      category: '1',
      memberType: '1',
      partyStatus: '1',
      joinDate: '2015-07-01',
      orgId: 3,
    };
    expect(validateRecord(validator, schema, transform, good)).toEqual({});
    const bad = {
      ...good,
      idCard: first17 + (idCardCheckChar(first17) === '1' ? '2' : '1'),
      phone: '1380013800',
      name: '张'.repeat(31),
      joinDate: '2015-13-01',
    };
    delete (bad as Record<string, unknown>).category;
    expect(validateRecord(validator, schema, transform, bad)).toEqual({
      idCard: ['请输入正确的身份证号'],
      phone: ['请输入正确的手机号码'],
      name: ['姓名不能超过30个字符'],
      joinDate: ['入党日期（预备）的格式不正确'],
      category: ['人员类别不能为空'],
    });
  });

  it('[issue 13.7] the edit form lets a required field the stored record lacks stay empty (x-required-from), as the server does', () => {
    const member = ModuleRegistry.load(SCHEMAS, 'hntb').get('member')!.schema;
    const schema: RJSFSchema = formSchema(JSON.parse(JSON.stringify(member)) as ModuleSchema);
    const validator = createPrecompiledValidator(fns, schema);
    const first17 = '43010219900307123';
    const stored = { name: '张三', gender: '1', idCard: first17 + idCardCheckChar(first17), memberType: '1', partyStatus: '1', joinDate: '2015-07-01', orgId: 3 };
    // category is required but this stored record has none: editing it must not be blocked ...
    expect(requiredLackedBy(member, stored)).toEqual(['category']);
    expect(validateRecord(validator, schema, chineseErrors(member, requiredLackedBy(member, stored)), stored)).toEqual({});
    // ... while a new record, or a field the record has, still needs it.
    expect(validateRecord(validator, schema, chineseErrors(member), stored)).toEqual({ category: ['人员类别不能为空'] });
    expect(validateRecord(validator, schema, chineseErrors(member, requiredLackedBy(member, stored)), { ...stored, name: undefined })).toEqual({ name: ['姓名不能为空'] });
    const strict = { ...member, properties: { ...member.properties, category: { ...member.properties.category, 'x-required-from': 'update' as const } } };
    expect(requiredLackedBy(strict, stored)).toEqual([]);
  });
});

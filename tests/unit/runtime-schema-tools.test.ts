import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';
import { COMPUTED_FUNCTIONS, computeField, fullYearsBetween, localToday } from '../../src/shared/module-schema/computed.js';
import { effectiveSchema, fieldKind, formOrder, listColumnFields, modulePermissions, nameFieldOf } from '../../src/shared/module-schema/fields.js';
import { createRecordAjv } from '../../src/shared/module-schema/formats.js';
import { mergePatch } from '../../src/shared/module-schema/merge-patch.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';
import { FIXTURE_SCHEMAS } from '../fixtures/runtime-app.js';

const fixture = (): ModuleSchema => JSON.parse(fs.readFileSync(path.join(FIXTURE_SCHEMAS, 'modules/test-person.json'), 'utf8'));

describe('mergePatch (RFC 7386)', () => {
  // The examples of RFC 7386 appendix A.
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('%j patched with %j is %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('does not change its arguments', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2, c: 3 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

describe('computed fields', () => {
  it('age and partyAge count full years up to today', () => {
    expect(fullYearsBetween('1990-05-01', '2024-04-30')).toBe(33);
    expect(fullYearsBetween('1990-05-01', '2024-05-01')).toBe(34);
    expect(fullYearsBetween('2000-02-29', '2021-02-28')).toBe(20);
    expect(fullYearsBetween('2030-01-01', '2024-01-01')).toBeNull();
    expect(fullYearsBetween(null, '2024-01-01')).toBeNull();
    expect(fullYearsBetween('not a date', '2024-01-01')).toBeNull();
    expect(computeField({ fn: 'age', args: ['birthDate'] }, { birthDate: '2000-01-01' }, '2024-06-01')).toBe(24);
    expect(computeField({ fn: 'partyAge', args: ['joinDate'] }, { joinDate: '2015-07-01' }, '2024-06-30')).toBe(8);
    expect(computeField({ fn: 'nosuch', args: [] }, {}, '2024-06-30')).toBeNull();
    expect(localToday(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
    expect(Object.keys(COMPUTED_FUNCTIONS)).toEqual(expect.arrayContaining(['age', 'partyAge']));
  });
});

describe('module schema readings shared by server and web', () => {
  it('the fixture module is valid and every reading agrees with it', () => {
    const s = fixture();
    expect(checkModuleSchema(s, 'test-person')).toEqual([]);
    expect(fieldKind(s.properties.birthDate)).toBe('date');
    expect(fieldKind(s.properties.checkedAt)).toBe('date-time');
    expect(fieldKind(s.properties.tags)).toBe('array');
    expect(modulePermissions(s).view).toBe('test-person:list');
    expect(modulePermissions({ ...s, 'x-permissions': undefined }).import).toBe('test-person:import');
    expect(listColumnFields(s)[0]).toBe('name');
    expect(nameFieldOf(s)).toBe('name');
    expect(nameFieldOf({ ...s, 'x-name-field': undefined })).toBe('name');
    expect(formOrder(s).slice(0, 3)).toEqual(['name', 'gender', 'idCard']);
  });

  it('effectiveSchema removes a hidden field and every mention of it', () => {
    const s = mergePatch(fixture(), { properties: { birthDate: { 'x-hidden': true }, name: { 'x-hidden': true } }, required: ['name', 'gender'] }) as ModuleSchema;
    const e = effectiveSchema(s);
    expect(e.properties.birthDate).toBeUndefined();
    expect(e.properties.age).toBeUndefined(); // computed from the hidden field
    expect(e.required).toEqual(['gender']);
    expect(e['x-list']!.filters!.map((f) => f.field)).not.toContain('birthDate');
    expect(e['x-list']!.columns).not.toContainEqual(expect.objectContaining({ field: 'name' }));
    expect(e['x-form']!.groups![0].fields).not.toContain('birthDate');
    expect(e['x-name-field']).toBeUndefined();
    expect(effectiveSchema(fixture())).toEqual(fixture());
  });

  it('the runtime rules: computed functions, filter operators, sort, uniques and scope', () => {
    const problems = (patch: unknown) => checkModuleSchema(mergePatch(fixture(), patch), 'test-person');
    expect(problems({ properties: { age: { 'x-computed': { fn: 'nosuch', args: ['birthDate'] } } } })).toEqual([
      'age.x-computed names unknown function "nosuch" (see src/shared/module-schema/computed.ts)',
    ]);
    expect(problems({ properties: { age: { type: 'string' } } })).toEqual(['age.x-computed: age gives integer, the field is string']);
    expect(problems({ properties: { age: { 'x-computed': { fn: 'age', args: ['nosuch'] } } } })).toEqual(['age.x-computed names unknown field "nosuch"']);
    expect(problems({ 'x-list': { filters: [{ field: 'name', op: 'range' }, { field: 'age', op: 'eq' }] } })).toEqual([
      'x-list.filters: "range" does not apply to name (string)',
      'x-list.filters: "age" is computed and cannot be filtered on',
    ]);
    expect(problems({ 'x-list': { sort: 'age,asc' } })).toEqual(['x-list.sort: "age" cannot be sorted on']);
    expect(problems({ 'x-unique': [['tags']] })).toEqual(['x-unique [tags]: computed and array fields cannot be unique']);
    expect(problems({ 'x-scope': 'name' })).toEqual(['x-scope: "name" must be a stored, visible integer field (an organisation id)']);
    expect(problems({ properties: { genderLabel: { type: 'string', title: 'x' } } })).toEqual([
      'genderLabel collides with the label the API adds for "gender": rename it',
    ]);
    expect(problems({ properties: { gender: { type: 'integer' } } })).toContain('gender.x-dict needs type string (or an array of strings): dictionary values are strings');
    // [43.10] titles of an enum's values, as many as the values; a module choice is a plain string.
    expect(problems({ properties: { kind: { type: 'string', title: '类别', enum: ['a', 'b'], 'x-enum-titles': ['甲', '乙'] } } })).toEqual([]);
    expect(problems({ properties: { kind: { type: 'string', title: '类别', enum: ['a', 'b'], 'x-enum-titles': ['甲'] } } })).toEqual([
      'kind.x-enum-titles needs an enum of the same length (2 values, 1 titles)',
    ]);
    expect(problems({ properties: { source: { type: 'string', title: '模块', 'x-choices': 'modules' } } })).toEqual([]);
    expect(problems({ properties: { source: { type: 'integer', title: '模块', 'x-choices': 'modules' } } })).toEqual(['source.x-choices needs type string without enum, x-dict or x-ref']);
  });

  it('the record validator checks the shared formats with the shared validators', () => {
    const validate = createRecordAjv().compile({ type: 'object', properties: { id: { type: 'string', format: 'id-card' }, m: { type: 'string', format: 'mobile' }, e: { type: 'string', format: 'email' } } });
    expect(validate({ id: '11010519491231002X', m: '13800138000', e: 'a@b.cn' })).toBe(true);
    expect(validate({ id: '110105194912310021' })).toBe(false);
    expect(validate({ m: '1380013800' })).toBe(false);
    expect(validate({ e: 'a@b' })).toBe(false);
  });
});

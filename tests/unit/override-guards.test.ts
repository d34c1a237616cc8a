/**
 * schemas:check warns when a school override drops a guard the base schema declares (issue 24 §3.10),
 * unless the override names it under the step's droppedGuards; the repository's overrides drop none.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { overrideGuardWarnings, silentlyDroppedGuards } from '../../generators/lib/override-guards.js';
import { SCHEMAS_DIR } from '../../generators/lib/schemas.js';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';
import { mergePatch } from '../../src/shared/module-schema/merge-patch.js';
import { SCHOOL_CODES } from '../../src/shared/schools.js';
import { schemasWith } from '../fixtures/workflow-schemas.js';

const base = { 'x-workflow': { transitions: { apply: { guards: ['development.age', 'development.dates'] }, talk: { guards: ['development.talk'] } } } };

describe('[24§3.10] override guards', () => {
  it('an override restating a step\'s guards without one of them is reported, guard by guard', () => {
    const added = { 'x-workflow': { transitions: { apply: { guards: ['development.dates', 'school.extra'] } } } };
    expect(silentlyDroppedGuards('development', base, added)).toEqual(['development.apply: guard development.age']);
    expect(silentlyDroppedGuards('development', base, { 'x-workflow': { transitions: { talk: { guards: [] } } } })).toEqual(['development.talk: guard development.talk']);
  });

  it('adding a guard, naming the dropped one under droppedGuards, or deleting the whole step is not', () => {
    expect(silentlyDroppedGuards('development', base, { 'x-workflow': { transitions: { apply: { guards: ['development.age', 'development.dates', 'school.extra'] } } } })).toEqual([]);
    expect(silentlyDroppedGuards('development', base, { 'x-workflow': { transitions: { apply: { guards: ['development.dates'], droppedGuards: ['development.age'] } } } })).toEqual([]);
    expect(silentlyDroppedGuards('development', base, { 'x-workflow': { transitions: { talk: null } } })).toEqual([]);
    expect(silentlyDroppedGuards('development', base, { 'x-workflow': { params: { x: 1 } } })).toEqual([]);
  });

  it('the marker is part of the schema language: a merged module with droppedGuards stays valid', () => {
    const dev = JSON.parse(fs.readFileSync(`${SCHEMAS_DIR}/modules/development.json`, 'utf8'));
    const merged = mergePatch(dev, { 'x-workflow': { transitions: { apply: { guards: ['development.dates'], droppedGuards: ['development.age'] } } } });
    expect(checkModuleSchema(merged, 'development')).toEqual([]);
  });

  it('reads the schools\' overrides: the repository has no silent drop; a school file that drops one is named', () => {
    expect(overrideGuardWarnings(SCHEMAS_DIR, SCHOOL_CODES)).toEqual([]);
    const dir = schemasWith({}, { development: { 'x-workflow': { transitions: { apply: { guards: ['development.dates'] } } } } });
    try {
      expect(overrideGuardWarnings(dir, SCHOOL_CODES)).toEqual([
        'school hntb: the override drops development.apply: guard development.age of the base schema (name it under the step\'s droppedGuards if that is meant)',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

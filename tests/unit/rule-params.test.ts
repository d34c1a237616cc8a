/**
 * Issue 42: every parameter the registry knows (each module's x-workflow.params and x-params) has a title
 * of its own, a type, a range (numbers), a default of its type within that range and a source; an override
 * file out of range or changing a fixed parameter fails the schema check (`npm run schemas:check`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModuleRegistry } from '../../src/server/runtime/registry.js';
import { SCHEMAS_DIR } from '../../src/server/paths.js';
import { paramValueProblem } from '../../src/shared/module-schema/params.js';
import { unknownReminderParams } from '../../src/server/runtime/reminders/model.js';

describe('[42] the rule parameter registry', () => {
  const registry = ModuleRegistry.load(SCHEMAS_DIR, '');
  const params = registry.list().flatMap((m) => m.ruleParams.map((p) => ({ ...p, area: m.title })));

  it('[42.6] lists every parameter, each with a title, type, range, default and source', () => {
    expect(params.map((p) => p.info.key)).toEqual(expect.arrayContaining(['appraisal.excellentCapPercent', 'development.publicityWorkdays', 'appointment.publicityWorkdays', 'cadre.termYears', 'election.candidateMarginPercent']));
    for (const { info, override } of params) {
      const what = `${info.key}`;
      expect(info.declared, `${what} is declared (title, type, range, article)`).toBe(true);
      expect(info.title, what).not.toBe(info.name);
      expect(['integer', 'number', 'boolean', 'string', 'json'], what).toContain(info.type);
      if (info.type === 'integer' || info.type === 'number') {
        expect(info.min, `${what} min`).not.toBeNull();
        expect(info.max, `${what} max`).not.toBeNull();
      }
      expect(paramValueProblem({ ...info, editable: true }, info.default), what).toBeUndefined();
      expect(info.article, `${what} cites its regulation`).not.toBe('');
      // No school override in the base deployment: the source is the schema default.
      expect(override, what).toBeUndefined();
    }
  });

  it('[42.7] an override out of range, or changing a parameter no school may change, fails the check', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rule-params-'));
    fs.cpSync(path.join(SCHEMAS_DIR, 'modules'), path.join(dir, 'modules'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'schools'));
    const school = (overrides: object) => fs.writeFileSync(path.join(dir, 'schools', 'x.json'), JSON.stringify({ overrides }));
    school({ appraisal: { 'x-workflow': { params: { excellentCapPercent: 120 } } } });
    expect(ModuleRegistry.read(dir, 'x').problems.join('; ')).toContain('parameter appraisal.excellentCapPercent: 120 is not allowed');
    school({ development: { 'x-workflow': { params: { talkWithinMonths: 2 } } } });
    expect(ModuleRegistry.read(dir, 'x').problems.join('; ')).toContain('may not be changed by a school');
    school({ development: { 'x-workflow': { params: { publicityWorkdays: 3 } } } });
    expect(ModuleRegistry.read(dir, 'x').problems.join('; ')).toContain('只能提高');
    school({ appraisal: { 'x-workflow': { params: { excellentCapPercent: 25 } } } });
    const ok = ModuleRegistry.read(dir, 'x');
    expect(ok.problems).toEqual([]);
    expect(ok.registry!.get('appraisal')!.ruleParams[0]).toMatchObject({ override: { value: 25 } });
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('[42] a reminder period read from a parameter names one the registry knows; an unknown key stops the start', () => {
    expect(unknownReminderParams(registry.list())).toEqual([]);
    const passport = registry.get('cadre-passport')!;
    const [custody] = passport.schema['x-reminders']!;
    const original = custody.offset;
    custody.offset = { days: { param: 'cadre-passport.noSuchDays' } };
    try {
      expect(unknownReminderParams(registry.list())).toEqual(['cadre-passport·custody: cadre-passport.noSuchDays']);
    } finally {
      custody.offset = original;
    }
  });
});

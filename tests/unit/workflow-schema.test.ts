import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModuleRegistry } from '../../src/server/runtime/registry.js';
import { SCHEMAS_DIR } from '../../src/server/paths.js';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';
import { nextLevels, recordFormSchema, stateCodes, stateTone, stepSchema, transitionsOf, type WorkflowSchema } from '../../src/shared/module-schema/workflow.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';
import { TRANSFER, schemasWith } from '../fixtures/workflow-schemas.js';

const transfer = () => structuredClone(TRANSFER) as unknown as ModuleSchema & { 'x-workflow': WorkflowSchema };
const development = () => JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'modules/development.json'), 'utf8')) as ModuleSchema & { 'x-workflow': WorkflowSchema };

describe('x-workflow declarations', () => {
  it('a valid workflow passes the meta-schema and the checks', () => {
    expect(checkModuleSchema(transfer(), 'test-transfer')).toEqual([]);
    expect(checkModuleSchema(development(), 'development')).toEqual([]);
  });

  it('names every place a workflow points nowhere, one problem per line', () => {
    const s = transfer();
    const wf = s['x-workflow'];
    wf.initial = 9;
    wf.editableIn = [0, 8];
    wf.transitions.approveIn.to = 7;
    wf.transitions.approveOut.from = [0, 5];
    wf.transitions.approveOut.fields = ['outDate', 'nosuch'];
    wf.transitions.approveOut.required = ['reason'];
    wf.transitions.approveIn.todos = [{ step: 'nosuch' }];
    wf.transitions.extra = { title: '补录', from: [0], level: 'self', doneField: 'inDate' };
    wf.transitions.push = { title: '催办', from: [0], to: 1, level: 'next' };
    expect(checkModuleSchema(s, 'test-transfer')).toEqual([
      'x-workflow.initial names undeclared state 9',
      'x-workflow.editableIn names undeclared state 8',
      'x-workflow.transitions.approveOut.from names undeclared state 5',
      'x-workflow.transitions.approveOut.fields names unknown field "nosuch"',
      'x-workflow.transitions.approveOut.required names "reason", which the step does not take',
      'x-workflow.transitions.approveIn.to names undeclared state 7',
      'x-workflow.transitions.approveIn.todos names unknown transition "nosuch"',
      'x-workflow.transitions.extra: level "self" needs x-workflow.selfField',
      'x-workflow.transitions.extra.doneField "inDate" must be one of the step\'s fields',
      'x-workflow.transitions.push.level "next" is for return, reject and withdraw steps',
    ]);
  });

  it('the state field is read-only; the meta-schema refuses unknown keys and levels', () => {
    const s = transfer();
    delete (s.properties.state as { readOnly?: boolean }).readOnly;
    expect(checkModuleSchema(s)).toEqual(['x-workflow.stateField: "state" must be a stored, visible, readOnly integer field (only transitions change it)']);
    const typo = transfer() as unknown as { 'x-workflow': { transitions: { approveIn: Record<string, unknown> } } };
    typo['x-workflow'].transitions.approveIn.level = 'department';
    typo['x-workflow'].transitions.approveIn.gaurds = ['x'];
    expect(checkModuleSchema(typo).length).toBeGreaterThan(0);
  });

  it('the app\'s registry refuses to load a workflow that points nowhere, or a school override that breaks one (one line)', () => {
    const broken = transfer();
    broken['x-workflow'].transitions.approveIn.to = 7;
    const dir = schemasWith({ 'test-transfer': broken }, {});
    expect(() => ModuleRegistry.load(dir, 'hntb')).toThrow(/^module test-transfer: x-workflow\.transitions\.approveIn\.to names undeclared state 7$/);
    const override = schemasWith({}, { development: { 'x-workflow': { transitions: { review: null } } } });
    expect(() => ModuleRegistry.load(override, 'hntb')).toThrow(
      'school hntb: the override of module development breaks it: x-workflow.transitions.target.todos names unknown transition "review"',
    );
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(override, { recursive: true, force: true });
  });

  it('reads states in progression order, tones, default permissions, the levels "next" means, a step\'s form', () => {
    const wf = development()['x-workflow'];
    expect(stateCodes(wf)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, -2, -3]);
    expect([stateTone(wf, 2), stateTone(wf, 10), stateTone(wf, -1), stateTone(wf, -2), stateTone(wf, 99)]).toEqual(['processing', 'success', 'warning', 'error', 'default']);
    const steps = transitionsOf('development', wf);
    expect(steps.find((t) => t.id === 'activistFile')!.permission).toBe('development:activist-file');
    expect(nextLevels('development', wf, 6)).toEqual(['committee']);
    expect(nextLevels('development', wf, -1)).toEqual(['self', 'branch']);
    const form = stepSchema(development(), 'fullMeeting');
    expect(Object.keys(form.properties)).toEqual(['fullMeetingDate', 'fullEntitled', 'fullPresent', 'fullVotesFor', 'fullVotesAgainst', 'fullAbstentions']);
    expect(form.properties.fullMeetingDate.readOnly).toBeUndefined();
    expect(form.required).toEqual(['fullMeetingDate', 'fullEntitled', 'fullPresent', 'fullVotesFor', 'fullVotesAgainst', 'fullAbstentions']);
  });

  it('[39.1] the record form of appointment asks the 拟任情况 and the 动议 (the first step) only; each later step asks for its own', () => {
    const appointment = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'modules/appointment.json'), 'utf8')) as ModuleSchema;
    const form = recordFormSchema(appointment);
    const fields = form['x-form']!.groups!.flatMap((g) => g.fields);
    expect(fields).toEqual(expect.arrayContaining(['cadreId', 'unitId', 'unitPostId', 'post', 'rank', 'kind', 'proposeDate', 'proposeReason', 'exceptionReason']));
    for (const later of ['recommendDate', 'inspectOpinion', 'checkArchiveResult', 'decisionDocNo', 'publicityEnd', 'appointDate', 'dispatchNo', 'overReason', 'confirmDate', 'state']) {
      expect(form.properties[later], later).toBeUndefined();
      expect(fields).not.toContain(later);
    }
  });

  it('[issue 40.1] a step\'s form keeps the module\'s organisation field and the fills of its own fields (the election roll at the assembly), not the others', () => {
    const election = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'modules/election.json'), 'utf8')) as ModuleSchema;
    const assembly = stepSchema(election, 'assembly');
    expect(assembly['x-scope']).toBe('orgId');
    expect(assembly['x-fill']).toEqual([{ name: 'elections.roll', on: ['orgId'], sets: ['voterIds'] }]);
    expect(assembly.properties.voterIds['x-ref-eligible']).toEqual({ name: 'elections.rights', on: ['orgId', 'assemblyDate'] });
    expect(stepSchema(election, 'plan')['x-fill']).toBeUndefined();
  });
});

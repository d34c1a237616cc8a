/**
 * The fields workflow levels read (issue 24 §2): the record's organisation (`orgField`, default an
 * x-scope field referring to org) and its unit (`unitField`, default an x-scope field referring to unit);
 * a level whose field the module lacks is refused by the schema check, as `self` without selfField is.
 */
import { describe, expect, it } from 'vitest';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';
import { LEVEL_TITLES, WORKFLOW_LEVELS, type WorkflowSchema } from '../../src/shared/module-schema/workflow.js';
import { levelNamed, levelsText } from '../../src/server/runtime/workflow/levels.js';
import { TRANSFER, UNIT_REQUEST } from '../fixtures/workflow-schemas.js';

type WorkflowModule = ModuleSchema & { 'x-workflow': WorkflowSchema };
const request = () => structuredClone(UNIT_REQUEST) as unknown as WorkflowModule;

describe('[24§2] the fields levels read', () => {
  it('a unit-scoped module with an organisation field takes above, unitDept and orgdept', () => {
    expect(checkModuleSchema(request(), 'test-unit-request')).toEqual([]);
  });

  it('without orgField, the organisation levels have nothing to read (orgdept excepted); without a unit, unitDept has not', () => {
    const s = request();
    delete s['x-workflow'].orgField;
    // orgdept may stand on a school-wide record without an organisation (the dues batch): the all-scope 组织部 takes it.
    expect(checkModuleSchema(s, 'test-unit-request')).toEqual([
      'x-workflow.transitions.approve: level "above" needs x-scope or x-workflow.orgField (the record\'s organisation)',
    ]);
    const t = structuredClone(TRANSFER) as unknown as WorkflowModule;
    t['x-workflow'].transitions.approveIn.level = 'unitDept';
    expect(checkModuleSchema(t, 'test-transfer')).toEqual(['x-workflow.transitions.approveIn: level "unitDept" needs x-scope or x-workflow.unitField (the record\'s unit)']);
  });

  it('orgField and unitField must refer to organisations and units', () => {
    const s = request();
    s['x-workflow'].orgField = 'unitId';
    s['x-workflow'].unitField = 'orgId';
    expect(checkModuleSchema(s, 'test-unit-request')).toEqual([
      'x-workflow.orgField: "unitId" must be an integer field with x-ref "org"',
      'x-workflow.unitField: "orgId" must be an integer field with x-ref "unit"',
    ]);
  });
});

describe('[24§2] the level registry', () => {
  it('every level a schema may name has a registered resolver with its title', () => {
    for (const level of WORKFLOW_LEVELS) expect(levelNamed(level).title).toBe(LEVEL_TITLES[level]);
    expect(levelsText(['above', 'unitDept'])).toBe('上级党组织或主管部门');
    expect(() => levelNamed('nobody')).toThrow('workflow level "nobody" is not registered');
  });
});

/**
 * The fields workflow levels read (issue 24 §2): the record's organisation (`orgField`, default an
 * x-scope field referring to org) and its unit (`unitField`, default an x-scope field referring to unit);
 * a level whose field the module lacks is refused by the schema check, as `self` without selfField is.
 */
import { describe, expect, it } from 'vitest';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';
import { LEVEL_TITLES, WORKFLOW_LEVELS, type WorkflowSchema } from '../../src/shared/module-schema/workflow.js';
import { OrgLevels, levelNamed, levelsText, type Participant } from '../../src/server/runtime/workflow/levels.js';
import type { OrgNode, OrgTree } from '../../src/server/core/auth/org-scope.js';
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

  it('own: the record\'s organisation itself acts, whatever its type; a committee above it does not (issue 28)', async () => {
    // 1 校党委 (top) → 2 学院党委 → 3 党支部.
    const nodes: OrgNode[] = [
      { id: 1, parentId: null, type: '1' },
      { id: 2, parentId: 1, type: '1' },
      { id: 3, parentId: 2, type: '3' },
    ];
    const pathOf = async (id: number) => {
      const out: OrgNode[] = [];
      for (let n = nodes.find((x) => x.id === id); n; n = nodes.find((x) => x.id === n!.parentId)) out.unshift(n);
      return out;
    };
    const tree: OrgTree = { subtreeIds: async (ids) => ids, idsByCode: async () => new Map(), pathOf, roots: async () => [1] };
    const o = new OrgLevels(() => tree);
    const who = (orgId: number | null, scope: number[] | 'all'): Participant => ({ userId: 9, name: 'x', roles: [], isSuper: false, orgId, level: null, scope, units: [] });
    const own = levelNamed('own');
    const branch = { orgId: 3, otherOrgId: null, unitId: null, selfUserId: undefined };
    expect(await own.acting(branch, o)).toBe(3);
    const acts = (p: Participant) => o.canAct(p, 'own', 3, branch);
    expect(await acts(who(3, [3]))).toBe(true); // the branch's secretary
    expect(await acts(who(2, [2, 3]))).toBe(false); // the college committee, whose scope holds the branch
    expect(await acts(who(3, [2]))).toBe(false); // of the branch, but the branch is outside the data scope
    expect(await acts(who(1, 'all'))).toBe(false); // 组织部 (data scope all) does not act for a branch, nor gets its to-dos
    expect(await o.canAct(who(3, 'all'), 'own', 3, branch)).toBe(true); // an all-scope user of the branch itself
    expect(await o.canAct({ ...who(2, [2]), isSuper: true }, 'own', 3, branch)).toBe(true);
    expect(await own.records(who(3, [3]), o)).toEqual({ on: 'org', ids: [3] });
    expect(await own.records(who(2, [2, 3]), o)).toEqual({ on: 'org', ids: [2] });
    expect(await own.records(who(3, [2]), o)).toBe(false);
    expect(await own.records(who(1, 'all'), o)).toEqual({ on: 'org', ids: [1] }); // its own organisation's only
    expect(levelsText(['own'])).toBe('本级党组织');
  });
});

import { describe, expect, it } from 'vitest';
import development from '../../schemas/modules/development.json';
import member from '../../schemas/modules/member.json';
import transferInternal from '../../schemas/modules/transfer-internal.json';
import type { ModuleSchema } from '../../src/shared/module-schema/types';
import { stateTitle, type WorkflowSchema } from '../../src/shared/module-schema/workflow';
import { listColumns } from '../../src/web/renderer/model';

/** What a header or tag needs at 14 px per Chinese character, plus the cell's padding (and sort arrows). */
const needs = (text: string, extra: number) => text.length * 14 + extra;

describe('list columns wide enough for their header and state tags (issue 33.7)', () => {
  it('[33.7] every header of the member list fits with its sort arrows (党籍状态, not 党籍状)', () => {
    for (const c of listColumns(member as unknown as ModuleSchema)) expect(c.width, c.title).toBeGreaterThanOrEqual(needs(c.title, 56));
  });

  it.each([['development', development], ['transfer-internal', transferInternal]])('[33.7] the state column of %s fits its longest state tag', (_id, schema) => {
    const s = schema as unknown as ModuleSchema;
    const wf = s['x-workflow'] as WorkflowSchema;
    const column = listColumns(s).find((c) => c.field === wf.stateField)!;
    const longest = Object.keys(wf.states).map((code) => stateTitle(wf, code)).sort((a, b) => b.length - a.length)[0];
    expect(column.width, longest).toBeGreaterThanOrEqual(needs(longest, 48));
  });
});

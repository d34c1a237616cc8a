import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ChangeRecordModule, ChangeRecordOrigin, ChangeRecordType } from '../../src/shared/constants.js';
import type { DB } from '../../src/server/db/types.js';
import type { Actor } from '../../src/server/runtime/hooks.js';
import { RuntimeModule } from '../../src/server/runtime/module.js';
import { likeContains as likePattern } from '../../src/server/db/text-search.js';
import { columnNameOf, indexNameOf, tableNameOf } from '../../src/server/runtime/naming.js';
import { recordChanges, trailValue } from '../../src/server/runtime/trail.js';
import { createRecordAjv } from '../../src/shared/module-schema/formats.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';

const schema = (trail: ModuleSchema['x-trail']): ModuleSchema => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  'x-id': 'cadre-dept',
  title: '干部管理部门',
  type: 'object',
  properties: { name: { type: 'string', title: '名称' }, at: { type: 'string', title: '时间', format: 'date-time' } },
  'x-trail': trail,
});

/** A transaction stand-in that records what recordChange inserts. */
function capture() {
  const inserted: Record<string, unknown>[] = [];
  const trx = { insertInto: () => ({ values: (v: Record<string, unknown>[]) => ({ execute: async () => inserted.push(...v) }) }) } as unknown as Kysely<DB>;
  return { trx, inserted };
}

const actor: Actor = { id: 7, username: 'clerk', scope: 'all', orgId: null };

describe('the trail writes the shared change-record enumerations', () => {
  it('[S9.K16][S9.K17][S9.K18] type, origin and module code are the numbers of the shared constants', async () => {
    const m = new RuntimeModule(schema({ module: ChangeRecordModule.GB_MANAGE_DEPT }), createRecordAjv());
    const { trx, inserted } = capture();
    const changes = [{ field: 'name', title: '名称', before: null, after: '组织部' }];
    await recordChanges(trx, m, [
      { recordId: 1, type: ChangeRecordType.ADD, origin: ChangeRecordOrigin.USER_CREATE, changes },
      { recordId: 1, type: ChangeRecordType.UPDATE, origin: ChangeRecordOrigin.USER_RESTORE, changes },
      { recordId: 1, type: ChangeRecordType.UPDATE, origin: ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE, changes: [] }, // nothing changed: no record
    ], actor);
    expect(inserted.map((r) => [r.module, r.module_code, r.type, r.origin, r.user_id, r.username])).toEqual([
      ['cadre-dept', 50, 1, 2, 7, 'clerk'],
      ['cadre-dept', 50, 2, 5, 7, 'clerk'],
    ]);
    expect(JSON.parse(inserted[0].changes as string)).toEqual(changes);
  });

  it('modules without x-trail keep none; x-trail true keeps one without a module code', async () => {
    const none = capture();
    const entry = { recordId: 1, type: ChangeRecordType.ADD, origin: ChangeRecordOrigin.SYSTEM_IMPORT, changes: [{ field: 'name', title: '名称', before: null, after: 'x' }] };
    await recordChanges(none.trx, new RuntimeModule(schema(false), createRecordAjv()), [entry], actor);
    expect(none.inserted).toEqual([]);
    const plain = capture();
    await recordChanges(plain.trx, new RuntimeModule(schema(true), createRecordAjv()), [entry], actor);
    expect(plain.inserted[0]).toMatchObject({ module_code: null, origin: 1 });
  });

  it('trail values: empty is null, instants are ISO text', () => {
    const m = new RuntimeModule(schema(true), createRecordAjv());
    expect(trailValue(m.field('name')!, '')).toBeNull();
    expect(trailValue(m.field('name')!, [])).toBeNull();
    expect(trailValue(m.field('at')!, new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05.000Z');
    expect(trailValue(m.field('at')!, '2024-01-02T11:04:05+08:00')).toBe('2024-01-02T03:04:05.000Z');
  });
});

describe('SQL names and LIKE patterns', () => {
  it('derives table, column and index names from schema names', () => {
    expect(tableNameOf('test-person-reward')).toBe('m_test_person_reward');
    expect(columnNameOf('contactUserId')).toBe('contact_user_id');
    expect(indexNameOf('m_member', 'idx', ['org_id'])).toBe('m_member__org_id_idx');
    const long = indexNameOf('m_a_really_long_module_name_for_testing', 'uq', ['first_long_column', 'second_long_column']);
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^m_a_really_long_module_name_for_testing__.*_[0-9a-f]{10}$/);
  });

  it('escapes LIKE wildcards so a filter matches its text literally', () => {
    expect(likePattern('100%')).toBe('%100\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('c:\\x')).toBe('%c:\\\\x%');
  });
});

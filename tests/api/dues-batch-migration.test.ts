// engines: both — migration 0200 moves the fee batches' own log into workflow_log and drops it (SQL on either engine)
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import { migrate, readMigrations } from '../../src/server/db/migrate.js';
import { TEST_DB, openTestDatabase } from '../support/test-app.js';

describe(`migration 0200 on ${TEST_DB}: the batch log becomes the engine's`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    // The database as it was before: every migration below 0200, a batch with its own log.
    await migrate(database, readMigrations().filter((m) => m.name < '0200'));
    await sql`INSERT INTO dues_batch (id, school, first_month, title, state, remark, created_at) VALUES (7, 'hntb', '2026-03', '2026年3月党费', 3, '', '2026-03-01 08:00+08')`.execute(database.db);
    await sql`INSERT INTO dues_batch_log (batch_id, action, from_state, to_state, org_id, actor, comment, at) VALUES
      (7, 'create', NULL, 1, NULL, '组织部', '2026年3月党费', '2026-03-01 08:00+08'),
      (7, 'configure', 1, 2, NULL, '组织部', '120名党员，应交3600.00元', '2026-03-01 09:00+08'),
      (7, 'start', 2, 3, NULL, '组织部', '', '2026-03-01 10:00+08'),
      (7, 'defer', NULL, NULL, 41, '支部书记', '1人：生活困难，家庭困难', '2026-03-20 10:00+08'),
      (7, 'report-branch', NULL, NULL, 41, '支部书记', '应交300.00元，实交270.00元', '2026-03-25 10:00+08'),
      (7, 'report-committee', NULL, NULL, 40, '组织员', '应交3600.00元', '2026-03-28 10:00+08')`.execute(database.db);
    expect(await migrate(database)).toContain('0200_dues_batch_workflow.sql');
  }, 120_000);
  afterAll(() => database?.close());

  it('every row of dues_batch_log is in workflow_log (module dues-batch), in order, with its time, actor and organisation; dues_batch_log is gone', async () => {
    const rows = (await sql<{ transition: string; title: string; from: number | null; to: number | null; level: string; org: number | null; actor: string; comment: string; at: Date }>`
      SELECT transition, transition_title AS title, from_state AS "from", to_state AS "to", level, acting_org_id AS org, actor_name AS actor, comment, at
      FROM workflow_log WHERE module = 'dues-batch' AND record_id = 7 ORDER BY id`.execute(database.db)).rows;
    expect(rows.map((r) => [r.transition, r.title, r.from, r.to, r.level, r.org, r.actor])).toEqual([
      ['create', '新建批次', null, 1, 'orgdept', null, '组织部'],
      ['configure', '配置', 1, 2, 'orgdept', null, '组织部'],
      ['start', '开始收缴', 2, 3, 'orgdept', null, '组织部'],
      ['defer', '登记缓交', null, null, 'branch', 41, '支部书记'],
      ['report', '上报', null, null, 'branch', 41, '支部书记'],
      ['report', '上报', null, null, 'committee', 40, '组织员'],
    ]);
    expect(rows[1].comment).toBe('120名党员，应交3600.00元');
    expect(new Date(rows[4].at).toISOString()).toBe('2026-03-25T02:00:00.000Z');
    expect((await sql<{ t: string | null }>`SELECT to_regclass('dues_batch_log')::text AS t`.execute(database.db)).rows[0].t).toBeNull();
    // The batch table is a module table now: the system columns the runtime writes.
    const batch = (await sql<{ updated_at: Date; state: number }>`SELECT updated_at, state FROM dues_batch WHERE id = 7`.execute(database.db)).rows[0];
    expect(batch.state).toBe(3);
    expect(batch.updated_at).toBeTruthy();
  });
});

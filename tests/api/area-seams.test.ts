// engines: pglite — the seams are wired in code; the reads they make are plain SQL tested on both engines in the dues and party-school files
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcedTraining } from '../../src/server/domain/development/training-source.js';
import { lapseCandidates as duesLapseCandidates } from '../../src/server/domain/dues/index.js';
import { duesStanding, lapseCandidates } from '../../src/server/domain/transfer/dues-source.js';
import { bearer, login } from '../support/auth.js';
import { createRecord } from '../support/pschool.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

/**
 * The seams between areas as the composition root wires them (src/server/seams.ts), on the demo data:
 * the transfer area reads the dues area's standing and 自行脱党 list; the development guard reads the party
 * school's hours of students written through the runtime (its standing hook decides completion).
 */
describe(`areas answer each other through the composition root on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createDemoTestApp();
  }, 180_000);
  afterAll(() => t.app.close());

  it('a transfer knows the unpaid months of a member who owes dues, and none for one who paid everything', async () => {
    const db = t.database.db;
    const owing = await sql<{ id: number }>`SELECT DISTINCT i.member_id AS id FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
      WHERE i.payment_id IS NULL ORDER BY 1 LIMIT 1`.execute(db);
    const paid = await sql<{ id: number }>`SELECT i.member_id AS id FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state IN (3, 4)
      GROUP BY i.member_id HAVING bool_and(i.payment_id IS NOT NULL) ORDER BY 1 LIMIT 1`.execute(db);
    expect(owing.rows.length, 'the demo dues have a member who owes').toBe(1);
    expect(paid.rows.length, 'the demo dues have a member who paid').toBe(1);
    const owes = await duesStanding(db, owing.rows[0].id);
    expect(owes?.unpaidMonths.length).toBeGreaterThan(0);
    expect(owes?.unpaidMonths.every((m) => /^\d{4}-\d{2}$/.test(m))).toBe(true);
    const clear = await duesStanding(db, paid.rows[0].id);
    expect(clear).toMatchObject({ unpaidMonths: [] });
    expect(clear?.paidUpTo).toMatch(/^\d{4}-\d{2}$/);
    // The 自行脱党 list is the dues area's own answer (not "unknown", null, as without the seam).
    const fromDues = (await duesLapseCandidates(db, 'all')).map(({ memberId, name, orgId, months }) => ({ memberId, name, orgId, months }));
    expect(await lapseCandidates(db, 'all')).toEqual(fromDues);
  });

  it('the training guard counts the hours of completed 发展对象 classes only (细则第十八条), by ID number', async () => {
    const db = t.database.db;
    const admin = await login(t.app);
    const classOf = async (dxPc: string) => {
      const batch = await createRecord(t.app, admin, 'pschool-batch', { name: `衔接测试批次${dxPc}`, dxPc, year: 2026, requiredHours: 24 });
      return (await createRecord(t.app, admin, 'pschool-class', { name: `衔接测试班${dxPc}`, batchId: batch.id, status: '培训中' })).id;
    };
    const [develop, apply] = [await classOf('3'), await classOf('1')];
    const idCard = '110105194910010023'; // nobody else's (a valid check digit)
    // Written through the runtime: the standing hook (pschool.studentStanding) marks completion from the hours.
    const student = await createRecord(t.app, admin, 'pschool-student', { classId: develop, name: '衔接测试学员', idCard, status: '2', offlineHours: 24 });
    expect(student).toMatchObject({ completed: true, hoursDone: 24 });
    expect(await sourcedTraining(idCard, db)).toMatchObject({ hours: 24, source: '党校' });
    const fewer = await t.app.inject({ method: 'PUT', url: '/api/m/pschool-student', headers: bearer(admin), payload: { id: student.id, version: student.version, offlineHours: 10 } });
    expect(fewer.json()).toMatchObject({ completed: false }); // enrolled, not completed
    expect((await sourcedTraining(idCard, db)).hours).toBe(0);
    // Another batch type's completed course does not count.
    expect(await createRecord(t.app, admin, 'pschool-student', { classId: apply, name: '衔接测试学员', idCard, status: '2', offlineHours: 24 })).toMatchObject({ completed: true });
    expect((await sourcedTraining(idCard, db)).hours).toBe(0);
  });
});

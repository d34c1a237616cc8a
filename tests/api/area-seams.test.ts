// engines: pglite — the seams are wired in code; the reads they make are plain SQL tested on both engines in the dues and party-school files
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcedTraining } from '../../src/server/domain/development/training-source.js';
import { duesStanding, lapseCandidates } from '../../src/server/domain/transfer/dues-source.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The seams between areas as the composition root wires them (src/server/seams.ts), on the demo data:
 * the transfer area reads the dues area's standing; the development guard reads the party school's hours.
 */
describe(`areas answer each other through the composition root on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DEMO_DATA: 'true' });
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
    // The 自行脱党 list comes from the dues area (a list, possibly empty), not "unknown" (null).
    expect(Array.isArray(await lapseCandidates(db, 'all'))).toBe(true);
  });

  it('the training guard counts the hours of completed 发展对象 classes only (细则第十八条), by ID number', async () => {
    const db = t.database.db;
    const classOf = async (dxPc: string) =>
      (await sql<{ id: number }>`SELECT c.id FROM m_pschool_class c JOIN m_pschool_batch b ON b.id = c.batch_id WHERE b.dx_pc = ${dxPc} ORDER BY c.id LIMIT 1`.execute(db)).rows[0]?.id;
    const [develop, apply] = [await classOf('3'), await classOf('1')];
    expect(develop && apply, 'the demo party school has 发展对象 and 入党申请人 classes').toBeTruthy();
    const student = (await sql<{ id: number }>`SELECT id FROM m_pschool_student ORDER BY id LIMIT 1`.execute(db)).rows[0];
    expect(student, 'the demo party school has students').toBeTruthy();
    const idCard = '11010519491001002X'; // nobody else's
    const setStudent = (classId: number, completed: boolean) =>
      sql`UPDATE m_pschool_student SET id_card = ${idCard}, class_id = ${classId}, status = '2', completed = ${completed}, hours_done = 24 WHERE id = ${student.id}`.execute(db);

    await setStudent(develop!, true);
    expect(await sourcedTraining(idCard, db)).toEqual({ hours: 24, days: 0, source: '党校' });
    await setStudent(develop!, false); // enrolled, not completed
    expect((await sourcedTraining(idCard, db)).hours).toBe(0);
    await setStudent(apply!, true); // another batch type's course
    expect((await sourcedTraining(idCard, db)).hours).toBe(0);
  });
});

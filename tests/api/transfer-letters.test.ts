// engines: both — letter numbers under concurrent issues
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelLetters, issueLetterNumber, lettersOfYear } from '../../src/server/domain/transfer/letters.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`introduction letter numbers on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.app.close());
  const db = () => t.database.db;
  const issue = (year: number, transferId: number, school = 'hntb') =>
    db().transaction().execute((trx) => issueLetterNumber(trx, { school, year, transferId, issuedOn: `${year}-03-01`, issuedBy: null }));

  it('200 concurrent issues give 200 distinct consecutive numbers', async () => {
    const letters = await Promise.all(Array.from({ length: 200 }, (_x, i) => issue(2031, 1000 + i)));
    const serials = letters.map((l) => l.serial).sort((a, b) => a - b);
    expect(serials).toEqual(Array.from({ length: 200 }, (_x, i) => i + 1));
    expect(new Set(letters.map((l) => l.letterNo)).size).toBe(200);
    expect(letters.find((l) => l.serial === 7)!.letterNo).toBe('2031-0007');
  });

  it('a rolled-back issue leaves no gap; a cancelled number stays cancelled and is never given again', async () => {
    expect((await issue(2032, 1)).serial).toBe(1);
    await expect(
      db().transaction().execute(async (trx) => {
        await issueLetterNumber(trx, { school: 'hntb', year: 2032, transferId: 2, issuedOn: '2032-03-01', issuedBy: null });
        throw new Error('the step failed after taking a number');
      }),
    ).rejects.toThrow('the step failed');
    expect((await issue(2032, 2)).serial).toBe(2);
    await db().transaction().execute((trx) => cancelLetters(trx, 2, '信息填写错误'));
    // The re-issue takes the next number; the cancelled one keeps its place in the register.
    expect((await issue(2032, 2)).serial).toBe(3);
    const rows = await db().selectFrom('transfer_letters').select(['serial', 'status', 'cancel_reason']).where('year', '=', 2032).orderBy('serial').execute();
    expect(rows).toEqual([
      { serial: 1, status: 'issued', cancel_reason: null },
      { serial: 2, status: 'cancelled', cancel_reason: '信息填写错误' },
      { serial: 3, status: 'issued', cancel_reason: null },
    ]);
  });

  it('keeps one series per school and year', async () => {
    expect((await issue(2033, 1)).serial).toBe(1);
    expect((await issue(2034, 1)).serial).toBe(1);
    expect((await issue(2033, 1, 'hhxy')).serial).toBe(1);
    expect((await issue(2033, 2)).serial).toBe(2);
    // The register only lists letters of transfers that exist (none here): scoped by the transfer's branch.
    expect(await lettersOfYear(db(), 'hntb', 2033, 'all')).toEqual([]);
  });
});

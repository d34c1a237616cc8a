// engines: both — two app servers need a PostgreSQL server; on the embedded engine (one process) the file is skipped
/**
 * Issue 44's two load days at test size, with a fault in the middle: two real app server processes on one
 * PostgreSQL behind one port, one of them killed with SIGKILL half way (tests/support/cluster.ts). The
 * benches `exam-day` and `dues-month-end` run the same scenarios at full size and time them; these check
 * only that nothing was lost or counted twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { duesMonthEnd, monthEndSummary } from '../support/dues-month-end.js';
import { examDay, summary } from '../support/exam-day.js';
import { createDatabase } from '../support/postgres.js';
import { TEST_DB } from '../support/test-app.js';

describe.skipIf(TEST_DB !== 'postgres')('the load days on two app servers, one killed half way (issue 44)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-loadday-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('[44.3] exam day: 300 learners autosave, one server dies, they reload and submit: every answer there, deadlines unmoved, each sheet marked once', async () => {
    const url = await createDatabase(inject('postgresUrl'), inject('postgresTemplate'));
    // Time compressed: six autosaves a second apart (not every 15 s for 10 minutes); 300 learners at once as in a class.
    const report = await examDay(url, path.join(dataDir, 'exam'), { learners: 300, saveEveryMs: 1000, rounds: 6, submitWindowMs: 2000, walkAway: 6, realBell: false }, (line) => console.log(line));
    expect(report.problems.slice(0, 10), summary(report)).toEqual([]);
    expect(report.submits).toHaveLength(294);
    // The kill cut requests off or refused them, and the learners got through anyway.
    expect(report.proxy.cutOff + report.proxy.refused, summary(report)).toBeGreaterThan(0);
    expect(report.allMarkedMs).toBeGreaterThanOrEqual(0);
  }, 240_000);

  // 300 members of a generated university, of whom ~160 owe dues this month (the rest have no standard or
  // pay nothing); 5 % of them pay on site only, 3 % are paid on site before their notice arrives.
  it('[44.4] dues month-end: online orders with repeated and out-of-order signed notices, on-site payments at once, one server dies: no month paid twice, one receipt per order, the report = the items', async () => {
    const url = await createDatabase(inject('postgresUrl'), inject('postgresTemplate'));
    const report = await duesMonthEnd(url, path.join(dataDir, 'dues'), { members: 300, noticesPerSecond: 100, payers: 20 }, (line) => console.log(line));
    expect(report.problems.slice(0, 10), monthEndSummary(report)).toEqual([]);
    expect(report.members).toBeGreaterThan(150);
    expect(report.orders).toBe(report.members - report.onSite);
    expect(report.repeated).toBeGreaterThan(0);
    expect(report.paidOnSiteMeanwhile).toBeGreaterThan(0);
    expect(report.proxy.cutOff + report.proxy.refused, monthEndSummary(report)).toBeGreaterThan(0);
  }, 240_000);
});

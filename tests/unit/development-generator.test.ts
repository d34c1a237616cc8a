import { describe, expect, it } from 'vitest';
import { addYears } from '../../src/shared/development/rules.js';
import { fullYearsBetween } from '../../src/shared/module-schema/computed.js';
import { generateApplications, type Branch } from '../../src/server/seed/development.js';

const branches: Branch[] = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1, committee: 100 + (i % 6), root: 1000, unitId: null, secretary: `书记${i}`, students: i % 3 !== 0, members: [5000 + i * 3, 5001 + i * 3, 5002 + i * 3],
}));

describe('the development generator', () => {
  it.each(['2026-11-23', '2027-02-28', '2028-02-29', '2030-07-01'])('gives the demo branch every state and every reachable step, keeping the rules (today %s)', (today) => {
    const apps = generateApplications(branches, { count: 400, today, focusBranchIds: [1] });
    const focus = apps.filter((a) => a.record.orgId === 1);
    expect(new Set(focus.map((a) => a.record.state))).toEqual(new Set([-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    const steps = new Set(focus.map((a) => Number(a.record.step)));
    for (let n = 1; n <= 25; n++) if (n !== 7 && n !== 8) expect(steps.has(n), `step ${n}`).toBe(true);
    for (const { record: r, steps: history } of apps) {
      expect(history.every((s) => s.date <= today), `${r.name} in the future`).toBe(true);
      if (r.applyDate) expect(fullYearsBetween(r.birthDate as string, r.applyDate as string)).toBeGreaterThanOrEqual(18);
      if (r.targetDate) expect((r.targetDate as string) >= addYears(r.activistDate as string, 1)).toBe(true);
      if (r.admitDate) expect(r.probationEnd).toBe(addYears(r.admitDate as string, r.extendMonths ? 2 : 1));
      if (r.fullDate) expect(r.fullDate).toBe(r.probationEnd);
      if (r.fullMeetingDate) expect((r.fullMeetingDate as string) >= (r.probationEnd as string)).toBe(true);
      if (r.state === 0) expect(r.dueItem).toBe('入党谈话');
    }
  });

  it('scales to 20,000 applications with unique ID numbers', () => {
    const t0 = performance.now();
    const apps = generateApplications(branches, { count: 20_000, today: '2026-11-23' });
    expect(apps.length).toBe(20_000);
    expect(new Set(apps.map((a) => a.record.idCard)).size).toBe(20_000);
    expect(performance.now() - t0).toBeLessThan(60_000);
    // The spread follows the weights: about a quarter activists.
    const activists = apps.filter((a) => a.record.state === 2).length / apps.length;
    expect(activists).toBeGreaterThan(0.18);
    expect(activists).toBeLessThan(0.3);
  });
});

// engines: pglite — reads the seeded demo (seeded once per run); the rules themselves run on both engines in meetings.test.ts
/**
 * Organisation life in the demo: every branch has a year of meetings with gaps (some branches fall short),
 * the demo branch secretary (zbsj) records a 支委会 and sees the branch's calendar change, the committee's
 * organiser (ejdw) sees the branches under the committee, and the branch secretary cannot publish the
 * school's theme party day plans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { bearer, login } from '../support/auth.js';
import { createDemoTestApp, type TestApp } from '../support/test-app.js';

describe('organisation life in the demo', () => {
  let t: TestApp;
  const token: Record<string, string> = {};
  const get = async (who: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(token[who]) });
    return { status: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    t = await createDemoTestApp();
    for (const u of ['dwzzb', 'zbsj', 'ejdw']) token[u] = await login(t.app, u, DEMO_USER_PASSWORD);
  }, 300_000);
  afterAll(() => t.app.close());

  it('[S1.F12c] the school overview: every branch counted, some non-compliant, last year complete', async () => {
    const year = Number(localToday().slice(0, 4)) - 1;
    const res = await get('dwzzb', `/api/meetings/compliance/overview?year=${year}`);
    expect(res.status).toBe(200);
    const { summary } = res.body;
    expect(summary.branches).toBeGreaterThan(10);
    expect(summary.compliantBranches).toBeGreaterThan(0);
    expect(summary.compliantBranches).toBeLessThan(summary.branches);
    expect(summary.rate).toBeGreaterThan(0.6);
    expect(summary.rate).toBeLessThan(1);
  });

  it('[S1.F12c] zbsj records a 支委会 for the branch: its month turns compliant', async () => {
    const year = Number(localToday().slice(0, 4));
    const before = await get('zbsj', `/api/meetings/compliance?year=${year}`);
    expect(before.status).toBe(200);
    const orgIds = new Set(before.body.periods.map((p: { orgId: number }) => p.orgId));
    expect(orgIds.size).toBe(1);
    const [orgId] = [...orgIds] as number[];
    const feb = before.body.periods.find((p: { type: string; period: string }) => p.type === '支委会' && p.period === `${year}-02`);
    expect(feb).toMatchObject({ held: 0, compliant: false });
    // [43.7] The committee is the current term's: the form's fill names it; more than half of it attend.
    const fill = await t.app.inject({ method: 'POST', url: '/api/m/meeting/fill/meetings.attendance', headers: bearer(token.zbsj), payload: { values: { type: '支委会' } } });
    const committee = fill.json().values as { committeeSize: number; attendeeIds: number[] };
    // (a name on the term that two members share is not picked for either)
    expect(committee.attendeeIds.length, fill.body).toBeGreaterThan(committee.committeeSize / 2);
    expect(committee.attendeeIds.length).toBeLessThanOrEqual(committee.committeeSize);
    const created = await t.app.inject({
      method: 'POST', url: '/api/m/meeting', headers: bearer(token.zbsj),
      payload: { type: '支委会', date: `${year}-02-27`, topic: '补记二月支委会', attendeeIds: committee.attendeeIds.slice(0, Math.floor(committee.committeeSize / 2) + 1) },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().orgId).toBe(orgId);
    const after = await get('zbsj', `/api/meetings/compliance?year=${year}`);
    expect(after.body.periods.find((p: { type: string; period: string }) => p.type === '支委会' && p.period === `${year}-02`)).toMatchObject({ held: 1, compliant: true });
  });

  it('the committee sees its branches; the branch secretary reads the school plans but does not publish them', async () => {
    const year = Number(localToday().slice(0, 4));
    const committee = await get('ejdw', `/api/meetings/compliance/overview?year=${year}`);
    expect(committee.status).toBe(200);
    expect(committee.body.summary.branches).toBeGreaterThan(0);
    const plans = await get('zbsj', `/api/meetings/theme-plans/completion?year=${year}`);
    expect(plans.status).toBe(200);
    expect(plans.body.plans.length).toBeGreaterThan(0);
    expect(plans.body.plans[0].total).toBe(1);
    const publish = await t.app.inject({ method: 'POST', url: '/api/m/meeting-theme-plan', headers: bearer(token.zbsj), payload: { orgId: 1, month: `${year}-12`, topic: '支部自拟' } });
    expect(publish.statusCode).toBe(403);
  });
});

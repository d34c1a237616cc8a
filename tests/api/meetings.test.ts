// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the quorum and every frequency at its boundary are read and written through the engine
/**
 * Organisation life (issue 27) through the API on both engines: the quorum of a 支委会 and of a voting
 * 支部党员大会 (exactly half refused, one more accepted, 无效 on purpose accepted), and each declared frequency
 * at the last day of its period (the meeting on the period's last day counts in it, the next day's in the
 * next); compliance per branch and per committee, within the caller's scope; a theme plan's completion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const YEAR = 2025;

describe(`organisation life on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  const ids: Record<string, number> = {};
  let members: number[] = [];

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = admin) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
    return { status: res.statusCode, body: res.json() };
  };
  const created = async (url: string, payload: unknown) => {
    const res = await call('POST', url, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  };
  const meeting = (values: Record<string, unknown>) => call('POST', '/api/m/meeting', { orgId: ids.branch, topic: '会议', ...values });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    ids.root = await created('/api/m/org', { name: '中共测试大学委员会', type: '1', code: 'M-ROOT' });
    ids.college = await created('/api/m/org', { name: '文学院党委', type: '1', parentId: ids.root, code: 'M-C1' });
    ids.branch = await created('/api/m/org', { name: '文学院教工党支部', type: '3', parentId: ids.college, code: 'M-B1' });
    ids.other = await created('/api/m/org', { name: '文学院学生党支部', type: '3', parentId: ids.college, code: 'M-B2' });
    const rows = Array.from({ length: 12 }, (_, i) => ({ school: t.config.school, name: `党员${i + 1}`, org_id: ids.branch, member_type: '1' }));
    const inserted = await t.database.db.insertInto('m_member' as never).values(rows as never).returning('id' as never).execute();
    members = (inserted as { id: number }[]).map((r) => r.id);
    await userWithRole(t.app, admin, { username: 'mtgsj', permissions: ['meeting:list', 'meeting:add', 'meeting:edit'], dataScope: 'own', orgId: ids.branch, password: 'Meeting@2026x' });
  }, 120_000);
  afterAll(() => t.app.close());

  it('[43.7] a 支委会 starts from the current term\'s committee (its size from the term, also on save), a 支部党员大会 from the branch\'s roll', async () => {
    ids.third = await created('/api/m/org', { name: '机关第一党支部', type: '3', parentId: ids.root, code: 'M-FILL' });
    const names = ['甲委员', '乙委员', '丙委员'];
    const rows = [...names, '丁党员'].map((name) => ({ school: t.config.school, name, org_id: ids.third, member_type: '1', party_status: '1' }));
    rows.push({ school: t.config.school, name: '戊预备', org_id: ids.third, member_type: '2', party_status: '1' });
    const other = ((await t.database.db.insertInto('m_member' as never).values(rows as never).returning('id' as never).execute()) as { id: number }[]).map((r) => r.id);
    await created('/api/m/org-term', { orgId: ids.third, termNo: 1, termStart: `${YEAR}-01-01`, termEnd: `${YEAR + 2}-12-31`, current: true, committee: `${names[0]}（书记）、${names[1]}（委员）、${names[2]}（委员）` });
    const fill = (values: Record<string, unknown>, token = admin) => call('POST', '/api/m/meeting/fill/meetings.attendance', { values }, token);
    const committee = await fill({ type: '支委会', orgId: ids.third });
    expect(committee.status, JSON.stringify(committee.body)).toBe(200);
    expect(committee.body.values).toEqual({ committeeSize: 3, attendeeIds: other.slice(0, 3) });
    const assembly = await fill({ type: '支部党员大会', orgId: ids.third });
    expect(assembly.body.values).toEqual({ attendeeIds: other, entitled: 4 });
    // No term naming a committee: nothing is filled; nor for an organisation outside the caller's scope.
    expect((await fill({ type: '支委会', orgId: ids.branch })).body.values).toEqual({});
    const secretary = await login(t.app, 'mtgsj', 'Meeting@2026x');
    expect((await fill({ type: '支委会', orgId: ids.third }, secretary)).body.values).toEqual({});
    expect((await call('POST', '/api/m/meeting/fill/nothing', { values: {} })).status).toBe(404);
    // Saved with another size typed: the term's size counts (2 of 3 present is more than half; of 5 it would not be).
    const saved = await call('POST', '/api/m/meeting', { orgId: ids.third, topic: '支委会', type: '支委会', date: `${YEAR}-06-02`, committeeSize: 5, attendeeIds: other.slice(0, 2) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.committeeSize).toBe(3);
  });

  it('[S1.F12c] 支委会: attendees exactly half of the committee refused with the rule, one more accepted, 无效 on purpose accepted', async () => {
    for (const size of [4, 5]) {
      const half = Math.floor(size / 2);
      const refused = await meeting({ type: '支委会', date: `${YEAR}-05-10`, committeeSize: size, attendeeIds: members.slice(0, half) });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('支委会须有半数以上委员到会');
      expect(refused.body.errors[0].field).toBe('attendeeIds');
      const ok = await meeting({ type: '支委会', date: `${YEAR}-05-10`, committeeSize: size, attendeeIds: members.slice(0, half + 1) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.quorum).toContain('超过半数');
      const invalid = await meeting({ type: '支委会', date: `${YEAR}-05-11`, committeeSize: size, attendeeIds: members.slice(0, half), invalid: true });
      expect(invalid.status).toBe(201);
    }
    // An update that drops attendees below the quorum is refused as well, and changes nothing.
    const rec = await meeting({ type: '支委会', date: `${YEAR}-05-12`, committeeSize: 3, attendeeIds: members.slice(0, 2) });
    const put = await call('PUT', '/api/m/meeting', { id: rec.body.id, version: rec.body.version, attendeeIds: members.slice(0, 1) });
    expect(put.status).toBe(400);
    expect((await call('GET', `/api/m/meeting/${rec.body.id}`)).body.attendeeIds).toEqual(members.slice(0, 2));
  });

  it('[S1.F12c] 支部党员大会 that votes: exactly half of the full members entitled refused, one more accepted; without a vote no quorum', async () => {
    const refused = await meeting({ type: '支部党员大会', date: `${YEAR}-05-20`, votes: true, entitled: 10, attendeeIds: members.slice(0, 5) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('超过应到会人数的半数');
    expect((await meeting({ type: '支部党员大会', date: `${YEAR}-05-20`, votes: true, entitled: 10, attendeeIds: members.slice(0, 6) })).status).toBe(201);
    expect((await meeting({ type: '支部党员大会', date: `${YEAR}-05-21`, votes: false, entitled: 10, attendeeIds: members.slice(0, 1) })).status).toBe(201);
  });

  it('refuses a meeting dated ahead, and a person both present and absent', async () => {
    const ahead = await meeting({ type: '党课', date: '2099-01-01' });
    expect(ahead.status).toBe(400);
    expect(ahead.body.message).toContain('不能晚于今天');
    const both = await meeting({ type: '党课', date: `${YEAR}-06-01`, attendeeIds: members.slice(0, 2), absentIds: members.slice(1, 3) });
    expect(both.status).toBe(400);
  });

  it('[S1.F12c] each frequency at the last day of its period: that day counts in the period, the next day in the next', async () => {
    // The other branch: a clean slate.
    const at = (type: string, date: string, extra: Record<string, unknown> = {}) => meeting({ orgId: ids.other, type, date, ...extra });
    const ok = async (p: Promise<{ status: number; body: unknown }>) => expect((await p).status).toBe(201);
    await ok(at('支委会', `${YEAR}-01-31`, { committeeSize: 1, attendeeIds: members.slice(0, 1) }));
    await ok(at('支委会', `${YEAR}-03-01`, { committeeSize: 1, attendeeIds: members.slice(0, 1) }));
    await ok(at('支部党员大会', `${YEAR}-03-31`));
    await ok(at('支部党员大会', `${YEAR}-07-01`));
    await ok(at('党课', `${YEAR}-06-30`));
    await ok(at('党课', `${YEAR}-12-31`, { secretaryLecture: true }));
    await ok(at('组织生活会', `${YEAR}-12-31`));
    await ok(at('组织生活会', `${YEAR + 1}-01-01`));
    await ok(at('主题党日', `${YEAR}-02-28`));
    await ok(at('主题党日', `${YEAR}-04-30`, { invalid: true }));
    const res = await call('GET', `/api/meetings/compliance?orgId=${ids.other}&year=${YEAR}`);
    expect(res.status).toBe(200);
    const of = (type: string, period: string, rule?: string) => res.body.periods.find((p: { type: string; period: string; rule: string }) => p.type === type && p.period === period && (!rule || p.rule === rule));
    expect(of('支委会', `${YEAR}-01`)).toMatchObject({ orgId: ids.other, required: 1, held: 1, compliant: true });
    expect(of('支委会', `${YEAR}-02`)).toMatchObject({ held: 0, compliant: false });
    expect(of('支委会', `${YEAR}-03`)).toMatchObject({ held: 1, compliant: true });
    expect(of('支部党员大会', `${YEAR}-Q1`)).toMatchObject({ held: 1, compliant: true });
    expect(of('支部党员大会', `${YEAR}-Q2`)).toMatchObject({ held: 0, compliant: false });
    expect(of('支部党员大会', `${YEAR}-Q3`)).toMatchObject({ held: 1, compliant: true });
    expect(of('党课', `${YEAR}-Q2`, 'partyLesson')).toMatchObject({ held: 1, compliant: true });
    expect(of('党课', `${YEAR}-Q4`, 'partyLesson')).toMatchObject({ held: 1, compliant: true });
    // Only the lesson the secretary gave counts for the secretary's yearly lesson.
    expect(of('党课', `${YEAR}`, 'secretaryLesson')).toMatchObject({ held: 1, compliant: true });
    expect(of('组织生活会', `${YEAR}`)).toMatchObject({ held: 1, compliant: true });
    expect(of('主题党日', `${YEAR}-02`)).toMatchObject({ held: 1, compliant: true });
    // A meeting marked 无效 never counts.
    expect(of('主题党日', `${YEAR}-04`)).toMatchObject({ held: 0, compliant: false });
    // 党小组会 only where the branch has groups: none recorded, so no such rule for it.
    expect(of('党小组会', `${YEAR}-01`)).toBeUndefined();
    expect(res.body.periods.every((p: { open: boolean }) => !p.open)).toBe(true);
    const next = await call('GET', `/api/meetings/compliance?orgId=${ids.other}&year=${YEAR + 1}`);
    expect(next.body.periods.find((p: { type: string }) => p.type === '组织生活会')).toMatchObject({ period: `${YEAR + 1}`, held: 1, compliant: true });
    // Once the branch records a 党小组会, the monthly rule applies to it.
    await ok(at('党小组会', `${YEAR}-05-15`));
    const grouped = await call('GET', `/api/meetings/compliance?orgId=${ids.other}&year=${YEAR}`);
    expect(grouped.body.periods.filter((p: { type: string }) => p.type === '党小组会').map((p: { held: number }) => p.held)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('[S1.F12c] a committee: every branch under it with orgId, and its own 民主生活会; a branch user sees only its own', async () => {
    expect((await meeting({ orgId: ids.college, type: '民主生活会', date: `${YEAR}-12-20` })).status).toBe(201);
    const res = await call('GET', `/api/meetings/compliance?orgId=${ids.college}&year=${YEAR}`);
    expect(res.status).toBe(200);
    expect(new Set(res.body.periods.map((p: { orgId: number }) => p.orgId))).toEqual(new Set([ids.college, ids.branch, ids.other]));
    expect(res.body.periods.find((p: { orgId: number; type: string }) => p.orgId === ids.college && p.type === '民主生活会')).toMatchObject({ period: `${YEAR}`, held: 1, compliant: true });
    expect(res.body.periods.some((p: { orgId: number; type: string }) => p.orgId === ids.college && p.type === '支委会')).toBe(false);
    const overview = await call('GET', `/api/meetings/compliance/overview?orgId=${ids.college}&year=${YEAR}`);
    expect(overview.body.summary).toMatchObject({ branches: 2, compliantBranches: 0 });
    const branchRow = overview.body.orgs.find((o: { orgId: number }) => o.orgId === ids.other);
    expect(branchRow.rate).toBeGreaterThan(0);
    expect(branchRow.rate).toBeLessThan(1);
    const secretary = await login(t.app, 'mtgsj', 'Meeting@2026x');
    expect((await call('GET', `/api/meetings/compliance?orgId=${ids.college}&year=${YEAR}`, undefined, secretary)).status).toBe(404);
    const own = await call('GET', `/api/meetings/compliance?year=${YEAR}`, undefined, secretary);
    expect(new Set(own.body.periods.map((p: { orgId: number }) => p.orgId))).toEqual(new Set([ids.branch]));
    expect((await call('GET', `/api/meetings/compliance?orgId=${ids.branch}&year=1800`)).status).toBe(400);
  });

  it('[S1.F12c] 会议即将逾期: a week before the next period ends without its meeting, to the branch secretaries; a later meeting takes it over', async () => {
    const orgId = await created('/api/m/org', { name: '文学院研究生党支部', type: '3', parentId: ids.college, code: 'M-B3' });
    const secretary = await userWithRole(t.app, admin, { username: 'mtgsj3', permissions: ['meeting:list', 'meeting:add', 'meeting:edit'], dataScope: 'own', orgId });
    const held = async (date: string) => (await meeting({ orgId, type: '支委会', date, committeeSize: 1, attendeeIds: members.slice(0, 1) })).body.id as number;
    const reminderOn = async (today: string, recordId: number) => {
      await t.app.runtime.reminders.run({ modules: ['meeting'], today });
      const rows = await sql<{ due: string; state: number; receivers: number[] }>`
        SELECT due_date::text AS due, state, receivers FROM reminders WHERE module = 'meeting' AND type = 'period-due' AND record_id = ${recordId}`.execute(t.database.db);
      return rows.rows[0];
    };
    const may = await held(`${YEAR}-05-10`);
    // Due at the end of June (the month after the meeting's); announced from 7 days before: the 23rd, not the 22nd.
    expect(await reminderOn(`${YEAR}-06-22`, may)).toMatchObject({ due: `${YEAR}-06-30`, state: 1 });
    const started = await reminderOn(`${YEAR}-06-23`, may);
    expect(started).toMatchObject({ due: `${YEAR}-06-30`, state: 2 });
    expect(started.receivers).toContain(secretary);
    // Still on once overdue, until the branch holds the meeting.
    expect(await reminderOn(`${YEAR}-07-05`, may)).toMatchObject({ state: 2 });
    const july = await held(`${YEAR}-07-06`);
    expect(await reminderOn(`${YEAR}-07-07`, may)).toMatchObject({ state: 3 });
    expect(await reminderOn(`${YEAR}-07-07`, july)).toMatchObject({ due: `${YEAR}-08-31`, state: 1 });
    // A meeting marked 无效 does not take it over.
    await meeting({ orgId, type: '支委会', date: `${YEAR}-08-01`, committeeSize: 3, attendeeIds: [], invalid: true });
    expect(await reminderOn(`${YEAR}-08-24`, july)).toMatchObject({ due: `${YEAR}-08-31`, state: 2 });
  });

  it('[S1.F12d] a theme party day plan of the committee: the branches that held it', async () => {
    const plan = await created('/api/m/meeting-theme-plan', { orgId: ids.college, month: `${YEAR}-09`, topic: '铸牢中华民族共同体意识' });
    expect((await meeting({ type: '主题党日', date: `${YEAR}-09-05`, themePlanId: plan })).status).toBe(201);
    const res = await call('GET', `/api/meetings/theme-plans/${plan}/completion`);
    expect(res.status).toBe(200);
    // Three branches under the committee by now (the reminder's above), one held it.
    expect(res.body).toMatchObject({ total: 3, done: 1 });
    expect(res.body.rate).toBeCloseTo(1 / 3);
    expect(res.body.branches.find((b: { orgId: number }) => b.orgId === ids.branch)).toMatchObject({ held: 1, lastDate: `${YEAR}-09-05` });
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_meeting WHERE theme_plan_id = ${plan}`.execute(t.database.db);
    expect(count.rows[0].n).toBe(1);
  });
});

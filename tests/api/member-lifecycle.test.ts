// engines: both — 党籍 changes in a step's transaction; dates at the rules' boundaries
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { latestEnd, probationEndOf } from '../../src/shared/lifecycle/rules.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, type TransferWorld } from '../support/transfers.js';

describe(`a member's life in the party (issue 41) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let admin: ReturnType<typeof client>;
  const today = localToday();

  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database, 200);
    admin = client(t.app, await login(t.app));
  }, 180_000);
  afterAll(() => t.app.close());

  const created = async (module: string, body: Record<string, unknown>) => {
    const res = await admin.post(`/api/m/${module}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, unknown> & { id: number; version: number };
  };
  const step = async (module: string, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') => {
    const current = (await admin.get(`/api/m/${module}/${id}`)).body;
    return admin.post(`/api/m/${module}/${id}/transitions/${transition}`, { version: current.version, values, comment });
  };
  const member = async (id: number) => (await admin.get(`/api/m/member/${id}`)).body as { partyStatus: string; version: number };
  const attended = async (memberId: number, orgId: number, date: string) => {
    await sql`INSERT INTO m_meeting (school, org_id, type, date, topic, attendee_ids) VALUES ('hntb', ${orgId}, '支部党员大会', ${date}::date, '组织生活', ${JSON.stringify([memberId])}::jsonb)`.execute(t.database.db);
  };

  it('partyStatus is read-only in the generic API: a PUT leaves it as it is', async () => {
    const { a } = w.sameCommittee();
    const id = w.member(w.membersOf(a)[5]);
    const m = await member(id);
    expect((await admin.put('/api/m/member', { id, version: m.version, partyStatus: '4' })).status).toBe(200);
    expect((await member(id)).partyStatus).toBe('1');
  });

  it('LC-1 除名: six months without organisation life at the boundary, then off the roster on the committee\'s approval', async () => {
    const { a } = w.sameCommittee();
    const [lapsed, notYet] = w.membersOf(a);
    const sixMonthsAgo = addMonths(today, -6);
    await attended(w.member(lapsed), w.org(a.key), sixMonthsAgo);
    await attended(w.member(notYet), w.org(a.key), addDays(sixMonthsAgo, 1));

    const early = await created('member-quit', { memberId: w.member(notYet), kind: '2', reason: '长期不参加组织生活' });
    expect(early).toMatchObject({ lastMeetingDate: addDays(sixMonthsAgo, 1), orgId: w.org(a.key) });
    const refused = await step('member-quit', early.id, 'submit', { meetingDate: today });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('连续6个月不参加组织生活');

    const quit = await created('member-quit', { memberId: w.member(lapsed), kind: '2', reason: '连续六个月不参加组织生活' });
    expect(quit.evidence).toContain('最后参加组织生活');
    expect((await step('member-quit', quit.id, 'submit', { meetingDate: today })).status).toBe(200);
    const approved = await step('member-quit', quit.id, 'approve', { approveDate: today, approveDoc: '党委〔2026〕1号' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ state: 1, leaveDate: today });
    expect((await member(w.member(lapsed))).partyStatus).toBe('4');
    // Off the roster (the one rule: domain/member/members.ts onRosterSql), the record readable with its history.
    const roster = (await admin.post('/api/m/member/list?size=500', { orgId: w.org(a.key), partyStatus: '1' })).body.content as { id: number }[];
    expect(roster.map((r) => r.id)).not.toContain(w.member(lapsed));
    const trail = (await admin.get(`/api/m/member/${w.member(lapsed)}/trail`)).body;
    expect(JSON.stringify(trail)).toContain('member-quit');
  });

  it('LC-2 留党察看: refused on the last day of the period, decided the day after; 1 or 2 years only', async () => {
    const { b } = w.sameCommittee();
    const id = w.member(w.membersOf(b)[0]);
    expect((await admin.post('/api/m/member-discipline', { memberId: id, kind: '4', decidedOn: today, decidingOrg: '校党委' })).status).toBe(400);
    expect((await admin.post('/api/m/member-discipline', { memberId: id, kind: '4', probationYears: 3, decidedOn: today, decidingOrg: '校党委' })).status).toBe(400);
    const decidedOn = addMonths(today, -12);
    const d = await created('member-discipline', { memberId: id, kind: '4', probationYears: 1, decidedOn, decidingOrg: '校党委', docNo: '党纪〔2025〕3号' });
    const end = probationEndOf(decidedOn, 1);
    expect(d.probationEnd).toBe(end);
    expect((await step('member-discipline', d.id, 'submit')).status).toBe(200);
    expect((await step('member-discipline', d.id, 'approve', { approveDate: decidedOn })).status).toBe(200);
    const onLastDay = await step('member-discipline', d.id, 'endProbation', { endDecision: '恢复党员权利', endDecidedOn: end });
    expect(onLastDay.status).toBe(400);
    const after = await step('member-discipline', d.id, 'endProbation', { endDecision: '恢复党员权利', endDecidedOn: addDays(end, 1) });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body).toMatchObject({ state: 2, endDecision: '恢复党员权利' });
  });

  it('LC-3 停止党籍 after six months out of touch, 恢复党籍 back to 正常, each with the committee\'s approval', async () => {
    const { b } = w.sameCommittee();
    const [lost, recent] = w.membersOf(b).slice(1);
    await admin.post('/api/m/member-contact', { memberId: w.member(lost), contactDate: addMonths(today, -6), way: '电话' });
    await admin.post('/api/m/member-contact', { memberId: w.member(recent), contactDate: addDays(addMonths(today, -6), 1), way: '电话' });
    const no = await created('member-suspend', { memberId: w.member(recent), kind: '停止党籍', reason: '失去联系' });
    expect((await step('member-suspend', no.id, 'submit', { meetingDate: today })).status).toBe(400);
    const stop = await created('member-suspend', { memberId: w.member(lost), kind: '停止党籍', reason: '失去联系六个月' });
    expect(stop.lastContact).toBe(addMonths(today, -6));
    expect((await step('member-suspend', stop.id, 'submit', { meetingDate: today })).status).toBe(200);
    expect((await step('member-suspend', stop.id, 'approve', { approveDate: today })).status).toBe(200);
    expect((await member(w.member(lost))).partyStatus).toBe('3');
    const restore = await created('member-suspend', { memberId: w.member(lost), kind: '恢复党籍', reason: '已取得联系' });
    expect((await step('member-suspend', restore.id, 'submit', { meetingDate: today })).status).toBe(200);
    expect((await step('member-suspend', restore.id, 'approve', { approveDate: today })).status).toBe(200);
    expect((await member(w.member(lost))).partyStatus).toBe('1');
  });

  it('LC-4 暂留: two years from graduation pass, a day more is refused', async () => {
    const { a } = w.sameCommittee();
    const [m1, m2] = w.membersOf(a).slice(2);
    const graduationDate = addMonths(today, -1);
    const longest = latestEnd(graduationDate, 2);
    const over = await created('member-stay', { memberId: w.member(m1), graduationDate, stayUntil: addDays(longest, 1), reason: '未落实工作单位' });
    const refused = await step('member-stay', over.id, 'submit');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('最长不超过2年');
    const ok = await created('member-stay', { memberId: w.member(m2), graduationDate, stayUntil: longest, reason: '未落实工作单位' });
    expect((await step('member-stay', ok.id, 'submit')).status).toBe(200);
    expect((await step('member-stay', ok.id, 'approve')).status).toBe(200);
  });

  it('LC-5 出国（境）: over six months needs a decision, 保留党籍 at most five years; 停止党籍 then 回国 restores', async () => {
    const { b } = w.sameCommittee();
    const id = w.member(w.membersOf(b)[3]);
    const leaveDate = today;
    const long = await created('member-abroad', { memberId: id, purpose: '留学', destination: '英国', leaveDate, expectedReturnDate: addMonths(leaveDate, 24) });
    expect((await step('member-abroad', long.id, 'submit')).body.message).toContain('须决定保留党籍或停止党籍');
    const tooLong = await created('member-abroad', { memberId: id, purpose: '留学', destination: '英国', leaveDate, expectedReturnDate: addMonths(leaveDate, 24), decision: '保留党籍', keptUntil: addDays(latestEnd(leaveDate, 5), 1) });
    expect((await step('member-abroad', tooLong.id, 'submit')).status).toBe(400);
    const stop = await created('member-abroad', { memberId: id, purpose: '工作', destination: '德国', leaveDate, expectedReturnDate: addMonths(leaveDate, 24), decision: '停止党籍' });
    expect((await step('member-abroad', stop.id, 'submit')).status).toBe(200);
    expect((await step('member-abroad', stop.id, 'approve')).status).toBe(200);
    expect((await member(id)).partyStatus).toBe('3');
    expect((await step('member-abroad', stop.id, 'backHome', { returnDate: today })).status).toBe(200);
    expect((await member(id)).partyStatus).toBe('1');
  });

  it('LC-6 member-change: 年初数 + 增加 − 减少 = 年末数 for the year of the processes above, each cell drilling down to its members', async () => {
    const year = Number(today.slice(0, 4));
    const res = await admin.post('/api/reports/member-change/run', { year });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Cells are keyed `<column>|<measure>`; without a column dimension the column is ''.
    const plain = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).map(([k, n]) => [k.replace(/^\|/, ''), n]));
    const body = res.body as { totals: Record<string, number>; rows: { key: string; values: Record<string, number> }[] };
    const totals = plain(body.totals);
    const rows = body.rows.map((r) => ({ ...r, values: plain(r.values) }));
    const onRoll = (await admin.post('/api/m/member/list?size=1', { partyStatus: '1' })).body.totalElements as number;
    expect(totals.end).toBe(onRoll);
    expect(totals.start + totals.in - totals.out).toBe(totals.end);
    expect(totals.diff).toBe(0);
    expect(totals.outQuit).toBeGreaterThanOrEqual(1);
    expect(totals.outStop).toBeGreaterThanOrEqual(2);
    expect(totals.inRestore).toBeGreaterThanOrEqual(2);
    expect(totals.in).toBe(totals.inDevelop + totals.inTransfer + totals.inRestore);
    for (const r of rows) expect(r.values.start + r.values.in - r.values.out, r.key).toBe(r.values.end);
    const row = rows.find((r) => r.values.outQuit > 0)!;
    const drill = await admin.get(`/api/lifecycle/member-change/members?year=${year}&measure=outQuit&orgId=${row.key}`);
    expect(drill.status).toBe(200);
    expect(drill.body.totalElements).toBe(row.values.outQuit);
    // The first page by default (pages count from 0, as every list of the spec).
    expect(drill.body.content.length).toBe(Math.min(20, row.values.outQuit));
    const all = await admin.get(`/api/lifecycle/member-change/members?year=${year}&measure=end&size=1`);
    expect(all.body.totalElements).toBe(totals.end);
    // A past year is the same when run again.
    const last = plain((await admin.post('/api/reports/member-change/run', { year: year - 1 })).body.totals);
    expect(last.end).toBe(totals.start);
  });
});

// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): 党籍 changes in a step's transaction; dates at the rules' boundaries
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { latestEnd, probationEndOf } from '../../src/shared/lifecycle/rules.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login, userWithRole } from '../support/auth.js';
import { SCHEMAS_DIR } from '../../src/server/paths.js';
import { collectPermissions, flattenMenus, type MenuNode } from '../../src/shared/menus.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { ACTOR_PASS, client, seedTransferWorld, type TransferWorld } from '../support/transfers.js';

/** An app on a fresh transfer world of 200 members (`seed` varies who they are), with the administrator's client. */
async function worldApp(seed?: number): Promise<{ t: TestApp; w: TransferWorld; admin: ReturnType<typeof client> }> {
  const t = await createTestApp();
  const w = await seedTransferWorld(t.database, 200, seed);
  return { t, w, admin: client(t.app, await login(t.app)) };
}

describe(`a member's life in the party (issue 41) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let admin: ReturnType<typeof client>;
  const today = localToday();

  beforeAll(async () => ({ t, w, admin } = await worldApp()), 180_000);
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
    // A list answer: identity numbers masked, as in every list (issue 38's read policy, list mode).
    const all20 = (await admin.get(`/api/lifecycle/member-change/members?year=${year}&measure=end&size=20`)).body.content as { idCard: string | null }[];
    expect(all20.some((m) => m.idCard)).toBe(true);
    for (const m of all20) if (m.idCard) expect(m.idCard).toContain('*');
    const all = await admin.get(`/api/lifecycle/member-change/members?year=${year}&measure=end&size=1`);
    expect(all.body.totalElements).toBe(totals.end);
    // A past year is the same when run again.
    const last = plain((await admin.post('/api/reports/member-change/run', { year: year - 1 })).body.totals);
    expect(last.end).toBe(totals.start);
  });
});

// 毕业生批量转出 (issue 41 §3): one check over the batch, one set-based creation, all or nothing per attempt.
describe(`the graduation wave (issue 41 §3) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let admin: ReturnType<typeof client>;
  const today = localToday();
  beforeAll(async () => ({ t, w, admin } = await worldApp(23)), 180_000);
  afterAll(() => t.app.close());

  const personNo = async (id: number) => (await sql<{ n: string }>`SELECT person_no AS n FROM m_member WHERE id = ${id}`.execute(t.database.db)).rows[0].n;
  const step = async (id: number, transition: string) => {
    const current = (await admin.get(`/api/m/graduate-batch/${id}`)).body;
    return admin.post(`/api/m/graduate-batch/${id}/transitions/${transition}`, { version: current.version, values: {}, comment: '' });
  };
  const items = async (batchId: number) => (await admin.post('/api/m/graduate-batch-item/list?size=100&fields=all', { batchId })).body.content as Record<string, unknown>[];
  const transfers = async (batchId: number) =>
    ((await admin.post('/api/m/transfer-out/list?size=100&sort=letterNo,asc', { batchId })).body.content as Record<string, unknown>[]).map((r) => r.letterNo as string);
  const serialOf = (no: string) => Number(no.split('-')[1]);

  it('GB-1 the check names each failing member and the reason; the batch creates exactly the passing ones with consecutive letters; a second attempt creates only the rest', async () => {
    const { committee, a } = w.sameCommittee();
    const [m1, m2, m3, m4] = w.membersOf(a).slice(0, 4).map((m) => w.member(m));
    const draft = await admin.post('/api/m/transfer-out', { memberId: m3, toOrgName: '某市委组织部', kind: '正式组织关系' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const roster = [`${await personNo(m1)},中共某公司委员会,某公司`, `${await personNo(m2)}`, `${await personNo(m3)}\t中共某大学委员会`, `${await personNo(m4)}，中共某县委组织部`, '查无此人'].join('\n');
    const batch = (await admin.post('/api/m/graduate-batch', { title: '测试届毕业生', orgId: w.org(committee.key), leaveDate: today, roster })).body;
    const checked = await step(batch.id, 'check');
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toMatchObject({ state: 1, total: 4, passed: 2, failed: 2, created: 0 });
    expect(checked.body.unmatched).toContain('查无此人');
    const byMember = new Map((await items(batch.id)).map((i) => [i.memberId, i]));
    expect(byMember.get(m2)).toMatchObject({ result: '未通过' });
    expect(byMember.get(m2)!.problems).toContain('去向不明');
    expect(byMember.get(m3)!.problems).toContain('有未办结的组织关系转出');
    expect(byMember.get(m1)).toMatchObject({ result: '通过', toOrgName: '中共某公司委员会', destination: '某公司' });

    const first = await step(batch.id, 'transferOut');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ state: 2, created: 2 });
    const letters = await transfers(batch.id);
    expect(letters).toHaveLength(2);
    expect(serialOf(letters[1]) - serialOf(letters[0])).toBe(1);
    const created = (await admin.post('/api/m/transfer-out/list?size=100&fields=all', { batchId: batch.id })).body.content as Record<string, unknown>[];
    expect(created.map((c) => c.memberId).sort()).toEqual([m1, m4].sort());
    expect(created.every((c) => c.state === 2 && c.reason === '毕业')).toBe(true);

    // Fix both failures: the destination on the item, the draft transfer withdrawn; only the rest is created.
    const item2 = byMember.get(m2)!;
    expect((await admin.put('/api/m/graduate-batch-item', { id: item2.id, version: item2.version, toOrgName: '中共某区委组织部' })).status).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/m/transfer-out', headers: { authorization: `Bearer ${await login(t.app)}` }, payload: { ids: [draft.body.id] } })).statusCode).toBe(200);
    const again = await step(batch.id, 'check');
    expect(again.body).toMatchObject({ total: 4, passed: 2, failed: 0, created: 2 });
    expect((await step(batch.id, 'transferOut')).body).toMatchObject({ created: 4 });
    const all = await transfers(batch.id);
    expect(all).toHaveLength(4);
    expect(all.map(serialOf)).toEqual([0, 1, 2, 3].map((i) => serialOf(all[0]) + i));
    const pdf = await t.app.inject({ method: 'GET', url: `/api/graduate-batches/${batch.id}/letters.pdf`, headers: { authorization: `Bearer ${await login(t.app)}` } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('GB-2 nothing is created when the creation fails half way (a letter number taken): no transfer, the series unchanged', async () => {
    const { committee, b } = w.sameCommittee();
    const ms = w.membersOf(b).slice(0, 3).map((m) => w.member(m));
    const roster = (await Promise.all(ms.map(personNo))).map((n) => `${n},中共某省委组织部`).join('\n');
    const batch = (await admin.post('/api/m/graduate-batch', { title: '半途失败', orgId: w.org(committee.key), leaveDate: today, roster })).body;
    expect((await step(batch.id, 'check')).body).toMatchObject({ passed: 3 });
    const year = Number(today.slice(0, 4));
    const last = (await sql<{ s: number }>`SELECT coalesce(max(last_serial), 0) AS s FROM transfer_letter_serial WHERE year = ${year}`.execute(t.database.db)).rows[0].s;
    await sql`INSERT INTO transfer_letters (school, year, serial, letter_no, transfer_id, issued_on) VALUES ('hntb', ${year}, ${last + 2}, 'x', 0, ${today}::date)`.execute(t.database.db);
    const failed = await step(batch.id, 'transferOut');
    expect(failed.status).toBe(409);
    expect(failed.body.message).toContain('本次未开具任何介绍信');
    await sql`DELETE FROM transfer_letters WHERE letter_no = 'x'`.execute(t.database.db);
    expect(await transfers(batch.id)).toHaveLength(0);
    expect((await items(batch.id)).every((i) => i.result === '通过')).toBe(true);
    expect((await sql<{ s: number }>`SELECT coalesce(max(last_serial), 0) AS s FROM transfer_letter_serial WHERE year = ${year}`.execute(t.database.db)).rows[0].s).toBe(last);
    expect((await step(batch.id, 'transferOut')).body).toMatchObject({ created: 3 });
  });

  it('GB-3 scope: a 二级党委 cannot include another college\'s member', async () => {
    const { committee, a } = w.sameCommittee();
    const other = w.member(w.membersOf(w.otherCommittee(a))[0]);
    const own = w.member(w.membersOf(a)[5]);
    const menus = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'menus.json'), 'utf8')) as { menus: MenuNode[] };
    const permissions = [...collectPermissions(flattenMenus(menus.menus).filter((n) => n.id === 'graduate-batch')), 'member:list', 'member:view', 'transfer-out:list'];
    await userWithRole(t.app, await login(t.app), { username: 'gbcommittee', permissions, dataScope: 'own', orgId: w.org(committee.key), password: ACTOR_PASS });
    const c = client(t.app, await login(t.app, 'gbcommittee', ACTOR_PASS));
    const roster = `${await personNo(own)},中共某市委组织部\n${await personNo(other)},中共某市委组织部`;
    const batch = await c.post('/api/m/graduate-batch', { title: '学院毕业生', orgId: w.org(committee.key), leaveDate: today, roster });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const current = (await c.get(`/api/m/graduate-batch/${batch.body.id}`)).body;
    const checked = await c.post(`/api/m/graduate-batch/${batch.body.id}/transitions/check`, { version: current.version, values: {}, comment: '' });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toMatchObject({ total: 1, passed: 1 });
    expect(checked.body.unmatched).toContain(await personNo(other));
    expect((await items(batch.body.id)).map((i) => i.memberId)).toEqual([own]);
  });
});

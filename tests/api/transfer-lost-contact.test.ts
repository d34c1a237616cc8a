// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): six months out of touch at the day's boundary
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login, userWithRole } from '../support/auth.js';
import { duesBatchStep, duesItemsOf, startedDuesBatch } from '../support/area-links.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, type TransferWorld } from '../support/transfers.js';

const PASS = 'Branch#2026a';

describe(`lost contact, party-standing decisions and floating suggestions on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let admin: ReturnType<typeof client>;
  const today = localToday();
  const sixMonthsAgo = addMonths(today, -6);
  const lessADay = addDays(sixMonthsAgo, 1);

  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database);
    admin = client(t.app, await login(t.app));
  }, 180_000);
  afterAll(() => t.app.close());

  const contact = async (memberId: number, contactDate: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/m/member-contact', { memberId, contactDate, way: '电话', ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it('lists members six months out of touch, not those six months less a day', async () => {
    const { a, b } = w.sameCommittee();
    const [lost, notYet] = w.membersOf(a);
    const [other] = w.membersOf(b);
    await contact(w.member(lost), addMonths(sixMonthsAgo, -1));
    await contact(w.member(lost), sixMonthsAgo);
    await contact(w.member(notYet), lessADay);
    await contact(w.member(other), addMonths(today, -9));
    const res = await admin.get('/api/transfers/lost-contact');
    expect(res.status).toBe(200);
    const list = res.body as { memberId: number; name: string; orgId: number; lastContact: string }[];
    expect(list.map((x) => x.memberId).sort()).toEqual([w.member(lost), w.member(other)].sort());
    expect(list[0]).toMatchObject({ memberId: w.member(other), name: other.name, orgId: w.org(b.key), lastContact: addMonths(today, -9) });
    expect(list.find((x) => x.memberId === w.member(lost))).toMatchObject({ name: lost.name, orgId: w.org(a.key), lastContact: sixMonthsAgo });
    // The card shows the record made today for everyone else: nobody else is listed.
    expect(list).toHaveLength(2);
  });

  it('a branch secretary sees only their branch; without the permission the list answers 403', async () => {
    const { a } = w.sameCommittee();
    await userWithRole(t.app, (await login(t.app)), { username: 'lcbranch', permissions: ['lost-contact:list'], dataScope: 'own', orgId: w.org(a.key), password: PASS });
    const branch = client(t.app, await login(t.app, 'lcbranch', PASS));
    const list = (await branch.get('/api/transfers/lost-contact')).body as { orgId: number }[];
    expect(list.length).toBe(1);
    expect(list.every((x) => x.orgId === w.org(a.key))).toBe(true);
    await userWithRole(t.app, (await login(t.app)), { username: 'lcnone', permissions: ['member:list'], password: PASS });
    expect((await client(t.app, await login(t.app, 'lcnone', PASS)).get('/api/transfers/lost-contact')).status).toBe(403);
  });

  it('stops party standing only after six months, with a date and reason; restoring puts the member back in touch', async () => {
    const { a } = w.sameCommittee();
    const [lost, notYet] = w.membersOf(a);
    const refused = await admin.post(`/api/transfers/lost-contact/${w.member(notYet)}/stop`, { decidedOn: today, reason: '多方查找未果' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('失去联系未满6个月');
    expect((await admin.post(`/api/transfers/lost-contact/${w.member(lost)}/stop`, { decidedOn: today })).body.message).toBe('请填写理由');
    expect((await admin.post(`/api/transfers/lost-contact/${w.member(lost)}/stop`, { decidedOn: addDays(today, 1), reason: 'x' })).body.message).toBe('决定日期不能晚于今天');

    const stop = await admin.post(`/api/transfers/lost-contact/${w.member(lost)}/stop`, { decidedOn: today, reason: '失去联系6个月以上，多方查找未果' });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    const member = (await admin.get(`/api/m/member/${w.member(lost)}`)).body;
    expect(member.partyStatus).toBe('3');
    expect(member.partyStatusLabel).toBe('停止党籍');
    const trail = (await admin.get(`/api/m/member/${w.member(lost)}/trail`)).body;
    expect(trail.content[0].changes).toEqual([expect.objectContaining({ field: 'partyStatus', before: '1', after: '3' })]);
    expect(((await admin.get('/api/transfers/lost-contact')).body as { memberId: number }[]).map((x) => x.memberId)).not.toContain(w.member(lost));
    expect((await admin.get('/api/transfers/stopped')).body).toEqual(expect.arrayContaining([expect.objectContaining({ memberId: w.member(lost), decidedOn: today, reason: '失去联系6个月以上，多方查找未果' })]));
    expect((await admin.post(`/api/transfers/lost-contact/${w.member(lost)}/stop`, { decidedOn: today, reason: '再次' })).status).toBe(400);

    const restore = await admin.post(`/api/transfers/lost-contact/${w.member(lost)}/restore`, { decidedOn: today, reason: '本人主动联系，经教育符合条件' });
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    expect((await admin.get(`/api/m/member/${w.member(lost)}`)).body.partyStatus).toBe('1');
    expect(((await admin.get('/api/transfers/lost-contact')).body as { memberId: number }[]).map((x) => x.memberId)).not.toContain(w.member(lost));
    const decisions = (await admin.get(`/api/transfers/decisions/${w.member(lost)}`)).body as { kind: string }[];
    expect(decisions.map((d) => d.kind)).toEqual(['stop', 'restore']);
  });

  it('suggests floating registration for members away six months, not six months less a day', async () => {
    const { b } = w.sameCommittee();
    const [, away, notYet] = w.membersOf(b);
    await contact(w.member(away), today, { away: true, awaySince: sixMonthsAgo, place: '深圳市南山区' });
    await contact(w.member(notYet), today, { away: true, awaySince: lessADay, place: '长沙市' });
    const missing = await admin.post('/api/m/member-contact', { memberId: w.member(notYet), contactDate: today, way: '电话', away: true });
    expect(missing.body.message).toBe('外出的党员须填写外出日期');
    const list = (await admin.get('/api/transfers/floating-suggestions')).body as { memberId: number; awaySince: string; place: string }[];
    expect(list).toEqual([expect.objectContaining({ memberId: w.member(away), awaySince: sixMonthsAgo, place: '深圳市南山区' })]);
    // Once registered as floating, the suggestion goes.
    const reg = await admin.post('/api/m/floating', { type: 'out', memberId: w.member(away), name: '-', orgId: w.org(b.key), leaveDate: sixMonthsAgo, destination: '深圳市南山区' });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    expect(reg.body.name).toBe(away.name);
    expect((await admin.get('/api/transfers/floating-suggestions')).body).toEqual([]);
  });

  it('lists 自行脱党 candidates from the dues area: six closed months unpaid without a proper reason', async () => {
    // The real dues area answers: nobody in this world has dues items yet, so nobody is a candidate.
    expect((await admin.get('/api/transfers/lapse-candidates')).body).toEqual({ available: true, content: [] });
    const { a, committee } = w.sameCommittee();
    const [, , m] = w.membersOf(a);
    const memberId = w.member(m);
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => (method === 'GET' ? admin.get(url) : admin.post(url, payload));
    expect((await admin.post('/api/m/dues-standard', { memberId, year: 2026, category: 'student' })).status).toBe(201);
    // Six months in a row: started, deferred for no proper reason (党章第九条), reported up and closed.
    let top = committee;
    while (top.parentKey && w.u.orgs.find((o) => o.key === top.parentKey)!.parentKey) top = w.u.orgs.find((o) => o.key === top.parentKey)!;
    const months = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
    for (const month of months) {
      const batch = await startedDuesBatch(call, month);
      const items = (await duesItemsOf(call, batch, m.name)).filter((i) => i.memberId === memberId);
      expect(items).toHaveLength(1);
      const deferred = await admin.post(`/api/dues/batches/${batch}/deferrals`, { itemIds: items.map((i) => i.id), kind: 'no-reason', reason: '经提醒仍未交纳' });
      expect(deferred.status, JSON.stringify(deferred.body)).toBe(200);
      for (const orgId of [...new Set([w.org(a.key), w.org(top.key)])]) {
        const reported = await duesBatchStep(call, batch, 'report', { orgId });
        expect(reported.status, JSON.stringify(reported.body)).toBe(200);
      }
      const closed = await duesBatchStep(call, batch, 'close');
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    }
    expect((await admin.get('/api/transfers/lapse-candidates')).body).toEqual({ available: true, content: [expect.objectContaining({ memberId, name: m.name, orgId: w.org(a.key), months })] });
  });
});

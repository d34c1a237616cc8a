// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the change request's step writes the member record in its transaction, and the check-in writes a meeting's roster
/**
 * Issue 31, the member's side of the mobile terminal: my record and my organisation (`/api/member/me…`), the
 * change request that goes to the branch (`member-change-request`), the meeting check-in by QR token, and an
 * applicant's development progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { checkinSigner } from '../../src/server/domain/meetings/checkin.js';
import { linkUserToMember } from '../../src/server/domain/member/accounts.js';
import { addDays } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { createDemoTestApp, TEST_DB, type TestApp } from '../support/test-app.js';

describe(`the member's mobile screens on ${TEST_DB}`, () => {
  let t: TestApp;
  const token: Record<string, string> = {};
  const call = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token[who]), payload: payload as never });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  beforeAll(async () => {
    t = await createDemoTestApp();
    for (const u of ['dy', 'zbsj', 'jszb', 'dwzzb']) token[u] = await login(t.app, u, DEMO_USER_PASSWORD);
  }, 300_000);
  afterAll(() => t.app.close());

  const fieldText = (me: { member: { fields: { name: string; text: string }[] } }, name: string) => me.member.fields.find((f) => f.name === name)?.text;

  it('我的档案: my own record, the ID number masked; the fields I may ask to change, not 身份证号 nor 入党日期', async () => {
    const me = await call('dy', 'GET', '/api/member/me');
    expect(me.status).toBe(200);
    expect(me.body.member.name).toBeTruthy();
    expect(fieldText(me.body, 'idCard')).toMatch(/^\d{6}\*{12}$/);
    expect(fieldText(me.body, 'orgId')).toBeTruthy();
    const titles = me.body.changeable.map((c: { title: string }) => c.title);
    expect(titles).toContain('手机号码');
    expect(titles).not.toContain('身份证号');
    expect(titles).not.toContain('入党日期（预备）');
    expect(me.body.changeable.find((c: { title: string }) => c.title === '学历').options.length).toBeGreaterThan(3);
    // An account without a member record has none.
    expect((await call('dwzzb', 'GET', '/api/member/me')).body).toEqual({ member: null });
  });

  it('我的组织: my branch with its committee and secretary, and the committee above', async () => {
    const org = await call('dy', 'GET', '/api/member/me/org');
    expect(org.status).toBe(200);
    expect(org.body.branch).toMatchObject({ type: expect.stringMatching(/支部/) });
    expect(org.body.committee.type).toMatch(/党委|党总支/);
  });

  it('a change request: submitted by the member, a to-do for the branch, another branch cannot approve, the branch approves → the record changed', async () => {
    const before = await call('dy', 'GET', '/api/member/me');
    const phone = '13912345678';
    const created = await call('dy', 'POST', '/api/m/member-change-request', { field: '手机号码', newValue: phone, reason: '更换了手机号码' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ state: -1, memberId: before.body.member.id, oldValue: fieldText(before.body, 'phone') ?? null });
    const submitted = await call('dy', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/submit`, { version: created.body.version });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.state).toBe(0);

    const todos = await call('zbsj', 'GET', '/api/msgTodo/getTodo?status=0&size=200');
    expect(todos.body.content.some((x: { title: string }) => x.title.includes('手机号码'))).toBe(true);
    const waiting = await call('zbsj', 'POST', '/api/m/member-change-request/list', { $waiting: true });
    expect(waiting.body.content.map((r: { id: number }) => r.id)).toContain(created.body.id);

    const other = await call('jszb', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/approve`, { version: submitted.body.version });
    expect([403, 404]).toContain(other.status);
    // The member cannot approve their own request either.
    expect((await call('dy', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/approve`, { version: submitted.body.version })).status).toBe(403);

    const approved = await call('zbsj', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/approve`, { version: submitted.body.version });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.state).toBe(1);
    expect(fieldText((await call('dy', 'GET', '/api/member/me')).body, 'phone')).toBe(phone);
    const trail = await call('zbsj', 'GET', `/api/m/member/${before.body.member.id}/trail`);
    expect(JSON.stringify(trail.body)).toContain(phone);
  });

  it('returned with a comment: back to the member, who edits and submits again; a dictionary field by its label', async () => {
    const created = await call('dy', 'POST', '/api/m/member-change-request', { field: '学历', newValue: '博士研究生', reason: '取得博士学位' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const submitted = await call('dy', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/submit`, { version: created.body.version });
    expect((await call('zbsj', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/return`, { version: submitted.body.version })).status).toBe(400);
    const returned = await call('zbsj', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/return`, { version: submitted.body.version, comment: '请上传学位证书后再申请' });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    expect(returned.body.state).toBe(-1);
    const approvals = await call('dy', 'GET', `/api/m/member-change-request/${created.body.id}/approvals`);
    expect(approvals.body.at(-1).comment).toBe('请上传学位证书后再申请');
    const edited = await call('dy', 'PUT', '/api/m/member-change-request', { id: created.body.id, version: returned.body.version, reason: '取得博士学位，证书已交支部' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const again = await call('dy', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/submit`, { version: edited.body.version });
    expect(again.body.state).toBe(0);
    const approved = await call('zbsj', 'POST', `/api/m/member-change-request/${created.body.id}/transitions/approve`, { version: again.body.version });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(fieldText((await call('dy', 'GET', '/api/member/me')).body, 'education')).toBe('博士研究生');
  });

  it('refused in Chinese: a field members may not ask for, a malformed value, the value on record; nothing stored', async () => {
    const count = async () => (await call('dy', 'POST', '/api/m/member-change-request/list', {})).body.totalElements;
    const n = await count();
    const idCard = await call('dy', 'POST', '/api/m/member-change-request', { field: '身份证号', newValue: '110101199001011234', reason: '录入有误' });
    expect(idCard.status).toBe(400);
    expect(idCard.body.message).toMatch(/修改项目/);
    const phone = await call('dy', 'POST', '/api/m/member-change-request', { field: '手机号码', newValue: '12345', reason: '换号' });
    expect(phone.status).toBe(400);
    expect(phone.body.message).toBe('手机号码“12345”的格式不正确');
    const same = await call('dy', 'POST', '/api/m/member-change-request', { field: '学历', newValue: '博士研究生', reason: '再次申请' });
    expect(same.status).toBe(400);
    expect(same.body.message).toMatch(/相同/);
    const badOption = await call('dy', 'POST', '/api/m/member-change-request', { field: '学历', newValue: '火星大学', reason: '?' });
    expect(badOption.body.message).toBe('学历“火星大学”不是有效的选项');
    expect(await count()).toBe(n);
  });

  describe('meeting check-in by QR code', () => {
    let meeting: { id: number; version: number; orgId: number };
    let path: string;
    const checkin = (who: string, token: string) => call(who, 'POST', '/api/meetings/checkin', { token });
    beforeAll(async () => {
      const created = await call('zbsj', 'POST', '/api/m/meeting', { type: '主题党日', date: localToday(), topic: '移动签到测试', place: '党员活动室' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      meeting = created.body;
      const qr = await call('zbsj', 'GET', `/api/meetings/${meeting.id}/checkin`);
      expect(qr.status, JSON.stringify(qr.body)).toBe(200);
      expect(qr.body.until).toBe(addDays(localToday(), 1));
      path = qr.body.path;
      expect(path).toMatch(/^\/web\/m\/checkin\/\d+-\d{8}-[\w-]{22}$/);
    });
    const tokenOf = (p: string) => p.slice('/web/m/checkin/'.length);

    it('a member of the branch opens the code: marked present; twice is once', async () => {
      const me = (await call('dy', 'GET', '/api/member/me')).body.member;
      const first = await checkin('dy', tokenOf(path));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ already: false, meeting: { id: meeting.id, topic: '移动签到测试' } });
      const again = await checkin('dy', tokenOf(path));
      expect(again.body.already).toBe(true);
      const stored = await call('zbsj', 'GET', `/api/m/meeting/${meeting.id}`);
      expect(stored.body.attendeeIds.filter((x: number) => x === me.id)).toHaveLength(1);
      const mine = await call('dy', 'GET', '/api/meetings/mine');
      expect(mine.body.content.find((x: { id: number }) => x.id === meeting.id)).toMatchObject({ attended: true });
    });

    it('refused in Chinese: a forged code, an expired one, an account without a member record, a member of another branch', async () => {
      const token = tokenOf(path);
      const forged = await checkin('dy', `${token.slice(0, -3)}abc`);
      expect(forged.status).toBe(400);
      expect(forged.body.message).toMatch(/签到码无效/);
      const otherMeeting = token.replace(/^\d+/, String(meeting.id + 1));
      expect((await checkin('dy', otherMeeting)).status).toBe(400);
      const signer = checkinSigner(t.app.services.keys.privateKey);
      const expired = await checkin('dy', signer.token(meeting.id, addDays(localToday(), -1)));
      expect(expired.status).toBe(400);
      expect(expired.body.message).toMatch(/已过期/);
      const noMember = await checkin('dwzzb', token);
      expect(noMember.status).toBe(403);
      expect(noMember.body.message).toMatch(/没有关联党员档案/);
      // jszb's account linked to a member of another branch.
      const db = t.app.services.database.db;
      const jszb = await db.selectFrom('users').select(['id']).where('username', '=', 'jszb').executeTakeFirstOrThrow();
      const neighbour = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id <> ${meeting.orgId} ORDER BY id LIMIT 1`.execute(db)).rows[0];
      await linkUserToMember(db, jszb.id, neighbour.id);
      const outsider = await checkin('jszb', token);
      expect(outsider.status).toBe(403);
      expect(outsider.body.message).toMatch(/不是本次会议所在党组织的党员/);
      const stored = await call('zbsj', 'GET', `/api/m/meeting/${meeting.id}`);
      expect(stored.body.attendeeIds).not.toContain(neighbour.id);
    });

    it('only those who may edit the meeting get its code', async () => {
      expect((await call('dy', 'GET', `/api/meetings/${meeting.id}/checkin`)).status).toBe(403);
      expect((await call('jszb', 'GET', `/api/meetings/${meeting.id}/checkin`)).status).toBe(404);
    });
  });

  it('x-owner: another member of the branch neither lists, reads, changes nor deletes my request; the secretary sees it', async () => {
    const mine = await call('dy', 'POST', '/api/m/member-change-request', { field: '家庭住址', newValue: '长沙市岳麓区麓山南路2号', reason: '搬家' });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    // A second member of dy's branch, with the members' permissions on change requests and the same data scope.
    const db = t.app.services.database.db;
    const dyOrg = (await sql<{ org_id: number }>`SELECT m.org_id FROM users u JOIN m_member m ON m.id = u.member_id WHERE u.username = 'dy'`.execute(db)).rows[0].org_id;
    const peerMember = (await sql<{ id: number }>`SELECT id FROM m_member m WHERE org_id = ${dyOrg} AND NOT EXISTS (SELECT 1 FROM users u WHERE u.member_id = m.id) ORDER BY id LIMIT 1`.execute(db)).rows[0];
    const admin = await login(t.app);
    const peerId = await userWithRole(t.app, admin, {
      username: 'peer-member', dataScope: 'own', orgId: dyOrg, password: DEMO_USER_PASSWORD,
      permissions: ['member-change-request:list', 'member-change-request:add', 'member-change-request:edit', 'member-change-request:delete', 'member-change-request:submit'],
    });
    await linkUserToMember(db, peerId, peerMember.id);
    token.peer = await login(t.app, 'peer-member', DEMO_USER_PASSWORD);

    const listed = (who: string) => call(who, 'POST', '/api/m/member-change-request/list?size=500', {}).then((r) => r.body.content.map((x: { id: number }) => x.id) as number[]);
    expect(await listed('peer')).not.toContain(mine.body.id);
    expect(await listed('dy')).toContain(mine.body.id);
    expect(await listed('zbsj')).toContain(mine.body.id);
    expect((await call('peer', 'GET', `/api/m/member-change-request/${mine.body.id}`)).status).toBe(404);
    const changed = await call('peer', 'PUT', '/api/m/member-change-request', { id: mine.body.id, version: mine.body.version, reason: '改掉别人的申请' });
    expect([403, 404]).toContain(changed.status);
    const removed = await t.app.inject({ method: 'DELETE', url: '/api/m/member-change-request', headers: bearer(token.peer), payload: [mine.body.id] });
    expect([403, 404]).toContain(removed.statusCode);
    expect((await call('dy', 'GET', `/api/m/member-change-request/${mine.body.id}`)).body).toMatchObject({ reason: '搬家', version: mine.body.version });
    // The peer's own request is theirs to list.
    const theirs = await call('peer', 'POST', '/api/m/member-change-request', { field: '家庭住址', newValue: '长沙市天心区', reason: '搬家' });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(await listed('peer')).toEqual([theirs.body.id]);
  });

  it("我的发展: an applicant's steps done with their dates, the next step, and their party-school classes", async () => {
    const admin = await login(t.app);
    const userId = await userWithRole(t.app, admin, { username: 'applicant-m', permissions: [], dataScope: 'own', password: DEMO_USER_PASSWORD });
    token.applicant = await login(t.app, 'applicant-m', DEMO_USER_PASSWORD);
    expect((await call('applicant', 'GET', '/api/development/mine')).body).toEqual({ applications: [], classes: [] });
    const db = t.app.services.database.db;
    const app = (await sql<{ id: number }>`SELECT id FROM m_development WHERE state = 3 AND user_id IS NULL ORDER BY id LIMIT 1`.execute(db)).rows[0];
    await sql`UPDATE m_development SET user_id = ${userId} WHERE id = ${app.id}`.execute(db);
    const mine = await call('applicant', 'GET', '/api/development/mine');
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const [a] = mine.body.applications;
    expect(a).toMatchObject({ id: app.id, state: 3, stateLabel: '发展对象', inProgress: true });
    const apply = a.steps.find((s: { no: number }) => s.no === 1);
    expect(apply.done).toBe(true);
    expect(apply.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(a.steps.find((s: { no: number }) => s.no === 7).done).toBe(true);
    expect(a.next.no).toBeGreaterThan(7);
    expect(a.steps.find((s: { no: number }) => s.no === 25).done).toBe(false);
    // Enrolled in a class of the party school (as the class page enrols a learner): it is listed with its hours.
    const cls = (await sql<{ id: number; name: string }>`SELECT id, name FROM m_pschool_class ORDER BY id LIMIT 1`.execute(db)).rows[0];
    await sql`INSERT INTO m_pschool_student (school, class_id, name, user_id, hours_done) SELECT school, id, '申请人', ${userId}, 6 FROM m_pschool_class WHERE id = ${cls.id}`.execute(db);
    const classes = (await call('applicant', 'GET', '/api/development/mine')).body.classes;
    expect(classes).toEqual([expect.objectContaining({ id: cls.id, name: cls.name, hoursDone: 6 })]);
  });
});


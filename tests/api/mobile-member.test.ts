// engines: both — the change request's step writes the member record in its transaction, and the check-in writes a meeting's roster
/**
 * Issue 31, the member's side of the mobile terminal: my record and my organisation (`/api/member/me…`), the
 * change request that goes to the branch (`member-change-request`), the meeting check-in by QR token, and an
 * applicant's development progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
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
    expect(fieldText(me.body, 'idCard')).toMatch(/^\d{6}\*+\w{4}$/);
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
});

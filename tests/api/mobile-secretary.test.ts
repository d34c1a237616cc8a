// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the branch's dues standing and the "waiting for me" lists are SQL over the demo's records on each engine
/**
 * What the branch secretary's mobile screens read and do (issue 31): 支部党员 (the branch's members with their dues
 * standing) and 提醒缴费 for those behind (a reminder through the message service), and 待审批 (every workflow
 * module's records waiting for the caller in one answer).
 */
import { sql } from 'kysely';
import { pinyinKey } from '../../src/server/runtime/pinyin.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

interface Standing { memberId: number; name: string; orgId: number; paidUpTo: string | null; unpaidMonths: string[]; owed: string; hasUnpaid: boolean; reachable: boolean }

describe(`the branch secretary's mobile screens on ${TEST_DB}`, () => {
  let t: TestApp;
  let call: Call;
  let zbsj: string;
  let dy: string;
  let branchId: number;
  beforeAll(async () => {
    t = await createDemoTestApp();
    const admin = await login(t.app);
    call = caller(t.app, () => admin);
    zbsj = await login(t.app, 'zbsj', DEMO_USER_PASSWORD);
    dy = await login(t.app, 'dy', DEMO_USER_PASSWORD);
    branchId = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
  }, 300_000);
  afterAll(() => t.app.close(), 120_000);

  it('支部党员: the secretary sees their branch\'s members with paid-up-to and owed; `behind` keeps those behind', async () => {
    const all = await call('GET', '/api/dues/branch/members?size=1000', undefined, zbsj);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const members = all.body.content as Standing[];
    expect(members.length).toBeGreaterThan(0);
    expect(all.body.totalElements).toBe(members.length);
    expect(members.every((m) => m.orgId === branchId)).toBe(true);
    // [43.14] By the pinyin of the names, as the roster sorts them.
    const keys = members.map((m) => pinyinKey(m.name) ?? '');
    expect(keys).toEqual([...keys].sort());
    const behind = await call('GET', '/api/dues/branch/members?behind=true&size=1000', undefined, zbsj);
    const late = behind.body.content as Standing[];
    expect(late.length).toBe(all.body.behind);
    expect(late.every((m) => m.hasUnpaid && m.unpaidMonths.length > 0 && Number(m.owed) > 0)).toBe(true);
    expect(members.filter((m) => m.hasUnpaid).map((m) => m.memberId).sort()).toEqual(late.map((m) => m.memberId).sort());
    // The same standing as the dues area's own per-member answer.
    const one = await call('GET', `/api/dues/members/${late[0].memberId}/status`, undefined, zbsj);
    expect(one.body).toMatchObject({ paidUpTo: late[0].paidUpTo, owed: late[0].owed, unpaidMonths: late[0].unpaidMonths });
    // A member has no such list; an organisation outside the branch is refused.
    expect((await call('GET', '/api/dues/branch/members', undefined, dy)).status).toBe(403);
    const root = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'dwzzb').executeTakeFirstOrThrow()).org_id!;
    expect((await call('GET', `/api/dues/branch/members?orgId=${root}`, undefined, zbsj)).status).toBe(403);
  });

  it('提醒缴费: a member behind gets a reminder naming the months and the sum; others are skipped with the reason', async () => {
    const me = await call('GET', '/api/dues/my', undefined, dy);
    const dyMember = me.body.member.id as number;
    expect(me.body.status.hasUnpaid).toBe(true);
    const members = (await call('GET', '/api/dues/branch/members?size=1000', undefined, zbsj)).body.content as Standing[];
    const upToDate = members.find((m) => !m.hasUnpaid);
    const ids = upToDate ? [dyMember, upToDate.memberId] : [dyMember];
    const answer = await call('POST', '/api/dues/branch/remind', { memberIds: ids }, zbsj);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.sent).toBe(1);
    if (upToDate) expect(answer.body.skipped).toEqual([{ memberId: upToDate.memberId, name: upToDate.name, reason: '没有欠缴的党费' }]);
    const inbox = await call('GET', '/api/msgPushHistory?type=remind&page=0&size=5', undefined, dy);
    const reminder = (inbox.body.content as { title: string; content: string; senderName: string }[]).find((m) => m.title === '党费缴纳提醒');
    expect(reminder?.content).toContain(`合计${me.body.status.owed}元`);
    const first = me.body.status.unpaidMonths[0] as string;
    expect(reminder?.content).toContain(`${first.slice(0, 4)}年${Number(first.slice(5, 7))}月`);
  });

  it('提醒缴费 refuses members outside the branch (nothing is sent), an empty choice, and callers without the permission', async () => {
    const other = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id <> ${branchId} AND party_status = '1' LIMIT 1`.execute(t.database.db)).rows[0];
    const me = (await call('GET', '/api/dues/my', undefined, dy)).body.member.id as number;
    const before = (await call('GET', '/api/msgPushHistory?type=remind&page=0&size=1', undefined, dy)).body.totalElements as number;
    const refused = await call('POST', '/api/dues/branch/remind', { memberIds: [me, other.id] }, zbsj);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('所选党员不存在或不在您的管理范围内');
    expect((await call('GET', '/api/msgPushHistory?type=remind&page=0&size=1', undefined, dy)).body.totalElements).toBe(before);
    const empty = await call('POST', '/api/dues/branch/remind', { memberIds: [] }, zbsj);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('请选择要提醒的党员（最多1000人）');
    expect((await call('POST', '/api/dues/branch/remind', { memberIds: [me] }, dy)).status).toBe(403);
  });

  it('待审批: one answer lists every workflow module\'s records waiting for the caller, each with steps open to them', async () => {
    const waiting = await call('GET', '/api/workflow/waiting', undefined, zbsj);
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
    const modules = waiting.body as { module: string; title: string; total: number; records: { id: number; name: string; stateTitle: string }[] }[];
    const development = modules.find((m) => m.module === 'development')!;
    expect(development.title).toBe('发展党员');
    expect(development.records.length).toBeGreaterThan(0);
    // The same count as the module list's own "waiting for me" filter.
    const listed = await call('POST', '/api/m/development/list?page=0&size=1', { $waiting: true }, zbsj);
    expect(development.total).toBe(listed.body.totalElements);
    const first = development.records[0];
    expect(first.name).not.toBe('');
    expect(first.stateTitle).not.toBe('');
    const steps = await call('GET', `/api/m/development/${first.id}/transitions`, undefined, zbsj);
    expect((steps.body as unknown[]).length).toBeGreaterThan(0);
    // A member approves no applications (their own work tasks to report on may wait for them).
    expect(((await call('GET', '/api/workflow/waiting', undefined, dy)).body as { module: string }[]).map((m) => m.module)).not.toContain('development');
  });
});

// engines: pglite — steps and scope of internal transfers; the guarded updates are workflow-engine's
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, transferActors, type TransferActors, type TransferWorld } from '../support/transfers.js';

const today = localToday();

describe(`校内转接 (transfer-internal) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let a: TransferActors;
  let admin: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database);
    a = await transferActors(t.app, w);
    admin = client(t.app, await login(t.app));
  }, 180_000);
  afterAll(() => t.app.close());

  const step = async (who: ReturnType<typeof client>, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') => {
    const current = (await admin.get(`/api/m/transfer-internal/${id}`)).body;
    return who.post(`/api/m/transfer-internal/${id}/transitions/${transition}`, { version: current.version, comment, values });
  };
  const memberOrg = async (memberId: number) => (await admin.get(`/api/m/member/${memberId}`)).body.orgId as number;

  it('walks sending branch → sending committee → receiving committee → receiving branch; the branch changes once, at the end, with the transfer in the trail', async () => {
    const member = w.membersOf(a.from, (m) => m.memberType === '2')[0] ?? w.membersOf(a.from)[0];
    const memberId = w.member(member);
    const created = await a.sendBranch.post('/api/m/transfer-internal', { memberId, toOrgId: w.org(a.to.key), reason: '工作调动' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ name: member.name, fromOrgId: w.org(a.from.key), state: -1, stateLabel: '待提交', memberType: member.memberType, joinDate: member.joinDate });
    if (member.memberType === '2') expect(created.body.probationEnd).not.toBeNull();

    expect((await step(a.sendBranch, id, 'submit')).status).toBe(200);
    // Not the branch's step now, nor the receiving committee's: the sending committee approves first.
    expect((await step(a.sendBranch, id, 'approve')).status).toBe(403);
    expect((await step(a.recvCommittee, id, 'approve')).status).toBe(403);
    // The receiving side sees the record (read scope) but does not edit it.
    expect((await a.recvBranch.get(`/api/m/transfer-internal/${id}`)).status).toBe(200);
    const waitingBefore = (await a.recvCommittee.post('/api/m/transfer-internal/list', { $waiting: true })).body;
    expect(waitingBefore.content.map((r: { id: number }) => r.id)).not.toContain(id);

    const sc = await step(a.sendCommittee, id, 'approve', {}, '同意转出');
    expect(sc.status, JSON.stringify(sc.body)).toBe(200);
    expect(sc.body.state).toBe(1);
    expect(await memberOrg(memberId)).toBe(w.org(a.from.key));
    const waiting = (await a.recvCommittee.post('/api/m/transfer-internal/list', { $waiting: true })).body;
    expect(waiting.content.map((r: { id: number }) => r.id)).toContain(id);
    // The step open to the receiving committee is `approve` at its level.
    const open = (await a.recvCommittee.get(`/api/m/transfer-internal/${id}/transitions`)).body as { id: string; level: string }[];
    expect(open.find((s) => s.id === 'approve')).toMatchObject({ level: 'otherCommittee' });
    expect((await step(a.recvBranch, id, 'complete')).status).toBe(400);

    expect((await step(a.recvCommittee, id, 'approve', {}, '同意接收')).body.state).toBe(2);
    expect(await memberOrg(memberId)).toBe(w.org(a.from.key));
    const done = await step(a.recvBranch, id, 'complete', { completeDate: today });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ state: 3, stateLabel: '已完成', completeDate: today });
    expect(await memberOrg(memberId)).toBe(w.org(a.to.key));

    const log = (await admin.get(`/api/m/transfer-internal/${id}/approvals`)).body as { transition: string; level: string }[];
    expect(log.map((l) => [l.transition, l.level])).toEqual([['submit', 'branch'], ['approve', 'committee'], ['approve', 'otherCommittee'], ['complete', 'otherBranch']]);
    const trail = (await admin.get(`/api/m/member/${memberId}/trail?size=50`)).body.content as { changes: { field: string; before: unknown; after: unknown }[]; source: { module: string; recordId: number } | null }[];
    const moves = trail.filter((c) => c.changes.some((x) => x.field === 'orgId'));
    expect(moves).toHaveLength(1);
    expect(moves[0].source).toMatchObject({ module: 'transfer-internal', recordId: id, title: '校内组织关系转接' });
    expect(moves[0].changes.find((x) => x.field === 'orgId')).toMatchObject({ before: w.org(a.from.key), after: w.org(a.to.key) });
    // The organisation tree counts follow at once.
    const tree = (await admin.get('/api/dzzxx/buildtree')).body;
    const flat = (nodes: { id: number; memberCount: number; children?: unknown[] }[]): { id: number; memberCount: number }[] => nodes.flatMap((n) => [n, ...flat((n.children ?? []) as never)]);
    const toNode = flat(tree).find((n) => n.id === w.org(a.to.key))!;
    expect(toNode.memberCount).toBe(w.membersOf(a.to).length + 1);
  });

  it('refuses a transfer to the member\'s own branch, to a committee, and a second open transfer; edits stop once submitted', async () => {
    const [m1] = w.membersOf(a.from).slice(1);
    const own = await a.sendBranch.post('/api/m/transfer-internal', { memberId: w.member(m1), toOrgId: w.org(a.from.key) });
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('转入党支部不能是党员当前所在的党支部');
    const committee = await a.sendBranch.post('/api/m/transfer-internal', { memberId: w.member(m1), toOrgId: w.org(a.to.parentKey!) });
    expect(committee.body.message).toContain('转入党组织须为党支部');
    const first = await a.sendBranch.post('/api/m/transfer-internal', { memberId: w.member(m1), toOrgId: w.org(a.to.key) });
    expect(first.status).toBe(201);
    const second = await a.sendBranch.post('/api/m/transfer-out', { memberId: w.member(m1), toOrgName: '中共某某公司委员会', kind: '正式组织关系' });
    expect(second.status).toBe(400);
    expect(second.body.message).toBe('该党员已有正在办理的校内组织关系转接，办结后才能再次申请');
    // A member of another branch is out of the secretary's reach: the runtime's one write check on
    // references (issue 38.5) refuses a member the writer may not read, naming the field, and nothing is saved.
    const outsider = w.member(w.membersOf(a.to)[0]);
    const other = await a.sendBranch.post('/api/m/transfer-internal', { memberId: outsider, toOrgId: w.org(a.from.key) });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('党员所选的记录不在您的数据范围内');
    expect(other.body.errors).toEqual([expect.objectContaining({ field: 'memberId', message: '党员所选的记录不在您的数据范围内' })]);
    const theirs = (await admin.post('/api/m/transfer-internal/list', { memberId: outsider })).body.content;
    expect(theirs).toEqual([]);

    expect((await step(a.sendBranch, first.body.id, 'submit')).status).toBe(200);
    const current = (await admin.get(`/api/m/transfer-internal/${first.body.id}`)).body;
    const edit = await a.sendBranch.put('/api/m/transfer-internal', { id: current.id, version: current.version, reason: '改' });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toContain('已提交');
    // Returned to the branch, it is a draft again: editable, and submitted again.
    const back = await step(a.sendCommittee, first.body.id, 'return', {}, '请补充转接原因');
    expect(back.body.state).toBe(-1);
    const again = (await admin.get(`/api/m/transfer-internal/${first.body.id}`)).body;
    expect((await a.sendBranch.put('/api/m/transfer-internal', { id: again.id, version: again.version, reason: '随导师调入' })).status).toBe(200);
    // Refused: ended, the member may apply again.
    expect((await step(a.sendBranch, first.body.id, 'submit')).status).toBe(200);
    expect((await step(a.sendCommittee, first.body.id, 'reject', {}, '不符合条件')).body.stateLabel).toBe('未通过');
    expect((await a.sendBranch.post('/api/m/transfer-internal', { memberId: w.member(m1), toOrgId: w.org(a.to.key) })).status).toBe(201);
  });

  it('a member who left the branch meanwhile cannot be moved on the old application', async () => {
    const m = w.membersOf(a.from)[3];
    const rec = (await a.sendBranch.post('/api/m/transfer-internal', { memberId: w.member(m), toOrgId: w.org(a.to.key) })).body;
    await step(a.sendBranch, rec.id, 'submit');
    // 停止党籍 decided meanwhile (its own process sets the read-only status; here straight in the table).
    await sql`UPDATE m_member SET party_status = '3' WHERE id = ${w.member(m)}`.execute(t.database.db);
    const refused = await step(a.sendCommittee, rec.id, 'approve');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('党籍状态已不是“正常”');
    expect((await admin.get(`/api/m/transfer-internal/${rec.id}`)).body.state).toBe(0);
    expect(await memberOrg(w.member(m))).toBe(w.org(a.from.key));
  });
});

describe(`校内转接 with a school's switch (hnsoft drops the receiving committee) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let a: TransferActors;
  beforeAll(async () => {
    t = await createTestApp({ SCHOOL: 'hnsoft' });
    w = await seedTransferWorld(t.database);
    a = await transferActors(t.app, w);
  }, 180_000);
  afterAll(() => t.app.close());

  it('goes from the sending committee straight to the receiving branch', async () => {
    const admin = client(t.app, await login(t.app));
    const m = w.membersOf(a.from)[0];
    const rec = (await a.sendBranch.post('/api/m/transfer-internal', { memberId: w.member(m), toOrgId: w.org(a.to.key) })).body;
    const step = async (who: ReturnType<typeof client>, transition: string) => {
      const current = (await admin.get(`/api/m/transfer-internal/${rec.id}`)).body;
      return who.post(`/api/m/transfer-internal/${rec.id}/transitions/${transition}`, { version: current.version, values: {} });
    };
    expect((await step(a.sendBranch, 'submit')).status).toBe(200);
    const approved = await step(a.sendCommittee, 'approve');
    expect(approved.body).toMatchObject({ state: 2, stateLabel: '待转入党支部接收' });
    expect((await step(a.recvCommittee, 'approve')).status).toBe(400);
    expect((await step(a.recvBranch, 'complete')).body.state).toBe(3);
    const log = (await admin.get(`/api/m/transfer-internal/${rec.id}/approvals`)).body as { level: string }[];
    expect(log.map((l) => l.level)).toEqual(['branch', 'committee', 'otherBranch']);
    expect((await admin.get(`/api/m/member/${w.member(m)}`)).body.orgId).toBe(w.org(a.to.key));
  });
});

// engines: both — two steps of the workflow engine in one transaction (guarded state updates, the log)
/**
 * Issue 33.9: a transfer between two branches of one committee is approved by that committee once: its
 * 转出党委审批 takes 转入党委审批 with it (logged as taken with the first); a school that keeps both sets
 * `x-workflow.repeatSameActor`, and a transfer to another committee still needs both.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_PASS, client, seedTransferWorld, transferActors, transferPermissions, type TransferActors, type TransferWorld } from '../support/transfers.js';
import { login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`consecutive steps of one organisation on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let a: TransferActors;
  let admin: ReturnType<typeof client>;
  /** A branch of the sending committee other than the sending branch, and its secretary. */
  let sibling: { orgId: number; c: ReturnType<typeof client> };
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database);
    a = await transferActors(t.app, w, 'sa');
    const token = await login(t.app);
    admin = client(t.app, token);
    const { b } = w.sameCommittee();
    await userWithRole(t.app, token, { username: 'sasib', permissions: transferPermissions(), dataScope: 'own', orgId: w.org(b.key), password: ACTOR_PASS });
    sibling = { orgId: w.org(b.key), c: client(t.app, await login(t.app, 'sasib', ACTOR_PASS)) };
  }, 180_000);
  afterAll(() => t.app.close());

  const step = async (who: ReturnType<typeof client>, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') => {
    const current = (await admin.get(`/api/m/transfer-internal/${id}`)).body;
    return who.post(`/api/m/transfer-internal/${id}/transitions/${transition}`, { version: current.version, comment, values });
  };
  const submitted = async (toOrgId: number, n: number) => {
    const memberId = w.member(w.membersOf(a.from)[n]);
    const created = await a.sendBranch.post('/api/m/transfer-internal', { memberId, toOrgId, reason: '班级调整' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await step(a.sendBranch, created.body.id, 'submit')).status).toBe(200);
    return created.body.id as number;
  };
  const log = async (id: number) =>
    (await admin.get(`/api/m/transfer-internal/${id}/approvals`)).body as { transition: string; title: string; from: number; to: number; level: string; actingOrgId: number; comment: string }[];

  it('[issue 33.9] within one committee its approval is taken once: 转入党委审批 follows 转出党委审批, logged as taken with it', async () => {
    const id = await submitted(sibling.orgId, 0);
    const approved = await step(a.sendCommittee, id, 'approve', {}, '同意');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    // Straight to the receiving branch, which finds it waiting and completes it.
    expect(approved.body).toMatchObject({ state: 2, stateLabel: '待转入党支部接收' });
    const entries = await log(id);
    expect(entries.map((e) => [e.title, e.from, e.to])).toEqual([
      ['提交转接申请', -1, 0],
      ['转出党委审批', 0, 1],
      ['转入党委审批', 1, 2],
    ]);
    const committee = w.org(w.sameCommittee().committee.key);
    expect(entries[1]).toMatchObject({ level: 'committee', actingOrgId: committee, comment: '同意' });
    expect(entries[2]).toMatchObject({ level: 'otherCommittee', actingOrgId: committee });
    expect(entries[2].comment).toContain('与“转出党委审批”一并办理');
    // One claim: the version moved once; the committee has nothing left on it.
    expect((await admin.get(`/api/m/transfer-internal/${id}`)).body.version).toBe(3);
    expect(((await a.sendCommittee.post('/api/m/transfer-internal/list', { $waiting: true })).body.content as { id: number }[]).map((r) => r.id)).not.toContain(id);
    expect(((await sibling.c.post('/api/m/transfer-internal/list', { $waiting: true })).body.content as { id: number }[]).map((r) => r.id)).toContain(id);
    const done = await step(sibling.c, id, 'complete', { completeDate: new Date().toISOString().slice(0, 10) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.state).toBe(3);
  });

  it('[issue 33.9] a transfer to another committee still takes both approvals, each by its own committee', async () => {
    const id = await submitted(w.org(a.to.key), 1);
    const approved = await step(a.sendCommittee, id, 'approve');
    expect(approved.body.state).toBe(1);
    expect((await log(id)).map((e) => e.title)).toEqual(['提交转接申请', '转出党委审批']);
  });

  it('[issue 33.9] a school keeping both (x-workflow.repeatSameActor) approves twice', async () => {
    const m = (t.app as unknown as { runtime: { module(id: string): { workflow: { schema: { repeatSameActor?: boolean } } } } }).runtime.module('transfer-internal');
    m.workflow.schema.repeatSameActor = true;
    try {
      const id = await submitted(sibling.orgId, 2);
      expect((await step(a.sendCommittee, id, 'approve')).body.state).toBe(1);
      expect((await step(a.sendCommittee, id, 'approve')).body.state).toBe(2);
      const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM workflow_log WHERE module = 'transfer-internal' AND record_id = ${id} AND transition = 'approve'`.execute(t.database.db);
      expect(rows.rows[0].n).toBe(2);
    } finally {
      m.workflow.schema.repeatSameActor = false;
    }
  });
});

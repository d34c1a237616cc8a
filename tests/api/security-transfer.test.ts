// engines: pglite — scope and status checks in the transfer hooks and effects; no engine-specific SQL
/**
 * Issue 25.3: a transfer-in took over a member of another college. A 二级党委 registered, submitted and
 * approved a letter carrying the ID number of a member who is 失联 or 停止党籍 elsewhere in the school; the
 * branch completed it, and that member was renamed, moved and set back to 正常 (the hook refused only
 * 正常, the effect updated the member with scope `all`).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { client, seedTransferWorld, transferActors, type TransferActors, type TransferWorld } from '../support/transfers.js';

const today = localToday();

describe(`transfer-in cannot take over another college's member (issue 25.3) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: TransferWorld;
  let a: TransferActors;
  let admin: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database);
    a = await transferActors(t.app, w, 'tk');
    admin = client(t.app, await login(t.app));
  }, 180_000);
  afterAll(() => t.app.close());

  const step = async (who: ReturnType<typeof client>, id: number, transition: string, values: Record<string, unknown> = {}) => {
    const current = (await admin.get(`/api/m/transfer-in/${id}`)).body;
    return who.post(`/api/m/transfer-in/${id}/transitions/${transition}`, { version: current.version, comment: '', values });
  };
  const letter = (m: { name: string; idCard: string }, n: number) => ({
    name: `${m.name}改`, gender: '1', idCard: m.idCard, category: '3', memberType: '1', joinDate: addMonths(today, -42), fullDate: addMonths(today, -30),
    fromOrgName: '中共某某大学委员会', letterNo: `2026-T${n}`, issueDate: addDays(today, -10), validDays: 30, toOrgId: w.org(a.to.parentKey!),
  });
  const setStatus = (memberId: number, status: string) => sql`UPDATE m_member SET party_status = ${status} WHERE id = ${memberId}`.execute(t.database.db);
  const memberRow = (memberId: number) => sql<{ name: string; org_id: number; party_status: string }>`SELECT name, org_id, party_status FROM m_member WHERE id = ${memberId}`.execute(t.database.db).then((r) => r.rows[0]);

  it('[25.3] a 二级党委 cannot register a transfer-in for a member who is 失联 or 停止党籍 in another college: the refusal names the status', async () => {
    const [lost, stopped] = [w.membersOf(a.from)[1], w.membersOf(a.from)[2]];
    await setStatus(w.member(lost), '2');
    await setStatus(w.member(stopped), '3');
    for (const [m, label, n] of [[lost, '失联', 1], [stopped, '停止党籍', 2]] as const) {
      const before = await memberRow(w.member(m));
      const res = await a.recvCommittee.post('/api/m/transfer-in', letter(m, n));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ status: 400, errors: [{ field: 'idCard' }] });
      expect(res.body.message).toBe(`身份证号为${m.idCard}的人员在本校党员名册中的党籍状态为“${label}”，不能通过组织关系转入恢复，请由其所在党组织办理`);
      expect(await memberRow(w.member(m))).toEqual(before);
    }
  });

  it('[25.3] a member whose status changed after the letter was registered is not taken over when the branch receives', async () => {
    const m = w.membersOf(a.from)[3];
    await setStatus(w.member(m), '6'); // left the school: a letter may bring them back
    const created = await a.recvCommittee.post('/api/m/transfer-in', letter(m, 3));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await step(a.recvCommittee, id, 'submit')).status).toBe(200);
    expect((await step(a.recvCommittee, id, 'approve', { toOrgId: w.org(a.to.key) })).status).toBe(200);
    // Meanwhile the sending side restores the record as 失联 (the member never left after all).
    await setStatus(w.member(m), '2');
    const before = await memberRow(w.member(m));
    const received = await step(a.recvBranch, id, 'complete', { arriveDate: today });
    expect(received.status, JSON.stringify(received.body)).toBe(400);
    expect(received.body.message).toContain('党籍状态为“失联”');
    expect(await memberRow(w.member(m))).toEqual(before);
    expect((await admin.get(`/api/m/transfer-in/${id}`)).body.state).toBe(1);
  });

  it('[25.3] a member the receiving side already sees (失联 in its own branch) is re-activated there', async () => {
    const m = w.membersOf(a.to)[1];
    await setStatus(w.member(m), '2');
    const created = await a.recvCommittee.post('/api/m/transfer-in', letter(m, 4));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await step(a.recvCommittee, id, 'submit');
    await step(a.recvCommittee, id, 'approve', { toOrgId: w.org(a.to.key) });
    const received = await step(a.recvBranch, id, 'complete', { arriveDate: today });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    expect(received.body.memberId).toBe(w.member(m));
    expect(await memberRow(w.member(m))).toMatchObject({ party_status: '1', org_id: w.org(a.to.key) });
  });
});

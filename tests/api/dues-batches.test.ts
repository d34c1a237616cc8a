// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): batch generation in bulk, months and quarters, writes refused after closing
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchState } from '../../src/shared/constants.js';
import { batchStep, branchWith, caller, duesWorld, itemOf, membersOf, scopedUser, standardsForAll, startedBatch, type Call, type DuesWorld } from '../support/dues.js';
import { TEST_DB } from '../support/test-app.js';

describe(`fee batches (收费批次) on ${TEST_DB}`, () => {
  let w: DuesWorld;
  let call: Call;
  beforeAll(async () => {
    w = await duesWorld(300, 16);
    call = caller(w.t.app, () => w.admin);
  });
  afterAll(() => w.t.app.close());

  it('[S4.N6] a batch moves not configured 1 → configured 2 → started 3, freezing each member\'s standard', async () => {
    const created = await call('POST', '/api/m/dues-batch', { firstMonth: '2026-03' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ title: '2026年3月党费', state: BatchState.NOT_CONFIGURED, stateLabel: '未配置', months: 1 });
    const id = created.body.id;
    expect((await call('GET', `/api/dues/batches/${id}`)).body).toMatchObject({ title: '2026年3月党费', state: BatchState.NOT_CONFIGURED, months: ['2026-03'] });
    // Start before configuring: refused by the engine, state unchanged.
    expect(await batchStep(call, id, 'start')).toMatchObject({ status: 400, body: { message: '当前状态为“未配置”，不能办理“开始收缴”' } });
    // Members without a standard for 2026 stop the configuration, named.
    const refused = await batchStep(call, id, 'configure');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^\d+名党员没有2026年度的党费标准（.+），请先导入或生成党费标准$/);
    expect(refused.body.missingCount).toBeGreaterThan(0);
    await standardsForAll(w, call, 2026);
    const configured = await batchStep(call, id, 'configure');
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);
    const normal = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE party_status = '1' AND (join_date IS NULL OR join_date <= '2026-03-31')`.execute(w.t.database.db)).rows[0].n;
    expect(configured.body).toMatchObject({ state: BatchState.CONFIGURED, warnings: [] });
    // The school's figures are not the module's to answer: each caller reads those of their scope.
    expect(configured.body.members).toBeUndefined();
    expect((await call('GET', `/api/dues/batches/${id}`)).body).toMatchObject({ state: BatchState.CONFIGURED, members: normal });
    // The snapshot: due = the standard's amount in cents, whatever the standard becomes later.
    const standard = (await sql<{ memberId: number; amount: string; id: number; version: number }>`SELECT member_id AS "memberId", amount, id, version FROM m_dues_standard WHERE category = 'in-service' AND year = 2026 LIMIT 1`.execute(w.t.database.db)).rows[0];
    const item = await itemOf(w, id, standard.memberId);
    expect(item.due_cents).toBe(Math.round(Number(standard.amount) * 100));
    const edit = await call('PUT', '/api/m/dues-standard', { id: standard.id, version: standard.version, base: '12000.00' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body).toMatchObject({ amount: '240.00', rate: '2%' });
    expect((await itemOf(w, id, standard.memberId)).due_cents).toBe(item.due_cents);
    // Configuring again takes the new standard (until the batch starts).
    await batchStep(call, id, 'configure');
    expect((await itemOf(w, id, standard.memberId)).due_cents).toBe(24000);
    expect((await batchStep(call, id, 'start')).body).toMatchObject({ state: BatchState.STARTED, stateLabel: '已开始' });
    expect((await batchStep(call, id, 'configure')).status).toBe(400);
    // Two callers racing with the version they read: one step, the other 409 (the engine's claim).
    const version = (await call('GET', `/api/m/dues-batch/${id}`)).body.version;
    expect((await call('POST', `/api/m/dues-batch/${id}/transitions/configure`, { version: version - 1, values: {} })).status).toBe(409);
    // The log is the engine's (workflow_log), read by the batch's page and by the approvals API alike.
    const log = await call('GET', `/api/dues/batches/${id}/log`);
    expect(log.body.map((l: { action: string }) => l.action)).toEqual(['create', 'configure', 'configure', 'start']);
    const approvals = await call('GET', `/api/m/dues-batch/${id}/approvals`);
    expect(approvals.body.map((l: { transition: string; level: string }) => `${l.transition}@${l.level}`)).toEqual(['create@orgdept', 'configure@orgdept', 'configure@orgdept', 'start@orgdept']);
    // The schema the page renders carries the workflow.
    const schema = await call('GET', '/api/m/dues-batch/schema');
    expect(Object.keys(schema.body.schema['x-workflow'].transitions)).toEqual(['configure', 'start', 'report', 'close']);
    expect(schema.body.schema.properties.paidCents).toBeUndefined();
  });

  it('a month belongs to one batch; a quarter starts in its first month', async () => {
    expect(await call('POST', '/api/m/dues-batch', { firstMonth: '2026-03' })).toMatchObject({ status: 409, body: { message: '2026年3月已有收费批次“2026年3月党费”' } });
    expect((await call('POST', '/api/m/dues-batch', { firstMonth: '2026-02', months: 3 })).body.message).toBe('按季收费须从季度的第一个月开始（1、4、7、10月）');
    expect((await call('POST', '/api/m/dues-batch', { firstMonth: '2026-13' })).status).toBe(400);
    expect((await call('POST', '/api/m/dues-batch', { firstMonth: '2026-07', months: 2 })).status).toBe(400);
    const quarter = await call('POST', '/api/m/dues-batch', { firstMonth: '2026-01', months: 3 });
    expect(quarter.status).toBe(409); // March is taken
    const q2 = await call('POST', '/api/m/dues-batch', { firstMonth: '2026-04', months: 3, remark: '按季' });
    expect(q2.body).toMatchObject({ title: '2026年第2季度党费', months: 3 });
    expect((await call('GET', `/api/dues/batches/${q2.body.id}`)).body).toMatchObject({ months: ['2026-04', '2026-05', '2026-06'] });
    // Its months stay; the remark may change until it starts.
    expect((await call('PUT', '/api/m/dues-batch', { id: q2.body.id, version: q2.body.version, firstMonth: '2026-07', months: 3 })).status).toBe(400);
    expect((await call('PUT', '/api/m/dues-batch', { id: q2.body.id, version: q2.body.version, firstMonth: '2026-04', months: 3, remark: '按季收缴' })).status).toBe(200);
    expect((await call('DELETE', '/api/m/dues-batch', [q2.body.id])).status).toBe(200);
    expect((await call('GET', '/api/dues/batches?year=2026')).body.map((b: { title: string }) => b.title)).toEqual(['2026年3月党费']);
  });

  it('a branch reports when everyone paid or has a deferral; its committee after its branches; the school closes when every committee reported', async () => {
    const batch = await startedBatch(call, '2026-05');
    const branch = await branchWith(w, 3);
    const members = await membersOf(w, branch);
    const secretary = await scopedUser(w, 'dues_sec_a', ['dues-batch:list', 'dues-batch:report', 'dues-batch:defer', 'dues-onsite:list', 'dues-onsite:pay'], branch);
    const items = await Promise.all(members.map((m) => itemOf(w, batch, m.id)));
    // Pay all but the last two.
    const paid = await call('POST', '/api/dues/payments', { method: 'cash', entries: members.slice(0, -2).map((m, i) => ({ memberId: m.id, itemIds: [items[i].id] })) }, secretary);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const refused = await batchStep(call, batch, 'report', { orgId: branch }, secretary);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/尚有2名党员未缴纳党费且未登记缓交（.+），不能上报$/);
    const defer = await call('POST', `/api/dues/batches/${batch}/deferrals`, { itemIds: items.slice(-2).map((i) => i.id), kind: 'hardship', reason: '生活困难' }, secretary);
    expect(defer.body).toMatchObject({ deferred: 2 });
    // A paid member needs no deferral.
    expect((await call('POST', `/api/dues/batches/${batch}/deferrals`, { itemIds: [items[0].id], kind: 'approved', reason: 'x' }, secretary)).status).toBe(409);
    // The step is offered to the secretary for their own branch.
    expect((await call('GET', `/api/m/dues-batch/${batch}/transitions`, undefined, secretary)).body.map((s: { id: string; level: string }) => `${s.id}@${s.level}`)).toEqual(['report@branch']);
    // The progress offers 上报 where the engine would take it: the secretary's own branch.
    expect((await call('GET', `/api/dues/batches/${batch}/progress`, undefined, secretary)).body[0]).toMatchObject({ orgId: branch, canReport: true });
    const reported = await batchStep(call, batch, 'report', { orgId: branch }, secretary, '已收齐');
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    const progress = (await call('GET', `/api/dues/batches/${batch}/progress?orgId=${branch}`, undefined, secretary)).body;
    expect(progress[0]).toMatchObject({ orgId: branch, level: 'branch', members: members.length, paidMembers: members.length - 2, deferred: 2, report: { level: 1 } });
    expect((await batchStep(call, batch, 'report', { orgId: branch }, secretary)).status).toBe(409);
    const entry = (await call('GET', `/api/m/dues-batch/${batch}/approvals`)).body.at(-1);
    expect(entry).toMatchObject({ transition: 'report', level: 'branch', actingOrgId: branch, comment: '已收齐' });
    // After the report the branch's deferrals are fixed.
    expect((await call('DELETE', `/api/dues/batches/${batch}/deferrals`, { itemIds: [items.at(-1)!.id] }, secretary)).status).toBe(409);

    // The committee of that branch: not before its other branches.
    const committee = (await sql<{ id: number }>`SELECT parent_id AS id FROM m_org WHERE id = ${branch}`.execute(w.t.database.db)).rows[0].id;
    // A committee's 组织员 is offered 上报 for the committee, not for its branches (their secretaries report them).
    const organiser = await scopedUser(w, 'dues_com_a', ['dues-batch:list', 'dues-batch:report'], committee);
    const seen: { orgId: number; level: string; canReport?: boolean; children?: unknown[] }[] = [];
    const collect = (nodes: typeof seen) => nodes.forEach((n) => (seen.push(n), collect((n.children ?? []) as typeof seen)));
    collect((await call('GET', `/api/dues/batches/${batch}/progress`, undefined, organiser)).body);
    expect(seen.find((n) => n.orgId === committee)?.canReport).toBe(true);
    expect(seen.filter((n) => n.level === 'branch' && n.canReport).map((n) => n.orgId)).toEqual([]);
    const early = await batchStep(call, batch, 'report', { orgId: committee });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/还有\d+个党支部未上报（.+），不能上报$/);
    // The school cannot close yet.
    expect((await batchStep(call, batch, 'close')).body.message).toMatch(/^还有\d+个二级党组织未上报（.+），全部上报后才能关闭$/);
    await settleAndReportAll(batch);
    const closed = await batchStep(call, batch, 'close');
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({ state: BatchState.CLOSED, stateLabel: '已关闭' });
  });

  /** Everyone unpaid gets a deferral; every branch, then every committee reports (as the administrator). */
  async function settleAndReportAll(batch: number) {
    const open = (await sql<{ id: number }>`SELECT i.id FROM dues_item i WHERE i.batch_id = ${batch} AND i.payment_id IS NULL AND NOT EXISTS (SELECT 1 FROM dues_deferral d WHERE d.item_id = i.id)`.execute(w.t.database.db)).rows;
    if (open.length) expect((await call('POST', `/api/dues/batches/${batch}/deferrals`, { itemIds: open.map((o) => o.id), kind: 'no-reason', reason: '已催缴' })).status).toBe(200);
    const progress = (await call('GET', `/api/dues/batches/${batch}/progress`)).body as { orgId: number; level: string; report: unknown; children?: unknown[] }[];
    const flat: typeof progress = [];
    const walk = (nodes: typeof progress) => nodes.forEach((n) => (flat.push(n), walk((n.children ?? []) as typeof progress)));
    walk(progress);
    for (const level of ['branch', 'committee']) {
      for (const n of flat.filter((x) => x.level === level && !x.report)) {
        const res = await batchStep(call, batch, 'report', { orgId: n.orgId });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    }
  }

  it('after closing nothing can change the batch: every write answers 409 and leaves it as it was', async () => {
    const batch = (await call('GET', '/api/dues/batches?state=4')).body[0];
    expect(batch.title).toBe('2026年5月党费');
    const before = (await sql`SELECT (SELECT json_agg(i ORDER BY id) FROM dues_item i WHERE batch_id = ${batch.id}) AS items,
      (SELECT count(*)::int FROM dues_payment) AS payments, (SELECT count(*)::int FROM dues_deferral WHERE batch_id = ${batch.id}) AS deferrals,
      (SELECT count(*)::int FROM dues_adjustment) AS adjustments, (SELECT state FROM dues_batch WHERE id = ${batch.id}) AS state`.execute(w.t.database.db)).rows[0];
    const unpaid = (await sql<{ id: number; memberId: number }>`SELECT id, member_id AS "memberId" FROM dues_item WHERE batch_id = ${batch.id} AND payment_id IS NULL LIMIT 1`.execute(w.t.database.db)).rows[0];
    const paid = (await sql<{ paymentId: number }>`SELECT payment_id AS "paymentId" FROM dues_item WHERE batch_id = ${batch.id} AND payment_id IS NOT NULL LIMIT 1`.execute(w.t.database.db)).rows[0];
    const closedMessage = '收费批次“2026年5月党费”已关闭，不能';
    const attempts: [string, string, unknown?][] = [
      ['POST', '/api/dues/payments', { method: 'cash', entries: [{ memberId: unpaid.memberId, itemIds: [unpaid.id] }] }],
      ['POST', `/api/dues/payments/${paid.paymentId}/reverse`, { reason: '收错了' }],
      ['POST', `/api/dues/batches/${batch.id}/deferrals`, { itemIds: [unpaid.id], kind: 'approved', reason: '补登' }],
      ['DELETE', `/api/dues/batches/${batch.id}/deferrals`, { itemIds: [unpaid.id] }],
      ['POST', `/api/dues/batches/${batch.id}/adjustments`, { memberId: unpaid.memberId, amount: '-1.00', reason: '更正' }],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(method, url, body);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.message, url).toContain(closedMessage);
    }
    // Its steps and its deletion: the engine refuses a closed (final) batch.
    for (const [step, values] of [['configure', {}], ['start', {}], ['close', {}], ['report', { orgId: (await itemOf(w, batch.id, unpaid.memberId)).org_id }]] as const) {
      const res = await batchStep(call, batch.id, step, values);
      expect(res, step).toMatchObject({ status: 400, body: { message: expect.stringContaining('当前状态为“已关闭”') } });
    }
    expect(await call('DELETE', '/api/m/dues-batch', [batch.id])).toMatchObject({ status: 409, body: { message: expect.stringContaining('当前状态：已关闭') } });
    expect((await call('PUT', '/api/m/dues-batch', { id: batch.id, version: batch.version, firstMonth: batch.firstMonth, remark: '改' })).status).toBe(409);
    const after = (await sql`SELECT (SELECT json_agg(i ORDER BY id) FROM dues_item i WHERE batch_id = ${batch.id}) AS items,
      (SELECT count(*)::int FROM dues_payment) AS payments, (SELECT count(*)::int FROM dues_deferral WHERE batch_id = ${batch.id}) AS deferrals,
      (SELECT count(*)::int FROM dues_adjustment) AS adjustments, (SELECT state FROM dues_batch WHERE id = ${batch.id}) AS state`.execute(w.t.database.db)).rows[0];
    expect(after).toEqual(before);
    // The entries themselves refuse to change, even in SQL.
    await expect(sql`UPDATE dues_payment SET amount_cents = 0 WHERE id = ${paid.paymentId}`.execute(w.t.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM dues_payment_line WHERE payment_id = ${paid.paymentId}`.execute(w.t.database.db)).rejects.toThrow(/append-only/);
  });

  it('a branch secretary sees and reports only their branch', async () => {
    const batch = await startedBatch(call, '2026-06');
    const branch = await branchWith(w, 2);
    const other = (await sql<{ id: number }>`SELECT DISTINCT org_id AS id FROM dues_item WHERE batch_id = ${batch} AND org_id <> ${branch} LIMIT 1`.execute(w.t.database.db)).rows[0].id;
    const secretary = await scopedUser(w, 'dues_sec_b', ['dues-batch:list', 'dues-batch:report', 'dues-onsite:list'], branch);
    const list = await call('GET', `/api/dues/batches/${batch}`, undefined, secretary);
    expect(list.body.members).toBe((await membersOf(w, branch)).length);
    const tree = await call('GET', `/api/dues/batches/${batch}/progress`, undefined, secretary);
    expect(tree.body.map((n: { orgId: number }) => n.orgId)).toEqual([branch]);
    expect((await call('GET', `/api/dues/batches/${batch}/progress?orgId=${other}`, undefined, secretary)).status).toBe(403);
    expect((await batchStep(call, batch, 'report', { orgId: other }, secretary)).status).toBe(403);
    const items = await call('GET', `/api/dues/batches/${batch}/items?size=100`, undefined, secretary);
    expect(new Set(items.body.content.map((i: { orgId: number }) => i.orgId))).toEqual(new Set([branch]));
    expect((await call('POST', `/api/m/dues-batch/${batch}/transitions/close`, { version: 1 }, secretary)).status).toBe(403);
  });

  it('a deleted batch restored takes its months again; once another batch has a month the restore is refused and changes nothing', async () => {
    const months = async (id: number) => (await sql<{ month: string }>`SELECT month FROM dues_batch_month WHERE batch_id = ${id} ORDER BY month`.execute(w.t.database.db)).rows;
    const create = async () => {
      const res = await call('POST', '/api/m/dues-batch', { firstMonth: '2027-04', months: 3 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    const deletionOf = async (id: number) => ((await call('GET', '/api/m/dues-batch/deleted')).body.content as { id: number; recordId: number; restoredAt: string | null }[]).find((d) => d.recordId === id && !d.restoredAt)!.id;
    const first = await create();
    expect((await call('DELETE', '/api/m/dues-batch', [first])).status).toBe(200);
    const restored = await call('POST', `/api/m/dues-batch/deleted/${await deletionOf(first)}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await months(first)).map((r) => r.month)).toEqual(['2027-04', '2027-05', '2027-06']);
    // The quarter is taken again: a new batch of it is refused.
    expect((await call('POST', '/api/m/dues-batch', { firstMonth: '2027-05', months: 1 })).status).toBe(409);

    expect((await call('DELETE', '/api/m/dues-batch', [first])).status).toBe(200);
    const second = await create();
    const refused = await call('POST', `/api/m/dues-batch/deleted/${await deletionOf(first)}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('2027年4月已有收费批次');
    expect((await call('GET', `/api/m/dues-batch/${first}`)).status).toBe(404);
    expect((await months(second)).length).toBe(3);
  });
});

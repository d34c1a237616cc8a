// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): sums and reports in SQL, exports
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duesStatusOf, lapseCandidates } from '../../src/server/domain/dues/index.js';
import { DuesLevels } from '../../src/server/domain/dues/levels.js';
import { OrgTreeService } from '../../src/server/domain/org/org-tree.js';
import { seedDues } from '../../src/server/seed/dues.js';
import { bearer } from '../support/auth.js';
import { batchStep, caller, duesWorld, scopedUser, type Call, type DuesWorld } from '../support/dues.js';
import { TEST_DB } from '../support/test-app.js';

interface Node {
  orgId: number;
  level: string;
  members: number;
  paidMembers: number;
  due: string;
  paid: string;
  children?: Node[];
}
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
const cents = (yuan: string) => Math.round(Number(yuan) * 100);

describe(`dues reports on ${TEST_DB}: the money adds up at every level`, () => {
  let w: DuesWorld;
  let call: Call;
  let current: number;
  const subtree = new Map<number, number[]>();

  beforeAll(async () => {
    w = await duesWorld(400, 7);
    call = caller(w.t.app, () => w.admin);
    const counts = await seedDues(w.t.database, 'hntb', { currentMonth: '2026-11', today: 23 });
    expect(counts.batches).toBe(12);
    current = (await call('GET', '/api/dues/batches?state=3')).body[0].id;
    // The first call of a fresh app that needs the organisation tree (it loads on first use).
    const first = (await call('GET', `/api/dues/batches/${current}/progress`)).body;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ level: 'school' });
    // Some movement in the current month: payments, a reversal, a payment with a voluntary extra.
    const open = (await sql<{ id: number; memberId: number }>`SELECT id, member_id AS "memberId" FROM dues_item WHERE batch_id = ${current} AND payment_id IS NULL ORDER BY id LIMIT 3`.execute(w.t.database.db)).rows;
    const paid = await call('POST', '/api/dues/payments', { method: 'cash', entries: open.map((o, i) => ({ memberId: o.memberId, itemIds: [o.id], extra: i === 0 ? '12.34' : undefined })) });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect((await call('POST', `/api/dues/payments/${paid.body[1].id}/reverse`, { reason: '收错' })).status).toBe(200);
    const tree = await w.t.app.services.orgTree;
    for (const o of await sql<{ id: number }>`SELECT id FROM m_org`.execute(w.t.database.db).then((r) => r.rows)) subtree.set(o.id, await tree.subtreeIds([o.id]));
  });
  afterAll(() => w.t.app.close());

  /** Σ of the payment entries (lines) of a batch over organisations. */
  async function entries(batchId: number, orgIds: number[]): Promise<number> {
    return (await sql<{ s: number }>`SELECT coalesce(sum(amount_cents), 0)::bigint AS s FROM dues_payment_line WHERE batch_id = ${batchId} AND org_id = ANY(${orgIds}::int[])`.execute(w.t.database.db)).rows[0].s;
  }

  it('for every batch, the sum of the payment entries equals the report of every branch, committee and the school', async () => {
    const batches = (await call('GET', '/api/dues/batches')).body as { id: number; paid: string; state: number; members: number; paidMembers: number }[];
    expect(batches).toHaveLength(12);
    const all = [...subtree.keys()];
    for (const b of batches) {
      const tree = (await call('GET', `/api/dues/batches/${b.id}/progress`)).body as Node[];
      const nodes = flatten(tree);
      expect(nodes.length).toBeGreaterThan(3);
      const byOrg = new Map((await sql<{ orgId: number; s: number }>`SELECT org_id AS "orgId", sum(amount_cents)::bigint AS s FROM dues_payment_line WHERE batch_id = ${b.id} GROUP BY org_id`.execute(w.t.database.db)).rows.map((r) => [r.orgId, r.s]));
      for (const n of nodes) expect(cents(n.paid), `batch ${b.id} org ${n.orgId}`).toBe(subtree.get(n.orgId)!.reduce((s, id) => s + (byOrg.get(id) ?? 0), 0));
      expect(cents(b.paid), `batch ${b.id}`).toBe(await entries(b.id, all));
      expect(tree.reduce((s, n) => s + cents(n.paid), 0)).toBe(cents(b.paid));
      expect(tree.reduce((s, n) => s + n.members, 0)).toBe(b.members);
      // Every paid member's item is covered by exactly the sum of its lines.
      const mismatched = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_item i WHERE i.batch_id = ${b.id}
        AND i.paid_cents <> coalesce((SELECT sum(l.amount_cents) FROM dues_payment_line l WHERE l.item_id = i.id), 0)`.execute(w.t.database.db)).rows[0].n;
      expect(mismatched).toBe(0);
    }
  });

  it('the year report per month and per organisation equals the entries; a branch secretary sees their own branch only', async () => {
    const report = (await call('GET', '/api/dues/reports/year?year=2026')).body;
    expect(report.months.map((m: { title: string }) => m.title)).toEqual(Array.from({ length: 11 }, (_x, i) => `2026年${i + 1}月党费`));
    const ids = report.months.map((m: { batchId: number }) => m.batchId);
    const total = (await sql<{ s: number }>`SELECT coalesce(sum(amount_cents), 0)::bigint AS s FROM dues_payment_line WHERE batch_id = ANY(${ids}::int[])`.execute(w.t.database.db)).rows[0].s;
    expect(cents(report.totals.paid)).toBe(total);
    for (const m of report.months) expect(cents(m.paid)).toBe(await entries(m.batchId, [...subtree.keys()]));
    for (const n of flatten(report.orgs)) {
      const s = (await sql<{ s: number }>`SELECT coalesce(sum(amount_cents), 0)::bigint AS s FROM dues_payment_line WHERE batch_id = ANY(${ids}::int[]) AND org_id = ANY(${subtree.get(n.orgId)!}::int[])`.execute(w.t.database.db)).rows[0].s;
      expect(cents(n.paid), `org ${n.orgId}`).toBe(s);
    }
    expect(report.totals.rate).toBeGreaterThan(0.8);
    expect(report.totals.rate).toBeLessThan(1);
    const branch = flatten(report.orgs).find((n) => n.level === 'branch')!;
    const sec = await scopedUser(w, 'dues_report_sec', ['dues-report:list', 'dues-report:export'], branch.orgId);
    const own = (await call('GET', '/api/dues/reports/year?year=2026', undefined, sec)).body;
    expect(own.orgs.map((n: Node) => n.orgId)).toEqual([branch.orgId]);
    expect(own.totals.paid).toBe(branch.paid);
    expect((await call('GET', `/api/dues/reports/year?year=2026&orgId=${report.orgs[0].orgId}`, undefined, sec)).status).toBe(403);
    const file = await w.t.app.inject({ url: '/api/dues/reports/year/export?year=2026', headers: bearer(w.admin) });
    expect(file.headers['content-disposition']).toContain(encodeURIComponent('2026年党费收缴统计.xlsx'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as never);
    const totalRow = book.getWorksheet('按月')!.getRow(14);
    expect(totalRow.getCell(1).value).toBe('合计');
    expect(Math.round(Number(totalRow.getCell(6).value) * 100)).toBe(total);
  });

  it('自行脱党 candidates: six consecutive closed months unpaid without a proper reason; a proper reason in one of them takes a member off', async () => {
    const candidates = await lapseCandidates(w.t.database.db, 'all');
    const chronic = (await sql<{ id: number }>`SELECT DISTINCT i.member_id AS id FROM dues_item i JOIN m_member m ON m.id = i.member_id
      WHERE i.member_id % 97 = 13 AND m.party_status = '1' AND i.batch_id = ${current}`.execute(w.t.database.db)).rows.map((r) => r.id);
    expect(chronic.length).toBeGreaterThan(0);
    expect(candidates.map((c) => c.memberId).sort()).toEqual(chronic.sort());
    const c = candidates[0];
    expect(c.months).toEqual(['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10']);
    expect(c.paidUpTo).toBe('2026-03');
    expect(await duesStatusOf(w.t.database.db, c.memberId)).toMatchObject({ hasUnpaid: true, paidUpTo: '2026-03', unpaidMonths: ['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11'] });
    const listed = (await call('GET', '/api/dues/reports/lapse')).body;
    expect(listed.totalElements).toBe(candidates.length);
    // A deferral for a proper reason in one of the six months: no longer a candidate.
    await sql`UPDATE dues_deferral SET kind = 'hardship' WHERE item_id = (SELECT i.id FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
      WHERE i.member_id = ${c.memberId} AND b.first_month = '2026-08')`.execute(w.t.database.db);
    expect((await lapseCandidates(w.t.database.db, 'all')).map((x) => x.memberId)).not.toContain(c.memberId);
    await sql`UPDATE dues_deferral SET kind = 'no-reason' WHERE item_id = (SELECT i.id FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
      WHERE i.member_id = ${c.memberId} AND b.first_month = '2026-08')`.execute(w.t.database.db);
  });

  it('the arrears list names each member with closed months unpaid and what they owe', async () => {
    const res = (await call('GET', '/api/dues/reports/arrears?size=1000')).body;
    const expected = (await sql<{ memberId: number; owed: number }>`SELECT i.member_id AS "memberId", sum(i.due_cents)::bigint AS owed FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
      JOIN m_member m ON m.id = i.member_id AND m.party_status = '1' WHERE i.payment_id IS NULL GROUP BY i.member_id`.execute(w.t.database.db)).rows;
    expect(res.totalElements).toBe(expected.length);
    const byMember = new Map(res.content.map((r: { memberId: number; owed: string; months: string[] }) => [r.memberId, r]));
    for (const e of expected) expect(cents((byMember.get(e.memberId) as { owed: string }).owed)).toBe(e.owed);
    const withCurrent = (await call('GET', '/api/dues/reports/arrears?period=all&size=1')).body;
    expect(withCurrent.totalElements).toBeGreaterThan(res.totalElements);
  });

  /** The year report against plain SQL over the items: per month, per organisation (its subtree) and in total. */
  async function expectYearEqualsItems(year: number): Promise<void> {
    const report = (await call('GET', `/api/dues/reports/year?year=${year}`)).body;
    const figures = sql`count(*)::int AS members, count(i.payment_id)::int AS "paidMembers", sum(i.due_cents)::bigint AS due, sum(i.paid_cents)::bigint AS paid`;
    const yearItems = sql`dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state >= 2 AND b.first_month LIKE ${`${year}-%`}`;
    type Row = { key: number; members: number; paidMembers: number; due: number; paid: number };
    const byBatch = new Map((await sql<Row>`SELECT i.batch_id AS key, ${figures} FROM ${yearItems} GROUP BY i.batch_id`.execute(w.t.database.db)).rows.map((r) => [r.key, r]));
    const byOrg = (await sql<Row>`SELECT i.org_id AS key, ${figures} FROM ${yearItems} GROUP BY i.org_id`.execute(w.t.database.db)).rows;
    const view = (r: { members: number; paidMembers: number; due: number; paid: number }) => ({ members: r.members, paidMembers: r.paidMembers, due: (r.due / 100).toFixed(2), paid: (r.paid / 100).toFixed(2) });
    expect(report.months.map((m: { batchId: number }) => m.batchId).sort()).toEqual([...byBatch.keys()].sort());
    for (const m of report.months) expect({ members: m.members, paidMembers: m.paidMembers, due: m.due, paid: m.paid }, `batch ${m.batchId}`).toEqual(view(byBatch.get(m.batchId)!));
    const all = [...byBatch.values()].reduce((s, r) => ({ members: s.members + r.members, paidMembers: s.paidMembers + r.paidMembers, due: s.due + r.due, paid: s.paid + r.paid }), { members: 0, paidMembers: 0, due: 0, paid: 0 });
    expect({ members: report.totals.items, paidMembers: report.totals.paidItems, due: report.totals.due, paid: report.totals.paid }).toEqual(view(all));
    const nodes = flatten(report.orgs);
    expect(nodes.length).toBeGreaterThan(3);
    for (const n of nodes) {
      const within = new Set(subtree.get(n.orgId));
      const sum = byOrg.filter((r) => within.has(r.key)).reduce((s, r) => ({ members: s.members + r.members, paidMembers: s.paidMembers + r.paidMembers, due: s.due + r.due, paid: s.paid + r.paid }), { members: 0, paidMembers: 0, due: 0, paid: 0 });
      expect({ members: n.members, paidMembers: n.paidMembers, due: n.due, paid: n.paid }, `org ${n.orgId}`).toEqual(view(sum));
    }
  }

  it('the year report equals plain SQL sums over the items, before and after the started month moves and closes', async () => {
    await expectYearEqualsItems(2026);
    await expectYearEqualsItems(2025);
    // The started month moves: a payment, a correction of what a member owes.
    const open = (await sql<{ id: number; memberId: number }>`SELECT id, member_id AS "memberId" FROM dues_item WHERE batch_id = ${current} AND payment_id IS NULL ORDER BY id DESC LIMIT 2`.execute(w.t.database.db)).rows;
    expect((await call('POST', '/api/dues/payments', { method: 'transfer', entries: [{ memberId: open[0].memberId, itemIds: [open[0].id] }] })).status).toBe(201);
    expect((await call('POST', `/api/dues/batches/${current}/adjustments`, { memberId: open[1].memberId, amount: '3.21', reason: '基数更正' })).status).toBe(201);
    await expectYearEqualsItems(2026);
    // Closing it (every committee's report recorded directly: what closing checks) keeps its figures per organisation.
    const levels = new DuesLevels(new OrgTreeService(w.t.database));
    const orgs = (await sql<{ orgId: number }>`SELECT DISTINCT org_id AS "orgId" FROM dues_item WHERE batch_id = ${current}`.execute(w.t.database.db)).rows.map((r) => r.orgId);
    const committees = [...new Set((await levels.committees(orgs)).values())];
    await sql`INSERT INTO dues_report (batch_id, org_id, level, members, paid_members, deferred, due_cents, paid_cents)
      SELECT ${current}, c, 2, 0, 0, 0, 0, 0 FROM unnest(${committees}::int[]) AS c`.execute(w.t.database.db);
    const closed = await batchStep(call, current, 'close');
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const kept = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_batch_org WHERE batch_id = ${current}`.execute(w.t.database.db)).rows[0].n;
    expect(kept).toBe(orgs.length);
    await expectYearEqualsItems(2026);
    const batch = (await call('GET', `/api/dues/batches/${current}`)).body;
    const items = (await sql<{ paid: number }>`SELECT sum(paid_cents)::bigint AS paid FROM dues_item WHERE batch_id = ${current}`.execute(w.t.database.db)).rows[0];
    expect(cents(batch.paid)).toBe(items.paid);
  });
});

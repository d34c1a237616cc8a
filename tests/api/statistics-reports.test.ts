// engines: both — report SQL (grouping, conditional measures, date bands, snapshot relations) must count the same on both engines
/**
 * 统计报表 and 数据快照 (issue 30): every built-in report's figures equal counts computed directly from the
 * demo data; a cell's drill-down finds exactly its records; a snapshot is a job, stores only what changed
 * after the first, and two snapshots compare by record.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullYearsBetween } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { AGE_BANDS, PARTY_AGE_BANDS } from '../../src/server/domain/member/analysis.js';
import { jobsOf } from '../../src/server/runtime/jobs.js';
import { dueOn, runDueSchedules } from '../../src/server/domain/statistics/schedules.js';
import type { YearReport } from '../../src/shared/dues/api.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

type Result = { columns: { key: string; title: string }[]; rows: { key: string; label: string; values: Record<string, number>; drill: Record<string, unknown> }[]; totals: Record<string, number> };

describe(`statistical reports and snapshots on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let zbsj: string;
  const today = new Date();
  const todayIso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const report = async (id: string, params: unknown = {}, token = admin): Promise<Result> => {
    const res = await t.app.inject({ method: 'POST', url: `/api/reports/${id}/run`, headers: bearer(token), payload: { params } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const counted = async (query: string) => new Map((await sql.raw<{ k: string | null; n: number }>(query).execute(t.database.db)).rows.map((r) => [r.k ?? '', r.n]));
  const figures = (r: Result, key = '|count') => new Map(r.rows.map((row) => [row.key, row.values[key]]));

  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = await login(t.app);
    zbsj = await login(t.app, 'zbsj', DEMO_USER_PASSWORD);
  }, 180_000);
  afterAll(() => t?.app.close());

  it('lists the built-in reports', async () => {
    const list = (await t.app.inject({ url: '/api/reports', headers: bearer(admin) })).json() as { id: string; title: string; builtin: boolean }[];
    const builtins = list.filter((r) => r.builtin);
    expect(builtins.map((r) => r.id)).toEqual(expect.arrayContaining(['members-by-gender', 'members-by-ethnicity', 'members-by-age', 'members-by-education', 'members-by-party-age', 'members-by-category', 'development-in-year', 'members-by-org', 'orgs-by-type', 'dues-collected', 'dues-collected-by-branch', 'dues-collected-by-month', 'member-change']));
    expect(builtins).toHaveLength(13);
    // Besides them, the demo's designed reports (tests/api/statistics-designer.test.ts).
    expect(list.every((r) => r.title && (r.builtin || r.id.startsWith('custom-')))).toBe(true);
  });

  it('members by gender, ethnicity, education and category equal the direct counts', async () => {
    for (const [id, column] of [['members-by-gender', 'gender'], ['members-by-ethnicity', 'ethnicity'], ['members-by-education', 'education'], ['members-by-category', 'category']]) {
      const direct = await counted(`SELECT ${column} AS k, count(*)::int AS n FROM m_member GROUP BY 1`);
      expect(figures(await report(id)), id).toEqual(direct);
    }
  });

  it("members by gender sums to the member list's total with the same filter, for the administrator and a 支部书记", async () => {
    for (const token of [admin, zbsj]) {
      const filter = { partyStatus: '1', joinDate: ['2000-01-01', null] };
      const r = await report('members-by-gender', { filter }, token);
      const list = (await t.app.inject({ method: 'POST', url: '/api/m/member/list?size=1', headers: bearer(token), payload: filter })).json();
      const sum = r.rows.reduce((s, row) => s + row.values['|count'], 0);
      expect(sum).toBe(list.totalElements);
      expect(r.totals['|count']).toBe(list.totalElements);
    }
  });

  it('members by age band and party-age band equal bands computed from the dates', async () => {
    const rows = (await sql<{ birth: string | null; full: string | null }>`SELECT birth_date::text AS birth, full_date::text AS full FROM m_member`.execute(t.database.db)).rows;
    const band = (date: string | null, bands: [string, string, number, number][]) => {
      if (!date) return 'unknown';
      const years = fullYearsBetween(date, todayIso) ?? -1;
      return bands.find(([, , lo, hi]) => years >= lo && years < hi)?.[0] ?? 'other';
    };
    const tally = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
    const age = figures(await report('members-by-age'));
    expect(new Map([...age].filter(([, n]) => n > 0))).toEqual(tally(rows.map((r) => band(r.birth, AGE_BANDS))));
    const partyAge = figures(await report('members-by-party-age'));
    expect(new Map([...partyAge].filter(([, n]) => n > 0))).toEqual(tally(rows.map((r) => band(r.full, PARTY_AGE_BANDS))));
  });

  it('development in the year counts each stage reached in that year; members by organisation and organisations by type add up', async () => {
    const year = today.getFullYear() - 1;
    const r = await report('development-in-year', { year });
    for (const [key, column] of [['applicants', 'apply_date'], ['activists', 'activist_date'], ['targets', 'target_date'], ['admitted', 'admit_date'], ['full', 'full_date']]) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_development WHERE ${sql.ref(column)} BETWEEN ${`${year}-01-01`}::date AND ${`${year}-12-31`}::date`.execute(t.database.db);
      expect(r.totals[`|${key}`], key).toBe(rows[0].n);
    }
    expect(r.totals['|applicants']).toBeGreaterThan(0);

    const byOrg = await report('members-by-org');
    const types = await counted(`SELECT member_type AS k, count(*)::int AS n FROM m_member GROUP BY 1`);
    expect(byOrg.totals['__total|count']).toBe([...types.values()].reduce((a, b) => a + b, 0));
    expect(byOrg.totals['1|count']).toBe(types.get('1'));
    expect(byOrg.totals['2|count']).toBe(types.get('2'));
    for (const row of byOrg.rows) expect(row.values['__total|count']).toBe(row.values['1|count'] + row.values['2|count']);

    expect(figures(await report('orgs-by-type'))).toEqual(await counted(`SELECT type AS k, count(*)::int AS n FROM m_org GROUP BY 1`));
  });

  it("dues collected (党费收缴) equals the demo's dues counted directly and 党费统计's year report, for the administrator and a 支部书记", async () => {
    const cents = (yuan: number | string) => Math.round(Number(yuan) * 100);
    const figuresOf = (v: Record<string, number>) => [v['|members'], v['|paidMembers'], cents(v['|due']), cents(v['|paid'])];
    for (const year of [today.getFullYear(), today.getFullYear() - 1]) {
      // Directly: a closed batch (state 4) by its figures kept at closing, a configured or started one by its items.
      const months = `${year}-%`;
      const direct = (await sql<{ n: number; p: number; d: number; c: number }>`
        SELECT coalesce(sum(n), 0)::int AS n, coalesce(sum(p), 0)::int AS p, coalesce(sum(d), 0)::bigint AS d, coalesce(sum(c), 0)::bigint AS c FROM (
          SELECT f.members AS n, f.paid_members AS p, f.due_cents AS d, f.paid_cents AS c FROM dues_batch_org f JOIN dues_batch b ON b.id = f.batch_id
          WHERE b.state = 4 AND b.first_month LIKE ${months}
          UNION ALL
          SELECT 1, CASE WHEN i.payment_id IS NULL THEN 0 ELSE 1 END, i.due_cents, i.paid_cents FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
          WHERE b.state IN (2, 3) AND b.first_month LIKE ${months}) x`.execute(t.database.db)).rows[0];
      const all = await report('dues-collected', { year });
      expect(figuresOf(all.totals), `${year}`).toEqual([direct.n, direct.p, Number(direct.d), Number(direct.c)]);
      expect(direct.n).toBeGreaterThan(0);

      for (const token of [admin, zbsj]) {
        const res = await t.app.inject({ url: `/api/dues/reports/year?year=${year}`, headers: bearer(token) });
        expect(res.statusCode, res.body).toBe(200);
        const dues = res.json() as YearReport;
        const r = token === admin ? all : await report('dues-collected', { year }, token);
        expect(figuresOf(r.totals)).toEqual([dues.totals.items, dues.totals.paidItems, cents(dues.totals.due), cents(dues.totals.paid)]);
        if (token === admin) {
          // A row per committee: 党费统计's nodes under the school.
          const committees = dues.orgs.flatMap((n) => (n.level === 'school' ? (n.children ?? []) : [n]));
          expect(new Map(r.rows.map((row) => [row.key, figuresOf(row.values)]))).toEqual(new Map(committees.map((n) => [String(n.orgId), [n.members, n.paidMembers, cents(n.due), cents(n.paid)]])));
        } else {
          expect(r.totals['|members']).toBeLessThan(all.totals['|members']);
        }
        // A row per branch (the tree's second level under the school): the 支部书记 sees their branch only.
        const branches = dues.orgs.flatMap((n) => (n.level === 'school' ? (n.children ?? []).flatMap((c) => c.children ?? [c]) : [n]));
        const byBranch = await report('dues-collected-by-branch', { year }, token);
        expect(new Map(byBranch.rows.map((row) => [row.key, figuresOf(row.values)]))).toEqual(new Map(branches.map((n) => [String(n.orgId), [n.members, n.paidMembers, cents(n.due), cents(n.paid)]])));
        // By month: 党费统计's batches added up by their first month.
        const byMonth = new Map<string, number[]>();
        for (const m of dues.months) {
          const key = `${m.months[0].slice(0, 4)}年${m.months[0].slice(5, 7)}月`;
          const f = byMonth.get(key) ?? [0, 0, 0, 0];
          byMonth.set(key, [f[0] + m.members, f[1] + m.paidMembers, f[2] + cents(m.due), f[3] + cents(m.paid)]);
        }
        const monthly = await report('dues-collected-by-month', { year }, token);
        expect(new Map(monthly.rows.map((row) => [row.key, figuresOf(row.values)]))).toEqual(new Map([...byMonth].filter(([, f]) => f.some((v) => v !== 0))));
      }
    }
    // Amounts are yuan (columns say so); a filter other than the organisation and a snapshot are refused in Chinese.
    expect((await report('dues-collected')).columns.filter((c) => (c as { unit?: string }).unit === 'yuan').map((c) => c.key)).toEqual(['|due', '|paid']);
    for (const params of [{ filter: { gender: '1' } }, { snapshot: 1 }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/reports/dues-collected/run', headers: bearer(admin), payload: { params } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it("the big-data view's study hours are the party school's hours done in the year's classes, by committee", async () => {
    const year = today.getFullYear();
    const res = await t.app.inject({ url: `/api/bigdata/study-hours?year=${year}`, headers: bearer(admin) });
    expect(res.statusCode, res.body).toBe(200);
    const study = res.json() as { year: number; hours: number; learners: number; byCommittee: { label: string; value: number; learners: number }[] };
    const direct = (await sql<{ h: number; n: number }>`
      SELECT coalesce(sum(s.hours_done), 0)::float8 AS h, count(*)::int AS n FROM m_pschool_student s
      JOIN m_pschool_class c ON c.id = s.class_id JOIN m_pschool_batch b ON b.id = c.batch_id WHERE b.year = ${year}`.execute(t.database.db)).rows[0];
    expect(study.hours).toBeGreaterThan(0);
    expect(study.hours).toBeCloseTo(direct.h, 2);
    expect(study.learners).toBe(direct.n);
    expect(study.byCommittee.reduce((s, c) => s + c.learners, 0)).toBe(direct.n);
    // No class in a year long gone; a year that is not one is refused.
    expect((await t.app.inject({ url: '/api/bigdata/study-hours?year=1990', headers: bearer(admin) })).json()).toMatchObject({ hours: 0, learners: 0, byCommittee: [] });
    expect((await t.app.inject({ url: '/api/bigdata/study-hours?year=abc', headers: bearer(admin) })).statusCode).toBe(400);
    // The 支部书记 has no big-data view.
    expect((await t.app.inject({ url: '/api/bigdata/study-hours', headers: bearer(zbsj) })).statusCode).toBe(403);
  });

  it('a cell drills down to exactly its records', async () => {
    const r = await report('members-by-org', { filter: { partyStatus: '1' } });
    const row = r.rows[0];
    for (const key of ['2|count', '__total|count']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/query/run', headers: bearer(admin), payload: { module: 'member', where: row.drill[key], size: 1 } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().totalElements).toBe(row.values[key]);
    }
    const age = await report('members-by-age');
    for (const row of age.rows.filter((x) => x.values['|count'] > 0)) {
      const res = await t.app.inject({ method: 'POST', url: '/api/query/run', headers: bearer(admin), payload: { module: 'member', where: row.drill['|count'], size: 1 } });
      expect(res.json().totalElements, row.label).toBe(row.values['|count']);
    }
  });

  it('a snapshot is a job; the second stores only what changed; diff and reports read the snapshots', async () => {
    const take = async (title: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/snapshots', headers: bearer(admin), payload: { modules: ['member'], title } });
      expect(res.statusCode, res.body).toBe(202);
      const { jobId, snapshotId } = res.json();
      await jobsOf(t.app).drain();
      const jobRes = await t.app.inject({ url: `/api/jobs/${jobId}`, headers: bearer(admin) });
      expect(jobRes.json().state).toBe(2);
      return snapshotId as number;
    };
    const before = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM stat_snapshot_version`.execute(t.database.db)).rows[0].n;
    const a = await take('快照A');
    const members = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member`.execute(t.database.db)).rows[0].n;
    const { rows: changed } = await sql<{ id: number; gender: string }>`SELECT id, gender FROM m_member ORDER BY id LIMIT 3`.execute(t.database.db);
    await sql`UPDATE m_member SET gender = CASE WHEN gender = '1' THEN '2' ELSE '1' END WHERE id = ANY(${changed.map((c) => c.id)}::int[])`.execute(t.database.db);
    await sql`DELETE FROM m_member WHERE id = (SELECT max(id) FROM m_member)`.execute(t.database.db);
    // [43.9] a record only touched (saved again, nothing different) is no change.
    await sql`UPDATE m_member SET version = version + 1, updated_at = now() WHERE id = (SELECT id FROM m_member ORDER BY id OFFSET 10 LIMIT 1)`.execute(t.database.db);
    const b = await take('快照B');
    const list = (await t.app.inject({ url: '/api/snapshots', headers: bearer(admin) })).json() as { id: number; counts: Record<string, number>; stored: Record<string, number> }[];
    const sa = list.find((s) => s.id === a)!;
    const sb = list.find((s) => s.id === b)!;
    expect(sa.counts.member).toBe(members);
    expect(sb.counts.member).toBe(members - 1);
    expect(sb.stored.member).toBe(4);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM stat_snapshot_version`.execute(t.database.db)).rows[0].n - before).toBe(sa.stored.member + 4);

    const diff = (await t.app.inject({ url: `/api/snapshots/${a}/diff/${b}?module=member&kind=changed`, headers: bearer(admin) })).json();
    expect([diff.added, diff.removed, diff.changed]).toEqual([0, 1, 3]);
    expect(diff.content.map((c: { id: number }) => c.id).sort()).toEqual(changed.map((c) => c.id).sort());
    expect(diff.content[0].fields.map((f: { field: string }) => f.field)).toEqual(['gender']);
    // [43.9] the changed field by its title, its values by their labels (性别：男 → 女), not the codes.
    const first = changed.find((c) => c.id === diff.content[0].id)!;
    const label = (code: string) => (code === '1' ? '男' : '女');
    expect(diff.content[0].fields[0]).toEqual({ field: 'gender', title: '性别', before: label(first.gender), after: label(first.gender === '1' ? '2' : '1') });

    // The report over snapshot A counts the genders as they were.
    const live = figures(await report('members-by-gender'));
    const old = figures(await report('members-by-gender', { snapshot: a }));
    expect([...old.values()].reduce((x, y) => x + y, 0)).toBe(members);
    expect([...live.values()].reduce((x, y) => x + y, 0)).toBe(members - 1);
    // Exportable: the snapshot's members as .xlsx.
    const exported = await t.app.inject({ url: `/api/snapshots/${a}/export?module=member`, headers: bearer(admin) });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toMatch(/spreadsheetml/);
    expect(exported.rawPayload.length).toBeGreaterThan(1000);
    // A 支部书记 is refused the snapshots.
    expect((await t.app.inject({ url: `/api/snapshots/${a}/diff/${b}?module=member`, headers: bearer(zbsj) })).statusCode).toBe(403);
  });

  it('a schedule takes its snapshot once on the day it is due (the last of the month), not the day before', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/snapshots/schedules', headers: bearer(admin), payload: { title: '月末快照', modules: ['member'], every: 'weekly' } });
    expect(bad.statusCode).toBe(400);
    const res = await t.app.inject({ method: 'POST', url: '/api/snapshots/schedules', headers: bearer(admin), payload: { title: '月末快照', modules: ['member'], every: 'month-end' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(dueOn('month-end', new Date(2027, 1, 27))).toBe(false);
    expect(dueOn('month-end', new Date(2027, 1, 28))).toBe(true);
    expect(dueOn('year-end', new Date(2027, 11, 30))).toBe(false);
    expect(dueOn('year-end', new Date(2027, 11, 31))).toBe(true);
    expect(await runDueSchedules(t.app, new Date(2027, 1, 27))).toEqual([]);
    const jobs = await runDueSchedules(t.app, new Date(2027, 1, 28));
    expect(jobs).toHaveLength(1);
    // Claimed: a second look (another server) the same day takes nothing.
    expect(await runDueSchedules(t.app, new Date(2027, 1, 28))).toEqual([]);
    await jobsOf(t.app).drain();
    const list = (await t.app.inject({ url: '/api/snapshots', headers: bearer(admin) })).json() as { title: string; state: number }[];
    expect(list.find((x) => x.title === '月末快照（2027-02-28）')?.state).toBe(2);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/snapshots/schedules/${res.json().id}`, headers: bearer(admin) })).statusCode).toBe(200);
  });
});

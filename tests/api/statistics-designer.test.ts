// engines: both — designed reports compile to SQL (org levels, subtotals, conditional measures, snapshot relations) that must count the same on both engines
/**
 * The report designer of 统计报表 and snapshots as a source of 综合查询 (issue 30): a definition is checked
 * against its data source before anything is saved (400 in Chinese); a designed report's figures equal
 * counts computed directly from the demo data, in the caller's scope; built-in and designed reports are
 * one shape on one engine; a query over a snapshot finds the snapshot's records filtered the same way.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import type { ReportResult, ReportSpec, ReportSummary } from '../../src/shared/statistics.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe(`report designer and snapshot queries on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let zbsj: string;
  let ejdw: string;
  const call = async <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, status = 200): Promise<T> => {
    const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    return res.json() as T;
  };
  const stored = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM stat_report`.execute(t.database.db)).rows[0].n;
  /** Each organisation's committee (depth 1 under the root; the root stays itself), as the report folds it. */
  const committeeOf = async () =>
    new Map(
      (
        await sql<{ id: number; committee: number }>`WITH RECURSIVE up AS (
          SELECT id, id AS anc, parent_id FROM m_org
          UNION ALL SELECT up.id, o.id, o.parent_id FROM up JOIN m_org o ON o.id = up.parent_id)
        SELECT o.id, coalesce((SELECT u.anc FROM up u JOIN m_org a ON a.id = u.anc JOIN m_org r ON r.id = a.parent_id WHERE u.id = o.id AND r.parent_id IS NULL), o.id) AS committee
        FROM m_org o`.execute(t.database.db)
      ).rows.map((r) => [r.id, r.committee]),
    );

  const womenByEducation: ReportSpec = {
    title: '测试：女党员学历分布', source: 'members',
    rows: { kind: 'org', field: 'orgId', depth: 1 }, columns: { kind: 'dict', field: 'education' },
    measures: [{ key: 'women', title: '女党员', agg: 'count', where: { and: [{ field: 'gender', op: 'eq', value: '2' }] } }],
  };

  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = await login(t.app);
    zbsj = await login(t.app, 'zbsj', DEMO_USER_PASSWORD);
    ejdw = await login(t.app, 'ejdw', DEMO_USER_PASSWORD);
  }, 180_000);
  afterAll(() => t?.app.close());

  it('[S1.F10c] refuses a definition with an unknown field, operator or unfit dimension with 400 in Chinese, and saves nothing', async () => {
    const before = await stored();
    const bad: [Partial<ReportSpec> & Record<string, unknown>, RegExp][] = [
      [{ ...womenByEducation, rows: { kind: 'dict', field: 'nosuch' } }, /数据源“党员信息”不提供行字段“nosuch”/],
      [{ ...womenByEducation, measures: [{ key: 'n', title: '人数', agg: 'count', where: { and: [{ field: 'gender', op: 'regex' as never, value: '2' }] } }] }, /不支持的查询运算“regex”/],
      [{ ...womenByEducation, measures: [{ key: 'n', title: '人数', agg: 'count', where: { and: [{ field: 'idCard', op: 'eq', value: '1' }] } }] }, /不提供条件字段“idCard”/],
      [{ ...womenByEducation, rows: { kind: 'band', field: 'gender', bands: 'age' } }, /不能按年限分段分类/],
      [{ ...womenByEducation, rows: { kind: 'org', field: 'orgId', depth: 5 } }, /组织层级不正确/],
      [{ ...womenByEducation, measures: [{ key: 'n', title: '合计', agg: 'sum', field: 'gender' }] }, /不是数值，不能求和/],
      [{ ...womenByEducation, measures: [] }, /请设置1到12个统计指标/],
      // 13 is one more than 党员增减变化's 12 (the built-in at the limit passes, see the built-ins below).
      [{ ...womenByEducation, measures: Array.from({ length: 13 }, (_, i) => ({ key: `n${i}`, title: `人数${i}`, agg: 'count' as const })) }, /请设置1到12个统计指标/],
      [{ ...womenByEducation, source: 'nosuch' }, /数据源“nosuch”不存在或已停用/],
      [{ ...womenByEducation, sql: 'DROP TABLE m_member' }, /不认识的设置“sql”/],
      [{ ...womenByEducation, title: '' }, /请填写报表名称/],
    ];
    for (const [definition, message] of bad) {
      const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: bearer(admin), payload: { definition } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
      const preview = await t.app.inject({ method: 'POST', url: '/api/reports/preview', headers: bearer(admin), payload: { definition } });
      expect(preview.statusCode).toBe(400);
    }
    expect(await stored()).toBe(before);
  });

  it('[S1.F10c] a designed report (committees × education, women only) equals the direct counts, and its cells drill down to them', async () => {
    const saved = await call<ReportSummary>(admin, 'POST', '/api/reports', { definition: womenByEducation });
    expect(saved).toMatchObject({ builtin: false, mine: true, shared: false, title: womenByEducation.title });
    const r = await call<ReportResult>(admin, 'POST', `/api/reports/${saved.id}/run`, { params: {} });
    const committees = await committeeOf();
    const { rows } = await sql<{ org_id: number; education: string | null; n: number }>`SELECT org_id, education, count(*)::int AS n FROM m_member WHERE gender = '2' GROUP BY 1, 2`.execute(t.database.db);
    const direct = new Map<string, number>();
    for (const row of rows) {
      const key = `${committees.get(row.org_id)}/${row.education ?? ''}`;
      direct.set(key, (direct.get(key) ?? 0) + row.n);
    }
    const figures = new Map<string, number>();
    for (const row of r.rows) for (const [k, v] of Object.entries(row.values)) if (v && !k.startsWith('__total')) figures.set(`${row.key}/${k.split('|')[0]}`, v);
    expect(figures).toEqual(direct);
    expect(r.totals['__total|women']).toBe(rows.reduce((s, x) => s + x.n, 0));
    // The biggest cell and a row's total drill down to exactly their records.
    const row = r.rows[0];
    for (const key of Object.keys(row.values).filter((k) => row.values[k] > 0).slice(0, 2)) {
      const found = await call<{ totalElements: number }>(admin, 'POST', '/api/query/run', { module: 'member', where: row.drill[key], size: 1 });
      expect(found.totalElements, key).toBe(row.values[key]);
    }
    await call(admin, 'DELETE', `/api/reports/${saved.id}`);
  });

  it('[S1.F10c] subtotals: each committee row sums its branches; a measure with the year parameter counts that year', async () => {
    const year = new Date().getFullYear() - 1;
    const definition: ReportSpec = {
      title: '测试：支部小计', source: 'members', rows: { kind: 'org', field: 'orgId', depth: 2, subtotals: true },
      measures: [
        { key: 'n', title: '党员', agg: 'count' },
        { key: 'joined', title: '当年入党', agg: 'count', where: { and: [{ field: 'joinDate', op: 'between', value: ['{year}-01-01', '{year}-12-31'] }] } },
      ],
    };
    const r = await call<ReportResult>(admin, 'POST', '/api/reports/preview', { definition, params: { year } });
    const byCommittee = await call<ReportResult>(admin, 'POST', '/api/reports/preview', { definition: { ...definition, rows: { kind: 'org', field: 'orgId', depth: 1 } }, params: { year } });
    const subtotals = r.rows.filter((x) => x.subtotal);
    expect(subtotals.length).toBeGreaterThan(0);
    for (const head of subtotals) {
      const at = r.rows.indexOf(head);
      const next = r.rows.findIndex((x, i) => i > at && x.subtotal);
      const branches = r.rows.slice(at + 1, next < 0 ? undefined : next).filter((x) => !x.subtotal);
      expect(head.values['|n']).toBe(branches.reduce((s, b) => s + b.values['|n'], 0));
      const committee = byCommittee.rows.find((x) => `subtotal-${x.key}` === head.key);
      expect(head.values['|n'], head.label).toBe(committee?.values['|n']);
      const found = await call<{ totalElements: number }>(admin, 'POST', '/api/query/run', { module: 'member', where: head.drill['|joined'], size: 1 });
      expect(found.totalElements).toBe(head.values['|joined']);
    }
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE join_date BETWEEN ${`${year}-01-01`}::date AND ${`${year}-12-31`}::date`.execute(t.database.db);
    expect(r.totals['|joined']).toBe(rows[0].n);
  });

  it('[S1.F10c] built-in reports are definitions of the same shape: each passes the designer\'s checks and previews to the same figures', async () => {
    const list = await call<ReportSummary[]>(admin, 'GET', '/api/reports');
    for (const b of list.filter((x) => x.builtin)) {
      const { definition } = await call<{ definition: ReportSpec }>(admin, 'GET', `/api/reports/${b.id}/definition`);
      const params = { year: 2025 };
      const [run, preview] = await Promise.all([
        call<ReportResult>(admin, 'POST', `/api/reports/${b.id}/run`, { params }),
        call<ReportResult>(admin, 'POST', '/api/reports/preview', { definition, params }),
      ]);
      expect(preview.totals, b.id).toEqual(run.totals);
    }
  });

  it("[S1.F10c] the demo's designed report is shared; a 支部书记 runs it inside the branch and may not design; owners alone change their reports", async () => {
    const list = await call<ReportSummary[]>(zbsj, 'GET', '/api/reports');
    const demo = list.find((x) => x.title === '各二级党委女党员学历分布')!;
    expect(demo).toMatchObject({ builtin: false, shared: true, mine: false });
    const r = await call<ReportResult>(zbsj, 'POST', `/api/reports/${demo.id}/run`, { params: {} });
    const branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
    const subtree = await t.app.runtime.ctx.orgTree.subtreeIds([branch]);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE gender = '2' AND org_id = ANY(${subtree}::int[])`.execute(t.database.db);
    expect(r.totals['__total|women']).toBe(rows[0].n);
    const all = await call<ReportResult>(admin, 'POST', `/api/reports/${demo.id}/run`, { params: {} });
    expect(all.totals['__total|women']).toBeGreaterThan(r.totals['__total|women']);
    // Designing needs the permission; the demo's 二级党委组织员 holds it, the 支部书记 does not.
    await call(zbsj, 'POST', '/api/reports', { definition: womenByEducation }, 403);
    const own = await call<ReportSummary>(ejdw, 'POST', '/api/reports', { definition: { ...womenByEducation, title: '测试：本院女党员' }, shared: false });
    expect((await call<ReportSummary[]>(admin, 'GET', '/api/reports')).some((x) => x.id === own.id)).toBe(false);
    await call(admin, 'GET', `/api/reports/${own.id}/definition`, undefined, 404);
    await call(admin, 'DELETE', `/api/reports/${own.id}`, undefined, 404);
    await call(admin, 'PUT', `/api/reports/${demo.id}`, { definition: womenByEducation }, 404);
    const changed = await call<ReportSummary>(ejdw, 'PUT', `/api/reports/${own.id}`, { definition: { ...womenByEducation, title: '测试：本院女党员（共享）' }, shared: true });
    expect(changed).toMatchObject({ title: '测试：本院女党员（共享）', shared: true });
    expect((await call<ReportSummary[]>(admin, 'GET', '/api/reports')).find((x) => x.id === own.id)?.mine).toBe(false);
    await call(ejdw, 'DELETE', `/api/reports/${own.id}`);
    await call(admin, 'DELETE', '/api/reports/members-by-gender', undefined, 404);
  });

  it('[S1.F9] 综合查询 over a snapshot finds the snapshot\'s records filtered the same way, in the caller\'s scope; a saved query remembers it', async () => {
    const snapshots = await call<{ id: number; title: string; modules: string[] }[]>(admin, 'GET', '/api/snapshots');
    const yearEnd = snapshots.find((s) => s.title.endsWith('年末党员名册'))!;
    const where = { and: [{ field: 'gender', op: 'eq', value: '2' }, { or: [{ field: 'memberType', op: 'eq', value: '2' }, { field: 'org.type', op: 'notNull' }] }] };
    const direct = async (orgs?: number[]) =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM stat_snapshot_version v WHERE v.module = 'member' AND v.first_snapshot <= ${yearEnd.id} AND (v.last_snapshot IS NULL OR v.last_snapshot > ${yearEnd.id})
          AND v.data->>'gender' = '2' AND (v.data->>'member_type' = '2' OR (v.data->>'org_id')::int IN (SELECT id FROM m_org WHERE type IS NOT NULL))
          ${orgs ? sql`AND (v.data->>'org_id')::int = ANY(${orgs}::int[])` : sql``}`.execute(t.database.db)
      ).rows[0].n;
    const q = await call<{ content: Record<string, unknown>[]; totalElements: number }>(admin, 'POST', '/api/query/run', { module: 'member', snapshot: yearEnd.id, where, columns: ['name', 'joinDate', 'orgId', 'orgId.parentId'], size: 200 });
    expect(q.totalElements).toBe(await direct());
    const live = await call<{ totalElements: number }>(admin, 'POST', '/api/query/run', { module: 'member', where, size: 1 });
    expect(live.totalElements).toBeGreaterThan(q.totalElements);
    const yearEndDay = `${new Date().getFullYear() - 1}-12-31`;
    expect(q.content.every((r) => String(r.joinDate) <= yearEndDay && 'orgId.parentIdLabel' in r)).toBe(true);
    // The snapshot's records endpoint (report drill-downs) agrees.
    const records = await call<{ totalElements: number }>(admin, 'POST', `/api/snapshots/${yearEnd.id}/records`, { module: 'member', where, size: 1 });
    expect(records.totalElements).toBe(q.totalElements);

    const branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
    const subtree = await t.app.runtime.ctx.orgTree.subtreeIds([branch]);
    const mine = await call<{ content: { orgId: number }[]; totalElements: number }>(zbsj, 'POST', '/api/query/run', { module: 'member', snapshot: yearEnd.id, where, columns: ['name', 'orgId'], size: 200 });
    expect(mine.totalElements).toBe(await direct(subtree));
    expect(mine.content.every((r) => subtree.includes(r.orgId))).toBe(true);

    // The demo's year-end roster is the members of that day as their dates tell: made full later, still probationary then.
    const snap = (await call<{ id: number; note: string }[]>(admin, 'GET', '/api/snapshots')).find((s) => s.id === yearEnd.id)!;
    expect(snap.note).toMatch(/按入党、转正日期还原/);
    const probation = await call<{ totalElements: number }>(admin, 'POST', '/api/query/run', { module: 'member', snapshot: yearEnd.id, where: { and: [{ field: 'memberType', op: 'eq', value: '2' }] }, size: 1 });
    const { rows: then } = await sql<{ n: number; later: number }>`SELECT count(*) FILTER (WHERE member_type = '2' OR full_date > ${yearEndDay}::date)::int AS n,
        count(*) FILTER (WHERE full_date > ${yearEndDay}::date)::int AS later FROM m_member WHERE join_date <= ${yearEndDay}::date`.execute(t.database.db);
    expect(then[0].later).toBeGreaterThan(0);
    expect(probation.totalElements).toBe(then[0].n);
    const fullLater = await call<{ totalElements: number }>(admin, 'POST', '/api/query/run', { module: 'member', snapshot: yearEnd.id, where: { and: [{ field: 'fullDate', op: 'gt', value: yearEndDay }] }, size: 1 });
    expect(fullLater.totalElements).toBe(0);

    // Unknown snapshots, one without the module, and a bad id answer 400.
    await call(admin, 'POST', '/api/query/run', { module: 'member', snapshot: 999999 }, 400);
    await call(admin, 'POST', '/api/query/run', { module: 'development', snapshot: yearEnd.id }, 400);
    await call(admin, 'POST', '/api/query/run', { module: 'member', snapshot: 'x' }, 400);

    const saved = await call<{ id: number; definition: { snapshot?: number } }>(admin, 'POST', '/api/query/saved', { title: '测试：年末快照查询', definition: { module: 'member', snapshot: yearEnd.id, where } });
    expect(saved.definition.snapshot).toBe(yearEnd.id);
    const demo = (await call<{ title: string; definition: { snapshot?: number } }[]>(admin, 'GET', '/api/query/saved')).find((x) => x.title.endsWith('年末名册中的预备党员'));
    expect(demo?.definition.snapshot).toBe(yearEnd.id);
    await call(admin, 'DELETE', `/api/query/saved/${saved.id}`);
  });
});

// engines: pglite — reads the seeded demo: counts, continuity of the seeded résumés, who sees what
/**
 * The demo's cadres (src/server/seed/cadres.ts): about 600 cadres with the nine kinds of records and
 * continuous résumés, a team and staffing for every unit with cadres (some over, some under), reminders
 * of all six types started, and the demo accounts seeing the cadre pages as their roles should.
 */
import { excellentByUnit } from '../../src/server/domain/cadre/assessment.js';
import { sql } from 'kysely';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeProblems, type ResumeEntry } from '../../src/server/domain/cadre/rules.js';
import { DEMO_CADRE_COUNT } from '../../src/server/seed/cadres.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { clientOf, type Client } from '../support/development.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe(`demo cadres on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  const count = async (table: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(t.database.db)).rows[0].n;

  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = clientOf(t.app, await login(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
  });

  it('[S1.F3a] the demo cadres (600, or every serving staff member of a smaller university) hold all nine kinds of records, and every résumé is continuous', async () => {
    const staff = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_teacher WHERE unit_id IS NOT NULL AND NOT coalesce(retired, false) AND birth_date IS NOT NULL`.execute(t.database.db)).rows[0].n;
    expect(await count('m_cadre')).toBe(Math.min(DEMO_CADRE_COUNT, staff));
    for (const table of ['m_cadre_archive', 'm_cadre_post', 'm_cadre_education', 'm_cadre_family', 'm_cadre_training', 'm_cadre_basic_assessment', 'm_cadre_assessment', 'm_cadre_resume']) {
      const without = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre c WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.cadre_id = c.id)`.execute(t.database.db)).rows[0].n;
      expect(without, table).toBe(0);
    }
    expect(await count('m_cadre_secondment')).toBeGreaterThan(0);
    const entries = (await sql<ResumeEntry & { cadreId: number }>`SELECT cadre_id AS "cadreId", id, start_date::text AS "startDate", end_date::text AS "endDate", text, full_time AS "fullTime" FROM m_cadre_resume`.execute(t.database.db)).rows;
    const byCadre = new Map<number, ResumeEntry[]>();
    for (const e of entries) byCadre.set(e.cadreId, [...(byCadre.get(e.cadreId) ?? []), e]);
    const broken = [...byCadre].filter(([, list]) => resumeProblems(list).length);
    expect(broken.map(([id, list]) => [id, resumeProblems(list)[0]])).toEqual([]);
  });

  it('[S1.F3c][S1.F14h] every unit with cadres has a team; staffing has units over and under their approved posts', async () => {
    const units = (await sql<{ n: number }>`SELECT count(DISTINCT unit_id)::int AS n FROM m_cadre`.execute(t.database.db)).rows[0].n;
    expect(await count('m_leader_team')).toBe(units);
    const statuses = (await admin('POST', '/api/m/staffing/list?size=1000', {})).body.content.map((s: { status: string }) => s.status);
    expect(new Set(statuses)).toEqual(new Set(['空缺', '满编', '超编']));
  });

  it('[S1.F3a] the demo\'s yearly results keep every unit within its 优秀 cap, and some results are 优秀', async () => {
    const years = (await sql<{ year: number }>`SELECT DISTINCT year FROM m_cadre_assessment ORDER BY year`.execute(t.database.db)).rows.map((r) => r.year);
    expect(years.length).toBeGreaterThan(0);
    for (const year of years) {
      const units = await excellentByUnit(t.database.db, year);
      expect(units.filter((u) => u.excellent > u.cap).map((u) => [u.unitName, u.excellent, u.cap]), String(year)).toEqual([]);
      expect(units.some((u) => u.excellent > 0), String(year)).toBe(true);
    }
  });

  it('[39.3] the demo passports are in every state and the trips in every step, one late trip reminded and escalated (RemindType 6), one returned late', async () => {
    const states = (await sql<{ state: string | null }>`SELECT DISTINCT state FROM m_cadre_passport`.execute(t.database.db)).rows.map((r) => r.state);
    expect(new Set(states)).toEqual(new Set(['集中保管', '已领取', '已注销', '遗失', null]));
    const steps = (await sql<{ state: number }>`SELECT DISTINCT state FROM m_cadre_abroad ORDER BY state`.execute(t.database.db)).rows.map((r) => r.state);
    expect(steps).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    const late = (await admin('GET', '/api/reminders?module=cadre-abroad&type=6&state=2&size=100')).body.content as { escalated: boolean }[];
    expect(late.some((r) => r.escalated)).toBe(true);
    const returnedLate = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM reminders r JOIN m_cadre_abroad a ON a.id = r.record_id
      WHERE r.module = 'cadre-abroad' AND r.state = 3 AND r.escalated_due IS NOT NULL AND a.return_date > r.due_date`.execute(t.database.db)).rows[0].n;
    expect(returnedLate).toBeGreaterThan(0);
    for (const type of ['custody', 'expiry']) expect((await admin('GET', `/api/reminders?module=cadre-passport&type=${type}&state=2&size=1`)).body.totalElements, type).toBeGreaterThan(0);
    // Every lent passport is out on exactly one trip.
    const lent = (await sql<{ p: number; a: number }>`SELECT (SELECT count(*)::int FROM m_cadre_passport WHERE state = '已领取') AS p, (SELECT count(DISTINCT passport_id)::int FROM m_cadre_abroad WHERE state = 2) AS a`.execute(t.database.db)).rows[0];
    expect(lent.p).toBe(lent.a);
  });

  it('[S1.F3a] reminders of every one of the six types are running', async () => {
    for (let type = 1; type <= 6; type++) {
      const list = (await admin('GET', `/api/reminders?module=cadre&type=${type}&state=2&size=5`)).body;
      expect(list.totalElements, `type ${type}`).toBeGreaterThan(0);
    }
  });

  it('[S1.F3a] 组织部 sees every cadre, the 二级党委组织员 those of its college, the branch secretary none', async () => {
    const all = (await admin('GET', '/api/common/gbjbxx?size=1')).body.totalElements;
    const dwzzb = clientOf(t.app, await login(t.app, 'dwzzb', DEMO_USER_PASSWORD));
    expect((await dwzzb('GET', '/api/common/gbjbxx?size=1')).body.totalElements).toBe(all);
    const ejdw = clientOf(t.app, await login(t.app, 'ejdw', DEMO_USER_PASSWORD));
    const college = (await ejdw('GET', '/api/common/gbjbxx?size=1000')).body;
    expect(college.totalElements).toBeGreaterThan(0);
    expect(college.totalElements).toBeLessThan(all);
    expect(new Set(college.content.map((c: { unitId: number }) => c.unitId)).size).toBe(1);
    const zbsj = clientOf(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    expect((await zbsj('GET', '/api/common/gbjbxx')).status).toBe(403);
  });

  it('[39.5] 后备干部库: the demo holds the three kinds; a cadre is 在库 once per kind, and leaves it dated and with a reason', async () => {
    const dwzzb = clientOf(t.app, await login(t.app, 'dwzzb', DEMO_USER_PASSWORD));
    const demo = (await dwzzb('POST', '/api/m/cadre-reserve/list?size=100', {})).body.content as { kind: string; state: string; name: string; unitId: number | null }[];
    expect(new Set(demo.map((r) => r.kind))).toEqual(new Set(['正处级后备干部', '副处级后备干部', '优秀年轻干部']));
    expect(new Set(demo.map((r) => r.state))).toEqual(new Set(['在库', '已使用', '已出库']));
    expect(demo.every((r) => r.name && r.unitId)).toBe(true);
    // A cadre not yet in the 优秀年轻干部 reserve: entered, named and placed from the cadre record.
    const inReserve = (await sql<{ id: number }>`SELECT cadre_id AS id FROM m_cadre_reserve WHERE kind = '优秀年轻干部'`.execute(t.database.db)).rows.map((r) => r.id);
    const cadre = (await sql<{ id: number; name: string; unitId: number }>`SELECT id, name, unit_id AS "unitId" FROM m_cadre WHERE NOT (id = ANY(${inReserve}::int[])) AND unit_id IS NOT NULL ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0];
    const since = '2026-03-01';
    const entered = await dwzzb('POST', '/api/m/cadre-reserve', { cadreId: cadre.id, kind: '优秀年轻干部', since, basis: '民主推荐' });
    expect(entered.status, JSON.stringify(entered.body)).toBe(201);
    expect(entered.body).toMatchObject({ name: cadre.name, unitId: cadre.unitId, state: '在库' });
    const twice = await dwzzb('POST', '/api/m/cadre-reserve', { cadreId: cadre.id, kind: '优秀年轻干部', since });
    expect([twice.status, twice.body.message]).toEqual([400, `${cadre.name}已在优秀年轻干部库中，不能重复入库`]);
    const leave = async (values: Record<string, unknown>) => {
      const { version } = (await dwzzb('GET', `/api/m/cadre-reserve/${entered.body.id}`)).body;
      return dwzzb('PUT', '/api/m/cadre-reserve', { id: entered.body.id, version, ...values });
    };
    expect((await leave({ state: '已出库', outReason: '调整' })).body.message).toBe('状态为“已出库”时请填写出库日期');
    expect((await leave({ state: '已出库', outDate: '2026-02-28', outReason: '调整' })).body.message).toBe(`出库日期（2026-02-28）不能早于入库日期（${since}）`);
    expect((await leave({ state: '已出库', outDate: since })).body.message).toBe('状态为“已出库”时请填写出库原因');
    const left = await leave({ state: '已出库', outDate: since, outReason: '本人申请调整' });
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    // Out of the reserve, the cadre may enter it again; the branch secretary holds no page of it.
    expect((await dwzzb('POST', '/api/m/cadre-reserve', { cadreId: cadre.id, kind: '优秀年轻干部', since: '2026-06-01' })).status).toBe(201);
    const zbsj = clientOf(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    expect((await zbsj('POST', '/api/m/cadre-reserve/list', {})).status).toBe(403);
  });

  it('[39.5] 干部请假, 干部兼职, 个人有关事项报告, 考察对象: the demo holds records of each in mixed states, named after their cadres, and the 组织部 sees them', async () => {
    const dwzzb = clientOf(t.app, await login(t.app, 'dwzzb', DEMO_USER_PASSWORD));
    const list = async (m: string) => {
      const res = await dwzzb('POST', `/api/m/${m}/list?size=200`, {});
      expect(res.status, m).toBe(200);
      const rows = res.body.content as Record<string, unknown>[];
      expect(rows.length, m).toBeGreaterThan(10);
      expect(rows.every((r) => r.name && r.unitId), m).toBe(true);
      return rows;
    };
    const leaves = await list('cadre-leave');
    expect(new Set(leaves.map((r) => r.state))).toEqual(new Set([-1, 0, 1, -2]));
    expect(new Set(leaves.map((r) => r.approver))).toEqual(new Set(['党委组织部', '校党委']));
    expect(leaves.every((r) => (r.endDate as string) >= (r.startDate as string))).toBe(true);
    const parttimes = await list('cadre-parttime');
    expect(new Set(parttimes.map((r) => r.state))).toEqual(new Set([-1, 0, 1, -2]));
    expect(parttimes.some((r) => r.endDate)).toBe(true);
    const reports = await list('cadre-report');
    expect(new Set(reports.map((r) => r.checkResult))).toEqual(new Set(['一致', '不一致（漏报）', '未核查']));
    const year = Number(localToday().slice(0, 4));
    expect(new Set(reports.map((r) => r.year))).toEqual(new Set([year - 1, year]));
    const inspections = await list('cadre-inspect');
    expect(inspections.some((r) => r.conclusion) && inspections.some((r) => !r.conclusion)).toBe(true);
    // The serving cadres without this year's report are reminded; 党委组织部 holds the leaves and posts waiting.
    const reminded = await dwzzb('GET', '/api/reminders?module=cadre-report&size=5');
    expect(reminded.body.totalElements).toBeGreaterThan(0);
    expect((await dwzzb('POST', '/api/m/cadre-leave/list', { $waiting: true })).body.totalElements).toBeGreaterThan(0);
    const zbsj = clientOf(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    for (const m of ['cadre-leave', 'cadre-parttime', 'cadre-report', 'cadre-inspect']) expect((await zbsj('POST', `/api/m/${m}/list`, {})).status, m).toBe(403);
  });
});

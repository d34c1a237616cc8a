// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the counts are grouping sets and age arithmetic in SQL
/**
 * 干部队伍结构分析 and 干部绩效分析 (docs/cadres.md): counts of the current cadres by each dimension within the
 * caller's units, each slice's drill-down listing exactly the cadres it counts, the export; a year's
 * results by unit, rank and age band with their 优秀 share and drill-down.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../support/auth.js';
import { clientOf, type Client } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`干部分析 on ${TEST_DB}`, () => {
  let t: TestApp;
  let token: string;
  let admin: Client;
  const units: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t.app);
    admin = clientOf(t.app, token);
    for (const [name, code] of [['化学学院', 'AN01'], ['物理学院', 'AN02']]) units.push((await admin('POST', '/api/m/unit', { name, type: '1', code })).body.id);
    // 化学学院: 3 cadres in office (two 正处 05, one 副处 06) and one retired; 物理学院: 2 (副处).
    const people = [
      { name: '分析甲', gender: '1', birthDate: '1970-01-10', unitId: units[0], rank: '05', politicalStatus: '01', ethnicity: '01', education: '11', tenureStatus: '1' },
      { name: '分析乙', gender: '2', birthDate: '1985-06-10', unitId: units[0], rank: '05', politicalStatus: '13', ethnicity: '03', education: '14', tenureStatus: '2' },
      { name: '分析丙', gender: '1', birthDate: '1990-06-10', unitId: units[0], rank: '06', politicalStatus: '01', ethnicity: '01', tenureStatus: '1' },
      { name: '分析丁', gender: '1', birthDate: '1958-06-10', unitId: units[0], rank: '05', politicalStatus: '01', ethnicity: '01', tenureStatus: '6' },
      { name: '分析戊', gender: '2', birthDate: '1980-06-10', unitId: units[1], rank: '06', politicalStatus: '01', ethnicity: '01', tenureStatus: '1' },
      { name: '分析己', gender: '1', birthDate: '1982-06-10', unitId: units[1], rank: '06', politicalStatus: '02', ethnicity: '01', tenureStatus: '1' },
    ];
    const ids: number[] = [];
    for (const p of people) {
      const c = await admin('POST', '/api/m/cadre', { category: '3', ...p });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      ids.push(c.body.id);
    }
    for (const [i, result] of [[0, '优秀'], [1, '称职'], [2, '称职'], [4, '基本称职'], [5, '称职']] as const) {
      expect((await admin('POST', '/api/m/cadre-assessment', { cadreId: ids[i], year: 2024, result })).status).toBe(201);
    }
  }, 180_000);
  afterAll(() => t?.app.close());

  const dimension = (a: { dimensions: { key: string; slices: { value: string; label: string; count: number }[] }[] }, key: string) =>
    Object.fromEntries(a.dimensions.find((d) => d.key === key)!.slices.map((s) => [s.label, s.count]));

  it('[S1.F3d] counts the current team by rank, gender, ethnicity, party, age band; a slice lists the cadres it counts; exports', async () => {
    const a = (await admin('GET', '/api/cadre/structure')).body;
    expect(a.total).toBe(5);
    expect(dimension(a, 'rank')).toEqual({ 正处级: 2, 副处级: 3 });
    expect(dimension(a, 'gender')).toEqual({ 男: 3, 女: 2 });
    expect(dimension(a, 'party')).toEqual({ 中共党员: 4, 非中共党员: 1 });
    expect(dimension(a, 'ethnicity')).toMatchObject({ 汉族: 4, 回族: 1 });
    expect(Object.values(dimension(a, 'ageBand')).reduce((x: number, y) => x + (y as number), 0)).toBe(5);
    for (const d of a.dimensions as { key: string; slices: { value: string; count: number }[] }[]) {
      for (const s of d.slices) {
        const list = (await admin('GET', `/api/cadre/structure/cadres?dimension=${d.key}&value=${encodeURIComponent(s.value)}&size=50`)).body;
        expect(list.totalElements, `${d.key}=${s.value}`).toBe(s.count);
      }
    }
    const one = (await admin('GET', `/api/cadre/structure?unitId=${units[1]}`)).body;
    expect(one.total).toBe(2);
    const res = await t.app.inject({ method: 'GET', url: '/api/cadre/structure/export', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].getCell('A1').value).toBe('干部总数：5');
    expect((await admin('GET', '/api/cadre/structure/cadres?dimension=nope&value=1')).status).toBe(400);
  });

  it('[S1.F3e] a year\'s results by unit, rank and age band with the 优秀 share; a figure drills down to its cadres', async () => {
    const p = (await admin('GET', '/api/cadre/performance?year=2024')).body;
    expect(p).toMatchObject({ year: 2024, years: [2024], total: 5 });
    expect(Object.fromEntries(p.results.map((r: { label: string; count: number }) => [r.label, r.count]))).toEqual({ 优秀: 1, 称职: 3, 基本称职: 1, 不称职: 0 });
    const byUnit = p.dimensions.find((d: { key: string }) => d.key === 'unit').rows;
    expect(byUnit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: '化学学院', count: 3, counts: { 优秀: 1, 称职: 2 }, excellentShare: 33.3 }),
        expect.objectContaining({ label: '物理学院', count: 2, counts: { 基本称职: 1, 称职: 1 }, excellentShare: 0 }),
      ]),
    );
    const list = (await admin('GET', `/api/cadre/performance/cadres?year=2024&dimension=unit&value=${units[0]}&result=${encodeURIComponent('称职')}`)).body;
    expect(list.content.map((r: { name: string }) => r.name).sort()).toEqual(['分析丙', '分析乙']);
  });

  it('keeps to the caller\'s units: a role with one unit counts only its cadres, and is refused another unit', async () => {
    const role = await admin('POST', '/api/roles', { name: '干部科分析', code: 'r_gbk1', permissions: ['cadre-structure:list', 'cadre-performance:list'], dataScope: 'own', unitScope: 'custom', scopeUnitIds: [units[1]] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const user = await admin('POST', '/api/users', { username: 'gbk1', nickName: '干部科分析', roles: [role.body.id] });
    expect(user.status).toBe(201);
    const { hashPassword } = await import('../../src/server/core/passwords.js');
    await t.database.db.updateTable('users').set({ password_hash: await hashPassword('Cadre@2026x'), password_weak: false }).where('id', '=', user.body.id).execute();
    const gbk = clientOf(t.app, await login(t.app, 'gbk1', 'Cadre@2026x'));
    expect((await gbk('GET', '/api/cadre/structure')).body.total).toBe(2);
    expect((await gbk('GET', `/api/cadre/structure?unitId=${units[0]}`)).status).toBe(403);
    expect((await gbk('GET', '/api/cadre/performance?year=2024')).body.total).toBe(2);
  });
});

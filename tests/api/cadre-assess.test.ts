// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the 优秀 cap counts rows in the write's transaction (afterWrite), also an import's whole batch
/**
 * 干部考核 (docs/cadres.md): yearly results per cadre; the share of 优秀 per unit capped by the rule parameter
 * cadre-assessment.excellentPercent (《党政领导干部考核工作条例》第二十七条, default 20%; the value in force on the
 * year's last day, issue 42) at its boundary — the cap
 * exactly passes, one more is refused, through the API and through the runtime's .xlsx import — and the
 * 干部考核 page's list and caps.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus } from '../../src/shared/constants.js';
import { bearer, login } from '../support/auth.js';
import { clientOf, type Client } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`干部考核 on ${TEST_DB}`, () => {
  let t: TestApp;
  let token: string;
  let admin: Client;
  let unitId: number;
  const cadres: { id: number; name: string }[] = [];
  const result = (i: number, year: number, value: string) => admin('POST', '/api/m/cadre-assessment', { cadreId: cadres[i].id, year, result: value });
  /** The 优秀 share set by an administrator (系统管理 → 规则参数), in force from today. */
  const setPercent = async (value: number) => {
    const res = await admin('PUT', '/api/rule-params/cadre-assessment.excellentPercent', { value, reason: `干部考核测试：优秀比例${value}%` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t.app);
    admin = clientOf(t.app, token);
    unitId = (await admin('POST', '/api/m/unit', { name: '机械工程学院', type: '1', code: 'ASSESS01' })).body.id;
    // Ten cadres in office: 20% gives a cap of two.
    for (let i = 0; i < 10; i++) {
      const name = `考核测试${String.fromCharCode(0x7532 + i)}`;
      const c = await admin('POST', '/api/m/cadre', { name, gender: i % 2 ? '1' : '2', birthDate: `197${i}-02-03`, unitId, category: '3', rank: '06', tenureStatus: '1' });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      cadres.push({ id: c.body.id, name });
    }
  }, 180_000);
  afterAll(() => t?.app.close());

  it('[S1.F3b] the cap of 优秀 per unit: exactly the cap passes, one more is refused with the rule; a higher setting lets it pass', async () => {
    expect((await result(0, 2024, '优秀')).status).toBe(201);
    expect((await result(1, 2024, '优秀')).status).toBe(201);
    const third = await result(2, 2024, '优秀');
    expect(third.status).toBe(400);
    expect(third.body.message).toBe('机械工程学院2024年度考核优秀3人，超过优秀等次限额2人（参加考核10人，优秀比例20%，规则参数：年度考核结果·年度考核优秀比例）。年度考核优秀等次人数一般不超过参加年度考核的领导干部总数的规定比例（《党政领导干部考核工作条例》第二十七条）');
    expect(third.body.errors[0].field).toBe('result');
    // Nothing was written; another result is fine, and changing it to 优秀 is refused as well.
    const fine = await result(2, 2024, '称职');
    expect(fine.status).toBe(201);
    expect((await admin('PUT', '/api/m/cadre-assessment', { id: fine.body.id, version: fine.body.version, result: '优秀' })).status).toBe(400);
    // Another year has its own count.
    expect((await result(2, 2023, '优秀')).status).toBe(201);
    // [SEC38.13] naming another 考核单位 on the result does not escape the cap: it counts by the cadre's unit.
    const other = (await admin('POST', '/api/m/unit', { name: '别的学院', type: '1', code: 'ASSESS02' })).body.id;
    const escape = await admin('POST', '/api/m/cadre-assessment', { cadreId: cadres[3].id, year: 2024, result: '优秀', unitId: other });
    expect(escape.status).toBe(400);
    expect(escape.body.message).toContain('机械工程学院2024年度考核优秀3人');

    const caps = (await admin('GET', '/api/cadre/assess/caps?year=2024')).body;
    expect(caps).toMatchObject({ year: 2024, percent: 20, units: [{ unitId, participants: 10, excellent: 2, cap: 2 }] });
    // [42] A higher share set today lets this year's results pass up to its cap; 2024's stay under the 20 % in force then.
    const now = new Date().getFullYear();
    expect((await result(0, now, '优秀')).status).toBe(201);
    expect((await result(1, now, '优秀')).status).toBe(201);
    expect((await result(2, now, '优秀')).status).toBe(400);
    await setPercent(30);
    try {
      expect((await result(2, now, '优秀')).status).toBe(201);
      const over = await result(3, now, '优秀'); // 30 % of 10: three
      expect(over.status).toBe(400);
      expect(over.body.message).toContain(`机械工程学院${now}年度考核优秀4人，超过优秀等次限额3人（参加考核10人，优秀比例30%，规则参数：年度考核结果·年度考核优秀比例）`);
      expect((await admin('GET', `/api/cadre/assess/caps?year=${now}`)).body).toMatchObject({ percent: 30, units: [{ unitId, excellent: 3, cap: 3 }] });
      expect((await admin('GET', '/api/cadre/assess/caps?year=2024')).body.percent).toBe(20);
      expect((await admin('PUT', '/api/m/cadre-assessment', { id: fine.body.id, version: fine.body.version, result: '优秀' })).status).toBe(400);
    } finally {
      await setPercent(20);
    }

    const page = (await admin('GET', '/api/cadre/assess?year=2024&size=20')).body;
    expect(page.totalElements).toBe(10);
    expect(page.content.filter((r: { result: string | null }) => r.result === '优秀')).toHaveLength(2);
    expect((await admin('GET', '/api/cadre/assess?year=2024&result=none')).body.totalElements).toBe(7);
  });

  it('[S1.F3b] an .xlsx import counts its own rows: over the cap, the whole file is refused in mode all', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('干部年度考核');
    sheet.addRow(['干部', '年度', '考核结果']);
    for (const i of [3, 4, 5]) sheet.addRow([cadres[i].name, 2025, '优秀']);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const boundary = '----assess';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\nall\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="kaohe.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/m/cadre-assessment/import', headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode, res.body).toBe(202);
    let job: { status: number; errors?: unknown } = { status: 0 };
    for (let i = 0; i < 200 && job.status !== TaskStatus.SUCCESS && job.status !== TaskStatus.ERROR; i++) {
      job = (await admin('GET', `/api/m/cadre-assessment/import/${res.json().jobId}`)).body;
      if (job.status !== TaskStatus.SUCCESS && job.status !== TaskStatus.ERROR) await new Promise((r) => setTimeout(r, 50));
    }
    expect(JSON.stringify(job)).toContain('超过优秀等次限额2人');
    const n = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_assessment WHERE year = 2025`.execute(t.database.db)).rows[0].n;
    expect(n).toBe(0);
    // Two rows (the cap) import.
    const two = new ExcelJS.Workbook();
    const s2 = two.addWorksheet('干部年度考核');
    s2.addRow(['干部', '年度', '考核结果']);
    for (const i of [3, 4]) s2.addRow([cadres[i].name, 2025, '优秀']);
    const payload2 = Buffer.concat([payload.subarray(0, payload.indexOf(file)), Buffer.from(await two.xlsx.writeBuffer()), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res2 = await t.app.inject({ method: 'POST', url: '/api/m/cadre-assessment/import', headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: payload2 });
    expect(res2.statusCode, res2.body).toBe(202);
    for (let i = 0; i < 200; i++) {
      job = (await admin('GET', `/api/m/cadre-assessment/import/${res2.json().jobId}`)).body;
      if (job.status === TaskStatus.SUCCESS || job.status === TaskStatus.ERROR) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job.status, JSON.stringify(job)).toBe(TaskStatus.SUCCESS);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_assessment WHERE year = 2025`.execute(t.database.db)).rows[0].n).toBe(2);
  });
});

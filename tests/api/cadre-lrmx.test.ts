// engines: both — the import writes the cadre, its résumé (continuity hook) and family in one transaction
/**
 * 干部任免审批表 (LRMX, docs/cadres.md): the form of a cadre from the cadre base (résumé, rewards, yearly
 * results, family) as JSON and as an .xlsx in the national layout; the import of an .lrmx file (the
 * fixture tests/fixtures/cadre-lrmx-sample.lrmx) previewed field by field, then creating or updating the
 * cadre, and refused when the cadre changed after the preview.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../support/auth.js';
import { clientOf, type Client } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const FIXTURE = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/cadre-lrmx-sample.lrmx'));

function multipart(file: Buffer, fields: Record<string, string | number> = {}, name = '欧阳明远.lrmx') {
  const boundary = '----lrmxtest';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const head = `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(name)}"\r\nContent-Type: application/xml\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe(`任免审批表 on ${TEST_DB}`, () => {
  let t: TestApp;
  let token: string;
  let admin: Client;
  let unitId: number;
  const upload = async (url: string, file: Buffer, fields: Record<string, string | number> = {}) => {
    const m = multipart(file, fields);
    const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...m.headers }, payload: m.payload });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t.app);
    admin = clientOf(t.app, token);
    const unit = await admin('POST', '/api/m/unit', { name: '材料科学与工程学院', type: '1', code: 'LRMX01' });
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);
    unitId = unit.body.id;
  }, 180_000);
  afterAll(() => t?.app.close());

  it('[S1.F3a] the form holds the résumé, rewards, yearly results and family; the .xlsx opens and holds the résumé', async () => {
    const c = await admin('POST', '/api/m/cadre', { name: '周文博', gender: '1', birthDate: '1975-03-12', unitId, category: '2', ethnicity: '01', postTitle: '材料学院院长', joinPartyDate: '1996-06-01' });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const cadreId = c.body.id as number;
    for (const r of [
      { startDate: '1993-09-01', endDate: '1997-07-31', text: '中南大学冶金专业学习' },
      { startDate: '1997-08-01', endDate: null, text: '本校材料学院教师、院长' },
    ]) expect((await admin('POST', '/api/m/cadre-resume', { cadreId, ...r, fullTime: true })).status).toBe(201);
    expect((await admin('POST', '/api/m/cadre-family', { cadreId, relation: '1', name: '陈丽', birthDate: '1977-01-01', politicalStatus: '01', workplace: '本校医院医师' })).status).toBe(201);
    expect((await admin('POST', '/api/m/cadre-assessment', { cadreId, year: 2024, result: '优秀' })).status).toBe(201);
    expect((await admin('POST', '/api/m/cadre-basic-assessment', { cadreId, kind: '奖励', date: '2020-12-01', content: '获省优秀教师称号', issuer: '省教育厅' })).status).toBe(201);

    const form = (await admin('GET', `/api/cadre/${cadreId}/lrmx`)).body;
    expect(form).toMatchObject({ name: '周文博', gender: '男', ethnicity: '汉族', joinParty: '1996.06', currentPost: '材料学院院长', assessments: '2024年度考核优秀' });
    expect(form.birth).toMatch(/^1975\.03（\d+岁）$/);
    expect(form.resume).toEqual(['1993.09--1997.07  中南大学冶金专业学习', '1997.08--         本校材料学院教师、院长']);
    expect(form.rewards).toContain('获省优秀教师称号');
    expect(form.family[0]).toMatchObject({ relation: '配偶', name: '陈丽', political: '中共党员', workplace: '本校医院医师' });

    const res = await t.app.inject({ method: 'GET', url: `/api/cadre/${cadreId}/lrmx/xlsx`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('干部任免审批表-周文博'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getCell('A1').value).toBe('干部任免审批表');
    expect(sheet.getCell('B2').value).toBe('周文博');
    expect(String(sheet.getCell('B11').value)).toContain('1993.09--1997.07  中南大学冶金专业学习');
    expect(String(sheet.getCell('B12').value)).toContain('获省优秀教师称号');
    // Outside the caller's scope there is no form: the record API's 404.
    expect((await admin('GET', '/api/cadre/999999/lrmx')).status).toBe(404);
  });

  it('[S1.F3a] an .lrmx file is previewed field by field, creates the cadre with its résumé and family, then updates it; a stale preview is refused', async () => {
    const first = await upload('/api/cadre/lrmx/preview', FIXTURE);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ name: '欧阳明远', cadreId: null, problems: [], skipped: [] });
    const changes = Object.fromEntries((first.body.changes as { title: string; before: string; after: string }[]).map((c) => [c.title, c]));
    expect(changes['姓名']).toMatchObject({ before: '', after: '欧阳明远' });
    expect(changes['民族']).toMatchObject({ after: '汉族' });
    expect(changes['最高学历']).toMatchObject({ after: '博士研究生毕业' });
    expect(changes['专业技术职务']).toMatchObject({ after: '教授' });
    expect(changes['出生日期']).toMatchObject({ after: '1978-05-01' });
    expect(first.body.resume).toHaveLength(4);
    expect(first.body.resume[3]).toMatchObject({ startDate: '2017-09-01', endDate: null });
    expect(first.body.family.map((m: { relation: string }) => m.relation)).toEqual(['配偶', '女儿']);
    // Nothing is written by a preview.
    expect((await admin('POST', '/api/m/cadre/list', { name: '欧阳明远' })).body.totalElements).toBe(0);

    expect((await upload('/api/cadre/lrmx/apply', FIXTURE)).status).toBe(400); // a new cadre needs its unit
    const created = await upload('/api/cadre/lrmx/apply', FIXTURE, { unitId });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.created).toBe(true);
    const id = created.body.cadreId as number;
    const cadre = (await admin('GET', `/api/m/cadre/${id}`)).body;
    expect(cadre).toMatchObject({ name: '欧阳明远', gender: '1', birthDate: '1978-05-01', nativePlace: '湖南长沙', politicalStatus: '01', postTitle: '材料学院副院长', unitId });
    const resume = (await admin('POST', '/api/m/cadre-resume/list?sort=startDate,asc', { cadreId: id })).body.content;
    expect(resume.map((r: { startDate: string }) => r.startDate)).toEqual(['1996-09-01', '2003-07-01', '2011-01-01', '2017-09-01']);
    expect((await admin('POST', '/api/m/cadre-family/list', { cadreId: id })).body.totalElements).toBe(2);

    // The same file again matches the cadre (by name and birth month) and changes nothing; an edited one names its change.
    const again = await upload('/api/cadre/lrmx/preview', FIXTURE);
    expect(again.body).toMatchObject({ cadreId: id, changes: [] });
    const edited = Buffer.from(FIXTURE.toString('utf8').replace('<JiGuan>湖南长沙</JiGuan>', '<JiGuan>湖南湘潭</JiGuan>'));
    const preview = await upload('/api/cadre/lrmx/preview', edited);
    expect(preview.body.changes).toEqual([{ field: 'nativePlace', title: '籍贯', before: '湖南长沙', after: '湖南湘潭' }]);
    // Changed after the preview: refused, nothing written.
    expect((await admin('PUT', '/api/m/cadre', { id, version: cadre.version, health: '良好' })).status).toBe(200);
    const stale = await upload('/api/cadre/lrmx/apply', edited, { cadreId: id, version: preview.body.version });
    expect(stale.status).toBe(409);
    expect((await admin('GET', `/api/m/cadre/${id}`)).body.nativePlace).toBe('湖南长沙');
    const fresh = (await upload('/api/cadre/lrmx/preview', edited)).body;
    const updated = await upload('/api/cadre/lrmx/apply', edited, { cadreId: id, version: fresh.version });
    expect(updated.body).toEqual({ cadreId: id, created: false });
    expect((await admin('GET', `/api/m/cadre/${id}`)).body.nativePlace).toBe('湖南湘潭');
  });

  it('refuses what is not an .lrmx file, and a résumé with a gap is shown as a problem', async () => {
    expect((await upload('/api/cadre/lrmx/preview', Buffer.from('<html></html>'))).status).toBe(400);
    const gap = Buffer.from(FIXTURE.toString('utf8').replace('2003.07--2010.12', '2004.01--2010.12').replace('<XingMing>欧阳明远</XingMing>', '<XingMing>断档测试</XingMing>'));
    const res = await upload('/api/cadre/lrmx/preview', gap);
    expect(res.status).toBe(200);
    expect(res.body.problems.join()).toContain('断档');
  });
});

// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the import writes the cadre, its résumé (continuity hook) and family in one transaction
/**
 * 干部任免审批表 (LRMX, docs/cadres.md): the form of a cadre from the cadre base (résumé, rewards, yearly
 * results, family) as JSON and as an .xlsx in the national layout; the import of an .lrmx file (the
 * fixture tests/fixtures/cadre-lrmx-sample.lrmx) previewed field by field, then creating or updating the
 * cadre, and refused when the cadre changed after the preview.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
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
  const upload = async (url: string, file: Buffer, fields: Record<string, string | number> = {}, name?: string) => {
    const m = multipart(file, fields, name);
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
    const c = await admin('POST', '/api/m/cadre', { name: '周文博', gender: '1', birthDate: '1975-03-12', unitId, category: '2', ethnicity: '01', postTitle: '材料学院院长', joinPartyDate: '1996-06-01', politicalStatus: '01' });
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

  it('[S1.F3a] .lrmx export round-trips: one file, a zip of many, imported back into an empty base gives the same records', async () => {
    const ids = (await admin('POST', '/api/m/cadre/list', {})).body.content.map((c: { id: number }) => c.id) as number[];
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const one = await t.app.inject({ method: 'GET', url: `/api/cadre/${ids[0]}/lrmx/file`, headers: bearer(token) });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-disposition']).toContain('.lrmx');
    expect(one.body).toMatch(/^<\?xml[^>]*>\n<Person>/);
    const zipRes = await t.app.inject({ method: 'GET', url: `/api/cadre/lrmx/zip?ids=${ids.join(',')}`, headers: bearer(token) });
    expect(zipRes.statusCode).toBe(200);
    const zipBytes = zipRes.rawPayload;
    expect(Object.keys((await JSZip.loadAsync(zipBytes)).files)).toHaveLength(ids.length);
    // Re-imported over the same base: every file matches its cadre and changes nothing.
    const same = await upload('/api/cadre/lrmx/preview', zipBytes, {}, 'all.zip');
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    for (const f of same.body.files) expect(f.preview, f.file).toMatchObject({ changes: [], problems: [] });
    // Into an empty base: the cadres removed, the zip applied; the records come back the same.
    const snapshot = async (id: number): Promise<Record<string, unknown>> => {
      const c = (await admin('GET', `/api/m/cadre/${id}`)).body;
      const resume = (await admin('POST', '/api/m/cadre-resume/list?sort=startDate,asc', { cadreId: id })).body.content.map((r: { text: string }) => r.text);
      const family = (await admin('POST', '/api/m/cadre-family/list', { cadreId: id })).body.content.map((r: { name: string; relation: string }) => `${r.relation}${r.name}`).sort();
      return { ...Object.fromEntries(['name', 'gender', 'ethnicity', 'nativePlace', 'birthPlace', 'joinPartyDate', 'workStartDate', 'health', 'title', 'speciality', 'education', 'degree', 'postTitle', 'idCard', 'politicalStatus'].map((k) => [k, c[k] ?? null])), birthMonth: String(c.birthDate).slice(0, 7), resume, family };
    };
    const before = await Promise.all(ids.map(snapshot));
    for (const id of ids) {
      for (const child of ['cadre-resume', 'cadre-family', 'cadre-assessment', 'cadre-basic-assessment', 'cadre-education']) {
        const rows = (await admin('POST', `/api/m/${child}/list`, { cadreId: id })).body.content.map((r: { id: number }) => r.id);
        if (rows.length) expect((await admin('DELETE', `/api/m/${child}`, { ids: rows })).status).toBe(200);
      }
    }
    const removed = await admin('DELETE', '/api/m/cadre', { ids });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const fresh = await upload('/api/cadre/lrmx/preview', zipBytes, {}, 'all.zip');
    expect(fresh.body.files.every((f: { preview: { cadreId: number | null } }) => f.preview.cadreId === null)).toBe(true);
    const applied = await upload('/api/cadre/lrmx/apply', zipBytes, { unitId, files: '{}' }, 'all.zip');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const created = applied.body.files.map((f: { result: { cadreId: number; created: boolean } }) => f.result);
    expect(created.every((r: { created: boolean }) => r.created)).toBe(true);
    const after = await Promise.all(created.map((r: { cadreId: number }) => snapshot(r.cadreId)));
    expect(after.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(before.sort((a, b) => String(a.name).localeCompare(String(b.name))));
  });

  it('[SEC38.10] a malformed or crafted file answers 400 at once: nested elements, an invalid character reference, a broken zip', async () => {
    const nested = Buffer.from(`<Person><XingMing>甲</XingMing>${'<a>'.repeat(96_000)}</Person>`); // 288 KB
    const res = await upload('/api/cadre/lrmx/preview', nested);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('嵌套超过');
    const many = Buffer.from(`<Person><XingMing>甲</XingMing>${'<a/>'.repeat(3000)}</Person>`);
    expect((await upload('/api/cadre/lrmx/preview', many)).body.message).toContain('元素超过');
    const badRef = await upload('/api/cadre/lrmx/preview', Buffer.from('<Person><XingMing>&#x110000;</XingMing></Person>'));
    expect(badRef.status).toBe(400);
    expect(badRef.body.message).toContain('XML 格式错误');
    expect((await upload('/api/cadre/lrmx/preview', Buffer.from('<Person><XingMing>甲</XingMing>'))).status).toBe(400);
    expect((await upload('/api/cadre/lrmx/preview', Buffer.from('PK\x03\x04broken'), {}, 'x.zip')).status).toBe(400);
    // A zip with one broken file: the others preview, the broken one is named.
    const zip = new JSZip();
    zip.file('好.lrmx', FIXTURE);
    zip.file('坏.lrmx', '<Person><XingMing>乙');
    const mixed = await upload('/api/cadre/lrmx/preview', await zip.generateAsync({ type: 'nodebuffer' }), {}, 'mixed.zip');
    expect(mixed.status).toBe(200);
    const byFile = Object.fromEntries(mixed.body.files.map((f: { file: string }) => [f.file, f]));
    expect(byFile['好.lrmx'].preview.name).toBe('欧阳明远');
    expect(byFile['坏.lrmx']).toMatchObject({ status: 400 });
  });

  it('refuses what is not an .lrmx file, and a résumé with a gap is shown as a problem', async () => {
    expect((await upload('/api/cadre/lrmx/preview', Buffer.from('<html></html>'))).status).toBe(400);
    const gap = Buffer.from(FIXTURE.toString('utf8').replace('2003.07--2010.12', '2004.01--2010.12').replace('<XingMing>欧阳明远</XingMing>', '<XingMing>断档测试</XingMing>'));
    const res = await upload('/api/cadre/lrmx/preview', gap);
    expect(res.status).toBe(200);
    expect(res.body.problems.join()).toContain('断档');
  });
});

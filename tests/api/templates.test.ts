// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): templates are module records (the save hook runs in the write's transaction), rendering reads records through the caller's scope, bulk rendering is a job in runtime_jobs
/**
 * Issue 29 (模板管理) through the real HTTP layer on the demo: a template's file is checked when saved (not a
 * docx, a placeholder its module does not know → 400 naming them), one record is rendered as docx, PDF and
 * xlsx with the record's values as people read them (labels, names, 年月日 dates, identity numbers masked for
 * who may not edit the member), a branch secretary cannot render a record outside the branch, and many
 * records are rendered as a background job with its progress, its file and a message with a link.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx } from '../../src/server/domain/templates/docx-build.js';
import { jobsOf } from '../../src/server/runtime/jobs.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

/** The text of a PDF's pages (pdf.js, as a reader's viewer extracts it). */
async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n++) text += ((await (await doc.getPage(n)).getTextContent()).items as { str: string }[]).map((i) => i.str).join('');
  return { pages: doc.numPages, text };
}

const docxText = (bytes: Buffer) => (new PizZip(bytes).file('word/document.xml')!.asText().match(/<w:t[^>]*>[^<]*<\/w:t>/g) ?? []).map((t) => t.replace(/<[^>]+>/g, '')).join('');

describe(`templates on ${TEST_DB}`, () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let branch: number;
  let member: { id: number; name: string; idCard: string; joinDate: string };
  let outsider: number;
  const ids: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(tok[who]), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.body && res.headers['content-type']?.toString().includes('json') ? res.json() : undefined, raw: res.rawPayload, headers: res.headers };
  };
  const upload = async (name: string, bytes: Buffer) => {
    const fd = new FormData();
    fd.append('moduleName', 'doc-template');
    fd.append('file', new Blob([bytes as BlobPart]), name);
    const res = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: bearer(tok.dwzzb), payload: fd });
    expect(res.statusCode, res.body).toBe(200);
    return `${res.json().url}&name=${encodeURIComponent(name)}`;
  };
  const save = async (name: string, bytes: Buffer, extra: Record<string, unknown> = {}) =>
    call('dwzzb', 'POST', '/api/m/doc-template', { name: '测试模板', category: '证明', kind: name.endsWith('.xlsx') ? 'xlsx' : 'docx', sourceModule: 'member', file: await upload(name, bytes), ...extra });
  const render = (who: string, id: number, record: number, format: string) => call(who, 'GET', `/api/templates/${id}/render?record=${record}&format=${format}`);

  beforeAll(async () => {
    t = await createDemoTestApp();
    tok.admin = await login(t.app);
    for (const u of ['zbsj', 'ejdw', 'dwzzb', 'dy']) tok[u] = await login(t.app, u, DEMO_USER_PASSWORD);
    branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
    member = (await sql<typeof member>`SELECT id, name, id_card AS "idCard", join_date::text AS "joinDate" FROM m_member WHERE org_id = ${branch} AND id_card IS NOT NULL AND join_date IS NOT NULL ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0];
    outsider = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id <> ${branch} ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0].id;
    for (const r of (await sql<{ id: number; name: string }>`SELECT id, name FROM m_doc_template`.execute(t.database.db)).rows) ids[r.name] = r.id;
  }, 300_000);
  afterAll(() => t?.app.close());

  it('[S1.F14j] the demo holds four templates; the usable ones are those whose module the caller may read', async () => {
    expect(Object.keys(ids).sort()).toEqual(['党员基本信息表', '党员身份证明', '党校结业证书', '组织关系介绍信'].sort());
    const forZbsj = (await call('zbsj', 'GET', '/api/templates/usable')).body as { name: string; sourceTitle: string }[];
    expect(forZbsj.map((x) => x.name)).toEqual(expect.arrayContaining(['党员身份证明', '党员基本信息表']));
    expect((await call('dy', 'GET', '/api/templates/usable')).status).toBe(403);
    const page = (await call('zbsj', 'POST', '/api/m/doc-template/list', {})).body;
    expect(page.totalElements).toBe(4);
    // [43.10] the source module is answered by its title, not its id.
    const letter = page.content.find((r: { name: string }) => r.name === '组织关系介绍信');
    expect(letter).toMatchObject({ sourceModule: 'transfer-out', sourceModuleLabel: '组织关系转出' });
    expect((await call('zbsj', 'POST', '/api/m/doc-template', { name: 'x' })).status).toBe(403);
  });

  it('[S1.F14j] a saved template is checked: a file that is no docx, a placeholder its module lacks, a missing module → 400', async () => {
    const notDocx = await save('坏文件.docx', Buffer.from('这不是 Word 文档'));
    expect(notDocx.status).toBe(400);
    expect(notDocx.body.message).toContain('不是有效的 Word 文档');
    const unknown = await save('未知.docx', buildDocx([{ text: '{姓名}的{不存在的字段}和{nope}，{所在党支部.组织名称}' }]));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('模板中有“党员基本信息”模块没有的占位符：{不存在的字段}、{nope}');
    expect(unknown.body.unknown).toEqual(['{不存在的字段}', '{nope}']);
    const wrongKind = await save('表.xlsx', buildDocx([{ text: '{姓名}' }]), { kind: 'docx' });
    expect(wrongKind.status).toBe(400);
    const noModule = await save('无.docx', buildDocx([{ text: '{姓名}' }]), { sourceModule: 'no-such-module' });
    expect(noModule.status).toBe(400);
    // x-choices "modules": the runtime refuses a module id the deployment does not have, on the field.
    expect(noModule.body.errors).toEqual([{ field: 'sourceModule', message: '数据来源模块“no-such-module”不是本系统的模块' }]);
    const before = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_doc_template`.execute(t.database.db)).rows[0].n;
    expect(before).toBe(4);
    const good = await save('好.docx', buildDocx([{ text: '{姓名}（{name}）{所在党支部.组织名称}' }]), { name: '引用路径' });
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    expect(good.body.placeholders).toBe('姓名、name、所在党支部.组织名称');
    ids['引用路径'] = good.body.id;
  });

  it('[S1.F14j] one record renders as docx (labels, names, 年月日 dates) and as a PDF whose text is extractable', async () => {
    const docx = await render('zbsj', ids['党员身份证明'], member.id, 'docx');
    expect(docx.status).toBe(200);
    expect(docx.headers['content-type']).toContain('wordprocessingml');
    const text = docxText(docx.raw);
    const [y, m, d] = member.joinDate.split('-').map(Number);
    expect(text).toContain(`兹证明${member.name}同志`);
    expect(text).toContain(`于${y}年${m}月${d}日加入中国共产党`);
    // The branch by name, the gender by its label; the secretary may edit the member: the number whole.
    const orgName = (await sql<{ name: string }>`SELECT name FROM m_org WHERE id = ${branch}`.execute(t.database.db)).rows[0].name;
    expect(text).toContain(`系${orgName}党员`);
    expect(text).toMatch(/性别：[男女]/);
    expect(text).toContain(member.idCard);
    const pdf = await render('zbsj', ids['党员身份证明'], member.id, 'pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { text: pdfTextContent } = await pdfText(pdf.raw);
    expect(pdfTextContent.replace(/\s/g, '')).toContain(`兹证明${member.name}同志`);
    // A reference path reads the referenced record.
    const viaRef = docxText((await render('zbsj', ids['引用路径'], member.id, 'docx')).raw);
    expect(viaRef).toBe(`${member.name}（${member.name}）${orgName}`);
    // A docx template renders no xlsx.
    expect((await render('zbsj', ids['党员身份证明'], member.id, 'xlsx')).status).toBe(400);
  });

  it('[S1.F14j] identity numbers are masked for who may not edit the member, as the member detail masks them', async () => {
    const text = docxText((await render('ejdw', ids['党员身份证明'], member.id, 'docx')).raw);
    expect(text).not.toContain(member.idCard);
    expect(text).toContain(`${member.idCard.slice(0, 6)}************`);
  });

  it('[S1.F14j] an xlsx template renders the record into its cells', async () => {
    const res = await render('zbsj', ids['党员基本信息表'], member.id, 'xlsx');
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.raw as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getCell('B2').value).toBe(member.name);
    expect(String(sheet.getCell('B8').value)).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    expect((await render('zbsj', ids['党员基本信息表'], member.id, 'pdf')).status).toBe(400);
  });

  it('[S1.F14j] a branch secretary cannot render a record outside the branch (404, as the detail); no render permission → 403', async () => {
    expect((await render('zbsj', ids['党员身份证明'], outsider, 'pdf')).status).toBe(404);
    expect((await render('dwzzb', ids['党员身份证明'], outsider, 'pdf')).status).toBe(200);
    expect((await render('dy', ids['党员身份证明'], member.id, 'pdf')).status).toBe(403);
    expect((await call('zbsj', 'POST', `/api/templates/${ids['党员身份证明']}/bulk`, { ids: [member.id, outsider], format: 'pdf' })).status).toBe(202);
    await jobsOf(t.app).drain();
    // The record out of scope is skipped and named (issue 38.17), the one in scope rendered.
    const done = (await sql<{ state: number; result: unknown }>`SELECT state, result FROM runtime_jobs ORDER BY id DESC LIMIT 1`.execute(t.database.db)).rows[0];
    expect(done).toMatchObject({ state: 2, result: { count: 1, skipped: [outsider] } });
  });

  it('[S1.F14j] many records render as a job: progress, one PDF of all, a message linking the page', async () => {
    const chosen = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${branch} ORDER BY id LIMIT 3`.execute(t.database.db)).rows.map((r) => r.id);
    const start = await call('zbsj', 'POST', `/api/templates/${ids['党员身份证明']}/bulk`, { ids: chosen, format: 'pdf' });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    const { jobId } = start.body;
    await jobsOf(t.app).drain();
    const job = (await call('zbsj', 'GET', `/api/jobs/${jobId}`)).body;
    expect(job).toMatchObject({ state: 2, progress: 3, total: 3, result: { count: 3 } });
    const file = await call('zbsj', 'GET', `${job.result.download.url}?id=${job.result.download.params.id}`);
    expect(file.status).toBe(200);
    const { pages, text } = await pdfText(file.raw);
    expect(pages).toBe(3);
    expect(text).toContain('党员身份证明');
    const userId = (await t.database.db.selectFrom('users').select('id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).id;
    const message = (await sql<{ title: string; link: string }>`SELECT title, link FROM msg_push_history WHERE user_id = ${userId} ORDER BY id DESC LIMIT 1`.execute(t.database.db)).rows[0];
    expect(message).toMatchObject({ link: `/service/work/template?job=${jobId}` });
    expect(message.title).toContain('已完成（3份）');
    // Another caller does not see the job.
    expect((await call('ejdw', 'GET', `/api/jobs/${jobId}`)).status).toBe(404);
  });

  it('[S1.F14j] the current filter of the source module renders as a zip of xlsx files, one per record in scope', async () => {
    const start = await call('zbsj', 'POST', `/api/templates/${ids['党员基本信息表']}/bulk`, { filter: {}, format: 'xlsx' });
    expect(start.status).toBe(202);
    await jobsOf(t.app).drain();
    const job = (await call('zbsj', 'GET', `/api/jobs/${start.body.jobId}`)).body;
    const inBranch = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE org_id = ${branch}`.execute(t.database.db)).rows[0].n;
    expect(job.result.count).toBe(inBranch);
    const zip = new PizZip((await call('zbsj', 'GET', `${job.result.download.url}?id=${job.result.download.params.id}`)).raw);
    expect(Object.keys(zip.files).filter((n) => n.endsWith('.xlsx'))).toHaveLength(inBranch);
  });
});

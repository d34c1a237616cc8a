// engines: both — exports and imports as jobs: streamed files, progress rows and messages written on each engine
/**
 * Issues 29 and 30, long work as jobs: an export over `exportInlineMax` rows (lowered to 5 here through
 * the setting) runs as a job with its progress and file, at or under it downloads at once; the import's
 * job tells its owner where its result is; the task status of an import derives from its job's state.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportState, taskStatusOf, type Job } from '../../src/shared/jobs.js';
import { ExportType, TaskStatus } from '../../src/shared/constants.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { bookBytes } from '../support/xlsx-files.js';

const INLINE_MAX = 5;

describe(`long work as jobs on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  const tag = `作业${Date.now()}`;
  const get = (url: string) => t.app.inject({ url, headers: bearer(admin) });

  async function finishedJob(id: number): Promise<Job> {
    for (let i = 0; i < 400; i++) {
      const job = (await get(`/api/jobs/${id}`)).json() as Job;
      if (job.state !== ExportState.START) return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`job ${id} did not finish`);
  }
  async function sheetOf(job: Job, index = 0) {
    const { download } = job.result as { download: { url: string; params: Record<string, string>; name: string } };
    const file = await t.app.inject({ url: download.url, query: download.params, headers: bearer(admin) });
    expect(file.statusCode, file.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as never);
    return book.worksheets[index];
  }
  const messages = async () => (await get('/api/msgPushHistory?size=50')).json().content as { title: string; link: string | null }[];

  beforeAll(async () => {
    t = await createTestApp({ EXPORT_INLINE_MAX: String(INLINE_MAX) });
    admin = await login(t.app);
    for (let i = 1; i <= INLINE_MAX + 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/m/regulation', headers: bearer(admin), payload: { title: `${tag}-${i}`, category: '党内法规', issuedOn: '2024-03-01' } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.app.close();
  });

  const filter = (title: string) => encodeURIComponent(JSON.stringify({ title }));

  it('a list export over the setting runs as a job (export type auto 1): progress, a file of every row, a message leading to the page it was asked from', async () => {
    const res = await get(`/api/m/regulation/export?filter=${filter(tag)}&from=/party/regulation`);
    expect(res.statusCode, res.body).toBe(202);
    const { jobId, totalElements } = res.json();
    expect(totalElements).toBe(INLINE_MAX + 3);
    const job = await finishedJob(jobId);
    expect(job).toMatchObject({ kind: 'export', state: ExportState.FINISH, progress: INLINE_MAX + 3, total: INLINE_MAX + 3, result: { rows: INLINE_MAX + 3, exportType: ExportType.AUTO } });
    const sheet = await sheetOf(job);
    expect(sheet.rowCount).toBe(INLINE_MAX + 4);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toContain('记录ID');
    expect(await messages()).toContainEqual(expect.objectContaining({ title: `${job.title}已完成（${INLINE_MAX + 3}行），请点击下载`, link: `/party/regulation?job=${jobId}` }));
    // A link to elsewhere than a page of the app is not taken: the module's menu page instead.
    const odd = await get(`/api/m/regulation/export?filter=${filter(tag)}&from=${encodeURIComponent('//evil.example/x')}`);
    await finishedJob(odd.json().jobId);
    expect((await messages()).find((m) => m.link?.endsWith(`job=${odd.json().jobId}`))?.link).not.toContain('evil');
  });

  it('at or under the setting the export downloads at once', async () => {
    const res = await get(`/api/m/regulation/export?filter=${filter(`${tag}-1`)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
  });

  it('a job nobody has answers 404', async () => {
    expect((await get('/api/jobs/99999999')).statusCode).toBe(404);
  });

  it('a query export over the setting is a job of export type custom 2', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/query/export', headers: bearer(admin), payload: { module: 'regulation', where: { and: [{ field: 'title', op: 'like', value: tag }] }, title: '制度查询' } });
    expect(res.statusCode, res.body).toBe(202);
    const job = await finishedJob(res.json().jobId);
    expect(job).toMatchObject({ state: ExportState.FINISH, result: { rows: INLINE_MAX + 3, exportType: ExportType.CUSTOM } });
    expect((await sheetOf(job)).rowCount).toBe(INLINE_MAX + 4);
  });

  it("an import is a job: its task status derives from the job's state, and its owner is told where its error report is", async () => {
    const file = await bookBytes((b) => {
      const s = b.addWorksheet('制度');
      s.addRow(['标题', '类别', '发布日期']);
      s.addRow([`${tag}-导入`, '党内法规', '2024-01-02']);
      s.addRow([`${tag}-坏`, '不存在的类别', '2024-01-02']);
    });
    const fd = new FormData();
    fd.append('mode', 'partial');
    fd.append('file', new Blob([new Uint8Array(file)]), '制度导入.xlsx');
    const res = await t.app.inject({ method: 'POST', url: '/api/m/regulation/import?from=/party/regulation', headers: bearer(admin), payload: fd });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json();
    const job = await finishedJob(jobId);
    expect(job).toMatchObject({ kind: 'import', state: ExportState.FINISH, message: '导入完成：成功1行，失败1行', result: { imported: 1, failed: 1 } });
    const status = (await get(`/api/m/regulation/import/${jobId}`)).json();
    expect(status).toMatchObject({ id: jobId, status: TaskStatus.SUCCESS, imported: 1, total: 2, processed: 2, reportUrl: `/api/m/regulation/import/${jobId}/report` });
    // The job's download is the error report.
    expect(job.result).toMatchObject({ download: { url: status.reportUrl } });
    expect((await get(status.reportUrl)).statusCode).toBe(200);
    expect(await messages()).toContainEqual(expect.objectContaining({ title: '导入完成：成功1行，失败1行', link: `/party/regulation?job=${jobId}` }));
  });

  it('the task status of an import: PREPARE before its job starts, START while it runs, SUCCESS and ERROR at its end', () => {
    expect(taskStatusOf({ state: ExportState.START, startedAt: null })).toBe(TaskStatus.PREPARE);
    expect(taskStatusOf({ state: ExportState.START, startedAt: '2026-01-01T00:00:00Z' })).toBe(TaskStatus.START);
    expect(taskStatusOf({ state: ExportState.FINISH, startedAt: '2026-01-01T00:00:00Z' })).toBe(TaskStatus.SUCCESS);
    expect(taskStatusOf({ state: ExportState.ERROR, startedAt: null })).toBe(TaskStatus.ERROR);
  });
});

// engines: both — imports and exports
import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeRecordOrigin, TaskStatus } from '../../src/shared/constants.js';
import { createRuntimeApp, idCard } from '../fixtures/runtime-app.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, type TestApp } from '../support/test-app.js';

const BASE = '/api/m/test-person';
const PASS = 'Runtime#2026a';

async function workbookOf(payload: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as never);
  return book;
}

/** A multipart/form-data body with form fields and one file. */
function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer }) {
  const boundary = `----runtime${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe(`module runtime export, template and import on ${TEST_DB}`, () => {
  let t: TestApp;
  let token: string;
  let clerkToken: string;
  let viewerToken: string;
  const inject = (opts: InjectOptions) => t.app.inject(opts);

  beforeAll(async () => {
    t = await createRuntimeApp();
    token = await login(t.app);
    await userWithRole(t.app, token, { username: 'xclerk', permissions: ['test-person:list', 'test-person:export', 'test-person:import'], dataScope: 'own', orgId: 3, password: PASS });
    await userWithRole(t.app, token, { username: 'xviewer', permissions: ['test-person:list'], password: PASS });
    clerkToken = await login(t.app, 'xclerk', PASS);
    viewerToken = await login(t.app, 'xviewer', PASS);
    const people = [
      { name: '张三', gender: '1', idCard: idCard('1990-01-01', 1), orgId: 3, level: 'A', tags: ['t1', 't2'], isCadre: true, birthDate: '1990-01-01', score: 90.5, contactUserId: 1 },
      { name: '李四', gender: '2', idCard: idCard('1990-01-01', 2), orgId: 2, level: 'B', birthDate: '1985-06-15' },
      { name: '王五', gender: '2', idCard: idCard('1990-01-01', 3), orgId: 3, checkedAt: 'ignored' },
    ];
    for (const p of people) {
      const res = await inject({ method: 'POST', url: BASE, headers: bearer(token), payload: p });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t.app.close());

  describe('export', () => {
    it('streams the filtered list as .xlsx with dictionary labels, reference names and the module title as file name', async () => {
      const filter = encodeURIComponent(JSON.stringify({ gender: '2' }));
      const res = await inject({ url: `${BASE}/export?filter=${filter}&sort=name,asc`, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('测试人员.xlsx')}`);
      const sheet = (await workbookOf(res.rawPayload)).worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(header.slice(0, 5)).toEqual(['姓名', '性别', '身份证号', '出生日期', '年龄']);
      expect(header).toContain('核对时间');
      expect(sheet.rowCount).toBe(3);
      const col = (title: string) => header.indexOf(title) + 1;
      const rows = [2, 3].map((r) => sheet.getRow(r));
      expect(rows.map((r) => r.getCell(col('姓名')).value)).toEqual(['李四', '王五'].sort((a, b) => (a < b ? -1 : 1)));
      const li = rows.find((r) => r.getCell(col('姓名')).value === '李四')!;
      expect(li.getCell(col('性别')).value).toBe('女');
      expect(li.getCell(col('级别')).value).toBe('二级');
      expect(li.getCell(col('出生日期')).value).toBe('1985-06-15');
      expect(li.getCell(col('是否干部')).value).toBe('否');
      const all = await inject({ url: `${BASE}/export`, headers: bearer(token) });
      const zhang = (await workbookOf(all.rawPayload)).worksheets[0];
      const allHeader = (zhang.getRow(1).values as unknown[]).slice(1);
      const zrow = [2, 3, 4].map((r) => zhang.getRow(r)).find((r) => r.getCell(allHeader.indexOf('姓名') + 1).value === '张三')!;
      expect(zrow.getCell(allHeader.indexOf('标签') + 1).value).toBe('优秀、先进');
      expect(zrow.getCell(allHeader.indexOf('联系人') + 1).value).toBe('系统管理员');
      expect(zrow.getCell(allHeader.indexOf('是否干部') + 1).value).toBe('是');
      expect(zrow.getCell(allHeader.indexOf('积分') + 1).value).toBe(90.5);
    });

    it('applies the data scope, refuses bad filters before the download and needs the export permission', async () => {
      const scoped = await inject({ url: `${BASE}/export`, headers: bearer(clerkToken) });
      expect((await workbookOf(scoped.rawPayload)).worksheets[0].rowCount).toBe(3); // header + 2 records of org 3
      expect((await inject({ url: `${BASE}/export?filter=${encodeURIComponent('{bad')}`, headers: bearer(token) })).statusCode).toBe(400);
      expect((await inject({ url: `${BASE}/export?filter=${encodeURIComponent('{"idCard":"1"}')}`, headers: bearer(token) })).statusCode).toBe(400);
      expect((await inject({ url: `${BASE}/export?sort=nosuch,asc`, headers: bearer(token) })).statusCode).toBe(400);
      expect((await inject({ url: `${BASE}/export`, headers: bearer(viewerToken) })).statusCode).toBe(403);
      expect((await inject({ url: `${BASE}/export` })).statusCode).toBe(401);
    });
  });

  describe('template', () => {
    it('has a note row, the titles with required ones marked *, drop-downs from a hidden sheet and formatted date columns', async () => {
      const res = await inject({ url: `${BASE}/template`, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain(encodeURIComponent('测试人员导入模板.xlsx'));
      const book = await workbookOf(res.rawPayload);
      const [sheet, lists] = book.worksheets;
      expect(String(sheet.getCell('A1').value)).toContain('带 * 的列必须填写（姓名、性别、身份证号、所属组织）');
      const header = (sheet.getRow(2).values as unknown[]).slice(1);
      expect(header.slice(0, 5)).toEqual(['姓名*', '性别*', '身份证号*', '出生日期', '手机号码']);
      expect(header).not.toContain('年龄');
      expect(header).not.toContain('核对时间');
      expect(lists.state).toBe('hidden');
      const col = (title: string) => header.indexOf(title) + 1;
      const gender = sheet.getRow(3).getCell(col('性别*')).dataValidation;
      expect(gender).toMatchObject({ type: 'list' });
      const [, listLetter, count] = /\$([A-Z]+)\$1:\$[A-Z]+\$(\d+)/.exec(gender.formulae![0] as string)!;
      expect(gender.formulae![0]).toContain('选项');
      expect(Array.from({ length: Number(count) }, (_x, i) => lists.getCell(`${listLetter}${i + 1}`).value)).toEqual(['男', '女']);
      const level = sheet.getRow(100).getCell(col('级别')).dataValidation;
      const [, levelLetter, levelCount] = /\$([A-Z]+)\$1:\$[A-Z]+\$(\d+)/.exec(level.formulae![0] as string)!;
      expect(Array.from({ length: Number(levelCount) }, (_x, i) => lists.getCell(`${levelLetter}${i + 1}`).value)).toEqual(['一级', '二级', '三级']);
      expect(sheet.getColumn(col('出生日期')).numFmt).toBe('yyyy-mm-dd');
      expect(sheet.getColumn(col('身份证号*')).numFmt).toBe('@');
      expect(sheet.getRow(3).getCell(col('是否干部')).dataValidation.formulae![0]).toContain('选项');
    });
  });

  describe('import', () => {
    async function fillTemplate(rows: Record<string, unknown>[]): Promise<Buffer> {
      const res = await inject({ url: `${BASE}/template`, headers: bearer(token) });
      const book = await workbookOf(res.rawPayload);
      const sheet = book.worksheets[0];
      const header = (sheet.getRow(2).values as unknown[]).slice(1).map((h) => String(h).replace('*', ''));
      rows.forEach((row, i) => {
        for (const [title, value] of Object.entries(row)) {
          const col = header.indexOf(title) + 1;
          expect(col, title).toBeGreaterThan(0);
          sheet.getRow(3 + i).getCell(col).value = value as ExcelJS.CellValue;
        }
      });
      return Buffer.from(await book.xlsx.writeBuffer());
    }

    async function upload(content: Buffer, mode?: string, who = token, name = '导入.xlsx') {
      const body = multipart(mode ? { mode } : {}, { name, content });
      return inject({ method: 'POST', url: `${BASE}/import`, headers: { ...bearer(who), ...body.headers }, payload: body.payload });
    }

    async function finished(jobId: number, who = token) {
      for (let i = 0; i < 200; i++) {
        const res = await inject({ url: `${BASE}/import/${jobId}`, headers: bearer(who) });
        expect(res.statusCode, res.body).toBe(200);
        const job = res.json();
        if (job.status === TaskStatus.SUCCESS || job.status === TaskStatus.ERROR) return job;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('import did not finish');
    }

    const good = (n: number, extra: Record<string, unknown> = {}) => ({ 姓名: `导入${n}`, 性别: '男', 身份证号: idCard('1991-02-03', n), 所属组织: 3, ...extra });

    it('partial mode imports the good rows, reports every problem of the bad ones and offers them back as a workbook', async () => {
      const count = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_test_person`.execute(t.database.db)).rows[0].n;
      const before = await count();
      const file = await fillTemplate([
        good(1, { 姓名: ' 导入1 ', 出生日期: new Date(Date.UTC(1991, 1, 3)), 级别: '一级', 标签: '优秀、骨干', 是否干部: '是', 积分: 88.5, 联系人: '系统管理员' }),
        good(2, { 性别: '2', 级别: 'B' }),
        good(3, { 身份证号: '110105199102030031', 性别: '未知' }),
        good(4, { 出生日期: 'abc', 联系人: '查无此人' }),
        good(5, { 身份证号: idCard('1991-02-03', 1) }),
        { 姓名: '张三改', 性别: '男', 身份证号: idCard('1990-01-01', 1), 所属组织: 3, 积分: 77 },
        {},
        good(7, { 所属组织: null }),
      ]);
      const res = await upload(file, 'partial');
      expect(res.statusCode, res.body).toBe(202);
      const { jobId } = res.json();
      expect(jobId).toEqual(expect.any(Number));
      const job = await finished(jobId);
      expect(job).toMatchObject({ status: TaskStatus.SUCCESS, statusLabel: '成功', mode: 'partial', fileName: '导入.xlsx', total: 7, processed: 7, imported: 3 });
      expect(job.message).toBe('导入完成：成功3行，失败4行');
      expect(job.errors).toEqual([
        { row: 5, column: '身份证号', message: '请输入正确的身份证号' },
        { row: 5, column: '性别', message: '性别“未知”不是有效的选项' },
        { row: 6, column: '出生日期', message: '出生日期的日期格式不正确，请填写如 2024-01-31' },
        { row: 6, column: '联系人', message: '联系人“查无此人”不存在' },
        { row: 7, column: '身份证号', message: `身份证号“${idCard('1991-02-03', 1)}”已存在` },
        { row: 10, column: '所属组织', message: '所属组织不能为空' },
      ]);
      expect(await count()).toBe(before + 2);

      const list = await inject({ method: 'POST', url: `${BASE}/list?fields=all&size=50`, headers: bearer(token), payload: { name: '导入' } });
      const imported = list.json().content as Record<string, unknown>[];
      expect(imported.map((r) => r.name).sort()).toEqual(['导入1', '导入2']);
      expect(imported.find((r) => r.name === '导入1')).toMatchObject({ birthDate: '1991-02-03', level: 'A', tags: ['t1', 't3'], isCadre: true, score: 88.5, contactUserId: 1, checkedAt: '2024-05-01T08:00:00.000Z', childCount: 0 });
      expect(imported.find((r) => r.name === '导入2')).toMatchObject({ gender: '2', level: 'B' });
      const zhang = (await inject({ method: 'POST', url: `${BASE}/list?fields=all`, headers: bearer(token), payload: { name: '张三' } })).json().content[0];
      expect(zhang).toMatchObject({ name: '张三改', score: 77, level: 'A', version: 2 });

      const origins = await t.database.db.selectFrom('change_records').select(['origin', 'record_id']).where('module', '=', 'test-person').where('record_id', 'in', [zhang.id, ...imported.map((r) => r.id as number)]).where('origin', 'in', [1, 4]).execute();
      expect(origins.map((o) => o.origin).sort()).toEqual([ChangeRecordOrigin.SYSTEM_IMPORT, ChangeRecordOrigin.SYSTEM_IMPORT, ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE]);

      expect(job.reportUrl).toBe(`${BASE}/import/${jobId}/report`);
      const report = await inject({ url: job.reportUrl, headers: bearer(token) });
      expect(report.statusCode).toBe(200);
      const sheet = (await workbookOf(report.rawPayload)).worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(header.at(-1)).toBe('错误信息');
      expect(sheet.rowCount).toBe(5);
      expect(sheet.getRow(2).getCell(header.indexOf('性别*') + 1).value).toBe('未知');
      expect(String(sheet.getRow(2).getCell(header.length).value)).toBe('第5行【身份证号】请输入正确的身份证号；第5行【性别】性别“未知”不是有效的选项');
      expect(String(sheet.getRow(3).getCell(header.indexOf('出生日期') + 1).value)).toBe('abc');
    });

    it('all mode imports nothing unless every row is good', async () => {
      const count = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_test_person`.execute(t.database.db)).rows[0].n;
      const before = await count();
      const bad = await finished((await upload(await fillTemplate([good(20), good(21, { 性别: '未知' }), good(22)]), 'all')).json().jobId);
      expect(bad).toMatchObject({ status: TaskStatus.ERROR, imported: 0, total: 3 });
      expect(bad.errors).toEqual([{ row: 4, column: '性别', message: '性别“未知”不是有效的选项' }]);
      expect(bad.message).toBe('1行数据有误，未导入任何数据');
      expect(bad.reportUrl).toBeTruthy();
      expect(await count()).toBe(before);
      const ok = await finished((await upload(await fillTemplate([good(20), good(21), good(22)]), 'all')).json().jobId);
      expect(ok).toMatchObject({ status: TaskStatus.SUCCESS, imported: 3, total: 3, processed: 3, errors: [], reportUrl: null });
      expect(await count()).toBe(before + 3);
      // A hook refusing a row inside the single transaction undoes the rows before it too.
      const refused = await finished((await upload(await fillTemplate([good(30), good(31, { 姓名: '拒绝' })]), 'all')).json().jobId);
      expect(refused).toMatchObject({ status: TaskStatus.ERROR, imported: 0 });
      expect(refused.errors).toEqual([{ row: 4, column: '姓名', message: '姓名不能为“拒绝”' }]);
      expect(await count()).toBe(before + 3);
    });

    it('partial mode: a row a hook refuses inside the transaction is undone alone', async () => {
      const job = await finished((await upload(await fillTemplate([good(60), good(61, { 姓名: '拒绝' }), good(62)]), 'partial')).json().jobId);
      expect(job).toMatchObject({ status: TaskStatus.SUCCESS, imported: 2, total: 3 });
      expect(job.errors).toEqual([{ row: 4, column: '姓名', message: '姓名不能为“拒绝”' }]);
      const list = await inject({ method: 'POST', url: `${BASE}/list`, headers: bearer(token), payload: { name: '导入6' } });
      expect(list.json().content.map((r: { name: string }) => r.name).sort()).toEqual(['导入60', '导入62']);
    });

    it('rows outside the importer\'s data scope are refused; bad requests answer 400, other users\' jobs 404', async () => {
      const job = await finished((await upload(await fillTemplate([good(40), good(41, { 所属组织: 2 })]), 'partial', clerkToken)).json().jobId, clerkToken);
      expect(job).toMatchObject({ imported: 1 });
      expect(job.errors).toEqual([{ row: 4, column: '所属组织', message: '无权导入该组织的数据' }]);
      expect((await inject({ url: `${BASE}/import/${job.id}`, headers: bearer(viewerToken) })).statusCode).toBe(403);
      await userWithRole(t.app, token, { username: 'xother', permissions: ['test-person:import'], password: PASS });
      const other = await login(t.app, 'xother', PASS);
      expect((await inject({ url: `${BASE}/import/${job.id}`, headers: bearer(other) })).statusCode).toBe(404);
      expect((await inject({ url: `${BASE}/import/${job.id}`, headers: bearer(token) })).statusCode).toBe(200);

      const file = await fillTemplate([good(50)]);
      expect((await upload(file, 'everything')).statusCode).toBe(400);
      expect((await upload(file, 'partial', token, 'data.csv')).statusCode).toBe(400);
      expect((await upload(file, 'partial', viewerToken)).statusCode).toBe(403);
      const empty = multipart({ mode: 'partial' });
      expect((await inject({ method: 'POST', url: `${BASE}/import`, headers: { ...bearer(token), ...empty.headers }, payload: empty.payload })).statusCode).toBe(400);
      const garbage = await finished((await upload(Buffer.from('not a workbook'), 'partial')).json().jobId);
      expect(garbage).toMatchObject({ status: TaskStatus.ERROR, message: '文件无法读取，请上传 .xlsx 格式的文件' });
      const book = new ExcelJS.Workbook();
      book.addWorksheet('x').addRow(['无关', '标题']);
      const noHeader = await finished((await upload(Buffer.from(await book.xlsx.writeBuffer()), 'partial')).json().jobId);
      expect(noHeader).toMatchObject({ status: TaskStatus.ERROR, message: '未找到标题行，请使用导入模板填写' });
    });
  });

  describe('[issue 13.6] export, change, import back', () => {
    const REWARD = '/api/m/test-person-reward';

    async function importInto(base: string, content: Buffer) {
      const body = multipart({ mode: 'partial' }, { name: '导出.xlsx', content });
      const res = await inject({ method: 'POST', url: `${base}/import`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(202);
      for (let i = 0; i < 200; i++) {
        const job = (await inject({ url: `${base}/import/${res.json().jobId}`, headers: bearer(token) })).json();
        if (job.status === TaskStatus.SUCCESS || job.status === TaskStatus.ERROR) return job;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('import did not finish');
    }
    const exportOf = async (base: string, filter: object) =>
      workbookOf((await inject({ url: `${base}/export?filter=${encodeURIComponent(JSON.stringify(filter))}`, headers: bearer(token) })).rawPayload);
    const headerOf = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const personNamed = async (name: string) => (await inject({ method: 'POST', url: `${BASE}/list`, headers: bearer(token), payload: { name } })).json().content[0];
    const rewardsOf = async (personId: number) =>
      (await inject({ method: 'POST', url: `${REWARD}/list?size=50&sort=awardedOn,asc`, headers: bearer(token), payload: { personId } })).json().content as Record<string, unknown>[];

    it('a module without x-unique: its exported file imported back updates the records (by 记录ID) and adds none', async () => {
      const person = await personNamed('李四');
      for (const [awardedOn, content] of [['2024-01-01', '初稿一'], ['2024-02-01', '初稿二']]) {
        const res = await inject({ method: 'POST', url: REWARD, headers: bearer(token), payload: { personId: person.id, kind: '奖励', awardedOn, content } });
        expect(res.statusCode, res.body).toBe(201);
      }
      const before = await rewardsOf(person.id);
      const book = await exportOf(REWARD, { personId: person.id });
      const sheet = book.worksheets[0];
      const header = headerOf(sheet);
      expect(header.at(-1)).toBe('记录ID');
      const rows = [2, 3].map((r) => sheet.getRow(r));
      expect(rows.map((r) => r.getCell(header.length).value).sort()).toEqual(before.map((r) => r.id).sort());
      rows.forEach((r) => (r.getCell(header.indexOf('内容') + 1).value = `改过 ${r.getCell(header.indexOf('日期') + 1).value}`));
      const job = await importInto(REWARD, Buffer.from(await book.xlsx.writeBuffer()));
      expect(job).toMatchObject({ status: TaskStatus.SUCCESS, imported: 2, errors: [] });
      const after = await rewardsOf(person.id);
      expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
      expect(after.map((r) => r.content)).toEqual(['改过 2024-01-01', '改过 2024-02-01']);
      const trail = (await inject({ url: `${REWARD}/${after[0].id}/trail`, headers: bearer(token) })).json();
      expect(trail.content[0]).toMatchObject({ origin: ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE, changes: [expect.objectContaining({ field: 'content', after: '改过 2024-01-01' })] });
      // A 记录ID that names no record is refused, not turned into a new record.
      sheet.getRow(2).getCell(header.length).value = 999_999;
      const stale = await importInto(REWARD, Buffer.from(await book.xlsx.writeBuffer()));
      expect(stale.errors).toEqual([{ row: 2, column: '记录ID', message: '记录ID“999999”的测试奖惩记录不存在' }]);
      expect(await rewardsOf(person.id)).toHaveLength(2);
    });

    it('child records go out on a sheet of their own and come back: changed rows update, new rows add', async () => {
      const person = await personNamed('王五');
      const first = await inject({ method: 'POST', url: REWARD, headers: bearer(token), payload: { personId: person.id, kind: '奖励', awardedOn: '2024-03-01', content: '先进个人' } });
      expect(first.statusCode, first.body).toBe(201);
      const book = await exportOf(BASE, { name: '王五' });
      expect(book.worksheets.map((w) => w.name)).toEqual(['测试人员', '奖惩记录']);
      const [people, children] = book.worksheets;
      const ph = headerOf(people);
      const ch = headerOf(children);
      expect(people.getRow(2).getCell(ph.length).value).toBe(person.id);
      expect(ch).toEqual(['人员', '类别', '日期', '内容', '记录ID']);
      // The child's link to its parent is the parent's record id.
      expect((children.getRow(2).values as unknown[]).slice(1)).toEqual([person.id, '奖励', '2024-03-01', '先进个人', first.json().id]);
      people.getRow(2).getCell(ph.indexOf('积分') + 1).value = 77;
      children.getRow(2).getCell(ch.indexOf('内容') + 1).value = '优秀党员';
      children.getRow(3).values = [person.id, '惩处', '2024-04-01', '新增一条'];
      children.getRow(4).values = [person.id, '奖励', '不是日期', '坏行'];
      const job = await importInto(BASE, Buffer.from(await book.xlsx.writeBuffer()));
      expect(job).toMatchObject({ status: TaskStatus.SUCCESS, total: 4, imported: 3 });
      expect(job.errors).toEqual([{ sheet: '奖惩记录', row: 4, column: '日期', message: '日期的日期格式不正确，请填写如 2024-01-31' }]);
      expect((await personNamed('王五')).id).toBe(person.id);
      expect((await inject({ url: `${BASE}/${person.id}`, headers: bearer(token) })).json()).toMatchObject({ score: 77, version: person.version + 1 });
      expect((await rewardsOf(person.id)).map((r) => [r.kind, r.awardedOn, r.content])).toEqual([
        ['奖励', '2024-03-01', '优秀党员'],
        ['惩处', '2024-04-01', '新增一条'],
      ]);
    });
  });
});

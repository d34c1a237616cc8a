// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the question import and survey exports
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus } from '../../src/shared/constants.js';
import { bearer, login } from '../support/auth.js';
import { admit, createRecord, learners, schoolFixture, uploadFile, type SchoolFixture, SETUP_TIMEOUT } from '../support/pschool.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

type Learner = { id: number; token: string; username: string };

describe(`party-school administration on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let f: SchoolFixture;
  let people: Learner[];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    f = await schoolFixture(t.app, admin, '管理');
    people = await learners(t.app, 4, 'adm');
  }, SETUP_TIMEOUT);
  afterAll(() => t.app.close());

  const call = (method: 'POST' | 'PUT' | 'GET' | 'DELETE', url: string, token: string, payload?: unknown) => t.app.inject({ method, url, headers: bearer(token), payload: payload as never });

  describe('question bank', () => {
    it('keys are checked against the type and the options, and normalised', async () => {
      const bad = async (body: Record<string, unknown>) => (await call('POST', '/api/m/question', admin, body)).json();
      expect(await bad({ type: '0', stem: '单选', optionA: '甲', optionB: '乙', answer: 'C' })).toMatchObject({ status: 400, errors: [{ field: 'answer', message: '答案只能是已填写的选项：A、B' }] });
      expect(await bad({ type: '0', stem: '单选', optionA: '甲', optionB: '乙', answer: 'AB' })).toMatchObject({ errors: [{ field: 'answer', message: '单选题的答案须是一个选项字母，如 B' }] });
      expect(await bad({ type: '1', stem: '多选', optionA: '甲', optionB: '乙', answer: 'A' })).toMatchObject({ errors: [{ field: 'answer' }] });
      expect(await bad({ type: '0', stem: '一个选项', optionA: '甲', answer: 'A' })).toMatchObject({ errors: [{ field: 'optionB' }] });
      expect(await bad({ type: '2', stem: '判断', answer: '也许' })).toMatchObject({ errors: [{ field: 'answer', message: '判断题的答案须是“正确”或“错误”' }] });
      expect(await bad({ type: '9', stem: '题型', answer: 'A' })).toMatchObject({ errors: [{ field: 'type' }] });
      const judge = await createRecord(t.app, admin, 'question', { type: '2', stem: '判断', answer: '×', optionA: '不该留下' });
      expect(judge).toMatchObject({ answer: '错误', optionA: null, typeLabel: '判断题' });
      const multiple = await createRecord(t.app, admin, 'question', { type: '1', stem: '多选', optionA: '甲', optionB: '乙', optionC: '丙', answer: 'c, a' });
      expect(multiple.answer).toBe('AC');
    });

    it('imports from the xlsx template with an error per bad row, and exports', async () => {
      const template = await call('GET', '/api/m/question/template', admin);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(template.rawPayload as never);
      const sheet = book.worksheets[0];
      const header = (sheet.getRow(2).values as unknown[]).slice(1).map((h) => String(h).replace('*', ''));
      const rows: Record<string, unknown>[] = [
        { 题型: '单选题', 题干: '导入单选', 选项A: '甲', 选项B: '乙', 答案: 'B', 分值: 2, 知识点: '党章党规' },
        { 题型: '判断题', 题干: '导入判断', 答案: '对' },
        { 题型: '单选题', 题干: '坏的单选', 选项A: '甲', 选项B: '乙', 答案: 'E' },
        { 题型: '填空题', 题干: '导入填空', 答案: '实事求是' },
        { 题型: '简答题', 题干: '', 答案: '缺题干' },
      ];
      rows.forEach((row, i) => Object.entries(row).forEach(([title, v]) => (sheet.getRow(3 + i).getCell(header.indexOf(title) + 1).value = v as ExcelJS.CellValue)));
      const fd = new FormData();
      fd.append('mode', 'partial');
      fd.append('file', new Blob([Buffer.from(await book.xlsx.writeBuffer())]), '题库.xlsx');
      const res = await t.app.inject({ method: 'POST', url: '/api/m/question/import', headers: bearer(admin), payload: fd });
      expect(res.statusCode, res.body).toBe(202);
      let job: { status: number; imported: number; errors: { row: number; column: string; message: string }[] } | undefined;
      for (let i = 0; i < 200 && !(job && (job.status === TaskStatus.SUCCESS || job.status === TaskStatus.ERROR)); i++) {
        await new Promise((r) => setTimeout(r, 50));
        job = (await call('GET', `/api/m/question/import/${res.json().jobId}`, admin)).json();
      }
      expect(job).toMatchObject({ status: TaskStatus.SUCCESS, imported: 3 });
      expect(job!.errors).toEqual(expect.arrayContaining([expect.objectContaining({ row: 5, message: '答案只能是已填写的选项：A、B' }), expect.objectContaining({ row: 7, column: '题干' })]));
      const imported = (await call('POST', '/api/m/question/list?size=50&fields=all', admin, { stem: '导入' })).json().content;
      expect(imported.map((q: { stem: string; answer: string }) => [q.stem, q.answer]).sort()).toEqual([['导入判断', '正确'], ['导入单选', 'B'], ['导入填空', '实事求是']]);
      const exported = await call('GET', '/api/m/question/export', admin);
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-disposition']).toContain(encodeURIComponent('题库'));
    });
  });

  describe('courses', () => {
    it('a node is checked against its kind: video needs a video file and a length, a chapter must be of the course', async () => {
      const bad = async (body: Record<string, unknown>) => (await call('POST', '/api/m/course-node', admin, { courseId: f.courseId, nodeType: '2', title: '节', ...body })).json();
      expect(await bad({ kind: 'video' })).toMatchObject({ errors: [{ field: 'file', message: '请上传视频文件' }] });
      const pdf = await uploadFile(t.app, admin, '材料.pdf', Buffer.from('%PDF-1.4 test'));
      expect(await bad({ kind: 'video', file: pdf, duration: 10 })).toMatchObject({ errors: [{ field: 'file', message: '视频只支持 mp4、webm 格式' }] });
      const video = (await call('GET', `/api/m/course-node/${f.videoNodeId}`, admin)).json().file;
      expect(await bad({ kind: 'video', file: video })).toMatchObject({ errors: [{ field: 'duration' }] });
      expect(await bad({ kind: 'doc', file: video })).toMatchObject({ errors: [{ field: 'file', message: '文档只支持 pdf 格式' }] });
      expect(await bad({})).toMatchObject({ errors: [{ field: 'kind' }] });
      const other = await createRecord(t.app, admin, 'course', { title: '另一门课', evaluation: '1' });
      expect(await bad({ kind: 'offline', chapterId: (await createRecord(t.app, admin, 'course-node', { courseId: other.id, nodeType: '1', title: '他章' })).id })).toMatchObject({ errors: [{ field: 'chapterId', message: '所属章须是本课程的一章' }] });
      const doc = await createRecord(t.app, admin, 'course-node', { courseId: f.courseId, nodeType: '2', title: '读', kind: 'doc', file: pdf, hours: 1, duration: 99 });
      expect(doc).toMatchObject({ minReadSeconds: 60, duration: null });
    });

    it('a chapter with nodes cannot be deleted alone, but the whole course can', async () => {
      expect((await call('DELETE', '/api/m/course-node', admin, [f.chapterId])).json()).toMatchObject({ status: 400, message: '该章下还有小节，请先删除或移走小节' });
      const c = await createRecord(t.app, admin, 'course', { title: '临时课程', evaluation: '2' });
      const ch = await createRecord(t.app, admin, 'course-node', { courseId: c.id, nodeType: '1', title: '章' });
      await createRecord(t.app, admin, 'course-node', { courseId: c.id, nodeType: '2', chapterId: ch.id, title: '线下', kind: 'offline' });
      expect((await call('DELETE', '/api/m/course', admin, [c.id])).json()).toMatchObject({ deleted: 1 });
    });
  });

  describe('classes', () => {
    it('self-registration waits for an administrator, who admits or turns it down', async () => {
      const open = await createRecord(t.app, admin, 'pschool-class', { name: '报名班', batchId: f.batchId, selfRegister: true, status: '报名中', capacity: 30 });
      const list = (await call('GET', '/api/pschool/classes/open', people[0].token)).json();
      expect(list).toEqual([expect.objectContaining({ id: open.id, name: '报名班', admitted: 0, myStatus: null, dxPcLabel: '预备党员', full: false })]);
      const reg = await call('POST', `/api/pschool/classes/${open.id}/register`, people[0].token, { name: '张报名', idCard: '110101199003074514', phone: '13800138000' });
      expect(reg.statusCode, reg.body).toBe(201);
      expect(reg.json()).toMatchObject({ status: '1', statusLabel: '待审核' });
      expect((await call('POST', `/api/pschool/classes/${open.id}/register`, people[0].token, { name: '张报名' })).json()).toMatchObject({ status: 400, message: '您已报名该培训班' });
      expect((await call('POST', `/api/pschool/classes/${open.id}/register`, people[1].token, { name: '李', idCard: '123' })).json()).toMatchObject({ status: 400, errors: [{ field: 'idCard' }] });
      expect((await call('POST', `/api/pschool/classes/${f.classId}/register`, people[1].token, { name: '李' })).json()).toMatchObject({ status: 400, message: '该培训班未开放报名' });
      const pending = (await call('GET', '/api/pschool/students/pending', admin)).json();
      expect(pending.content).toEqual([expect.objectContaining({ classId: open.id, name: '张报名', status: '1', source: '3', userId: people[0].id })]);
      expect((await call('POST', '/api/pschool/students/review', people[0].token, { ids: [pending.content[0].id], approve: true })).statusCode).toBe(403);
      expect((await call('POST', '/api/pschool/students/review', admin, { ids: [pending.content[0].id], approve: true })).json()).toEqual({ changed: 1 });
      const home = (await call('GET', '/api/pschool/home', people[0].token)).json();
      expect(home.classes).toEqual([expect.objectContaining({ classId: open.id, status: '2', statusLabel: '已录取', hoursDone: 0 })]);
    });

    it('enrols probationary members from the member register for a 预备党员 batch', async () => {
      const org = (await call('POST', '/api/m/org', admin, { name: '测试支部', type: '3' })).json();
      const member = await call('POST', '/api/m/member', admin, { name: '预备甲', gender: '1', idCard: '11010119900307451X'.slice(0, 17) + '4', orgId: org.id, memberType: '2', category: '1', joinDate: '2025-06-01' });
      expect(member.statusCode, member.body).toBe(201);
      const candidates = (await call('GET', `/api/pschool/classes/${f.classId}/candidates`, admin)).json();
      expect(candidates).toMatchObject({ stage: '预备党员', available: true });
      expect(candidates.content).toEqual([expect.objectContaining({ name: '预备甲', orgId: org.id, note: '预备党员' })]);
      const enrol = (await call('POST', `/api/pschool/classes/${f.classId}/enrol`, admin, { people: candidates.content })).json();
      expect(enrol).toEqual({ added: 1, errors: [] });
      expect((await call('GET', `/api/pschool/classes/${f.classId}/candidates`, admin)).json().content).toEqual([]);
      const again = (await call('POST', `/api/pschool/classes/${f.classId}/enrol`, admin, { people: candidates.content })).json();
      expect(again.added).toBe(0);
      expect(again.errors[0].message).toContain('已存在');
    });
  });

  describe('questionnaires', () => {
    it('learners answer through the share link once; results count choices and keep texts; anonymous answers name nobody', async () => {
      const survey = await createRecord(t.app, admin, 'questionnaire', { title: '满意度', anonymous: true, published: true });
      expect(survey.shareToken).toMatch(/^[\w-]{16}$/);
      const single = await createRecord(t.app, admin, 'questionnaire-item', { questionnaireId: survey.id, sort: 1, type: '1', title: '总体评价', optionA: '满意', optionB: '一般' });
      const multiple = await createRecord(t.app, admin, 'questionnaire-item', { questionnaireId: survey.id, sort: 2, type: '2', title: '喜欢的方式', optionA: '视频', optionB: '文档', optionC: '讨论' });
      const text = await createRecord(t.app, admin, 'questionnaire-item', { questionnaireId: survey.id, sort: 3, type: '3', title: '建议', mandatory: false, optionA: '丢弃' });
      expect(text.optionA).toBeNull();
      expect((await call('POST', '/api/m/questionnaire-item', admin, { questionnaireId: survey.id, type: '1', title: '单个选项', optionA: '唯一' })).json()).toMatchObject({ errors: [{ field: 'optionB' }] });
      const shared = (await call('GET', `/api/pschool/surveys/${survey.shareToken}`, people[2].token)).json();
      expect(shared).toMatchObject({ id: survey.id, state: 'open', answeredAt: null, items: [{ id: single.id, options: [{ key: 'A', text: '满意' }, { key: 'B', text: '一般' }] }, { id: multiple.id }, { id: text.id, mandatory: false }] });
      const answer = (who: Learner, answers: Record<string, unknown>) => call('POST', `/api/pschool/surveys/${survey.id}/answers`, who.token, { answers, anonymous: true });
      expect((await answer(people[2], { [single.id]: 'A' })).json()).toMatchObject({ status: 400, message: '请回答：喜欢的方式' });
      expect((await answer(people[2], { [single.id]: 'Z', [multiple.id]: ['A'] })).json()).toMatchObject({ status: 400, message: '“总体评价”的选项不正确' });
      expect((await answer(people[2], { [single.id]: 'A', [multiple.id]: ['A', 'C'], [text.id]: '多些讨论' })).statusCode).toBe(201);
      expect((await answer(people[2], { [single.id]: 'B', [multiple.id]: ['B'] })).json()).toMatchObject({ status: 400, message: '您已经提交过这份问卷' });
      expect((await answer(people[3], { [single.id]: 'A', [multiple.id]: ['A'] })).statusCode).toBe(201);
      const results = (await call('GET', `/api/pschool/surveys/${survey.id}/results`, admin)).json();
      expect(results.total).toBe(2);
      expect(results.items[0].options.map((o: { count: number }) => o.count)).toEqual([2, 0]);
      expect(results.items[1].options.map((o: { count: number }) => o.count)).toEqual([2, 0, 1]);
      expect(results.items[2].texts).toEqual(['多些讨论']);
      const stored = await t.database.db.selectFrom('pschool_survey_responses' as never).select(['user_id'] as never[]).execute();
      expect(stored.every((r) => (r as { user_id: number | null }).user_id === null)).toBe(true);
      const file = await call('GET', `/api/pschool/surveys/${survey.id}/export`, admin);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.rawPayload as never);
      expect(book.getWorksheet('答卷')!.getRow(1).values).toEqual([undefined, '序号', '提交时间', '总体评价', '喜欢的方式', '建议']);
      expect(book.getWorksheet('答卷')!.getRow(2).getCell(4).value).toBe('视频、讨论');
      expect((await call('GET', `/api/pschool/surveys/${survey.id}/results`, people[2].token)).statusCode).toBe(403);
    });
  });

  describe('seating and grouping', () => {
    it('seats a class in a room grid at random or by branch, refuses a room too small, and makes groups', async () => {
      await admit(t.app, admin, f.classId, people);
      const tooSmall = await call('PUT', `/api/pschool/seating/class/${f.classId}`, admin, { room: '101', rows: 1, cols: 2, mode: 'random' });
      expect(tooSmall.json()).toMatchObject({ status: 400, message: expect.stringMatching(/^座位不足：\d+人，只有2个座位$/) });
      const plan = (await call('PUT', `/api/pschool/seating/class/${f.classId}`, admin, { room: '党校101', rows: 2, cols: 5, mode: 'branch', groupCount: 2, groupMode: 'random' })).json();
      const n = plan.people;
      expect(n).toBeGreaterThanOrEqual(4);
      expect(plan.plan.seats).toHaveLength(n);
      expect(new Set(plan.plan.seats.map((s: { row: number; col: number }) => `${s.row}-${s.col}`)).size).toBe(n);
      expect(plan.plan.groups.map((g: unknown[]) => g.length).reduce((a: number, b: number) => a + b, 0)).toBe(n);
      const saved = (await call('GET', `/api/pschool/seating/class/${f.classId}`, admin)).json();
      expect(saved.plan).toMatchObject({ room: '党校101', rows: 2, cols: 5, mode: 'branch' });
      expect((await call('GET', `/api/pschool/seating/class/${f.classId}`, people[0].token)).statusCode).toBe(403);
      expect((await call('GET', '/api/pschool/seating/room/1', admin)).statusCode).toBe(404);
    });
  });
});

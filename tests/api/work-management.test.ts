// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the task and batch states are workflow steps written in the database (claims, scopes, reminders)
/**
 * Issue 29 (work management) through the real HTTP layer on the demo: a task given by the committee to a branch
 * and reported back (task state begin 1 → success 2), declared not completed only after its deadline (fail 3:
 * the deadline's day refused, the day after passes), a task given to a person reported by that person alone,
 * the deadline reminder three days ahead (the third day on, the fourth not yet), and a work batch walked
 * through the batch states 1–4 with its period checked (ending on its first day passes, the day before not), and
 * an other report collected like a form (NO_START 0 → STASHED_END 1 → COLLECT_END 2 → IMPORT_END 3, returned once),
 * and documents for download seen by whom they are published to, searched, and counted when downloaded.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe(`work management on ${TEST_DB}`, () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let branch: number;
  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(tok[who]), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const step = async (who: string, module: string, id: number, name: string, values: Record<string, unknown> = {}, comment?: string) => {
    const rec = (await call('admin', 'GET', `/api/m/${module}/${id}`)).body;
    return call(who, 'POST', `/api/m/${module}/${id}/transitions/${name}`, { version: rec.version, values, ...(comment && { comment }) });
  };
  const newTask = async (deadline: string, extra: Record<string, unknown> = {}) => {
    const res = await call('ejdw', 'POST', '/api/m/work-task', { title: '报送党支部工作计划', orgId: branch, deadline, content: '经支委会研究后报送。', ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  };

  beforeAll(async () => {
    t = await createDemoTestApp();
    tok.admin = await login(t.app);
    for (const u of ['zbsj', 'ejdw', 'dy', 'dwzzb']) tok[u] = await login(t.app, u, DEMO_USER_PASSWORD);
    branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
  }, 300_000);
  afterAll(() => t?.app.close());

  it('[43.12] 下发进度: a task given to many organisations is one group, counted done, late, open and failed within the caller\'s scope', async () => {
    type Group = { key: Record<string, unknown>; total: number; done: number; failed: number; late: number; open: number };
    const groups = async (who: string, filter: Record<string, unknown> = {}) => (await call(who, 'POST', '/api/m/work-task/progress?size=100', { filter })).body as { content: Group[]; totalElements: number };
    // The demo's 组织党员集中学习党章, given to every sampled branch three days ago, against its records.
    const all = await groups('admin', { title: '组织党员集中学习党章' });
    expect(all.content).toHaveLength(1);
    const g = all.content[0];
    expect(g.key).toMatchObject({ title: '组织党员集中学习党章', deadline: day(-3), batchIdName: expect.stringContaining('党建重点任务') });
    const rows = (await sql<{ state: number }>`SELECT state FROM m_work_task WHERE title = '组织党员集中学习党章' AND assignee_id IS NULL`.execute(t.database.db)).rows;
    const n = (s: number) => rows.filter((r) => r.state === s).length;
    expect(g).toMatchObject({ total: rows.length, done: n(2), failed: n(3), late: n(1), open: 0 });
    expect(g.done).toBeGreaterThan(0);
    expect(g.late).toBeGreaterThan(0);
    // A 二级党委 counts only its own organisations; the group's records are its list, state by state.
    const mine = (await groups('ejdw', { title: '组织党员集中学习党章' })).content[0];
    const listed = (await call('ejdw', 'POST', '/api/m/work-task/list?size=1000', { title: '组织党员集中学习党章' })).body.content as { orgId: number; state: number }[];
    expect(mine.total).toBe(listed.length);
    expect(mine.total).toBeLessThan(g.total);
    const records = (await call('ejdw', 'POST', '/api/m/work-task/progress?size=100', { filter: {}, group: mine.key })).body;
    expect(records.totalElements).toBe(mine.total);
    expect(records.content.filter((r: { state: number }) => r.state === 2)).toHaveLength(mine.done);
    // Late from the day after the deadline: due today is open, due yesterday is late.
    const title = `下发进度边界${Date.now()}`;
    await newTask(day(0), { title });
    await newTask(day(-1), { title });
    const edge = (await groups('ejdw', { title })).content;
    expect(edge.map((e) => [e.key.deadline, e.open, e.late])).toEqual([[day(0), 1, 0], [day(-1), 0, 1]]);
    // [43.12] 下发: one form, a task per organisation chosen (x-form.spread), all or none.
    // The branches the demo task went to, those of the committee's scope and the others.
    const visible = [...new Set(listed.map((r) => r.orgId))];
    const everywhere = (await call('admin', 'POST', '/api/m/work-task/list?size=1000', { title: '组织党员集中学习党章' })).body.content.map((o: { orgId: number }) => o.orgId) as number[];
    const outside = everywhere.find((id) => !visible.includes(id))!;
    const sent = `下发到多个支部${Date.now()}`;
    const task = { title: sent, deadline: day(10), content: '请各支部按期报送。' };
    const refused = await call('ejdw', 'POST', '/api/m/work-task/many', { rows: [{ ...task, orgId: visible[0] }, { ...task, orgId: outside }] });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.message).toMatch(/^第2条：/);
    expect((await groups('admin', { title: sent })).content).toHaveLength(0);
    const created = await call('ejdw', 'POST', '/api/m/work-task/many', { rows: visible.slice(0, 3).map((orgId) => ({ ...task, orgId })) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.ids).toHaveLength(3);
    expect((await groups('ejdw', { title: sent })).content.map((e) => [e.total, e.open, e.late, e.done])).toEqual([[3, 3, 0, 0]]);
    expect((await call('dy', 'POST', '/api/m/work-task/many', { rows: [{ ...task, orgId: visible[0] }] })).status).toBe(403);
    // Only who may list tasks sees the progress; a module without x-progress has no such route.
    expect((await call('dy', 'POST', '/api/m/work-batch/progress', { filter: {} })).status).toBe(404);
  });

  it('[S1.F14i] the demo holds tasks in every task state and batches in every batch state', async () => {
    const tasks = (await sql<{ state: number }>`SELECT DISTINCT state FROM m_work_task WHERE org_id = ${branch} ORDER BY state`.execute(t.database.db)).rows;
    expect(tasks.map((r) => r.state)).toEqual([1, 2, 3]);
    const batches = (await call('dwzzb', 'POST', '/api/m/work-batch/list', {})).body.content as { state: number }[];
    expect([...new Set(batches.map((b) => b.state))].sort()).toEqual([1, 2, 3, 4]);
    const mine = (await call('zbsj', 'POST', '/api/m/work-task/list', {})).body;
    expect(mine.totalElements).toBeGreaterThanOrEqual(5);
  });

  it('[S1.F14i] a task given to a branch is reported back by the branch (begin 1 → success 2), then changes no more', async () => {
    const id = await newTask(day(10));
    expect((await call('zbsj', 'GET', `/api/m/work-task/${id}`)).body).toMatchObject({ state: 1, stateLabel: '进行中' });
    // The branch does not give itself tasks.
    expect((await call('zbsj', 'POST', '/api/m/work-task', { title: 'x', orgId: branch, deadline: day(1) })).status).toBe(403);
    const missing = await step('zbsj', 'work-task', id, 'report', { reportDate: day(0) });
    expect(missing.status).toBe(400);
    const done = await step('zbsj', 'work-task', id, 'report', { reportDate: day(0), reportContent: '计划已经支委会研究，见附件。' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ state: 2, stateLabel: '已完成', reportContent: '计划已经支委会研究，见附件。' });
    const now = (await call('ejdw', 'GET', `/api/m/work-task/${id}`)).body;
    expect((await call('ejdw', 'PUT', '/api/m/work-task', { id, version: now.version, title: '改' })).status).toBe(409);
    expect((await step('ejdw', 'work-task', id, 'fail', {}, '未完成')).status).toBe(400);
    const log = (await call('ejdw', 'GET', `/api/m/work-task/${id}/approvals`)).body as { transition: string }[];
    expect(log.map((l) => l.transition)).toEqual(['report']);
  });

  it('[S1.F14i] not completed (fail 3) only after the deadline: the deadline day refused, the day after passes; by the level above only', async () => {
    const dueToday = await newTask(day(0));
    const refused = await step('ejdw', 'work-task', dueToday, 'fail', {}, '逾期未报送');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('期限届满前不能认定未完成');
    const dueYesterday = await newTask(day(-1));
    expect((await step('zbsj', 'work-task', dueYesterday, 'fail', {}, '逾期未报送')).status).toBe(403);
    expect((await step('ejdw', 'work-task', dueYesterday, 'fail', {})).status).toBe(400); // a comment is required
    const failed = await step('ejdw', 'work-task', dueYesterday, 'fail', {}, '逾期未报送');
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body).toMatchObject({ state: 3, stateLabel: '未完成' });
    expect((await step('zbsj', 'work-task', dueYesterday, 'report', { reportDate: day(0), reportContent: '补报' })).status).toBe(400);
  });

  it('[S1.F14i] a task given to a person is reported by that person; a member does not report the branch\'s tasks', async () => {
    const dy = (await t.database.db.selectFrom('users').select('id').where('username', '=', 'dy').executeTakeFirstOrThrow()).id;
    const branchTask = await newTask(day(5));
    expect((await step('dy', 'work-task', branchTask, 'report', { reportDate: day(0), reportContent: '完成' })).status).toBe(403);
    const own = await newTask(day(5), { assigneeId: dy, title: '撰写学习心得' });
    const open = (await call('dy', 'GET', `/api/m/work-task/${own}/transitions`)).body as { id: string }[];
    expect(open.map((s) => s.id)).toEqual(['reportSelf']);
    const done = await step('dy', 'work-task', own, 'reportSelf', { reportDate: day(0), reportContent: '心得已提交。' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.state).toBe(2);
  });

  it('[S1.F14i] the deadline reminder starts three days ahead: due in 3 days on, in 4 days not yet; ends with the report', async () => {
    const in3 = await newTask(day(3), { title: '三天后到期的任务' });
    const in4 = await newTask(day(4), { title: '四天后到期的任务' });
    const list = async () => (await call('zbsj', 'GET', '/api/reminders?module=work-task&size=500')).body.content as { recordId: number; state: number }[];
    const before = await list();
    expect(before.find((r) => r.recordId === in3)?.state).toBe(2);
    expect(before.find((r) => r.recordId === in4)?.state ?? 1).toBe(1);
    await step('zbsj', 'work-task', in3, 'report', { reportDate: day(0), reportContent: '已完成' });
    expect((await list()).find((r) => r.recordId === in3)?.state ?? 3).toBe(3);
  });

  it('[S1.F14k] a work batch walks the batch states 1–4 (spec §4); its end not before its start; only the organisation department', async () => {
    expect((await call('zbsj', 'POST', '/api/m/work-batch', { name: '测试批次', year: 2030, term: '全年', kind: '工作任务' })).status).toBe(403);
    const created = await call('dwzzb', 'POST', '/api/m/work-batch', { name: '测试批次', year: 2030, term: '全年', kind: '工作任务' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ state: 1, stateLabel: '未配置' });
    const early = await step('dwzzb', 'work-batch', id, 'configure', { startDate: '2030-03-01', endDate: '2030-02-28' });
    expect(early.status).toBe(400);
    expect(early.body.message).toContain('不能早于开始日期');
    expect((await step('dwzzb', 'work-batch', id, 'configure', { startDate: '2030-03-01', endDate: '2030-03-01' })).body).toMatchObject({ state: 2, stateLabel: '已配置' });
    expect((await step('dwzzb', 'work-batch', id, 'close')).status).toBe(400); // not started yet
    expect((await step('dwzzb', 'work-batch', id, 'start')).body.state).toBe(3);
    const started = (await call('dwzzb', 'GET', `/api/m/work-batch/${id}`)).body;
    expect((await call('dwzzb', 'PUT', '/api/m/work-batch', { id, version: started.version, name: '改名' })).status).toBe(409);
    expect((await step('dwzzb', 'work-batch', id, 'close')).body).toMatchObject({ state: 4, stateLabel: '已关闭' });
  });

  it('[S1.F14n] an other report is collected like a form: saved only with its file, submitted, returned with a comment, accepted by the level above', async () => {
    const demo = (await sql<{ state: number }>`SELECT DISTINCT state FROM m_other_report ORDER BY state`.execute(t.database.db)).rows;
    expect(demo.map((r) => r.state)).toEqual([0, 1, 2, 3]);
    const { file, batchId } = (await sql<{ file: string; batchId: number }>`SELECT file, batch_id AS "batchId" FROM m_other_report WHERE file IS NOT NULL LIMIT 1`.execute(t.database.db)).rows[0];
    const created = await call('zbsj', 'POST', '/api/m/other-report', { batchId, title: '党支部专项工作报表', orgId: branch, dueDate: day(5) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ state: 0, stateLabel: '未填报' });
    const noFile = await step('zbsj', 'other-report', id, 'stash');
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toContain('请先上传报表文件');
    const draft = (await call('zbsj', 'GET', `/api/m/other-report/${id}`)).body;
    expect((await call('zbsj', 'PUT', '/api/m/other-report', { id, version: draft.version, file })).status).toBe(200);
    expect((await step('zbsj', 'other-report', id, 'stash')).body).toMatchObject({ state: 1, stateLabel: '已暂存' });
    expect((await step('zbsj', 'other-report', id, 'submit', { submitDate: day(0) })).body).toMatchObject({ state: 2, stateLabel: '已提交' });
    const submitted = (await call('zbsj', 'GET', `/api/m/other-report/${id}`)).body;
    expect((await call('zbsj', 'PUT', '/api/m/other-report', { id, version: submitted.version, note: '改' })).status).toBe(409);
    expect((await step('zbsj', 'other-report', id, 'accept')).status).toBe(403);
    expect((await step('ejdw', 'other-report', id, 'return')).status).toBe(400); // a comment is required
    expect((await step('ejdw', 'other-report', id, 'return', {}, '数据有误，请核对后重报')).body).toMatchObject({ state: 1 });
    expect((await step('zbsj', 'other-report', id, 'submit', { submitDate: day(0) })).body.state).toBe(2);
    expect((await step('ejdw', 'other-report', id, 'accept')).body).toMatchObject({ state: 3, stateLabel: '已采纳' });
    // Progress of the period: every organisation's report of the batch with its state.
    const progress = (await call('ejdw', 'POST', '/api/m/other-report/list?size=500', { batchId })).body.content as { id: number; state: number }[];
    expect(progress.find((r) => r.id === id)?.state).toBe(3);
  });

  it('[S1.F13b] documents are listed to whom they are published (every branch, an organisation above, a role; not once stopped), searched, and counted on download', async () => {
    const titles = async (who: string, query = '') => ((await call(who, 'GET', `/api/work/documents?size=200${query}`)).body.content as { title: string }[]).map((d) => d.title);
    const secretary = await titles('zbsj');
    expect(secretary).toEqual(expect.arrayContaining(['党费收缴、使用和管理规定', '二级党委组织员工作手册', '党支部书记培训课件']));
    expect(secretary).not.toContain('已停止发布的旧版表格');
    const member = await titles('dy');
    expect(member).toContain('二级党委组织员工作手册'); // published to the committee above the member's branch
    expect(member).not.toContain('党支部书记培训课件'); // published to the secretaries' role
    expect(await titles('dwzzb')).toContain('已停止发布的旧版表格'); // the publisher sees everything
    expect(await titles('zbsj', `&q=${encodeURIComponent('党费')}`)).toEqual(['党费收缴、使用和管理规定']);
    expect((await titles('zbsj', `&category=${encodeURIComponent('表格模板')}`))).toEqual(['党支部工作月报模板']);
    const newest = (await call('dy', 'GET', '/api/work/documents/newest?limit=3')).body as { publishDate: string }[];
    expect(newest).toHaveLength(3);
    expect(newest.map((d) => d.publishDate)).toEqual([...newest.map((d) => d.publishDate)].sort().reverse());

    const list = (await call('zbsj', 'GET', '/api/work/documents?size=200')).body.content as { id: number; title: string; downloads: number }[];
    const guide = list.find((d) => d.title === '党支部书记培训课件')!;
    const res = await t.app.inject({ method: 'GET', url: `/api/work/documents/${guide.id}/download`, headers: bearer(tok.zbsj) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const after = ((await call('zbsj', 'GET', '/api/work/documents?size=200')).body.content as { id: number; downloads: number }[]).find((d) => d.id === guide.id)!;
    expect(after.downloads).toBe(guide.downloads + 1);
    // Not published to the member: answered as missing, and not counted.
    expect((await call('dy', 'GET', `/api/work/documents/${guide.id}/download`)).status).toBe(404);
    expect((await call('dy', 'POST', '/api/m/document', { title: 'x', category: '其他', file: 'x', shareType: '全部党支部', shareState: '发布中' })).status).toBe(403);
  });

  it('[S1.F13b] a document is published to roles picked by name: role names as options for its publisher, the names in its list', async () => {
    const options = await call('dwzzb', 'GET', `/api/m/role/options?q=${encodeURIComponent('支部书记')}`);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const secretaries = (options.body as { id: number; name: string }[]).find((r) => r.name === '支部书记')!;
    expect(secretaries).toBeTruthy();
    expect(Object.keys(secretaries).sort()).toEqual(['id', 'name']); // names only: no permissions or scope
    expect((await call('dy', 'GET', '/api/m/role/options')).status).toBe(403);
    const created = await call('dwzzb', 'POST', '/api/m/document', { title: '按角色发布的通知', category: '其他', file: 'x', shareType: '指定角色', shareState: '发布中', roleIds: [secretaries.id] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const listed = (await call('dwzzb', 'POST', '/api/m/document/list?page=0&size=50', { title: '按角色发布的通知' })).body.content as { roleIds: number[]; roleIdsName: string | string[] }[];
    expect(listed[0].roleIds).toEqual([secretaries.id]);
    expect(String(listed[0].roleIdsName)).toBe('支部书记');
    expect((await call('dwzzb', 'POST', '/api/m/document', { title: '未知角色', category: '其他', file: 'x', shareType: '指定角色', shareState: '发布中', roleIds: [987654] })).status).toBe(400);
  });
});

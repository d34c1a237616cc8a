/**
 * Demo data of work management (docs/work.md): work batches in every batch state, and tasks in every task
 * state (in progress, some due within days or overdue; completed with a report; not completed) for the demo
 * branch, its committee's branches and a sample of the rest, one assigned to the demo party member in person;
 * other reports of the current period in every collection state (the submitted ones with a real .xlsx file);
 * documents for download in every category, published to every branch, to the demo branch's committee, to a
 * role, and one stopped.
 * Bulk inserts only; `count` scales the tasks for benchmarks.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { fileStoreOf } from '../core/files/upload.js';
import type { SeedContext } from './index.js';
import { seedWorkflowTodos } from './development.js';

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;
const CHUNK = 500;

async function insert(db: AnyDb, table: string, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) ids.push(...(await db.insertInto(table).values(rows.slice(i, i + CHUNK)).returning('id').execute()).map((r) => Number(r.id)));
  return ids;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));

/** Titles of the demo tasks, each with what the branch is asked for. */
const TASKS = [
  ['报送党支部年度工作计划', '请各党支部结合本单位实际，制定本年度党支部工作计划，经支委会研究后报送。'],
  ['开展“三会一课”情况自查', '对照《中国共产党支部工作条例（试行）》，自查上半年“三会一课”落实情况并形成报告。'],
  ['组织党员集中学习党章', '组织全体党员集中学习党章，每名党员撰写学习体会一篇。'],
  ['报送党员发展计划', '统计本支部入党积极分子、发展对象情况，报送下一年度党员发展计划。'],
  ['开展主题党日活动并报送材料', '围绕本月主题开展主题党日活动，报送活动照片及简报。'],
] as const;

export interface WorkSeedOptions {
  school: string;
  /** Tasks per task title beyond the demo branch's own (organisations sampled from the branches). */
  count?: number;
}

export async function seedWork(ctx: SeedContext, options: WorkSeedOptions): Promise<Record<string, number>> {
  const { database } = ctx;
  const db = database.db as unknown as AnyDb;
  const base = { school: options.school, created_by: null, updated_by: null };
  const today = isoDay(new Date());
  const year = Number(today.slice(0, 4));
  const people = (await sql<{ username: string; id: number; orgId: number | null }>`
    SELECT username, id, org_id AS "orgId" FROM users WHERE username IN ('zbsj', 'dy', 'dwzzb')`.execute(database.db)).rows;
  const focus = people.find((p) => p.username === 'zbsj')?.orgId ?? null;
  const dy = people.find((p) => p.username === 'dy');
  const branches = (await sql<{ id: number }>`
    SELECT id FROM m_org WHERE type = '3' AND parent_id IS NOT NULL ORDER BY (id = ${focus ?? 0}) DESC, id LIMIT ${1 + (options.count ?? 24)}`.execute(database.db)).rows.map((r) => r.id);
  if (!branches.length) return {};

  // One batch in each state 1–4 (spec §4): last year's closed, this year's started, next term's configured, a draft.
  const batchIds = await insert(db, 'm_work_batch', [
    { ...base, name: `${year - 1}年度党建工作任务`, year: year - 1, term: '全年', kind: '工作任务', start_date: `${year - 1}-01-01`, end_date: `${year - 1}-12-31`, description: '上一年度党建重点任务，已全部收口。', state: 4 },
    { ...base, name: `${year}年度党建重点任务`, year, term: '全年', kind: '工作任务', start_date: `${year}-01-01`, end_date: `${year}-12-31`, description: '本年度党委部署的党建重点任务。', state: 3 },
    { ...base, name: `${year}年秋季学期党支部工作报表`, year, term: '秋季学期', kind: '其他报表', start_date: `${year}-09-01`, end_date: `${year + 1}-01-15`, description: '各党支部按学期报送的工作报表。', state: 2 },
    { ...base, name: `${year + 1}年春季学期信息填报`, year: year + 1, term: '春季学期', kind: '信息填报', start_date: null, end_date: null, description: '下一学期的信息填报批次（待配置）。', state: 1 },
  ]);
  const [closedBatch, currentBatch] = batchIds;

  // Task states (spec §4): begin 1 (due in two days: the reminder is on; or overdue), success 2 (reported), fail 3.
  // Each task is given to every sampled branch with one deadline (a record per organisation, 下发进度 counts
  // them); the demo branch's stand in each state, the others' spread: reported, still open (late once the
  // deadline passed) and, after it, judged not done.
  const DEADLINES = [2, 20, -3, -10, -40].map((d) => addDays(today, d));
  const FOCUS_STATES = [1, 1, 1, 2, 3] as const;
  const tasks: Row[] = [];
  const task = (orgId: number, k: number, state: 1 | 2 | 3, extra: Row = {}) => {
    const [title, content] = TASKS[k % TASKS.length];
    const deadline = (extra.deadline as string | undefined) ?? DEADLINES[k];
    const reported = addDays(deadline, -2) < today ? addDays(deadline, -2) : addDays(today, -1);
    tasks.push({
      ...base, title, content, org_id: orgId, assignee_id: null, issued_by: '党委组织部', deadline, attachment: null, batch_id: currentBatch,
      report_content: state === 2 ? '已按要求完成，相关材料见附件。' : null,
      report_date: state === 2 ? reported : null, report_file: null, state, ...extra,
    });
  };
  branches.forEach((orgId, i) => {
    TASKS.forEach((_, k) => {
      if (orgId === focus) return task(orgId, k, FOCUS_STATES[k]);
      const due = DEADLINES[k] < today;
      task(orgId, k, due ? ([2, 2, 1, 3] as const)[(i + k) % 4] : ([1, 2, 1] as const)[(i + k) % 3]);
    });
  });
  if (dy?.orgId) task(dy.orgId, 2, 1, { deadline: addDays(today, 7), assignee_id: dy.id, title: '撰写学习党章心得体会', content: '请于期限前提交一篇不少于1500字的学习党章心得体会。' });
  await insert(db, 'm_work_task', tasks);

  // Other reports (spec §4 collection status): the started batch's monthly report of each branch, in every state;
  // the demo branch's still to be filled (NO_START 0), last year's accepted (IMPORT_END 3).
  const file = ctx.app ? await demoReportFile(ctx.app) : null;
  const reports: Row[] = branches.map((orgId, i) => {
    const state = orgId === focus ? 0 : [0, 1, 2, 3][i % 4];
    return { ...base, batch_id: currentBatch, title: `${year}年党支部工作月报`, org_id: orgId, due_date: addDays(today, 4), file: state ? file : null, note: null, submit_date: state >= 2 ? addDays(today, -1) : null, state };
  });
  if (focus) reports.push({ ...base, batch_id: closedBatch, title: `${year - 1}年党支部工作年报`, org_id: focus, due_date: `${year}-01-15`, file, note: '已按时报送。', submit_date: `${year}-01-10`, state: 3 });
  await insert(db, 'm_other_report', reports);

  // Documents (文件下载): share types 全部党支部 3, 指定组织 1 (the demo branch's committee), 指定角色 2; one stopped.
  const committee = focus ? (await sql<{ parentId: number | null }>`SELECT parent_id AS "parentId" FROM m_org WHERE id = ${focus}`.execute(database.db)).rows[0]?.parentId : null;
  const zbsjRole = (await sql<{ id: number }>`SELECT id FROM roles WHERE code = 'zbsj'`.execute(database.db)).rows[0]?.id;
  const doc = (title: string, category: string, k: number, share: Row, description: string) => ({
    ...base, title, category, file, description, share_type: '全部党支部', org_ids: null, role_ids: null,
    share_state: '发布中', publish_date: addDays(today, -k * 9), downloads: (k * 37) % 120, ...share,
  });
  const documents: Row[] = [
    doc('中国共产党支部工作条例（试行）学习资料', '学习资料', 0, {}, '供支部集中学习使用的辅导材料。'),
    doc('党支部工作月报模板', '表格模板', 1, {}, '各党支部每月填写后在“其他报表”中上传。'),
    doc('关于做好年度党员发展工作的通知', '通知文件', 2, {}, '请各党支部按通知要求做好本年度发展工作。'),
    doc('党费收缴、使用和管理规定', '规章制度', 3, {}, '中组发〔2008〕3号。'),
    doc('二级党委组织员工作手册', '规章制度', 4, { share_type: '指定组织', org_ids: JSON.stringify(committee ? [committee] : []) }, '发布给本院党委及所属支部。'),
    doc('党支部书记培训课件', '学习资料', 5, { share_type: '指定角色', role_ids: JSON.stringify(zbsjRole ? [zbsjRole] : []) }, '仅发布给支部书记角色。'),
    doc('已停止发布的旧版表格', '表格模板', 6, { share_state: '已停止' }, '已由新版模板替代。'),
  ];
  await insert(db, 'm_document', documents);

  if (ctx.app) {
    for (const module of ['work-task', 'work-batch', 'other-report']) await seedWorkflowTodos(ctx.app, module);
    await ctx.app.runtime.reminders.refresh({ modules: ['work-task', 'other-report'] });
  }
  return { batches: batchIds.length, tasks: tasks.length, otherReports: reports.length, documents: documents.length };
}

/** One small filled-in report workbook in the file store, the file every demo report that has one refers to. */
async function demoReportFile(app: FastifyInstance): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('工作月报');
  sheet.addRows([['项目', '本月情况'], ['召开支委会', '1次'], ['召开党员大会', '1次'], ['讲党课', '1次'], ['主题党日', '1次']]);
  const bytes = Buffer.from(await book.xlsx.writeBuffer());
  const name = '党支部工作月报.xlsx';
  const f = await fileStoreOf(app).save(Readable.from([bytes]), {
    originalName: name, mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', moduleName: 'other-report', ownerId: null, maxBytes: bytes.length + 1,
  });
  return `/api/file/view?id=${f.access_key}&name=${encodeURIComponent(name)}`;
}

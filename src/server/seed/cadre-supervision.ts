/**
 * Demo supervision records (issue 39 §5, docs/cadres.md), after the demo cadres and appointments: 干部请假 and
 * 干部兼职 in every state of their approval (drafts, one returned, waiting, approved — leaves over the
 * 校党委's days among them — refused; a part-time post ended), 个人有关事项报告 of last year and this year
 * (sampled and not, one found 漏报 with its 处理意见; the serving cadres without this year's are reminded), and
 * 考察对象 of the appointments past 民主推荐 (being inspected, concluded). Dates relative to today, built with
 * the calendar helpers (a month end or 29 February stays a real day); deterministic; bulk inserts in one
 * transaction with the approval log of every step, then the pinyin keys, the to-dos of 党委组织部 and the
 * reminders. `count` records of each module (DEMO_SUPERVISION, default 40), whatever the cadres' count.
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths, yearOf } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import { leaveApproverOf, leaveDays } from '../domain/cadre/supervision.js';
import type { SeedContext } from './index.js';
import { seedWorkflowTodos } from './development.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

export const DEMO_SUPERVISION = 40;
/** The schemas' defaults (rule parameters): 校党委 approves leaves over 5 days; at most 3 posts in 社会团体. */
const COMMITTEE_DAYS = 5;
const MAX_SOCIAL = 3;
const CHUNK = 500;

const LEAVE_KINDS = ['事假', '病假', '年休假', '探亲假', '其他'] as const;
const LEAVE_REASONS: Record<string, string> = { 事假: '处理家庭事务', 病假: '住院治疗', 年休假: '休年休假', 探亲假: '探望父母', 其他: '参加子女毕业典礼' };
const PLACES = ['北京', '上海', '广州', '成都', '西安', '武汉', '杭州', '南京', '长沙', '本地'];
/** Leave states by position in a cycle: drafts (one returned), waiting, approved, refused. */
const LEAVE_CYCLE = [-1, 0, 1, 1, 0, 1, -2, 1, -1, 1] as const;

const PARTTIME: [category: string, organisation: string, post: string][] = [
  ['社会团体', '省高等教育学会', '理事'],
  ['学术组织', '全国高校思想政治教育研究会', '常务理事'],
  ['社会团体', '市科学技术协会', '委员'],
  ['企业', '学校资产经营有限公司', '董事'],
  ['社会团体', '省青年联合会', '委员'],
  ['其他', '市人民政府咨询委员会', '咨询专家'],
];
const PARTTIME_CYCLE = [1, 1, 0, 1, -1, 1, -2, 1, 0, 1] as const;

interface Cadre {
  id: number;
  name: string;
  unit_id: number | null;
  rank: string | null;
  school: string | null;
}

interface LogStep {
  transition: string;
  title: string;
  from: number;
  to: number;
  day: string;
  result?: string;
  comment?: string;
}

const earlier = (a: string, b: string) => (a < b ? a : b);

export interface SupervisionCounts {
  leaves: number;
  parttimes: number;
  reports: number;
  inspections: number;
  log: number;
}

/** The four modules' demo records, `count` of each (fewer reports and inspections where there are fewer cadres or appointments). */
export async function seedCadreSupervision(database: Database, options: { count: number; today?: string }): Promise<SupervisionCounts> {
  const today = options.today ?? localToday();
  const n = options.count;
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    const cadres = (await sql<Cadre>`SELECT id, name, unit_id, rank, school FROM m_cadre
      WHERE (tenure_status IS NULL OR tenure_status IN ('1', '2')) AND unit_id IS NOT NULL ORDER BY id`.execute(db)).rows;
    if (!cadres.length) return { leaves: 0, parttimes: 0, reports: 0, inspections: 0, log: 0 };
    const at = (i: number) => cadres[i % cadres.length];
    const logs: { module: string; index: number; unitId: number | null; steps: LogStep[] }[] = [];

    // 干部请假: lengths 1–9 days (over 5: 校党委), waiting and drafts ahead of today, the decided ones behind it.
    const leaves: Row[] = [];
    for (let j = 0; j < n; j++) {
      const c = at(j * 7);
      const state = LEAVE_CYCLE[j % LEAVE_CYCLE.length];
      const kind = LEAVE_KINDS[j % LEAVE_KINDS.length];
      const length = 1 + ((j * 3) % 9);
      const start = state === 1 || state === -2 ? addDays(today, -(10 + ((j * 13) % 300))) : addDays(today, 3 + (j % 25));
      const end = addDays(start, length - 1);
      const days = leaveDays(start, end);
      const approver = leaveApproverOf(days, COMMITTEE_DAYS);
      const submitted = earlier(addDays(start, -5), today);
      const decided = earlier(addDays(start, -2), today);
      const steps: LogStep[] = [];
      if (state !== -1 || j % 20 === 8) steps.push({ transition: 'submit', title: '提交申请', from: -1, to: 0, day: submitted });
      if (state === -1 && j % 20 === 8) steps.push({ transition: 'return', title: '退回', from: 0, to: -1, day: submitted, result: 'return', comment: '请补充工作交接安排' });
      if (state === 1) steps.push(approver === '校党委' ? { transition: 'approveCommittee', title: '校党委审批', from: 0, to: 1, day: decided } : { transition: 'approve', title: '党委组织部审批', from: 0, to: 1, day: decided });
      if (state === -2) steps.push({ transition: 'reject', title: '不予批准', from: 0, to: -2, day: decided, result: 'reject', comment: '正值学校重要工作期间，请调整请假时间' });
      leaves.push({
        school: c.school, cadre_id: c.id, name: c.name, unit_id: c.unit_id, kind, start_date: start, end_date: end, days,
        reason: LEAVE_REASONS[kind], destination: PLACES[j % PLACES.length], approver, approve_date: state === 1 ? decided : null, state,
      });
      logs.push({ module: 'cadre-leave', index: leaves.length - 1, unitId: c.unit_id, steps });
    }

    // 干部兼职: at most MAX_SOCIAL approved, current posts in 社会团体 per cadre (a post that would pass it waits).
    const parttimes: Row[] = [];
    const social = new Map<number, number>();
    for (let j = 0; j < n; j++) {
      const c = at(j * 11 + 3);
      const [category, organisation, post] = PARTTIME[j % PARTTIME.length];
      let state: number = PARTTIME_CYCLE[j % PARTTIME_CYCLE.length];
      const ended = state === 1 && j % 9 === 8;
      if (state === 1 && category === '社会团体' && !ended) {
        if ((social.get(c.id) ?? 0) >= MAX_SOCIAL) state = 0;
        else social.set(c.id, (social.get(c.id) ?? 0) + 1);
      }
      const start = state === 1 || state === -2 ? addMonths(today, -(3 + ((j * 5) % 48))) : addDays(today, 10 + (j % 30));
      const paid = category !== '企业' && j % 4 === 1;
      const submitted = earlier(addDays(start, -20), today);
      const decided = earlier(addDays(start, -10), today);
      const steps: LogStep[] = [];
      if (state !== -1) steps.push({ transition: 'submit', title: '提交申请', from: -1, to: 0, day: submitted });
      if (state === 1) steps.push({ transition: 'approve', title: '党委组织部审批', from: 0, to: 1, day: decided });
      if (state === -2) steps.push({ transition: 'reject', title: '不予批准', from: 0, to: -2, day: decided, result: 'reject', comment: '与本职工作关联不大，不同意兼职' });
      const endDate = ended ? earlier(addMonths(today, -1), addMonths(start, 1)) : null;
      if (ended) steps.push({ transition: 'finish', title: '结束兼职', from: 1, to: 1, day: earlier(addDays(endDate!, 1), today) });
      parttimes.push({
        school: c.school, cadre_id: c.id, name: c.name, unit_id: c.unit_id, organisation, post, category, start_date: start, end_date: endDate,
        paid, remuneration: paid ? `${2000 + (j % 5) * 1000}.00` : null, reason: '与本人教学科研领域相关', approve_date: state === 1 ? decided : null, state,
      });
      logs.push({ module: 'cadre-parttime', index: parttimes.length - 1, unitId: c.unit_id, steps });
    }

    // 个人有关事项报告: the reporting cadres' reports of last year, then of this year (each dated in January, none in the future).
    const reporting = cadres.filter((c) => c.rank !== null && c.rank >= '01' && c.rank <= '06');
    const reports: Row[] = [];
    const year = yearOf(today);
    const lastYear = Math.min(reporting.length, Math.ceil(n * 0.6));
    const thisYear = Math.min(reporting.length, n - lastYear);
    for (let j = 0; j < lastYear + thisYear; j++) {
      const y = j < lastYear ? year - 1 : year;
      const c = reporting[j < lastYear ? j : j - lastYear];
      const reportDate = earlier(`${y}-01-${String(5 + (j % 25)).padStart(2, '0')}`, today);
      const sampled = j % 5 === 0 ? '随机抽查' : j % 7 === 0 ? '重点抽查' : '未抽查';
      const result = sampled === '未抽查' ? '未核查' : j % 10 === 0 ? '不一致（漏报）' : '一致';
      reports.push({
        school: c.school, cadre_id: c.id, name: c.name, unit_id: c.unit_id, year: y, report_date: reportDate, check_method: sampled, check_result: result,
        handling: result === '未核查' || result === '一致' ? null : '漏报本人持有因私出国（境）证件情况，予以批评教育',
      });
    }

    // 考察对象: the appointments past 民主推荐 (those still at 已民主推荐 being inspected, without a conclusion yet).
    const appointments = (await sql<{ id: number; cadre_id: number; state: number; post: string | null; recommend_date: string | null; inspect_date: string | null; inspect_team: string | null; inspect_opinion: string | null }>`
      SELECT id, cadre_id, state, post, recommend_date::text AS recommend_date, inspect_date::text AS inspect_date, inspect_team, inspect_opinion
      FROM m_appointment WHERE state >= 1 OR state = -3 ORDER BY CASE WHEN state BETWEEN 1 AND 4 THEN 0 ELSE 1 END, id LIMIT ${n}`.execute(db)).rows;
    const byId = new Map((await sql<Cadre>`SELECT id, name, unit_id, rank, school FROM m_cadre WHERE id = ANY(${appointments.map((a) => a.cadre_id)}::int[])`.execute(db)).rows.map((c) => [c.id, c]));
    const conclusions = ['称职', '优秀', '称职', '称职', '基本称职', '优秀'];
    const inspections: Row[] = [];
    for (const [j, a] of appointments.entries()) {
      const c = byId.get(a.cadre_id);
      if (!c) continue;
      const recommended = a.recommend_date ?? addDays(today, -30);
      inspections.push({
        school: c.school, appointment_id: a.id, cadre_id: c.id, name: c.name, unit_id: c.unit_id, post: a.post,
        team: a.inspect_team ?? '党委组织部考察组（3人）', inspect_date: a.inspect_date ?? earlier(addDays(recommended, 7), today),
        conclusion: a.state === 1 ? null : conclusions[j % conclusions.length], opinion: a.state === 1 ? null : (a.inspect_opinion ?? '政治过硬，担当作为，群众公认'),
      });
    }

    const insert = async (table: string, rows: Row[]) => {
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += CHUNK) ids.push(...(await db.insertInto(table).values(rows.slice(i, i + CHUNK)).returning('id').execute()).map((r: { id: number }) => Number(r.id)));
      return ids;
    };
    const ids: Record<string, number[]> = {
      'cadre-leave': await insert('m_cadre_leave', leaves),
      'cadre-parttime': await insert('m_cadre_parttime', parttimes),
    };
    await insert('m_cadre_report', reports);
    await insert('m_cadre_inspect', inspections);
    const log: Row[] = logs.flatMap((l) => l.steps.map((s) => ({
      module: l.module, record_id: ids[l.module][l.index], transition: s.transition, transition_title: s.title, from_state: s.from, to_state: s.to,
      result: s.result ?? 'pass', level: 'unitDept', acting_org_id: l.unitId, actor_id: null, actor_name: '党委组织部', comment: s.comment ?? '',
      step_values: '{}', value_texts: '[]', warnings: '[]', ip: null, at: new Date(`${s.day}T10:00:00+08:00`),
    })));
    for (let i = 0; i < log.length; i += CHUNK) await db.insertInto('workflow_log').values(log.slice(i, i + CHUNK)).execute();
    return { leaves: leaves.length, parttimes: parttimes.length, reports: reports.length, inspections: inspections.length, log: log.length };
  });
}

/** The demo's supervision records, with their pinyin keys, 党委组织部's to-dos and the report reminders. */
export async function seedDemoSupervision({ database, app, log }: SeedContext, count = Number(process.env.DEMO_SUPERVISION ?? DEMO_SUPERVISION)): Promise<void> {
  const counts = await seedCadreSupervision(database, { count });
  let todos = 0;
  if (app) {
    for (const m of ['cadre-leave', 'cadre-parttime', 'cadre-report', 'cadre-inspect']) await app.runtime.records(m).fillPinyinKeys();
    for (const m of ['cadre-leave', 'cadre-parttime']) todos += await seedWorkflowTodos(app, m);
    await app.runtime.reminders.refresh({ modules: ['cadre-report'] });
  }
  log.info({ ...counts, todos }, 'demo supervision records seeded');
}

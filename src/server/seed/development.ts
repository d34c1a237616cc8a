/**
 * Applications for party membership in a seeded university (the demo, `npm run seed -- --applicants N`,
 * the workflow benchmark): every state of the development workflow with dates that keep its rules (18
 * on applying, a year as activist, the probation a year from the meeting ...), the side steps recorded
 * as far as the state implies, two full members of the branch as introducers, a 志愿书 number from the
 * year's range, the member record from the admission on, and the approval log of every step taken.
 * Bulk SQL like the university seed: data loading, no trail.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths, addYears, daysBetween, probationEndOf } from '../../shared/development/rules.js';
import { completedStep, nextDue, stageOfState } from '../../shared/development/steps.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import { todoLink } from '../runtime/workflow/links.js';
import { person } from './university/people.js';
import { Random } from './university/random.js';

type Row = Record<string, unknown>;
const CHUNK = 500;

/** How applications spread over the states (weights). */
const STATE_WEIGHTS: [number, number][] = [
  [-1, 3], [0, 10], [1, 9], [2, 24], [3, 7], [4, 5], [5, 6], [6, 4], [7, 11], [8, 2], [9, 5], [10, 9], [-2, 3], [-3, 2],
];

/** For the demo branch: an application whose furthest step is each of the 25 (step, state); 7 and 8 are always passed by 9. */
const FOCUS_STEPS: [number, number][] = [
  [1, 0], [2, 1], [3, 2], [4, 2], [5, 2], [6, 2], [10, 4], [11, 5], [12, 5], [13, 5], [14, 5], [15, 6], [16, 6],
  [17, 7], [18, 7], [19, 7], [20, 7], [21, 7], [22, 7], [23, 7], [24, 9], [25, 10],
];

const STEP_TITLES: Record<string, string> = {
  apply: '递交入党申请书', talk: '党组织派人谈话', activist: '确定入党积极分子', activistFile: '入党积极分子备案', contacts: '指定培养联系人',
  assess: '培养教育考察', target: '确定发展对象', targetFile: '发展对象备案', review: '政治审查', train: '集中培训', branchReview: '支部委员会审查',
  preReview: '上级党委预审', book: '填写入党志愿书', admit: '支部大会接收预备党员', committeeTalk: '上级党委派人谈话', approve: '上级党委审批',
  orgFile: '组织部备案', assign: '编入党小组', oath: '入党宣誓', applyFull: '提出转正申请', fullMeeting: '支部大会讨论转正', extend: '延长预备期',
  full: '转为正式党员', archive: '材料归档', reject: '不予通过', withdraw: '撤回申请',
};
const LEVEL: Record<string, 'branch' | 'committee' | 'orgdept' | 'self'> = {
  activistFile: 'committee', targetFile: 'committee', preReview: 'committee', committeeTalk: 'committee', approve: 'committee', extend: 'committee', full: 'committee',
  orgFile: 'orgdept', archive: 'orgdept', withdraw: 'self',
};

export interface Branch {
  id: number;
  committee: number;
  root: number;
  unitId: number | null;
  secretary: string;
  students: boolean;
  /** Full members of the branch: introducers and contacts. */
  members: number[];
}

export interface Step {
  transition: string;
  date: string;
  from: number;
  to: number;
  values: Row;
  result?: 'pass' | 'reject' | 'withdraw';
}

export interface DevelopmentSeedOptions {
  count: number;
  school: string;
  seed?: number;
  today?: string;
  /** Branches that get one application in every state first (the demo accounts' branch). */
  focusBranchIds?: number[];
}

export interface DevelopmentSeedCounts {
  applications: number;
  members: number;
  logEntries: number;
}

async function branchesOf(db: Kysely<Record<string, Row>>): Promise<Branch[]> {
  const orgs = (await sql<{ id: number; parent_id: number | null; type: string | null; unit_id: number | null; secretary: string | null; name: string }>`SELECT id, parent_id, type, unit_id, secretary, name FROM m_org`.execute(db)).rows;
  const byId = new Map(orgs.map((o) => [o.id, o]));
  const members = (await sql<{ id: number; org_id: number }>`SELECT id, org_id FROM m_member WHERE member_type = '1' AND party_status = '1'`.execute(db)).rows;
  const membersOf = new Map<number, number[]>();
  for (const m of members) membersOf.set(m.org_id, [...(membersOf.get(m.org_id) ?? []), m.id]);
  const out: Branch[] = [];
  for (const o of orgs) {
    if (o.type !== '3' || (membersOf.get(o.id)?.length ?? 0) < 3) continue;
    const chain = [];
    for (let x: typeof o | undefined = o; x; x = x.parent_id === null ? undefined : byId.get(x.parent_id)) chain.unshift(x);
    const committee = [...chain].reverse().find((x) => x.parent_id !== null && (x.type === '1' || x.type === '2'));
    out.push({ id: o.id, committee: committee?.id ?? chain[0].id, root: chain[0].id, unitId: o.unit_id, secretary: o.secretary ?? '支部书记', students: /生/.test(o.name), members: membersOf.get(o.id)! });
  }
  return out;
}

/** How long ago the last step of an application in each state was taken (days): the spread of the demo. */
const AGE: Record<number, [number, number]> = {
  [-1]: [0, 20], 0: [0, 40], 1: [10, 120], 2: [20, 420], 3: [5, 40], 4: [5, 30], 5: [3, 50], 6: [5, 80], 7: [30, 330], 8: [10, 200], 9: [5, 90], 10: [20, 700],
  [-2]: [5, 300], [-3]: [5, 200],
};


/**
 * The steps of one application that reaches state `reached` (then is refused or withdrawn when
 * `ending`), dated from its application day with gaps the rules allow.
 */
function timeline(rng: Random, reached: number, ending: 'reject' | 'withdraw' | undefined, b: Branch, apply: string, maxSide?: number): Step[] {
  const steps: Step[] = [];
  /** Whether a side step (by its number of the 25) is recorded: up to `maxSide` when given, else by chance. */
  const side = (no: number, chance: number) => (maxSide !== undefined ? no <= maxSide : rng.chance(chance));
  const at = (transition: string, date: string, to: number | null, values: Row, result?: Step['result']) =>
    steps.push({ transition, date, from: 0, to: to ?? Number.NaN, values, ...(result && { result }) });
  const done = (n: number) => reached >= n;
  if (done(0)) at('apply', apply, 0, { applyDate: apply });
  const talk = addDays(apply, rng.chance(0.9) ? rng.int(7, 30) : rng.int(31, 45));
  if (done(1)) at('talk', talk, 1, { talkDate: talk, talker: b.secretary });
  const activist = addDays(talk, rng.int(60, 150));
  if (done(2)) {
    at('activist', activist, 2, { activistDate: activist, recommendMethod: rng.pick(['党员推荐', '群团组织推优', '党员推荐和群团组织推优']) });
    if (reached > 2 || side(4, 0.6)) at('activistFile', addDays(activist, rng.int(3, 20)), null, { activistFiledDate: addDays(activist, rng.int(3, 20)) });
    if (reached > 2 || side(5, 0.5)) at('contacts', addDays(activist, 7), null, { contactIds: [rng.pick(b.members)] });
    if (maxSide !== undefined && maxSide >= 6) at('assess', addMonths(activist, 6), null, { lastAssessDate: addMonths(activist, 6) });
  }
  const target = addDays(addYears(activist, 1), rng.int(0, 60));
  if (done(3)) {
    at('target', target, 3, { targetDate: target, introducerIds: [b.members[0], b.members[1]] });
    if (reached > 3 || side(8, 0.7)) at('targetFile', addDays(target, rng.int(3, 15)), null, { targetFiledDate: addDays(target, rng.int(3, 15)) });
  }
  const review = addDays(target, rng.int(15, 30));
  if (done(4)) at('review', review, 4, { reviewDate: review, reviewResult: '合格' });
  const train = addDays(review, rng.int(10, 25));
  const branchReview = addDays(train, rng.int(3, 8));
  const preReview = addDays(branchReview, rng.int(3, 8));
  const publicityStart = addDays(preReview, 1);
  const publicityEnd = addDays(publicityStart, 9);
  const book = addDays(publicityEnd, rng.int(1, 4));
  if (done(5)) {
    at('train', train, 5, { trainingEndDate: train, trainingDays: rng.pick([3, 4, 5]), trainingHours: rng.pick([24, 28, 32]), trainingCertNo: `PX${String(rng.int(1, 99999)).padStart(5, '0')}` });
    // Waiting in state 5: some way through the filings before the meeting.
    const sides = reached > 5 ? 3 : maxSide !== undefined ? Math.max(0, Math.min(3, maxSide - 11)) : rng.int(0, 3);
    if (sides > 0) at('branchReview', branchReview, null, { branchReviewDate: branchReview });
    if (sides > 1) at('preReview', preReview, null, { preReviewDate: preReview, publicityStart, publicityEnd });
    if (sides > 2) at('book', book, null, { bookDate: book });
  }
  const meeting = addDays(book, rng.int(2, 10));
  if (done(6)) {
    const entitled = rng.int(12, 30);
    const present = entitled - rng.int(0, 3);
    const against = rng.int(0, 1);
    at('admit', meeting, 6, { meetingDate: meeting, entitled, present, votesFor: present - against, votesAgainst: against, abstentions: 0, admitDate: meeting, probationEnd: probationEndOf(meeting) });
    if (reached > 6 || side(16, 0.6)) at('committeeTalk', addDays(meeting, rng.int(5, 20)), null, { committeeTalkDate: addDays(meeting, rng.int(5, 20)), committeeTalker: '院党委组织员' });
  }
  const approve = addDays(meeting, rng.int(25, 60));
  let probationEnd = probationEndOf(meeting);
  if (done(7)) {
    at('approve', approve, 7, { approveDate: approve });
    if (reached > 7 || side(18, 0.6)) at('orgFile', addDays(approve, 10), null, { orgFiledDate: addDays(approve, 10) });
    if (reached > 7 || side(19, 0.6)) at('assign', addDays(approve, 3), null, { partyGroup: `第${rng.int(1, 3)}党小组` });
    if (reached > 7 || side(20, 0.5)) at('oath', addDays(approve, rng.int(10, 40)), null, { oathDate: addDays(approve, rng.int(10, 40)) });
  }
  if (done(7) && maxSide !== undefined && maxSide >= 21) at('assess', addMonths(meeting, 6), null, { lastAssessDate: addMonths(meeting, 6) });
  // Some probations have ended and wait for the committee's decision on 转正.
  if (reached === 7 && side(22, 0.3)) {
    at('applyFull', addDays(probationEnd, -20), null, { fullApplyDate: addDays(probationEnd, -20) });
    if (side(23, 0.6)) at('fullMeeting', addDays(probationEnd, rng.int(0, 10)), null, { fullMeetingDate: addDays(probationEnd, rng.int(0, 10)) });
  }
  if (reached === 8) {
    probationEnd = addYears(probationEnd, 1);
    at('extend', addDays(probationEndOf(meeting), rng.int(3, 10)), 8, { extendMonths: 12, probationEnd });
  }
  if (done(9)) {
    at('applyFull', addDays(probationEnd, -20), null, { fullApplyDate: addDays(probationEnd, -20) });
    at('fullMeeting', addDays(probationEnd, rng.int(0, 10)), null, { fullMeetingDate: addDays(probationEnd, rng.int(0, 10)) });
    at('full', addDays(probationEnd, rng.int(12, 30)), 9, { fullDate: probationEnd });
  }
  if (done(10)) {
    const archive = addDays(probationEnd, rng.int(40, 80));
    at('archive', archive, 10, { archiveDate: archive, archiveNo: `FZ${String(rng.int(1, 99999)).padStart(5, '0')}` });
  }
  const last = steps.reduce((d, x) => (x.date > d ? x.date : d), apply);
  if (ending === 'reject') at('reject', addDays(last, rng.int(10, 40)), -2, {}, 'reject');
  if (ending === 'withdraw') at('withdraw', addDays(last, rng.int(5, 30)), -3, {}, 'withdraw');
  return steps;
}

/** The assessments every six months while an activist (until 发展对象 or today) and while on probation. */
function assessments(steps: Step[], today: string, maxSide?: number): void {
  const date = (t: string) => steps.find((s) => s.transition === t)?.date;
  const add = (from: string | undefined, until: string) => {
    if (!from) return;
    for (let d = addMonths(from, 6); d <= until && d <= today; d = addMonths(d, 6)) steps.push({ transition: 'assess', date: d, from: 0, to: Number.NaN, values: { lastAssessDate: d } });
  };
  const end = steps.find((s) => s.result)?.date ?? today;
  // The demo branch's chosen steps (maxSide) carry their own assessments.
  if (maxSide !== undefined) return;
  add(date('activist'), [date('target'), end].filter(Boolean).sort()[0]!);
  add(date('admit'), [date('full'), end, steps.find((s) => s.values.probationEnd)?.values.probationEnd as string].filter(Boolean).sort()[0]!);
}

/** States in date order: a step without a state of its own (a filing) happens in the state of its day. */
function settle(steps: Step[]): void {
  steps.sort((a, b) => a.date.localeCompare(b.date));
  let state = -1;
  for (const s of steps) {
    s.from = state;
    if (Number.isNaN(s.to)) s.to = state;
    state = s.to;
  }
}

const lastDate = (steps: Step[]) => steps.reduce((d, x) => (x.date > d ? x.date : d), steps[0].date);

/** An application's steps, its application day chosen so its last step lies `AGE` days before today. */
function stepsFor(rng: Random, target: number, today: string, b: Branch, maxSide?: number): Step[] {
  const ending = target === -2 ? 'reject' : target === -3 ? 'withdraw' : undefined;
  const reached = target === -3 ? rng.pick([-1, 0, 1]) : target === -2 ? rng.pick([0, 1, 2, 2, 3, 5]) : target;
  const seed = rng.int(1, 2 ** 30);
  const [min, max] = AGE[target];
  const wanted = addDays(today, -rng.int(min, max));
  // The same choices from another application day: month lengths move the last day a little, so aim twice.
  let apply = '2000-01-03';
  let steps = timeline(new Random(seed), reached, ending, b, apply, maxSide);
  if (!steps.length) return steps;
  for (let i = 0; i < 3 && lastDate(steps) !== wanted; i++) {
    apply = addDays(apply, daysBetween(lastDate(steps), wanted));
    steps = timeline(new Random(seed), reached, ending, b, apply, maxSide);
  }
  while (lastDate(steps) > today) {
    apply = addDays(apply, daysBetween(lastDate(steps), today));
    steps = timeline(new Random(seed), reached, ending, b, apply, maxSide);
  }
  assessments(steps, today, maxSide);
  settle(steps);
  return steps;
}

export interface GeneratedApplication {
  branch: Branch;
  record: Row;
  steps: Step[];
}

/**
 * The applications to seed, without a database: `count` spread over the branches by STATE_WEIGHTS, the
 * focus branches first getting one in every state and one stopping at each of the 25 steps.
 */
export function generateApplications(branches: Branch[], options: { count: number; today: string; seed?: number; focusBranchIds?: number[]; usedIds?: Set<string> }): GeneratedApplication[] {
  const rng = new Random(options.seed ?? 20261123);
  const today = options.today;
  const usedIds = options.usedIds ?? new Set<string>();
  const focus = branches.filter((b) => options.focusBranchIds?.includes(b.id));
  const plan: { branch: Branch; state: number; maxSide?: number }[] = [];
  for (const b of focus) {
    for (const [state] of STATE_WEIGHTS) plan.push({ branch: b, state });
    for (const [step, state] of FOCUS_STEPS) plan.push({ branch: b, state, maxSide: step });
  }
  while (plan.length < options.count) plan.push({ branch: rng.pick(branches), state: rng.weighted(STATE_WEIGHTS) });
  return plan.map(({ branch, state, maxSide }) => {
    const steps = stepsFor(rng, state, today, branch, maxSide);
    const applyYear = Number((steps[0]?.date ?? addDays(today, -10)).slice(0, 4));
    const p = person(rng, branch.students ? applyYear - 22 : applyYear - 45, branch.students ? applyYear - 19 : applyYear - 24, usedIds);
    const record: Row = {
      name: p.name, idCard: p.idCard, gender: p.gender, birthDate: p.birthDate, ethnicity: p.ethnicity, phone: p.phone,
      personKind: branch.students ? '学生' : '教职工', category: branch.students ? rng.pick(['4', '4', '4', '3']) : '1', education: branch.students ? '60' : '20',
      orgId: branch.id, unitId: branch.unitId, state: -1,
    };
    for (const s of steps) {
      Object.assign(record, s.values);
      record.state = s.to;
    }
    record.stage = stageOfState(record.state as number) ?? stageOfState(steps.filter((x) => !x.result).at(-1)?.to ?? -1) ?? '1';
    record.step = completedStep(record);
    Object.assign(record, nextDue(record));
    return { branch, record, steps };
  });
}

/** Writes generated applications into m_development (and members, book numbers, the log) in one transaction. */
export async function seedDevelopment(database: Database, options: DevelopmentSeedOptions): Promise<DevelopmentSeedCounts> {
  const today = options.today ?? localToday();
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as Kysely<Record<string, Row>>;
    const branches = await branchesOf(db);
    if (!branches.length) return { applications: 0, members: 0, logEntries: 0 };
    const usedIds = new Set((await sql<{ id_card: string }>`SELECT id_card FROM m_member UNION SELECT id_card FROM m_development`.execute(db)).rows.map((r) => r.id_card));
    const generated = generateApplications(branches, { ...options, today, usedIds });
    const records = generated.map((g) => g.record);
    const histories = generated.map((g) => g.steps);
    const plan = generated;

    // 志愿书 numbers in date order per year, from one range per year.
    const byYear = new Map<number, Row[]>();
    for (const r of records) if (r.bookDate) byYear.set(Number((r.bookDate as string).slice(0, 4)), [...(byYear.get(Number((r.bookDate as string).slice(0, 4))) ?? []), r]);
    const rangeIds = new Map<number, number>();
    for (const year of [...new Set([...byYear.keys(), Number(today.slice(0, 4))])].sort()) {
      const used = (byYear.get(year) ?? []).sort((x, y) => String(x.bookDate).localeCompare(String(y.bookDate)));
      used.forEach((r, i) => (r.volunteerBookNo = `${year}${String(i + 1).padStart(5, '0')}`));
      const [{ id }] = (await sql<{ id: number }>`
        INSERT INTO m_development_book_range (school, year, prefix, start_no, end_no, width, next_no, remark)
        VALUES (${options.school}, ${year}, ${String(year)}, 1, 99999, 5, ${used.length + 1}, '演示数据') RETURNING id`.execute(db)).rows;
      rangeIds.set(year, id);
    }

    // Member records of the admitted.
    const admitted = records.filter((r) => r.admitDate && (r.state as number) >= 6);
    const full = (r: Row) => (r.state as number) >= 9;
    const memberIds: number[] = [];
    for (let i = 0; i < admitted.length; i += CHUNK) {
      const rows = admitted.slice(i, i + CHUNK).map((r) => ({
        school: options.school, name: r.name, gender: r.gender, ethnicity: r.ethnicity, birth_date: r.birthDate, id_card: r.idCard, education: r.education,
        category: r.category, member_type: full(r) ? '1' : '2', party_status: '1', apply_date: r.applyDate, join_date: r.admitDate,
        full_date: full(r) ? r.fullDate : null, org_id: r.orgId, unit_id: r.unitId, phone: r.phone,
      }));
      memberIds.push(...(await db.insertInto('m_member').values(rows).returning('id').execute()).map((x) => Number(x.id)));
    }
    admitted.forEach((r, i) => (r.memberId = memberIds[i]));

    const columns = (r: Row): Row => ({
      school: options.school, created_by: null, updated_by: null,
      ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`), Array.isArray(v) ? JSON.stringify(v) : (v ?? null)])),
    });
    const ids: number[] = [];
    for (let i = 0; i < records.length; i += CHUNK) ids.push(...(await db.insertInto('m_development').values(records.slice(i, i + CHUNK).map(columns)).returning('id').execute()).map((x) => Number(x.id)));

    const numbers = records.flatMap((r, i) => (r.volunteerBookNo ? [{ number: r.volunteerBookNo, range_id: rangeIds.get(Number(String(r.bookDate).slice(0, 4))), record_id: ids[i] }] : []));
    for (let i = 0; i < numbers.length; i += CHUNK) await db.insertInto('development_book_numbers').values(numbers.slice(i, i + CHUNK)).execute();

    const log: Row[] = [];
    records.forEach((r, i) => {
      const branch = plan[i].branch;
      for (const s of histories[i]) {
        const level = LEVEL[s.transition] ?? 'branch';
        log.push({
          module: 'development', record_id: ids[i], transition: s.transition, transition_title: STEP_TITLES[s.transition], from_state: s.from, to_state: s.to,
          result: s.result ?? 'pass', level, acting_org_id: level === 'committee' ? branch.committee : level === 'orgdept' ? branch.root : level === 'self' ? null : branch.id,
          actor_id: null, actor_name: level === 'committee' ? '院党委组织员' : level === 'orgdept' ? '党委组织部' : level === 'self' ? String(r.name) : branch.secretary,
          comment: s.result === 'reject' ? '现实表现尚不符合发展要求，继续培养' : s.result === 'withdraw' ? '本人撤回' : '',
          step_values: JSON.stringify(s.values), value_texts: '[]', warnings: '[]', ip: null, at: new Date(`${s.date}T09:00:00+08:00`),
        });
      }
    });
    for (let i = 0; i < log.length; i += CHUNK) await db.insertInto('workflow_log').values(log.slice(i, i + CHUNK)).execute();
    await sql`ANALYZE m_development`.execute(db);
    return { applications: records.length, members: admitted.length, logEntries: log.length };
  });
}

/**
 * To-dos for the steps the seeded records wait for, to the users who would take them (as a step would
 * have left them): the demo accounts find work waiting in 我的待办.
 */
export async function seedWorkflowTodos(app: FastifyInstance, moduleId: string): Promise<number> {
  const { runtime } = app;
  const { database } = app.services;
  const m = runtime.module(moduleId);
  const wf = m?.workflow;
  if (!m || !wf) return 0;
  const service = runtime.records(moduleId);
  const directory = runtime.workflows.newDirectory();
  const ids = (await sql<{ id: number }>`SELECT id FROM ${sql.table(m.table)} ORDER BY id`.execute(database.db)).rows.map((r) => r.id);
  // The link a step's own to-do gets (x-workflow.link, else the module's menu page): every seeded to-do opens its record.
  const link = await todoLink(runtime.ctx, m);
  const rows: Row[] = [];
  const wanted = wf.waitingSteps().map((w) => ({ step: w.key }));
  for (const id of ids) {
    const record = (await service.readRow(id))!;
    // As a step would leave them (one per record and actor, named with its organisation): the engine's own shaping.
    for (const todo of await runtime.workflows.waitingTodos(m, id, record, wanted, directory, database.db, { link, createdBy: null })) {
      for (const user_id of todo.toUserIds) rows.push({ user_id, title: todo.title, content: todo.content ?? '', link: todo.link ?? null, module: moduleId, ref_id: String(todo.refId) });
    }
  }
  for (let i = 0; i < rows.length; i += CHUNK) await (database.db as unknown as Kysely<Record<string, Row>>).insertInto('msg_todo').values(rows.slice(i, i + CHUNK)).execute();
  return rows.length;
}

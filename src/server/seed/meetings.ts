/**
 * Organisation life in a seeded university (the demo; the bench's generator): for every branch the
 * meetings of the previous year and of this year up to today — 支委会 and 主题党日 monthly, 支部党员大会 and
 * 党课 quarterly (the secretary's lesson once a year), 党小组会 monthly in about a third of the branches,
 * 组织生活会 once a year — each held or skipped by the branch's diligence, so some branches fall short;
 * the school's monthly theme party day plans, the branches' 主题党日 linked to them; 民主生活会 for the
 * 党委. Attendance is read from the branch's members and always meets the quorum. Bulk SQL: data
 * loading, no trail.
 */
import { sql, type Kysely } from 'kysely';
import { addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import { Random } from './university/random.js';

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;
const CHUNK = 1000;

export interface MeetingSeedOptions {
  school: string;
  today?: string;
  seed?: number;
  /** Only the years from this one (default: last year). */
  fromYear?: number;
  /** Branches kept diligent with one gap this year (the demo secretary's branch: a calendar with one red cell). */
  focusBranchIds?: number[];
}

export interface MeetingSeedCounts {
  branches: number;
  meetings: number;
  plans: number;
  rectifications: number;
  reviewed: number;
}

const THEMES = ['学习贯彻党的二十届四中全会精神', '弘扬伟大建党精神', '重温入党誓词', '廉洁自律警示教育', '学雷锋志愿服务', '铭记历史 缅怀先烈', '红色教育基地参观', '党章党规学习', '服务师生办实事', '国家安全教育', '科学家精神学习', '传承五四精神'];
const TOPICS: Record<string, string[]> = {
  支委会: ['研究本月支部工作安排', '讨论发展党员工作', '研究党费收缴情况', '部署主题党日活动'],
  支部党员大会: ['学习传达上级会议精神', '讨论接收预备党员', '通报支部季度工作', '民主评议党员动员'],
  党课: ['新时代党的建设总要求', '党史专题党课', '师德师风专题党课', '中国式现代化专题党课'],
  党小组会: ['党小组学习交流', '党员思想汇报交流'],
  组织生活会: ['年度组织生活会暨民主评议党员'],
  民主生活会: ['年度领导班子民主生活会'],
};

const pad = (n: number) => String(n).padStart(2, '0');
const dateIn = (y: number, m: number, day: number) => `${y}-${pad(m)}-${pad(Math.min(day, new Date(Date.UTC(y, m, 0)).getUTCDate()))}`;

interface Branch {
  id: number;
  members: number[];
}

/** The meeting rows of one branch for one year, up to `today`: each due meeting held with probability `diligence`. */
export function branchYear(branch: Branch, year: number, today: string, rnd: Random, diligence: number, withGroups: boolean, planOf: (month: number) => number | null, school: string): Row[] {
  const rows: Row[] = [];
  const members = branch.members;
  const committeeSize = Math.max(1, Math.min(7, Math.ceil(members.length / 8) || 3));
  const attend = (n: number) => {
    const shuffled = [...members].sort(() => rnd.next() - 0.5);
    return shuffled.slice(0, Math.min(members.length, n));
  };
  const add = (type: string, date: string, extra: Row = {}) => {
    if (date > today) return;
    const present = (extra.attendee_ids as number[] | undefined) ?? attend(Math.max(1, Math.ceil(members.length * (0.7 + rnd.next() * 0.3))));
    const absent = members.filter((m) => !present.includes(m)).slice(0, 5);
    rows.push({
      school, org_id: branch.id, type, date, topic: rnd.pick(TOPICS[type] ?? ['支部会议']), place: rnd.pick(['党员活动室', '学院会议室', '线上会议', '红色教育基地']),
      host_id: present[0] ?? null, recorder_id: present[1] ?? null, absent_reason: absent.length ? '出差、授课或病假，已请假' : null, invalid: false, state: -1,
      minutes: `会议由${type === '党课' ? '授课人' : '支部书记'}主持，围绕“${type}”议题开展学习讨论，形成会议纪要。`,
      ...extra,
      attendee_ids: JSON.stringify(present), absent_ids: JSON.stringify(absent),
    });
  };
  const held = () => rnd.chance(diligence);
  for (let m = 1; m <= 12; m++) {
    if (held()) {
      const present = attend(committeeSize);
      // Always more than half of the committee: the quorum holds.
      const enough = present.length * 2 > committeeSize ? present : attend(committeeSize);
      if (enough.length * 2 > committeeSize) add('支委会', dateIn(year, m, rnd.int(3, 12)), { committee_size: committeeSize, attendee_ids: enough });
    }
    if (held()) add('主题党日', dateIn(year, m, rnd.int(15, 28)), { topic: THEMES[(m - 1) % THEMES.length], theme_plan_id: planOf(m) });
    if (withGroups && held()) add('党小组会', dateIn(year, m, rnd.int(10, 25)));
    if (m % 3 === 0) {
      if (held()) add('支部党员大会', dateIn(year, m - rnd.int(0, 2), rnd.int(5, 25)));
      const secretary = m === 6 || (m === 12 && rnd.chance(0.3));
      if (held()) add('党课', dateIn(year, m - rnd.int(0, 2), rnd.int(5, 25)), { secretary_lecture: secretary, lecturer_id: members[0] ?? null });
    }
  }
  if (held()) add('组织生活会', dateIn(year, rnd.pick([1, 12]), rnd.int(5, 25)), { preparation: '会前组织专题学习，广泛征求意见，撰写个人对照检查材料。', talks_before: '支部书记与每名委员、委员与党员开展谈心谈话。', criticism: '党员逐一对照检查，开展批评与自我批评。' });
  return rows;
}

/** Seeds the meetings of every branch (DJ_DZZ_LB 3, 4, 5) of the database. */
export async function seedMeetings(database: Database, options: MeetingSeedOptions): Promise<MeetingSeedCounts> {
  const db = database.db as unknown as AnyDb;
  const today = options.today ?? localToday();
  const thisYear = Number(today.slice(0, 4));
  const fromYear = options.fromYear ?? thisYear - 1;
  const rnd = new Random(options.seed ?? 27);
  const orgs = await sql<{ id: number; type: string | null; parent_id: number | null }>`SELECT id, type, parent_id FROM m_org ORDER BY id`.execute(database.db);
  const root = orgs.rows.find((o) => o.parent_id === null);
  const memberRows = await sql<{ id: number; org_id: number }>`SELECT id, org_id FROM m_member WHERE org_id IS NOT NULL ORDER BY id`.execute(database.db);
  const membersOf = new Map<number, number[]>();
  for (const r of memberRows.rows) membersOf.set(r.org_id, [...(membersOf.get(r.org_id) ?? []), r.id]);
  const branches: Branch[] = orgs.rows.filter((o) => ['3', '4', '5'].includes(o.type ?? '')).map((o) => ({ id: o.id, members: membersOf.get(o.id) ?? [] }));
  const focus = new Set(options.focusBranchIds ?? []);
  let plans = 0;
  const rows: Row[] = [];
  for (let year = fromYear; year <= thisYear; year++) {
    // The school's plan of each month (published by the top organisation).
    const planIds = new Map<number, number>();
    if (root) {
      const planRows = Array.from({ length: 12 }, (_, i) => ({ school: options.school, org_id: root.id, month: `${year}-${pad(i + 1)}`, topic: THEMES[i], content: `各党支部围绕“${THEMES[i]}”开展主题党日活动，活动后及时登记。` }));
      const ids = await db.insertInto('m_meeting_theme_plan').values(planRows).returning(['id', 'month']).execute();
      for (const r of ids) planIds.set(Number(String(r.month).slice(5)), Number(r.id));
      plans += ids.length;
    }
    for (const b of branches) {
      if (!b.members.length) continue;
      // Diligence per branch: most keep the rules, a quarter fall short now and then, a few often.
      const diligence = focus.has(b.id) ? 1 : rnd.weighted([[1, 55], [0.92, 25], [0.7, 15], [0.45, 5]] as const);
      const yearRows = branchYear(b, year, today, rnd, diligence, b.id % 3 === 0, (m) => planIds.get(m) ?? null, options.school);
      if (focus.has(b.id) && year === thisYear) {
        // The demo secretary's branch misses one month's 支委会 this year: its calendar shows the gap.
        const gap = yearRows.findIndex((r) => r.type === '支委会' && String(r.date).slice(5, 7) === '02');
        if (gap >= 0) yearRows.splice(gap, 1);
      }
      rows.push(...yearRows);
    }
    // 民主生活会 of the leadership teams (党委), most held in December, filed with the level above.
    for (const c of orgs.rows.filter((o) => o.type === '1')) {
      const date = dateIn(year, 12, rnd.int(10, 28));
      if (date > today || !rnd.chance(0.85)) continue;
      rows.push({
        school: options.school, org_id: c.id, type: '民主生活会', date, topic: '年度领导班子民主生活会', place: '党委会议室', invalid: false, state: -1,
        attendee_ids: JSON.stringify([]), absent_ids: JSON.stringify([]), plan_filed_on: dateIn(year, 11, 20), report_filed_on: dateIn(year, 12, 30) > today ? null : dateIn(year, 12, 30),
        preparation: '围绕年度主题开展专题学习，广泛征求意见，班子成员相互谈心谈话。', criticism: '班子成员逐一进行对照检查，开展批评与自我批评。', minutes: '会议形成整改清单，明确责任人和完成时限。',
      });
    }
  }
  const saved: { id: number; org_id: number; type: string; date: string }[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const ids = await db.insertInto('m_meeting').values(rows.slice(i, i + CHUNK)).returning(['id', 'org_id', 'type']).execute();
    ids.forEach((r, k) => saved.push({ id: Number(r.id), org_id: Number(r.org_id), type: String(r.type), date: String(rows[i + k].date) }));
  }
  const rectifications = await seedRectifications(db, saved, options.school, rnd);
  const reviewed = await seedReviews(db, saved, thisYear, focus, rnd);
  return { branches: branches.length, meetings: rows.length, plans, rectifications, reviewed };
}

const PROBLEMS: [string, string][] = [
  ['理论学习不够系统深入', '制定年度学习计划，每月开展一次专题学习'],
  ['联系服务师生不够经常', '支委每学期走访联系师生不少于两次'],
  ['组织生活质量有待提高', '丰富主题党日形式，会后及时总结'],
  ['发挥先锋模范作用不够', '设立党员示范岗，开展承诺践诺'],
];

/** Two or three items of the rectification list of every 组织生活会 and 民主生活会. */
async function seedRectifications(db: AnyDb, saved: { id: number; type: string; date: string }[], school: string, rnd: Random): Promise<number> {
  const rows = saved
    .filter((m) => m.type === '组织生活会' || m.type === '民主生活会')
    .flatMap((m) =>
      PROBLEMS.slice(0, rnd.int(2, 3)).map(([problem, measure], i) => ({
        school, meeting_id: m.id, problem, measure, due_date: addMonths(m.date, 3 + i), done_on: rnd.chance(0.6) ? addMonths(m.date, 2 + i) : null,
      })),
    );
  for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('m_meeting_rectification').values(rows.slice(i, i + CHUNK)).execute();
  return rows.length;
}

/**
 * Where the school has the level above review meeting records (x-workflow of `meeting`): a few of this
 * year's 支部党员大会 submitted and waiting (the demo branch's last one among them), a few reviewed, each
 * with its approval log.
 */
async function seedReviews(db: AnyDb, saved: { id: number; org_id: number; type: string; date: string }[], year: number, focus: Set<number>, rnd: Random): Promise<number> {
  const congresses = saved.filter((m) => m.type === '支部党员大会' && m.date.startsWith(String(year)));
  const lastOfFocus = new Map<number, number>();
  for (const m of congresses) if (focus.has(m.org_id)) lastOfFocus.set(m.org_id, m.id);
  const waiting = congresses.filter((m) => [...lastOfFocus.values()].includes(m.id) || rnd.chance(0.06));
  const done = congresses.filter((m) => !waiting.includes(m) && rnd.chance(0.1));
  const log: Row[] = [];
  const at = (date: string, hour: number) => new Date(`${date}T${String(hour).padStart(2, '0')}:30:00`);
  for (const m of [...waiting, ...done]) {
    log.push({ module: 'meeting', record_id: m.id, transition: 'submit', transition_title: '报上级审核', from_state: -1, to_state: 0, result: 'pass', level: 'branch', acting_org_id: m.org_id, actor_id: null, actor_name: '支部书记', comment: '', at: at(m.date, 17) });
  }
  for (const m of done) {
    log.push({ module: 'meeting', record_id: m.id, transition: 'approve', transition_title: '上级审核通过', from_state: 0, to_state: 1, result: 'pass', level: 'above', acting_org_id: null, actor_id: null, actor_name: '二级党委', comment: '同意', at: at(m.date, 20) });
  }
  if (waiting.length) await db.updateTable('m_meeting').set({ state: 0 }).where('id', 'in', waiting.map((m) => m.id)).execute();
  if (done.length) await db.updateTable('m_meeting').set({ state: 1, review_opinion: '会议程序规范，记录完整，同意。' }).where('id', 'in', done.map((m) => m.id)).execute();
  for (let i = 0; i < log.length; i += CHUNK) await db.insertInto('workflow_log').values(log.slice(i, i + CHUNK)).execute();
  return waiting.length + done.length;
}

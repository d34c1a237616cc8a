/**
 * Demo cadres (docs/cadres.md): cadres chosen from the university's staff (linked to the staff record and,
 * for party members, the member record), each with the nine kinds of records — a continuous résumé from
 * first employment, the current post and the one before, a title, education, family, training, rewards,
 * three years of assessments — plus secondments for some (passports and trips: cadre-abroad.ts); a leadership team and the
 * staffing of every unit with cadres (some units over, some under their approved posts); dates chosen so
 * that every one of the six reminders has cadres due. Deterministic; bulk inserts (one transaction).
 * `seedCadres(db, { count })` scales to the bench size (600 and more, as long as there are staff).
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import type { SeedContext } from './index.js';
import { retirementDateOf } from '../domain/cadre/rules.js';
import { DEFAULT_EXCELLENT_PERCENT, EXCELLENT, excellentCap } from '../domain/cadre/assessment.js';
import { Random } from './university/random.js';
import { chineseName } from './university/people.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

/** Cadres in the demo of `npm start` (DEMO_CADRES overrides). */
export const DEMO_CADRE_COUNT = 600;
const CHUNK = 500;

export interface CadreSeedOptions {
  count: number;
  today?: string;
  seed?: number;
}

export interface CadreSeedCounts {
  cadres: number;
  records: number;
  teams: number;
  staffing: number;
}

interface Teacher {
  id: number;
  name: string;
  gender: string;
  birth_date: string;
  id_card: string | null;
  ethnicity: string | null;
  unit_id: number;
  phone: string | null;
  hired_on: string | null;
  native_place: string | null;
  member_id: number | null;
  join_date: string | null;
}

/** The posts a unit's team holds, by unit type: [post code, rank, category, attribute, title words]. */
type Slot = readonly [post: string, rank: string, category: string, attr: string, title: string];
const COLLEGE: Slot[] = [['08', '05', '2', '1', '党委书记'], ['10', '05', '2', '1', '院长'], ['09', '06', '3', '2', '党委副书记'], ['11', '06', '3', '2', '副院长'], ['11', '06', '3', '2', '副院长'], ['11', '06', '3', '2', '副院长']];
const OFFICE: Slot[] = [['17', '05', '2', '1', '处长'], ['18', '06', '3', '2', '副处长'], ['18', '06', '3', '2', '副处长'], ['23', '07', '4', '1', '科长'], ['24', '08', '4', '2', '副科长']];
/** Section-level posts beyond the team (科级: 办公室主任, 科长, 副科长). */
const SECTION: Slot[] = [['19', '07', '4', '1', '办公室主任'], ['23', '07', '4', '1', '科长'], ['24', '08', '4', '2', '副科长']];
const TEAM_TYPE: Record<string, string> = { '1': '2', '2': '3', '3': '4', '4': '5' };
const TRAININGS = ['中青年干部培训班', '新任处级干部任职培训班', '高校领导干部政治能力提升专题培训班', '全国高校院长（书记）研修班', '干部网络学院专题学习'];
const ORGANIZERS = ['中共湖南省委党校', '教育部高校干部培训中心', '国家教育行政学院', '本校党委组织部'];
const SCHOOLS = ['湖南大学', '中南大学', '湖南师范大学', '武汉大学', '华中科技大学', '北京师范大学', '南京大学', '厦门大学'];
const MAJORS = ['计算机科学与技术', '马克思主义理论', '机械工程', '汉语言文学', '化学', '工商管理', '数学', '教育学'];
const PLACES = ['湘西州龙山县人民政府', '邵阳市隆回县教育局', '教育部高等教育司', '长沙市岳麓区人民政府', '湖南省教育厅'];
const REWARDS = ['年度优秀共产党员', '校级优秀教师', '省级教学成果奖二等奖', '年度考核优秀，记三等功'];

export async function seedCadres(database: Database, options: CadreSeedOptions): Promise<CadreSeedCounts> {
  const today = options.today ?? localToday();
  const year = Number(today.slice(0, 4));
  const rng = new Random(options.seed ?? 2626);
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    const units = (await sql<{ id: number; name: string; type: string | null }>`SELECT id, name, type FROM m_unit ORDER BY sort NULLS LAST, id`.execute(db)).rows;
    const staff = (await sql<Teacher>`SELECT t.id, t.name, t.gender, t.birth_date::text AS birth_date, t.id_card, t.ethnicity, t.unit_id, t.phone, t.hired_on::text AS hired_on,
        m.native_place, m.id AS member_id, m.join_date::text AS join_date
      FROM m_teacher t LEFT JOIN m_member m ON m.id_card = t.id_card
      WHERE t.unit_id IS NOT NULL AND coalesce(t.retired, false) = false AND t.birth_date IS NOT NULL
      ORDER BY t.id`.execute(db)).rows;
    const counts: CadreSeedCounts = { cadres: 0, records: 0, teams: 0, staffing: 0 };
    if (!staff.length || !units.length) return counts;

    // Party members first (cadres are mostly members), the oldest few always in (the age reminders).
    const byAge = [...staff].sort((a, b) => a.birth_date.localeCompare(b.birth_date));
    const chosen = new Set<Teacher>(byAge.slice(0, 6));
    for (const t of staff) if (chosen.size < options.count && t.member_id) chosen.add(t);
    for (const t of staff) if (chosen.size < options.count) chosen.add(t);
    const people = [...chosen].slice(0, options.count);
    const unitById = new Map(units.map((u) => [u.id, u]));
    const slotsUsed = new Map<number, number>();

    const cadres: Row[] = [];
    const plan: { t: Teacher; slot: Slot; unitId: number; start: string; prevStart: string; workStart: string; probation: string | null; termYears: number }[] = [];
    people.forEach((t, i) => {
      const unit = unitById.get(t.unit_id)!;
      const slots = unit.type === '1' ? COLLEGE : OFFICE;
      const used = slotsUsed.get(unit.id) ?? 0;
      slotsUsed.set(unit.id, used + 1);
      // Beyond the unit's slots: further deputies (units over their staffing) or section chiefs.
      const slot = used < slots.length ? slots[used] : used === slots.length && rng.chance(0.4) ? slots[slots.length - 1] : rng.pick(SECTION);
      const born = t.birth_date;
      const workStart = t.hired_on && t.hired_on > addMonths(born, 12 * 21) ? t.hired_on : addMonths(born, 12 * 23 + rng.int(0, 24));
      // The current post: started 0-8 years ago; a few exactly so that the term, the probation are due.
      let start = addDays(today, -rng.int(30, 8 * 365));
      let termYears = 5;
      let probation: string | null = null;
      if (i % 40 === 1) start = addDays(addMonths(today, -60), rng.int(10, 150)); // term ends within 5 months
      if (i % 40 === 2) {
        start = addDays(addMonths(today, -12), rng.int(1, 25)); // probation ends within a month
        probation = addMonths(start, 12);
      } else if (start > addMonths(today, -12) && slot[1] <= '06') probation = addMonths(start, 12);
      if (start <= workStart) start = addMonths(workStart, 60);
      if (start > today) start = addDays(today, -30);
      const prevStart = addMonths(workStart, 12 * rng.int(6, 14)) < start ? addMonths(workStart, 12 * rng.int(6, 14)) : addMonths(workStart, 12);
      if (i % 17 === 5) termYears = 3;
      plan.push({ t, slot, unitId: unit.id, start: start, prevStart: prevStart < start ? prevStart : workStart, workStart, probation, termYears });
      const title = rng.weighted([['101', 5], ['201', 3], ['301', 1]] as const);
      cadres.push({
        teacher_id: t.id,
        member_id: t.member_id,
        name: t.name,
        gender: t.gender,
        birth_date: born,
        ethnicity: t.ethnicity,
        id_card: t.id_card,
        native_place: t.native_place,
        birth_place: t.native_place,
        political_status: t.member_id ? '01' : rng.pick(['04', '05', '07', '13']),
        join_party_date: t.join_date,
        work_start_date: workStart,
        grassroots_years: 2 + (i % 9), // 基层工作经历, read by the 任职资格 check (《条例》第八条)
        health: '健康',
        education: rng.weighted([['11', 5], ['14', 3], ['21', 2]] as const),
        degree: rng.weighted([['2', 5], ['3', 3], ['4', 2]] as const),
        graduated_from: `${rng.pick(SCHOOLS)}${rng.pick(MAJORS)}专业`,
        title,
        category: slot[2],
        unit_id: unit.id,
        post: slot[0],
        post_title: `${unit.name}${slot[4]}`,
        post_attr: slot[3],
        rank: slot[1],
        post_date: start,
        rank_date: start,
        tenure_status: probation && probation > today ? '2' : '1',
        retire_date: retirementDateOf({ birthDate: born, gender: t.gender, rank: slot[1], title }), // as the cadre.retireDate hook computes it
        phone: t.phone,
      });
    });
    const ids: number[] = [];
    for (let i = 0; i < cadres.length; i += CHUNK) ids.push(...(await db.insertInto('m_cadre').values(cadres.slice(i, i + CHUNK)).returning('id').execute()).map((r) => Number(r.id)));
    counts.cadres = ids.length;

    const rows: Record<string, Row[]> = {
      m_cadre_archive: [], m_cadre_post: [], m_cadre_education: [], m_cadre_family: [], m_cadre_training: [],
      m_cadre_basic_assessment: [], m_cadre_assessment: [], m_cadre_resume: [], m_cadre_secondment: [],
    };
    plan.forEach((p, i) => {
      const cadreId = ids[i];
      const unitName = unitById.get(p.unitId)!.name;
      const lowerRank = String(Math.min(9, Number(p.slot[1]) + 1)).padStart(2, '0');
      const prevEnd = addDays(p.start, -1);
      rows.m_cadre_archive.push({ cadre_id: cadreId, file_no: `GB${String(cadreId).padStart(6, '0')}`, kept_at: '党委组织部干部档案室', review_date: addDays(today, -rng.int(30, 700)), reviewer: '干部科', result: rng.chance(0.9) ? '审核无误' : '存在问题已整改' });
      rows.m_cadre_post.push(
        { cadre_id: cadreId, kind: '职务', unit_id: p.unitId, post: p.slot[0], post_title: `${unitName}${p.slot[4]}`, post_attr: p.slot[3], rank: p.slot[1], full_time: true, start_date: p.start, term_years: p.termYears, probation_end: p.probation, confirm_date: p.probation && p.probation <= today ? p.probation : null, appoint_doc_no: `校党任〔${p.start.slice(0, 4)}〕${rng.int(1, 60)}号` },
        { cadre_id: cadreId, kind: '职务', unit_id: p.unitId, post: '99', post_title: `${unitName}${lowerRank <= '06' ? '副职' : '科级干部'}`, post_attr: '2', rank: lowerRank, full_time: true, start_date: p.prevStart, end_date: prevEnd, term_years: 5, appoint_doc_no: `校党任〔${p.prevStart.slice(0, 4)}〕${rng.int(1, 60)}号`, remove_doc_no: `校党任〔${p.start.slice(0, 4)}〕${rng.int(1, 60)}号` },
        { cadre_id: cadreId, kind: '职称', title: cadres[i].title, full_time: false, start_date: addMonths(p.workStart, 12 * rng.int(4, 12)) },
      );
      const gradStart = addMonths(p.t.birth_date, 12 * 18 + 8);
      rows.m_cadre_education.push({ cadre_id: cadreId, kind: '全日制教育', institution: rng.pick(SCHOOLS), major: rng.pick(MAJORS), education: '21', degree: '4', start_date: gradStart, end_date: addMonths(gradStart, 46) });
      if (cadres[i].education !== '21') rows.m_cadre_education.push({ cadre_id: cadreId, kind: rng.chance(0.6) ? '全日制教育' : '在职教育', institution: rng.pick(SCHOOLS), major: rng.pick(MAJORS), education: cadres[i].education, degree: cadres[i].degree, start_date: addMonths(gradStart, 48), end_date: addMonths(gradStart, 84) });
      const spouseMale = p.t.gender === '2';
      rows.m_cadre_family.push(
        { cadre_id: cadreId, relation: '1', name: chineseName(rng, spouseMale), birth_date: addDays(p.t.birth_date, rng.int(-900, 900)), political_status: rng.pick(['01', '13']), workplace: rng.pick(['长沙市第一中学教师', '湖南省人民医院医生', '本校教师', '某公司职员']) },
        { cadre_id: cadreId, relation: rng.pick(['2', '3']), name: chineseName(rng, rng.chance(0.5)), birth_date: addMonths(p.t.birth_date, 12 * rng.int(25, 32)), political_status: '13', workplace: rng.pick(['在读学生', '某公司职员', '公务员']) },
      );
      rows.m_cadre_training.push({ cadre_id: cadreId, name: rng.pick(TRAININGS), organizer: rng.pick(ORGANIZERS), start_date: addDays(today, -rng.int(200, 2000)), hours: rng.pick([40, 80, 120, 160]), result: '结业' });
      rows.m_cadre_training[rows.m_cadre_training.length - 1].end_date = addDays(rows.m_cadre_training[rows.m_cadre_training.length - 1].start_date as string, rng.int(5, 60));
      rows.m_cadre_basic_assessment.push({ cadre_id: cadreId, kind: '奖励', date: addDays(today, -rng.int(100, 3000)), content: rng.pick(REWARDS), issuer: '中共某大学委员会' });
      for (let y = year - 3; y < year; y++) {
        rows.m_cadre_assessment.push({ cadre_id: cadreId, year: y, result: rng.weighted([['优秀', 18], ['称职', 78], ['基本称职', 3], ['不称职', 1]] as const), unit_id: p.unitId });
      }
      // The résumé: continuous from first employment (each entry ends the day before the next starts).
      const teachEnd = addDays(p.prevStart, -1);
      if (teachEnd >= p.workStart) rows.m_cadre_resume.push({ cadre_id: cadreId, start_date: p.workStart, end_date: teachEnd, text: `${unitName}教师`, full_time: true });
      rows.m_cadre_resume.push(
        { cadre_id: cadreId, start_date: teachEnd >= p.workStart ? p.prevStart : p.workStart, end_date: prevEnd, text: `${unitName}${lowerRank <= '06' ? '副职' : '科级干部'}`, full_time: true },
        { cadre_id: cadreId, start_date: p.start, end_date: null, text: `${unitName}${p.slot[4]}`, full_time: true },
      );
      if (i % 20 === 3) {
        // Secondments: some end within the month (reminder 4), the rest are over.
        const end = i % 40 === 3 ? addDays(today, rng.int(3, 25)) : addDays(today, -rng.int(100, 900));
        rows.m_cadre_secondment.push({ cadre_id: cadreId, place: rng.pick(PLACES), post: rng.pick(['副县长', '挂职副处长', '驻村第一书记']), start_date: addMonths(end, -24), end_date: end });
      }
    });
    keepExcellentWithinCap(rows.m_cadre_assessment);
    for (const [table, list] of Object.entries(rows)) {
      for (let i = 0; i < list.length; i += CHUNK) await db.insertInto(table).values(list.slice(i, i + CHUNK)).execute();
      counts.records += list.length;
    }

    // Staffing per unit and rank: the approved number around what is held (some units over, some under).
    const held = (await sql<{ unit_id: number; rank: string; n: number }>`SELECT unit_id, rank, count(*)::int AS n FROM m_cadre_post
      WHERE kind = '职务' AND full_time AND end_date IS NULL GROUP BY unit_id, rank ORDER BY unit_id, rank`.execute(db)).rows;
    const staffing = held.map((h, i) => ({ unit_id: h.unit_id, rank: h.rank, approved: Math.max(1, h.n + (i % 5 === 0 ? -1 : i % 5 === 1 ? 1 : 0)), approved_doc: `校编〔${year - 2}〕${(i % 30) + 1}号` }));
    for (let i = 0; i < staffing.length; i += CHUNK) await db.insertInto('m_staffing').values(staffing.slice(i, i + CHUNK)).execute();
    counts.staffing = staffing.length;
    await sql`UPDATE m_staffing s SET occupied = h.n, vacant = greatest(s.approved - h.n, 0), excess = greatest(h.n - s.approved, 0),
        status = CASE WHEN h.n < s.approved THEN '空缺' WHEN h.n = s.approved THEN '满编' ELSE '超编' END
      FROM (SELECT unit_id, rank, count(*)::int AS n FROM m_cadre_post WHERE kind = '职务' AND full_time AND end_date IS NULL GROUP BY unit_id, rank) h
      WHERE h.unit_id = s.unit_id AND h.rank = s.rank`.execute(db);

    // A team for every unit with cadres.
    const teamUnits = [...new Set(plan.map((p) => p.unitId))];
    const teams = teamUnits.map((unitId, i) => {
      const u = unitById.get(unitId)!;
      const termStart = addMonths(today, -rng.int(6, 58));
      return { unit_id: unitId, name: `${u.name}领导班子`, team_type: TEAM_TYPE[u.type ?? ''] ?? '9', term_start: i % 12 === 0 ? addMonths(today, -57) : termStart, term_years: 5 };
    });
    const teamRows = teams.map((t) => ({ ...t, term_end: addMonths(t.term_start, 60) }));
    for (let i = 0; i < teamRows.length; i += CHUNK) await db.insertInto('m_leader_team').values(teamRows.slice(i, i + CHUNK)).execute();
    counts.teams = teamRows.length;
    await sql`UPDATE m_leader_team t SET plan_size = (SELECT coalesce(sum(s.approved), 0)::int FROM m_staffing s WHERE s.unit_id = t.unit_id AND s.rank <= '06'),
        member_count = (SELECT count(DISTINCT p.cadre_id)::int FROM m_cadre_post p WHERE p.unit_id = t.unit_id AND p.kind = '职务' AND p.full_time AND p.end_date IS NULL AND p.rank <= '06')`.execute(db);
    return counts;
  });
}

/** The cadre base's modules whose reminders the demo computes once seeded. */
export const CADRE_REMINDER_MODULES = ['cadre', 'cadre-post', 'cadre-secondment', 'cadre-passport', 'cadre-abroad', 'leader-team'];

/**
 * The demo's cadres: `seedCadres` at DEMO_CADRES (default 600), then the 二级党委组织员 of the demo (ejdw)
 * reads the cadres and teams of the college its committee belongs to (unit scope), and the six reminders
 * are computed at once (the daily run would find them too, later).
 */
export async function seedDemoCadres({ database, log, app }: SeedContext): Promise<void> {
  const counts = await seedCadres(database, { count: Number(process.env.DEMO_CADRES ?? DEMO_CADRE_COUNT) });
  const db = database.db as unknown as AnyDb;
  const unit = (await sql<{ unit_id: number | null }>`SELECT o.unit_id FROM users u JOIN m_org o ON o.id = u.org_id WHERE u.username = 'ejdw'`.execute(db)).rows[0]?.unit_id;
  if (unit) {
    await sql`UPDATE roles SET unit_scope = 'custom', scope_unit_ids = ARRAY[${unit}]::int[],
        permissions = ARRAY(SELECT DISTINCT unnest(permissions || ARRAY['cadre-info:list', 'cadre-leadership:list', 'cadre-staffing:list']::text[]) ORDER BY 1)
      WHERE code = 'ejdw'`.execute(db);
  }
  if (app) await app.runtime.reminders.refresh({ modules: CADRE_REMINDER_MODULES });
  log.info(counts, 'demo cadres seeded');
}

/**
 * The demo's yearly results keep each unit's 优秀 within the cap the write path enforces (《党政领导干部考核
 * 工作条例》第二十七条; the default percentage), counted over the results recorded: those beyond it are 称职.
 */
function keepExcellentWithinCap(results: Record<string, unknown>[]): void {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of results) {
    const key = `${r.unit_id}:${r.year}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const cap = excellentCap(group.length, DEFAULT_EXCELLENT_PERCENT);
    let excellent = 0;
    for (const r of group) if (r.result === EXCELLENT && ++excellent > cap) r.result = '称职';
  }
}

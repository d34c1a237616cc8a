/**
 * Demo appointments (选拔任用, docs/cadres.md), after the demo cadres: cadres appointed to their current post
 * (the appointment names that post; on probation while its probation runs, confirmed after), and
 * procedures in every stage before it — proposed, recommended, inspected, in publicity (some running now),
 * decided — for deputies proposed as the unit's head, with the approval log of every step taken and the
 * to-dos of 党委组织部. Deterministic; bulk inserts.
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import { addWorkingDays, type WorkingCalendar } from '../../shared/working-days.js';
import { workingCalendar } from '../runtime/working-calendar.js';
import type { Database } from '../db/database.js';
import type { SeedContext } from './index.js';
import { seedWorkflowTodos } from './development.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

/** Per stage of the procedure before 任职: how many demo appointments wait there. */
const IN_PROGRESS_STATES = [-1, 0, 1, 2, 3, 4, 4, -2];
const CHUNK = 500;

interface Step {
  transition: string;
  title: string;
  from: number;
  to: number;
  date: string;
  values: Row;
  result?: string;
}

const camelToSnake = (k: string) => k.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

/** The steps up to `state`, dated backwards from `end`: 凡提四查 and the decision, then five working days of publicity. */
function stepsTo(state: number, end: string, docNo: string, calendar: WorkingCalendar): { values: Row; steps: Step[] } {
  const order = state === -2 ? 2 : state;
  const propose = addDays(end, -70);
  const recommend = addDays(propose, 14);
  const inspect = addDays(recommend, 14);
  const checked = addDays(inspect, 2);
  const decision = addDays(inspect, 7);
  const publicityStart = addWorkingDays(addDays(decision, 1), 0, calendar);
  const publicityEnd = addWorkingDays(publicityStart, 4, calendar);
  const all: Step[] = [
    { transition: 'propose', title: '动议', from: -1, to: 0, date: propose, values: { proposeDate: propose, proposeReason: '领导班子换届调整，院长岗位空缺' } },
    { transition: 'recommend', title: '民主推荐', from: 0, to: 1, date: recommend, values: { recommendDate: recommend, recommendMethod: '会议推荐和谈话调研推荐', recommendParticipants: 48, recommendVotes: 36, recommendNote: '得票过半，排名第一' } },
    { transition: 'inspect', title: '考察', from: 1, to: 2, date: inspect, values: { inspectDate: inspect, inspectTeam: '党委组织部考察组（3人）', inspectOpinion: '政治过硬，担当作为，群众公认，考察合格' } },
    { transition: 'decide', title: '讨论决定', from: 2, to: 3, date: decision, values: { decisionDate: decision, decisionMeeting: '党委常委会会议', decisionDocNo: docNo } },
    { transition: 'publicize', title: '任前公示', from: 3, to: 4, date: publicityStart, values: { publicityStart, publicityEnd } },
  ];
  const steps = all.filter((s) => s.to <= order);
  if (state === -2) steps.push({ transition: 'stop', title: '终止', from: 2, to: -2, date: addDays(inspect, 3), values: {}, result: 'reject' });
  const values: Row = Object.assign({}, ...steps.map((s) => s.values));
  if (steps.some((s) => s.transition === 'publicize')) values.appointFrom = addDays(publicityEnd, 1);
  // 凡提四查, recorded once the inspection is done.
  if (order >= 2) for (const p of ['checkArchive', 'checkReport', 'checkDiscipline', 'checkPetition']) Object.assign(values, { [`${p}By`]: '党委组织部干部科', [`${p}Date`]: checked, [`${p}Result`]: '未发现影响提拔的问题' });
  return { values, steps };
}

export async function seedAppointments(database: Database, options: { today?: string } = {}): Promise<{ appointments: number; log: number }> {
  const today = options.today ?? localToday();
  const year = Number(today.slice(0, 4));
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    // The publicity's five working days by the holiday calendar, as the guard counts them.
    const calendar = await workingCalendar(trx, addMonths(today, -30), addMonths(today, 2));
    // Appointed: cadres whose current post started within two years (the appointment names that post).
    const appointed = (await sql<{ cadre_id: number; name: string; post_id: number; unit_id: number; post: string | null; rank: string | null; start_date: string; probation_end: string | null; term_years: number | null; appoint_doc_no: string | null }>`
      SELECT c.id AS cadre_id, c.name, p.id AS post_id, p.unit_id, p.post, p.rank, p.start_date::text, p.probation_end::text, p.term_years, p.appoint_doc_no
      FROM m_cadre_post p JOIN m_cadre c ON c.id = p.cadre_id
      WHERE p.kind = '职务' AND p.end_date IS NULL AND p.start_date > ${addMonths(today, -24)}::date AND p.start_date <= ${today}::date AND p.post IS NOT NULL AND p.rank IS NOT NULL
      ORDER BY p.id`.execute(db)).rows.filter((a, _, all) => {
      // Six on probation, six not (appointed without it, or confirmed already).
      const mine = all.filter((x) => !!x.probation_end === !!a.probation_end);
      return mine.indexOf(a) < 6;
    });
    // In progress: deputies (副处 06) proposed as their unit's head (院长 10, 正处 05).
    const deputies = (await sql<{ cadre_id: number; name: string; unit_id: number }>`
      SELECT c.id AS cadre_id, c.name, c.unit_id FROM m_cadre c
      WHERE c.rank = '06' AND c.unit_id IS NOT NULL AND (c.tenure_status IS NULL OR c.tenure_status IN ('1', '2'))
        AND NOT EXISTS (SELECT 1 FROM m_cadre_post p WHERE p.cadre_id = c.id AND p.start_date > ${addMonths(today, -24)}::date)
      ORDER BY c.id LIMIT ${IN_PROGRESS_STATES.length * 2}`.execute(db)).rows;
    const records: Row[] = [];
    const histories: Step[][] = [];
    appointed.forEach((a, i) => {
      const docNo = a.appoint_doc_no ?? `校党干〔${a.start_date.slice(0, 4)}〕${i + 1}号`;
      const { values, steps } = stepsTo(4, addDays(a.start_date, -1), docNo, calendar);
      const promotion = !!a.probation_end;
      const confirmed = promotion && a.probation_end! <= today;
      const state = promotion ? (confirmed ? 6 : 5) : 6;
      steps.push({ transition: promotion ? 'appoint' : 'appointDirect', title: promotion ? '任职（试用期一年）' : '任职', from: 4, to: promotion ? 5 : 6, date: a.start_date, values: { appointDate: a.start_date } });
      if (confirmed) steps.push({ transition: 'confirm', title: '试用期满转正', from: 5, to: 6, date: a.probation_end!, values: { confirmDate: a.probation_end, confirmOpinion: '试用期考核胜任，正式任职' } });
      records.push({
        cadreId: a.cadre_id, name: a.name, unitId: a.unit_id, post: a.post, rank: a.rank, kind: promotion ? '提拔任职' : '进一步使用', termYears: a.term_years ?? 5,
        ...values, decisionDocNo: docNo, appointDate: a.start_date, postId: a.post_id, probationEnd: a.probation_end,
        ...(confirmed && { confirmDate: a.probation_end, confirmOpinion: '试用期考核胜任，正式任职' }), state,
      });
      histories.push(steps);
    });
    deputies.forEach((d, i) => {
      const state = IN_PROGRESS_STATES[i % IN_PROGRESS_STATES.length];
      // The second publicity of the list runs now (ends within the week); the others finished before today.
      const runningNow = state === 4 && i % IN_PROGRESS_STATES.length === 5;
      const end = runningNow ? addDays(today, 20) : addDays(today, -(i % 5) * 7);
      const { values, steps } = stepsTo(state, end, `校党干〔${year}〕${40 + i}号`, calendar);
      if (runningNow) {
        const start = addWorkingDays(addDays(today, -2), 0, calendar);
        const publicityEnd = addWorkingDays(start, 4, calendar);
        Object.assign(values, { publicityStart: start, publicityEnd, appointFrom: addDays(publicityEnd, 1) });
        const s = steps.find((x) => x.transition === 'publicize')!;
        Object.assign(s, { date: addDays(today, -2), values: { publicityStart: start, publicityEnd } });
        for (const x of steps) if (x.date > today) x.date = addDays(today, -3);
      }
      records.push({ cadreId: d.cadre_id, name: d.name, unitId: d.unit_id, post: '10', rank: '05', kind: '提拔任职', termYears: 5, ...values, state });
      histories.push(steps);
    });
    if (!records.length) return { appointments: 0, log: 0 };
    const columns = (r: Row): Row => ({ school: null, ...Object.fromEntries(Object.entries(r).map(([k, v]) => [camelToSnake(k), v ?? null])) });
    const school = (await sql<{ school: string | null }>`SELECT school FROM m_cadre LIMIT 1`.execute(db)).rows[0]?.school ?? null;
    const ids: number[] = [];
    for (let i = 0; i < records.length; i += CHUNK) {
      const rows = records.slice(i, i + CHUNK).map((r) => ({ ...columns(r), school }));
      ids.push(...(await db.insertInto('m_appointment').values(rows).returning('id').execute()).map((x: { id: number }) => Number(x.id)));
    }
    const log: Row[] = [];
    records.forEach((r, i) => {
      for (const s of histories[i]) {
        log.push({
          module: 'appointment', record_id: ids[i], transition: s.transition, transition_title: s.title, from_state: s.from, to_state: s.to, result: s.result ?? 'pass',
          level: 'unitDept', acting_org_id: r.unitId, actor_id: null, actor_name: '党委组织部', comment: s.result === 'reject' ? '考察中发现不宜提拔的情况，终止本次选拔' : '',
          step_values: JSON.stringify(s.values), value_texts: '[]', warnings: '[]', ip: null, at: new Date(`${s.date}T10:00:00+08:00`),
        });
      }
    });
    for (let i = 0; i < log.length; i += CHUNK) await db.insertInto('workflow_log').values(log.slice(i, i + CHUNK)).execute();
    return { appointments: records.length, log: log.length };
  });
}

/** The demo's appointments, after the demo cadres, with 党委组织部's to-dos. */
export async function seedDemoAppointments({ database, log, app }: SeedContext): Promise<void> {
  const counts = await seedAppointments(database);
  const todos = app ? await seedWorkflowTodos(app, 'appointment') : 0;
  log.info({ ...counts, todos }, 'demo appointments seeded');
}

/**
 * Demo passports and trips (因私出国（境）, docs/cadres.md), after the demo cadres: passports of the three kinds
 * in every state — in custody, lent on a trip, not yet handed in (the custody reminder), expiring within
 * the reminder's months, cancelled and lost — and applications in every state of the process: drafts,
 * waiting for approval, approved, on a trip, back and not yet due, one late (reminded and escalated to the
 * 组织部), returned (one returned late, its reminder escalated before), refused and withdrawn; the approval log
 * of every step taken. Dates relative to today. Deterministic; bulk inserts (one transaction).
 * `seedCadreAbroad(db, { passports, applications })` scales to the bench size (3,000 and 1,000).
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import { approverOf, custodyFromOf } from '../domain/cadre/abroad-rules.js';
import type { SeedContext } from './index.js';
import { seedWorkflowTodos } from './development.js';
import { Random } from './university/random.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

export const DEMO_PASSPORTS = 400;
export const DEMO_TRIPS = 120;
/** The schemas' defaults (rule parameters): return within 7 days, escalated 7 days later. */
const RETURN_DAYS = 7;
const CHUNK = 500;
const KINDS = [['1', 'E'], ['2', 'C'], ['3', 'T']] as const;
const PLACES = ['日本', '韩国', '新加坡', '泰国', '美国', '英国', '法国', '德国', '澳大利亚', '香港', '澳门', '台湾'];
const PURPOSES = ['探亲', '旅游', '访友', '就医', '其他'] as const;

interface Cadre {
  id: number;
  name: string;
  unit_id: number | null;
  rank: string | null;
  post_date: string | null;
  school: string | null;
}

/** The trip states by position in a cycle of 20: drafts, waiting, approved, lent (on the trip, back, late), refused, withdrawn, returned. */
const CYCLE = [-1, 0, 0, 1, 1, 2, 2, 2, -2, -3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3] as const;

export async function seedCadreAbroad(database: Database, options: { passports: number; applications: number; today?: string; seed?: number }): Promise<{ passports: number; applications: number; log: number }> {
  const today = options.today ?? localToday();
  const rng = new Random(options.seed ?? 39);
  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    const cadres = (await sql<Cadre>`SELECT id, name, unit_id, rank, post_date::text AS post_date, school FROM m_cadre
      WHERE tenure_status IS NULL OR tenure_status IN ('1', '2') ORDER BY id`.execute(db)).rows;
    if (!cadres.length) return { passports: 0, applications: 0, log: 0 };
    // Passports: the i-th of cadre i % n; the first three rounds one of each kind, later rounds old cancelled 护照.
    const passports: Row[] = [];
    for (let i = 0; i < options.passports; i++) {
      const c = cadres[i % cadres.length];
      const round = Math.floor(i / cadres.length);
      const [kind, prefix] = KINDS[Math.min(round, 3) % 3];
      let issued = addDays(today, -rng.int(365, 365 * 8));
      let expires = addDays(today, rng.int(400, 365 * 9));
      let custody: string | null = addDays(issued, rng.int(1, 9));
      let disposal: string | null = null;
      const variant = i % 40;
      if (round >= 3 || variant === 17) disposal = '已注销';
      else if (variant === 13) disposal = '遗失';
      else if (variant === 7) {
        // Issued lately and not handed in: some within the custody days, some overdue.
        issued = addDays(today, -rng.int(0, 25));
        custody = null;
      } else if (variant === 11) expires = addDays(today, rng.int(20, 170)); // expiring within six months
      if (round >= 3) {
        // An old passport, expired and cancelled.
        expires = addDays(today, -rng.int(30, 900));
        issued = addMonths(expires, -120);
        custody = addDays(issued, rng.int(1, 9));
      }
      const appointedOn = c.post_date && c.post_date <= today ? c.post_date : null;
      passports.push({
        school: c.school, cadre_id: c.id, name: c.name, unit_id: c.unit_id, kind, number: `${prefix}${String(10_000_000 + i)}`, issued, expires,
        custody_place: '党委组织部干部科', custody_date: custody, appointed_on: appointedOn, custody_from: custodyFromOf(issued, appointedOn),
        disposal, state: disposal ?? (custody ? '集中保管' : null),
      });
    }
    const passportIds: number[] = [];
    for (let i = 0; i < passports.length; i += CHUNK) passportIds.push(...(await db.insertInto('m_cadre_passport').values(passports.slice(i, i + CHUNK)).returning('id').execute()).map((r: { id: number }) => Number(r.id)));
    // Trips on passports in custody valid for more than a year: lent ones each on a passport of their own.
    const usable = passports.map((p, i) => ({ p, id: passportIds[i] })).filter((x) => x.p.state === '集中保管' && (x.p.expires as string) > addMonths(today, 12));
    const half = Math.max(1, Math.floor(usable.length / 2));
    let lentNext = 0;
    const trips: Row[] = [];
    const logs: { steps: [string, string, number, number, string, string?][]; unitId: number | null }[] = [];
    const lateReturned: number[] = [];
    for (let j = 0; j < options.applications && usable.length; j++) {
      const state = CYCLE[j % CYCLE.length];
      const pick = state === 2 && lentNext < half ? usable[lentNext++] : usable[half + (j % Math.max(1, usable.length - half))] ?? usable[j % usable.length];
      const lentHere = state === 2 && pick.p.state === '集中保管';
      const c = cadres.find((x) => x.id === pick.p.cadre_id)!;
      const variant = j % 60;
      let start: string;
      let end: string;
      let returned: string | null = null;
      if (state === 2) {
        // On the trip now; back and not yet due; back and late (reminded on the due day, escalated 7 days later).
        const kind = variant % 3;
        end = kind === 0 ? addDays(today, rng.int(2, 12)) : kind === 1 ? addDays(today, -rng.int(1, 5)) : addDays(today, -rng.int(2 * RETURN_DAYS + 1, 2 * RETURN_DAYS + 12));
        start = addDays(end, -rng.int(5, 14));
      } else if (state === 3) {
        end = addDays(today, -rng.int(20, 700));
        start = addDays(end, -rng.int(4, 20));
        const late = variant === 10;
        returned = addDays(end, late ? RETURN_DAYS + RETURN_DAYS + 3 : rng.int(1, RETURN_DAYS));
        if (late) lateReturned.push(trips.length);
      } else if (state === -2 || state === -3) {
        start = addDays(today, rng.int(-200, 40));
        end = addDays(start, rng.int(4, 15));
      } else {
        start = addDays(today, rng.int(21, 120));
        end = addDays(start, rng.int(4, 20));
      }
      const approver = approverOf(c.rank);
      const approve: [string, string] = approver === '校党委' ? ['approveCommittee', '校党委审批'] : ['approve', '党委组织部审批'];
      const lend = state === 2 || state === 3 ? addDays(start, -1) : null;
      const submitted = addDays(start, -20) < today ? addDays(start, -20) : today;
      const approvedOn = addDays(start, -15) < today ? addDays(start, -15) : today;
      const steps: [string, string, number, number, string, string?][] = [];
      if (state !== -1 && !(state === -3 && j % 2)) steps.push(['submit', '提交申请', -1, 0, submitted]);
      if (state === -2) steps.push(['reject', '不予批准', 0, -2, approvedOn, '行程安排与重要工作冲突，不予批准']);
      if ([1, 2, 3].includes(state) || (state === -3 && !(j % 2))) steps.push([approve[0], approve[1], 0, 1, approvedOn]);
      if (state === -3) steps.push(['cancel', '撤销申请', j % 2 ? -1 : 1, -3, approvedOn, '本人因工作安排取消行程']);
      if (lend) steps.push(['lend', '领取证件', 1, 2, lend]);
      if (returned) steps.push(['giveBack', '交回证件', 2, 3, returned]);
      trips.push({
        school: c.school, cadre_id: c.id, name: c.name, unit_id: c.unit_id, rank: c.rank, approver, passport_id: pick.id,
        destination: rng.pick(PLACES), start_date: start, end_date: end, purpose: rng.pick(PURPOSES), lend_date: lend,
        due_date: lend ? addDays(end, RETURN_DAYS) : null, return_date: returned, state: state === 2 && !lentHere ? 1 : state,
      });
      logs.push({ steps: state === 2 && !lentHere ? steps.filter((s) => s[0] !== 'lend') : steps, unitId: c.unit_id });
      if (lentHere) pick.p.state = '已领取';
    }
    const tripIds: number[] = [];
    for (let i = 0; i < trips.length; i += CHUNK) tripIds.push(...(await db.insertInto('m_cadre_abroad').values(trips.slice(i, i + CHUNK)).returning('id').execute()).map((r: { id: number }) => Number(r.id)));
    const lent = trips.filter((t) => t.state === 2).map((t) => t.passport_id as number);
    for (let i = 0; i < lent.length; i += CHUNK) await db.updateTable('m_cadre_passport').set({ state: '已领取' }).where('id', 'in', lent.slice(i, i + CHUNK)).execute();
    const log: Row[] = [];
    logs.forEach((l, i) => {
      for (const [transition, title, from, to, day, comment] of l.steps) {
        log.push({
          module: 'cadre-abroad', record_id: tripIds[i], transition, transition_title: title, from_state: from, to_state: to,
          result: transition === 'reject' ? 'reject' : transition === 'cancel' ? 'withdraw' : 'pass', level: 'unitDept', acting_org_id: l.unitId,
          actor_id: null, actor_name: '党委组织部', comment: comment ?? '', step_values: '{}', value_texts: '[]', warnings: '[]', ip: null, at: new Date(`${day}T10:00:00+08:00`),
        });
      }
    });
    for (let i = 0; i < log.length; i += CHUNK) await db.insertInto('workflow_log').values(log.slice(i, i + CHUNK)).execute();
    // A trip returned late was reminded on its due day and escalated a week later: its reminder, finished.
    const history = lateReturned.map((i) => {
      const due = addDays(trips[i].end_date as string, RETURN_DAYS);
      return { module: 'cadre-abroad', record_id: tripIds[i], type: 'passport-return', title: '证件未归还', due_date: due, state: 3, receivers: [], unit_id: trips[i].unit_id, announced_due: due, escalated_due: due };
    });
    if (history.length) await db.insertInto('reminders').values(history).execute();
    return { passports: passports.length, applications: trips.length, log: log.length };
  });
}

/** The demo's passports and trips, after the demo cadres, with their reminders and 党委组织部's to-dos. */
export async function seedDemoCadreAbroad({ database, log, app }: SeedContext): Promise<void> {
  const counts = await seedCadreAbroad(database, { passports: DEMO_PASSPORTS, applications: DEMO_TRIPS });
  if (app) await app.runtime.reminders.refresh({ modules: ['cadre-passport', 'cadre-abroad'] });
  const todos = app ? await seedWorkflowTodos(app, 'cadre-abroad') : 0;
  log.info({ ...counts, todos }, 'demo passports and trips seeded');
}

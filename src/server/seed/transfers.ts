/**
 * Transfers in a seeded university (the demo, `npm run seed -- --transfers N`): transfers within, out of
 * and into the school and floating members in every state of their workflows, with dates in order, the
 * approval log of every step taken, the letter numbers of the letters issued (one re-issued, so the
 * register shows a cancelled number), the member records the completed ones changed, and the members'
 * contact records (a few out of touch for six months, a few away without a floating registration).
 * Bulk SQL like the university seed: data loading, no trail. The main line of each workflow is read from
 * the school's schema, so a school that drops a level gets records that follow its own process.
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths, monthOf } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import { transitionsOf, type TransitionInfo, type WorkflowLevel, type WorkflowSchema } from '../../shared/module-schema/workflow.js';
import { probationEnd } from '../../shared/transfer/rules.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/types.js';
import { issueLetterNumber, cancelLetters } from '../domain/transfer/letters.js';
import { ModuleRegistry } from '../runtime/registry.js';
import { person } from './university/people.js';
import { Random } from './university/random.js';

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;
const CHUNK = 500;

export interface TransferSeedOptions {
  school: string;
  schemasDir: string;
  /** Records per process (transfers in, out, within; floating members). */
  count: number;
  seed?: number;
  today?: string;
  /** Branches that get one record in every state of every process first (the demo accounts' branch). */
  focusBranchIds?: number[];
}

export interface TransferSeedCounts {
  internal: number;
  out: number;
  in: number;
  floating: number;
  contacts: number;
  logEntries: number;
}

interface Branch {
  id: number;
  committee: number;
  members: Member[];
}

interface Member {
  id: number;
  name: string;
  orgId: number;
  memberType: string;
  joinDate: string;
  phone: string | null;
}

interface Step {
  key: string;
  id: string;
  title: string;
  level: WorkflowLevel;
  from: number;
  to: number;
  result: 'pass' | 'reject';
}

const LEVEL_ACTOR: Record<string, string> = { branch: '支部书记', committee: '二级党委', orgdept: '党委组织部', otherBranch: '转入党支部书记', otherCommittee: '转入二级党委', other: '对方党组织', self: '本人' };

/** The pass steps from the initial state to the final one (the school's own process), then the refusal from the first waiting state. */
function mainLine(moduleId: string, wf: WorkflowSchema): { line: Step[]; reject?: TransitionInfo } {
  const all = transitionsOf(moduleId, wf);
  const line: Step[] = [];
  let state = wf.initial;
  for (let guard = 0; guard < 20 && !wf.states[String(state)]?.final; guard++) {
    const t = all.find((x) => x.result === 'pass' && typeof x.to === 'number' && x.to !== state && x.to >= 0 && x.from.includes(state));
    if (!t) break;
    const level = t.level === 'next' ? 'branch' : Array.isArray(t.level) ? t.level[0] : t.level;
    line.push({ key: t.key, id: t.id, title: t.title, level, from: state, to: t.to as number, result: 'pass' });
    state = t.to as number;
  }
  return { line, reject: all.find((x) => x.result === 'reject') };
}

/** The steps a record in `state` has been through. */
function stepsTo(moduleId: string, wf: WorkflowSchema, state: number): Step[] {
  const { line, reject } = mainLine(moduleId, wf);
  if (state === wf.initial) return [];
  const i = line.findIndex((s) => s.to === state);
  if (i >= 0) return line.slice(0, i + 1);
  if (reject && state === reject.to) {
    const first = line[0];
    return first ? [first, { key: reject.key, id: reject.id, title: reject.title, level: 'committee', from: first.to, to: state, result: 'reject' }] : [];
  }
  return [];
}

/**
 * Every state a record of the process can be left in by the seed: the refusal's first (its member is free
 * again for another record), then the main line's.
 */
function statesOf(moduleId: string, wf: WorkflowSchema): number[] {
  const { line, reject } = mainLine(moduleId, wf);
  return [...(reject && typeof reject.to === 'number' ? [reject.to] : []), wf.initial, ...line.map((s) => s.to)];
}

async function insertChunks(db: AnyDb, table: string, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) ids.push(...(await db.insertInto(table).values(rows.slice(i, i + CHUNK)).returning('id').execute()).map((r) => Number(r.id)));
  return ids;
}

const TO_ORGS = ['中共长沙市岳麓区委员会组织部', '中共湖南省交通运输厅机关委员会', '中共中南大学委员会组织部', '中共深圳市南山区委员会组织部', '中共广州铁路（集团）公司委员会', '中共株洲市天元区委员会组织部', '中共湖南大学委员会组织部', '中共中国铁建股份有限公司委员会'];
const FROM_ORGS = ['中共湘潭大学委员会', '中共长沙理工大学委员会', '中共湖南师范大学委员会', '中共衡阳市雁峰区委员会组织部', '中共中国中车株洲电力机车有限公司委员会', '中共湖南工业大学委员会'];
const PLACES: [string, string][] = [['广东省深圳市南山区', '中共深圳市南山区流动党员党委'], ['上海市浦东新区', '中共上海市浦东新区张江镇委员会'], ['浙江省杭州市西湖区', '中共杭州市西湖区流动党员党总支'], ['湖北省武汉市洪山区', '中共武汉市洪山区关山街道工作委员会'], ['北京市海淀区', '中共北京市海淀区中关村街道工作委员会']];
const OUT_REASONS = ['毕业', '工作调动', '升学', '毕业', '工作调动', '其他'];

export async function seedTransfers(database: Database, options: TransferSeedOptions): Promise<TransferSeedCounts> {
  const today = options.today ?? localToday();
  const rng = new Random(options.seed ?? 1717);
  const registry = ModuleRegistry.load(options.schemasDir, options.school);
  const workflow = (id: string) => registry.get(id)?.workflow?.schema;
  const counts: TransferSeedCounts = { internal: 0, out: 0, in: 0, floating: 0, contacts: 0, logEntries: 0 };
  if (!workflow('transfer-internal') || !workflow('transfer-out') || !workflow('transfer-in') || !workflow('floating')) return counts;

  return database.db.transaction().execute(async (trx) => {
    const db = trx as unknown as AnyDb;
    const orgs = (await sql<{ id: number; parent_id: number | null; type: string | null }>`SELECT id, parent_id, type FROM m_org`.execute(db)).rows;
    const byId = new Map(orgs.map((o) => [o.id, o]));
    const committeeOf = (id: number): number => {
      for (let o = byId.get(id); o; o = o.parent_id === null ? undefined : byId.get(o.parent_id)) if (['1', '2'].includes(o.type ?? '') && o.parent_id !== null) return o.id;
      return orgs.find((o) => o.parent_id === null)?.id ?? id;
    };
    const root = orgs.find((o) => o.parent_id === null)?.id ?? null;
    const members = (
      await sql<Member>`SELECT id, name, org_id AS "orgId", member_type AS "memberType", join_date::text AS "joinDate", phone FROM m_member WHERE party_status = '1' ORDER BY id`.execute(db)
    ).rows;
    const branches = new Map<number, Branch>();
    for (const m of members) {
      if (!branches.has(m.orgId)) branches.set(m.orgId, { id: m.orgId, committee: committeeOf(m.orgId), members: [] });
      branches.get(m.orgId)!.members.push(m);
    }
    const branchList = [...branches.values()].filter((b) => b.members.length >= 3);
    if (branchList.length < 2) return counts;
    const used = new Set<number>();
    const usedIds = new Set<string>();
    const focus = (options.focusBranchIds ?? []).map((id) => branches.get(id)).filter((b): b is Branch => !!b);
    /** A member not yet in a transfer, of the branch (or any branch). */
    const freeMember = (branch?: Branch): Member | undefined => {
      const pool = branch ? branch.members : branchList[rng.int(0, branchList.length - 1)].members;
      return pool.find((m) => !used.has(m.id) && (used.add(m.id), true));
    };
    const log: Row[] = [];
    const memberUpdates: { id: number; set: Row }[] = [];

    /** The plan: focus branches get every state first, then states at random. */
    const plan = (moduleId: string) => {
      const states = statesOf(moduleId, workflow(moduleId)!);
      const out: { state: number; branch?: Branch }[] = [];
      for (const b of focus) for (const state of states) out.push({ state, branch: b });
      while (out.length < options.count) out.push({ state: rng.weighted(states.map((s, i) => [s, i === states.length - 2 ? 4 : 2] as const)) });
      return out;
    };
    /** Dates of the steps, in order, the last one within the last weeks (older for finished records). */
    const stepDates = (n: number, start: string) => {
      const dates: string[] = [];
      let d = start;
      for (let i = 0; i < n; i++) {
        d = addDays(d, rng.int(1, 6));
        dates.push(d > today ? today : d);
      }
      return dates;
    };
    const logSteps = (module: string, recordId: number, steps: Step[], dates: string[], orgs: { own: number; other?: number }) => {
      steps.forEach((s, i) => {
        const acting = s.level === 'orgdept' ? root : s.level === 'committee' ? committeeOf(orgs.own) : s.level === 'otherCommittee' ? committeeOf(orgs.other ?? orgs.own) : s.level === 'otherBranch' ? (orgs.other ?? orgs.own) : orgs.own;
        log.push({
          module, record_id: recordId, transition: s.id, transition_title: s.title, from_state: s.from, to_state: s.to, result: s.result, level: s.level,
          acting_org_id: acting, actor_id: null, actor_name: LEVEL_ACTOR[s.level] ?? '', comment: s.result === 'reject' ? '不符合转接条件' : i === 0 ? '' : '同意',
          at: new Date(`${dates[i]}T${String(9 + (i % 8)).padStart(2, '0')}:30:00`),
        });
      });
    };

    // ---------------------------------------------------------------- 转出校外 (letters numbered in issue order)
    {
      const wf = workflow('transfer-out')!;
      const letters: { id: number; issued: string; reissue: boolean }[] = [];
      for (const p of plan('transfer-out')) {
        const member = freeMember(p.branch);
        if (!member) continue;
        const steps = stepsTo('transfer-out', wf, p.state);
        const applyDate = addDays(today, -rng.int(steps.length * 6 + 2, steps.length * 6 + 150));
        const dates = stepDates(steps.length, applyDate);
        const issueAt = steps.findIndex((s) => s.id === 'approve' && s.level === 'orgdept');
        const issued = issueAt >= 0 ? dates[issueAt] : null;
        const temporary = rng.chance(0.15);
        const done = wf.states[String(p.state)]?.final && p.state >= 0;
        if (p.state < 0 && wf.states[String(p.state)]?.final) used.delete(member.id);
        const receipt = done && rng.chance(0.6) ? addDays(dates[dates.length - 1], rng.int(5, 25)) : null;
        const [id] = await insertChunks(db, 'm_transfer_out', [{
          school: options.school, member_id: member.id, name: member.name, org_id: member.orgId, kind: temporary ? '临时组织关系' : '正式组织关系',
          to_org_name: rng.pick(TO_ORGS), destination: temporary ? '外出学习' : null, reason: temporary ? '外出学习' : rng.pick(OUT_REASONS), apply_date: applyDate,
          member_phone: member.phone, end_date: temporary ? addMonths(applyDate, rng.int(4, 12)) : null, member_type: member.memberType, join_date: member.joinDate,
          probation_end: member.memberType === '2' ? probationEnd(member.joinDate) : null, valid_days: rng.pick([30, 30, 30, 60, 90]),
          issue_date: issued, dues_paid_to: issued ? monthOf(addMonths(issued, -1)) : null, leave_date: done ? dates[dates.length - 1] : null,
          receipt_date: receipt && receipt <= today ? receipt : null, receipt_note: receipt && receipt <= today ? '回执已收到' : null, state: p.state,
        }]);
        logSteps('transfer-out', id, steps, dates, { own: member.orgId });
        if (issued) letters.push({ id, issued, reissue: letters.length === 2 });
        if (done && !temporary) memberUpdates.push({ id: member.id, set: { party_status: '6' } });
        counts.out++;
      }
      letters.sort((x, y) => (x.issued < y.issued ? -1 : x.issued > y.issued ? 1 : x.id - y.id));
      for (const l of letters) {
        const year = Number(l.issued.slice(0, 4));
        let letter = await issueLetterNumber(trx as unknown as Kysely<DB>, { school: options.school, year, transferId: l.id, issuedOn: l.issued, issuedBy: null });
        if (l.reissue) {
          // One letter re-issued after a mistake: its first number stays in the register as cancelled.
          await cancelLetters(trx as unknown as Kysely<DB>, l.id, '重开介绍信，原介绍信作废');
          letter = await issueLetterNumber(trx as unknown as Kysely<DB>, { school: options.school, year, transferId: l.id, issuedOn: l.issued, issuedBy: null });
        }
        await db.updateTable('m_transfer_out').set({ letter_no: letter.letterNo }).where('id', '=', l.id).execute();
      }
    }

    // ---------------------------------------------------------------- 流动党员 (outflow of members, inflow of others)
    {
      const wf = workflow('floating')!;
      for (const p of plan('floating')) {
        const full = p.branch && !p.branch.members.some((m) => !used.has(m.id));
        const type = !full && rng.chance(0.7) ? 'out' : 'in';
        const member = type === 'out' ? freeMember(p.branch) : undefined;
        if (type === 'out' && !member) continue;
        const branch = member ? branches.get(member.orgId)! : (p.branch ?? branchList[rng.int(0, branchList.length - 1)]);
        const who = member ? { name: member.name, idCard: null, phone: member.phone } : person(rng, 1975, 2002, usedIds);
        const steps = stepsTo('floating', wf, p.state);
        const leaveDate = addMonths(today, -rng.int(6, 20));
        const dates = stepDates(steps.length, addDays(leaveDate, -rng.int(5, 20)));
        const done = wf.states[String(p.state)]?.final && p.state >= 0;
        if (member && p.state < 0 && wf.states[String(p.state)]?.final) used.delete(member.id);
        const [place, floatingOrg] = rng.pick(PLACES);
        const [id] = await insertChunks(db, 'm_floating', [{
          school: options.school, type, member_id: member?.id ?? null, name: who.name, id_card: who.idCard, phone: who.phone, org_id: branch.id, leave_date: leaveDate,
          expected_return_date: addMonths(leaveDate, rng.int(8, 24)), destination: type === 'out' ? place : rng.pick(['湖北省武汉市', '江西省南昌市', '湖南省衡阳市']),
          reason: rng.pick(['务工经商', '学习进修', '挂职锻炼', '实习']), floating_org_name: type === 'out' ? floatingOrg : rng.pick(FROM_ORGS), floating_org_contact: '王老师 0731-88880000',
          certificate_no: p.state >= 1 || done ? `LD${leaveDate.slice(0, 4)}${String(rng.int(1, 9999)).padStart(4, '0')}` : null, return_date: done ? addMonths(leaveDate, rng.int(6, 12)) : null, state: p.state,
        }]);
        logSteps('floating', id, steps, dates, { own: branch.id });
        counts.floating++;
      }
    }

    // ---------------------------------------------------------------- 校内转接
    {
      const wf = workflow('transfer-internal')!;
      for (const p of plan('transfer-internal')) {
        // A focus branch with no member left receives one instead (it sees the transfer as the receiving side).
        const into = p.branch && !p.branch.members.some((m) => !used.has(m.id)) ? p.branch : undefined;
        const member = into ? freeMember(branchList.find((b) => b.id !== into.id && b.members.some((m) => !used.has(m.id)))) : freeMember(p.branch);
        if (!member) continue;
        const from = branches.get(member.orgId)!;
        const to = into ?? (rng.chance(0.5) ? branchList.find((b) => b.committee === from.committee && b.id !== from.id) ?? branchList.find((b) => b.id !== from.id)! : branchList[rng.int(0, branchList.length - 1)]);
        if (to.id === from.id) continue;
        const steps = stepsTo('transfer-internal', wf, p.state);
        const applyDate = addDays(today, -rng.int(steps.length * 6 + 2, steps.length * 6 + 120));
        const dates = stepDates(steps.length, applyDate);
        const done = wf.states[String(p.state)]?.final && p.state >= 0;
        if (p.state < 0 && wf.states[String(p.state)]?.final) used.delete(member.id);
        const [id] = await insertChunks(db, 'm_transfer_internal', [{
          school: options.school, member_id: member.id, name: member.name, from_org_id: from.id, to_org_id: to.id, apply_date: applyDate, reason: rng.pick(['工作调动', '转专业', '升学（本校研究生）', '部门调整', '随导师调入']),
          member_type: member.memberType, join_date: member.joinDate, probation_end: member.memberType === '2' ? probationEnd(member.joinDate) : null,
          complete_date: done ? dates[dates.length - 1] : null, state: p.state,
        }]);
        logSteps('transfer-internal', id, steps, dates, { own: from.id, other: to.id });
        if (done) memberUpdates.push({ id: member.id, set: { org_id: to.id } });
        counts.internal++;
      }
    }

    // ---------------------------------------------------------------- 校外转入 (new members on completion)
    {
      const wf = workflow('transfer-in')!;
      for (const p of plan('transfer-in')) {
        const branch = p.branch ?? branchList[rng.int(0, branchList.length - 1)];
        const steps = stepsTo('transfer-in', wf, p.state);
        const done = wf.states[String(p.state)]?.final && p.state >= 0;
        const issueDate = addDays(today, -rng.int(steps.length * 4 + 1, done || p.state < 0 ? 120 : 25));
        const dates = stepDates(steps.length, issueDate);
        const who = person(rng, 1996, 2004, usedIds);
        const memberType = rng.chance(0.3) ? '2' : '1';
        const joinDate = memberType === '2' ? addMonths(today, -rng.int(2, 10)) : addMonths(today, -rng.int(14, 60));
        const fullDate = memberType === '1' ? addMonths(joinDate, 12) : null;
        const arrive = done ? dates[dates.length - 1] : null;
        let memberId: number | null = null;
        if (done) {
          [memberId] = await insertChunks(db, 'm_member', [{
            school: options.school, name: who.name, gender: who.gender, ethnicity: who.ethnicity, birth_date: who.birthDate, id_card: who.idCard, native_place: who.nativePlace,
            category: rng.pick(['1', '3']), member_type: memberType, party_status: '1', join_date: joinDate, full_date: fullDate, org_id: branch.id, phone: who.phone,
          }]);
        }
        const [id] = await insertChunks(db, 'm_transfer_in', [{
          school: options.school, name: who.name, gender: who.gender, id_card: who.idCard, ethnicity: who.ethnicity, category: '3', phone: who.phone, member_type: memberType,
          join_date: joinDate, full_date: fullDate, probation_end: memberType === '2' ? probationEnd(joinDate) : null, from_org_name: rng.pick(FROM_ORGS),
          letter_no: `${issueDate.slice(0, 4)}-${String(rng.int(1, 900)).padStart(4, '0')}`, issue_date: issueDate, valid_days: 30, dues_paid_to: monthOf(addMonths(issueDate, -1)),
          to_org_id: p.state >= 1 || done ? branch.id : branch.committee, register_date: issueDate, arrive_date: arrive, member_id: memberId,
          receipt_date: done && rng.chance(0.7) ? arrive : null, state: p.state,
        }]);
        logSteps('transfer-in', id, steps, dates, { own: branch.id });
        counts.in++;
      }
    }

    for (let i = 0; i < log.length; i += CHUNK) await db.insertInto('workflow_log').values(log.slice(i, i + CHUNK)).execute();
    counts.logEntries = log.length;
    for (const u of memberUpdates) await db.updateTable('m_member').set(u.set).where('id', '=', u.id).execute();

    // ---------------------------------------------------------------- contact records
    const contacts: Row[] = [];
    for (const m of members) {
      if (used.has(m.id) && rng.chance(0.5)) continue;
      const roll = rng.next();
      if (roll < 0.015) contacts.push({ school: options.school, member_id: m.id, org_id: m.orgId, contact_date: addMonths(today, -rng.int(7, 14)), way: '电话', away: false, note: '电话未接通，短信未回复' });
      else if (roll < 0.025) contacts.push({ school: options.school, member_id: m.id, org_id: m.orgId, contact_date: addDays(today, -rng.int(5, 60)), way: '微信', away: true, away_since: addMonths(today, -rng.int(7, 12)), place: rng.pick(PLACES)[0], note: '在外务工，地点相对固定' });
      else contacts.push({ school: options.school, member_id: m.id, org_id: m.orgId, contact_date: addDays(today, -rng.int(3, 150)), way: rng.pick(['面谈', '电话', '微信']), away: false, note: rng.pick(['参加支部组织生活', '谈心谈话', '电话联系，情况正常']) });
    }
    for (let i = 0; i < contacts.length; i += CHUNK) await db.insertInto('m_member_contact').values(contacts.slice(i, i + CHUNK)).execute();
    counts.contacts = contacts.length;
    return counts;
  });
}

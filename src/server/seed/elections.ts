/**
 * Demo elections (docs/elections.md): a current and a past term for every organisation (some ending within
 * six months, some overdue), one branch election finished with its ballots counted and the new term written,
 * one 党总支 (or college committee) election in progress. Bulk inserts; the approval log as the steps wrote it.
 */
import { sql, type Kysely } from 'kysely';
import { minimumCandidates } from '../../shared/ballot.js';
import { ballotLines } from '../../shared/ballot-sheet.js';
import { addDays, addMonths } from '../../shared/calendar.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/types.js';
import { memberCountUnder } from '../domain/elections/congress.js';
import { ballotOrder, countRound } from '../domain/elections/count.js';
import { bodyOf, defaultTermYears, newTermOf } from '../domain/elections/rules.js';

interface OrgRow {
  id: number;
  name: string;
  type: string | null;
  parent_id: number | null;
}

const CHUNK = 500;

/** Where an organisation's term ends, spread by id: about 1 in 7 overdue, 1 in 7 within six months, the rest later. */
export function demoTermEnd(id: number, today: string): string {
  const bucket = id % 7;
  if (bucket === 0) return addDays(today, -(20 + (id % 200)));
  if (bucket === 1) return addDays(today, 10 + (id % 160));
  return addDays(today, 200 + ((id * 37) % 700));
}

export async function seedElections(database: Database, options: { school: string; focusBranchId?: number | null; focusCommitteeId?: number | null; today?: string }) {
  const db = database.db as Kysely<DB>;
  const today = options.today ?? localToday();
  const orgs = (await sql<OrgRow>`SELECT id, name, type, parent_id FROM m_org ORDER BY id`.execute(db)).rows;
  const terms: Record<string, unknown>[] = [];
  const ends = new Map<number, { start: string; end: string }>();
  for (const o of orgs) {
    const years = defaultTermYears(o.type);
    const end = demoTermEnd(o.id, today);
    const start = addDays(addMonths(end, -12 * years), 1);
    ends.set(o.id, { start, end });
    const prevStart = addMonths(start, -12 * years);
    const base = { school: options.school, org_id: o.id, version: 1 };
    terms.push({ ...base, term_no: 1, name: `${o.name}第1届（${prevStart}至${addDays(start, -1)}）`, term_start: prevStart, term_end: addDays(start, -1), current: false });
    terms.push({ ...base, term_no: 2, name: `${o.name}第2届（${start}至${end}）`, term_start: start, term_end: end, current: true });
    // A 党委's 纪委 has its own term (elected at the same congress, so the same dates here).
    if (o.type === '1') terms.push({ ...base, body: '纪委', term_no: 2, name: `${o.name}纪律检查委员会第2届（${start}至${end}）`, term_start: start, term_end: end, current: true });
  }
  for (let i = 0; i < terms.length; i += CHUNK) await db.insertInto('m_org_term' as never).values(terms.slice(i, i + CHUNK) as never).execute();
  if (orgs.length) {
    const values = sql.join(orgs.map((o) => sql`(${o.id}::int, ${ends.get(o.id)!.start}::date, ${ends.get(o.id)!.end}::date)`));
    await sql`UPDATE m_org o SET term_start = v.s, term_end = v.e FROM (VALUES ${values}) AS v(id, s, e) WHERE o.id = v.id`.execute(db);
  }
  await branchCommittees(db);

  const finished = await finishedBranchElection(db, options.school, orgs, options.focusBranchId ?? null, today);
  const inProgress = await electionInProgress(db, options.school, orgs, options.focusCommitteeId ?? null, today);
  const congress = await congressInPreparation(db, options.school, orgs, today);
  return { terms: terms.length, elections: [finished, inProgress].filter(Boolean).length, congress };
}

/** The university committee's congress in preparation: approved, delegates being nominated and elected by the units. */
async function congressInPreparation(db: Kysely<DB>, school: string, orgs: OrgRow[], today: string): Promise<number | null> {
  const root = orgs.find((o) => o.parent_id === null);
  if (!root) return null;
  const quota = 150;
  const members = await memberCountUnder(db, root.id);
  const [row] = (
    await sql<{ id: number }>`INSERT INTO m_congress (school, version, name, org_id, session_no, state, member_count, delegate_quota, planned_date, request_date, approve_date, approve_doc)
      VALUES (${school}, 3, ${`${root.name.replace(/委员会$/, '')}第三次代表大会`}, ${root.id}, 3, 1, ${members}, ${quota}, ${addDays(today, 75)}, ${addDays(today, -60)}, ${addDays(today, -45)}, '演示〔批复〕9号')
      RETURNING id`.execute(db)
  ).rows;
  const id = row!.id;
  await db
    .insertInto('workflow_log')
    .values(
      [
        { transition: 'request', transition_title: '向上级党组织请示', from_state: -1, to_state: 0, level: 'own', acting_org_id: root.id, step_values: JSON.stringify({ delegateQuota: quota }), at: addDays(today, -60) },
        { transition: 'approve', transition_title: '上级党组织批复', from_state: 0, to_state: 1, level: 'above', acting_org_id: root.id, step_values: JSON.stringify({ approveDoc: '演示〔批复〕9号' }), at: addDays(today, -45) },
      ].map((r) => ({ ...r, module: 'congress', record_id: id, result: 'pass', actor_id: null, actor_name: '演示数据', comment: '', value_texts: '[]', warnings: '[]', ip: null, at: new Date(`${r.at}T09:00:00+08:00`) })) as never,
    )
    .execute();
  await db
    .insertInto('m_congress_session' as never)
    .values([
      { school, version: 1, congress_id: id, title: '预备会议：选举大会主席团、通过大会议程', session_date: addDays(today, 75), kind: '预备会议' },
      { school, version: 1, congress_id: id, title: '第一次全体会议：听取和审查党委工作报告、纪委工作报告', session_date: addDays(today, 75), kind: '全体会议' },
      { school, version: 1, congress_id: id, title: '选举大会：选举新一届党委委员、纪委委员', session_date: addDays(today, 76), kind: '选举大会' },
    ] as never)
    .execute();
  // Nominations in the first two units: the first elected its delegates, the second has its candidates (二下二上).
  const units = orgs.filter((o) => o.parent_id === root.id).slice(0, 2);
  const delegates: Record<string, unknown>[] = [];
  for (const [i, unit] of units.entries()) {
    const subtree = new Set([unit.id]);
    for (const o of orgs) if (o.parent_id !== null && subtree.has(o.parent_id)) subtree.add(o.id);
    const people = (await sql<{ id: number; name: string; gender: string | null; ethnicity: string | null; birth_date: string | null; category: string | null }>`
      SELECT id, name, gender, ethnicity, birth_date, category FROM m_member WHERE org_id = ANY(${[...subtree]}::int[]) AND member_type = '1' AND party_status = '1' ORDER BY id LIMIT 12`.execute(db)).rows;
    const seats = Math.max(1, Math.floor(people.length / 1.2) - 1);
    people.slice(0, minimumCandidates(seats)).forEach((p, k) => {
      const status = i === 0 ? (k < seats ? '当选代表' : '未当选') : '候选人';
      delegates.push({ school, version: 1, congress_id: id, unit_org_id: unit.id, member_id: p.id, name: p.name, status, round: i === 0 ? '三下三上' : '二下二上', gender: p.gender, ethnicity: p.ethnicity, birth_date: p.birth_date, front_line: ['1', '3', '4', '5'].includes(p.category ?? '') });
    });
  }
  if (delegates.length) await db.insertInto('m_delegate' as never).values(delegates as never).execute();
  await db.insertInto('m_congress_proposal' as never).values([{ school, version: 1, congress_id: id, title: '关于加强学生党支部标准化建设的提案', seconders: 12, status: '待审查' }] as never).execute();
  return id;
}

async function fullMembersOf(db: Kysely<DB>, orgIds: number[]): Promise<{ id: number; name: string }[]> {
  if (!orgIds.length) return [];
  return (await sql<{ id: number; name: string }>`SELECT id, name FROM m_member WHERE org_id = ANY(${orgIds}::int[]) AND member_type = '1' AND party_status = '1' ORDER BY id`.execute(db)).rows;
}

/**
 * Each branch's current 支部委员会: its first three full members on the roll (书记 the first), on the current term
 * and on the organisation alike — one source of truth for who leads a branch (a 支委会's attendance starts from it).
 */
async function branchCommittees(db: Kysely<DB>): Promise<void> {
  await sql`
    WITH ranked AS (
      SELECT m.org_id, m.name, row_number() OVER (PARTITION BY m.org_id ORDER BY m.id) AS n
      FROM m_member m JOIN m_org o ON o.id = m.org_id
      WHERE o.type = '3' AND m.member_type = '1' AND m.party_status = '1'),
    committees AS (
      SELECT org_id, max(name) FILTER (WHERE n = 1) AS secretary,
             string_agg(name || CASE WHEN n = 1 THEN '（书记）' ELSE '（委员）' END, '、' ORDER BY n) AS committee
      FROM ranked WHERE n <= 3 GROUP BY org_id),
    terms AS (
      UPDATE m_org_term t SET secretary = c.secretary, committee = c.committee FROM committees c
      WHERE t.org_id = c.org_id AND t.current AND t.body IS NULL RETURNING t.id)
    UPDATE m_org o SET secretary = c.secretary, committee = c.committee FROM committees c WHERE o.id = c.org_id`.execute(db);
}

/** The branch to show a finished election in: the demo branch when it has enough full members, else the largest. */
async function pickBranch(db: Kysely<DB>, focus: number | null): Promise<number | null> {
  const rows = (
    await sql<{ id: number; n: number }>`SELECT o.id, count(m.id)::int AS n FROM m_org o JOIN m_member m ON m.org_id = o.id AND m.member_type = '1' AND m.party_status = '1'
      WHERE o.type IN ('3', '4') GROUP BY o.id ORDER BY n DESC, o.id`.execute(db)
  ).rows;
  const focused = rows.find((r) => r.id === focus);
  if (focused && focused.n >= 5) return focused.id;
  return rows[0] && rows[0].n >= 5 ? rows[0].id : null;
}

interface LogRow {
  transition: string;
  title: string;
  from: number;
  to: number;
  level: string;
  actingOrgId: number | null;
  values?: Record<string, unknown>;
  warnings?: string[];
  at: string;
}

async function writeLogs(db: Kysely<DB>, recordId: number, rows: LogRow[]) {
  if (!rows.length) return;
  await db
    .insertInto('workflow_log')
    .values(
      rows.map((r) => ({
        module: 'election',
        record_id: recordId,
        transition: r.transition,
        transition_title: r.title,
        from_state: r.from,
        to_state: r.to,
        result: 'pass',
        level: r.level,
        acting_org_id: r.actingOrgId,
        actor_id: null,
        actor_name: '演示数据',
        comment: '',
        step_values: JSON.stringify(r.values ?? {}),
        value_texts: JSON.stringify([]),
        warnings: JSON.stringify(r.warnings ?? []),
        ip: null,
        at: new Date(`${r.at}T09:00:00+08:00`),
      })) as never,
    )
    .execute();
}

async function finishedBranchElection(db: Kysely<DB>, school: string, orgs: OrgRow[], focus: number | null, today: string): Promise<number | null> {
  const branchId = await pickBranch(db, focus);
  const branch = orgs.find((o) => o.id === branchId);
  if (!branch) return null;
  const above = orgs.find((o) => o.id === branch.parent_id) ?? branch;
  const voters = await fullMembersOf(db, [branch.id]);
  const seats = voters.length >= 9 ? 5 : 3;
  const candidates = voters.slice(0, minimumCandidates(seats)).map((m) => m.id);
  const voterIds = voters.map((m) => m.id);
  // The assembly two months ago; every voter there but one; one ballot void (more marks than seats).
  const assemblyDate = addDays(today, -60);
  const present = voterIds.length - 1;
  // Some ballots mark the last candidate 不赞成 (the tally sheet shows 赞成, 不赞成, 弃权 per candidate).
  const ballots = Array.from({ length: present }, (_, i) => ({
    marks: i === 0 ? candidates : i % 6 === 1 ? candidates.slice(1, seats + 1) : candidates.slice(0, seats),
    against: i % 4 === 2 ? candidates.slice(seats) : [],
  }));
  const voterName = new Map(voters.map((m) => [m.id, m.name]));
  const ballotText = ballotLines(ballots, ballotOrder(candidates, (id) => voterName.get(id) ?? ''));
  const base = { name: `${branch.name}换届选举（${assemblyDate.slice(0, 4)}年）`, orgId: branch.id, seats, candidateIds: candidates, voterIds, round: 0 };
  const counted = await countRound(db, base, present, ballotText);
  if ('problem' in counted) return null;
  const elected = counted.values.electedIds as number[];
  const secretaryId = elected[0] ?? null;
  // The term starts on the level above's approval of the result.
  const approvedOn = addDays(assemblyDate, 10);
  const term = newTermOf(approvedOn, defaultTermYears(branch.type));
  const committee = elected.map((id) => `${voterName.get(id)}（${id === secretaryId ? '书记' : '委员'}）`).join('、');
  const [row] = (
    await sql<{ id: number }>`INSERT INTO m_election (school, version, name, org_id, body, method, state, current_term_end, request_date, request_doc, approve_date, approve_doc,
        seats, term_years, nomination_round, candidate_ids, candidates_approve_date, voter_ids, assembly_date, present, round, ballots_issued, ballots_returned, ballots_valid,
        ballots_void, vote_summary, elected_ids, further_round_ids, seats_left, first_meeting_date, secretary_id, deputy_ids, report_date, report_doc, result_approve_date, result_approve_doc, term_start, term_end)
      VALUES (${school}, 12, ${base.name}, ${branch.id}, ${bodyOf(branch.type)}, '党员大会', 8, ${addDays(assemblyDate, 3)}, ${addDays(assemblyDate, -120)}, '党支〔演示〕1号',
        ${addDays(assemblyDate, -110)}, '党委〔演示〕1号', ${seats}, ${defaultTermYears(branch.type)}, '三下三上', ${JSON.stringify(candidates)}::jsonb, ${addDays(assemblyDate, -20)},
        ${JSON.stringify(voterIds)}::jsonb, ${assemblyDate}, ${present}, 1, ${present}, ${counted.values.ballotsReturned as number}, ${counted.values.ballotsValid as number},
        ${counted.values.ballotsVoid as number}, ${counted.values.voteSummary as string}, ${JSON.stringify(elected)}::jsonb, ${JSON.stringify(counted.values.furtherRoundIds)}::jsonb,
        ${counted.values.seatsLeft as number}, ${assemblyDate}, ${secretaryId}, '[]'::jsonb, ${addDays(assemblyDate, 2)}, '党支〔演示〕2号', ${approvedOn}, '党委〔演示〕3号', ${term.termStart}, ${term.termEnd})
      RETURNING id`.execute(db)
  ).rows;
  const id = row!.id;
  const own = branch.id;
  await writeLogs(db, id, [
    { transition: 'request', title: '向上级党组织请示', from: -1, to: 0, level: 'own', actingOrgId: own, values: { requestDate: addDays(assemblyDate, -120) }, at: addDays(assemblyDate, -120) },
    { transition: 'approveRequest', title: '上级党组织批复请示', from: 0, to: 1, level: 'above', actingOrgId: above.id, values: { approveDate: addDays(assemblyDate, -110) }, at: addDays(assemblyDate, -110) },
    { transition: 'plan', title: '制定选举工作方案', from: 1, to: 2, level: 'own', actingOrgId: own, values: { seats, termYears: defaultTermYears(branch.type) }, at: addDays(assemblyDate, -100) },
    ...(['一下一上', '二下二上', '三下三上'] as const).map((round, i) => ({ transition: 'nominate', title: '酝酿候选人', from: 2, to: 2, level: 'own', actingOrgId: own, values: { nominationRound: round, candidateIds: candidates }, at: addDays(assemblyDate, -90 + i * 15) })),
    { transition: 'submitCandidates', title: '报批候选人预备人选', from: 2, to: 3, level: 'own', actingOrgId: own, values: { candidateIds: candidates }, at: addDays(assemblyDate, -40) },
    { transition: 'approveCandidates', title: '上级党组织审批候选人名单', from: 3, to: 4, level: 'above', actingOrgId: above.id, values: { candidatesApproveDate: addDays(assemblyDate, -20) }, at: addDays(assemblyDate, -20) },
    { transition: 'assembly', title: '召开选举大会', from: 4, to: 5, level: 'own', actingOrgId: own, values: { assemblyDate, voterIds, present }, at: assemblyDate },
    { transition: 'count', title: '投票计票', from: 5, to: 5, level: 'own', actingOrgId: own, values: { ballotsIssued: present, ballots: ballotText }, warnings: [counted.summary], at: assemblyDate },
    { transition: 'confirm', title: '确认选举结果', from: 5, to: 6, level: 'own', actingOrgId: own, at: assemblyDate },
    { transition: 'firstMeeting', title: '委员会第一次全体会议', from: 6, to: 7, level: 'own', actingOrgId: own, values: { firstMeetingDate: assemblyDate, secretaryId }, at: assemblyDate },
    { transition: 'report', title: '选举结果报上级党组织', from: 7, to: 9, level: 'own', actingOrgId: own, values: { reportDate: addDays(assemblyDate, 2) }, at: addDays(assemblyDate, 2) },
    { transition: 'approveResult', title: '上级党组织批准选举结果', from: 9, to: 8, level: 'above', actingOrgId: above.id, values: { resultApproveDate: approvedOn }, at: approvedOn },
  ]);
  // The new term: the branch's third, current; the demo term before it becomes history.
  await sql`UPDATE m_org_term SET current = false WHERE org_id = ${branch.id} AND body IS DISTINCT FROM '纪委'`.execute(db);
  await sql`INSERT INTO m_org_term (school, version, org_id, body, term_no, name, term_start, term_end, current, secretary, committee, election_id)
    VALUES (${school}, 1, ${branch.id}, '支部', 3, ${`${branch.name}第3届（${term.termStart}至${term.termEnd}）`}, ${term.termStart}, ${term.termEnd}, true, ${secretaryId ? voterName.get(secretaryId)! : null}, ${committee}, ${id})`.execute(db);
  await sql`UPDATE m_org SET term_start = ${term.termStart}, term_end = ${term.termEnd}, secretary = ${secretaryId ? voterName.get(secretaryId)! : null}, committee = ${committee} WHERE id = ${branch.id}`.execute(db);
  return id;
}

/** A 党总支's election (else a college committee's) with the request approved and candidates being nominated. */
async function electionInProgress(db: Kysely<DB>, school: string, orgs: OrgRow[], focus: number | null, today: string): Promise<number | null> {
  const org = orgs.find((o) => o.type === '2' && o.parent_id !== null && orgs.some((c) => c.parent_id === o.id)) ?? orgs.find((o) => o.id === focus) ?? orgs.find((o) => o.type === '1' && o.parent_id !== null);
  if (!org) return null;
  const above = orgs.find((o) => o.id === org.parent_id) ?? org;
  const subtree = new Set([org.id]);
  for (const o of orgs) if (o.parent_id !== null && subtree.has(o.parent_id)) subtree.add(o.id);
  const voters = await fullMembersOf(db, [...subtree]);
  const seats = defaultTermYears(org.type) === 5 ? 7 : 5;
  const candidates = voters.slice(0, minimumCandidates(seats) - 1).map((m) => m.id); // one short: the 20% rule still to meet
  const requestDate = addDays(today, -40);
  const [row] = (
    await sql<{ id: number }>`INSERT INTO m_election (school, version, name, org_id, body, method, state, current_term_end, request_date, request_doc, approve_date, approve_doc, seats, term_years, nomination_round, candidate_ids, voter_ids)
      VALUES (${school}, 5, ${`${org.name}换届选举（${today.slice(0, 4)}年）`}, ${org.id}, ${bodyOf(org.type)}, '党员大会', 2, ${addDays(today, 100)}, ${requestDate}, '演示〔请示〕3号', ${addDays(requestDate, 10)}, '演示〔批复〕3号',
        ${seats}, ${defaultTermYears(org.type)}, '一下一上', ${JSON.stringify(candidates)}::jsonb, ${JSON.stringify(voters.map((m) => m.id))}::jsonb) RETURNING id`.execute(db)
  ).rows;
  const id = row!.id;
  await writeLogs(db, id, [
    { transition: 'request', title: '向上级党组织请示', from: -1, to: 0, level: 'own', actingOrgId: org.id, values: { requestDate }, at: requestDate },
    { transition: 'approveRequest', title: '上级党组织批复请示', from: 0, to: 1, level: 'above', actingOrgId: above.id, values: { approveDate: addDays(requestDate, 10) }, at: addDays(requestDate, 10) },
    { transition: 'plan', title: '制定选举工作方案', from: 1, to: 2, level: 'own', actingOrgId: org.id, values: { seats }, at: addDays(requestDate, 15) },
    { transition: 'nominate', title: '酝酿候选人', from: 2, to: 2, level: 'own', actingOrgId: org.id, values: { nominationRound: '一下一上', candidateIds: candidates }, at: addDays(requestDate, 25) },
  ]);
  // Its current term ends within the coming months (the election is why).
  await sql`UPDATE m_org SET term_end = ${addDays(today, 100)} WHERE id = ${org.id}`.execute(db);
  await sql`UPDATE m_org_term SET term_end = ${addDays(today, 100)} WHERE org_id = ${org.id} AND current`.execute(db);
  return id;
}

// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the election workflow's guarded steps, the term written onto the organisation in the step's transaction, date arithmetic of terms
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { byStrokes } from '../../src/shared/strokes.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';
import { client } from '../support/transfers.js';

const today = localToday();
type Client = ReturnType<typeof client>;

describe(`elections on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  let zbsj: Client;
  let ejdw: Client;
  let branchId: number;
  let committeeId: number;
  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = client(t.app, await login(t.app));
    zbsj = client(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    ejdw = client(t.app, await login(t.app, 'ejdw', DEMO_USER_PASSWORD));
    const orgOf = async (username: string) => (await t.database.db.selectFrom('users').select('org_id').where('username', '=', username).executeTakeFirstOrThrow()).org_id!;
    branchId = await orgOf('zbsj');
    committeeId = await orgOf('ejdw');
  }, 180_000);
  afterAll(() => t.app.close());

  /** Takes a step on an election as `who` (the version read by the administrator). */
  const stepOn = async (id: number, who: Client, name: string, values: Record<string, unknown> = {}) => {
    const { version } = (await admin.get(`/api/m/election/${id}`)).body;
    return who.post(`/api/m/election/${id}/transitions/${name}`, { version, comment: '', values });
  };
  const passOn = async (id: number, who: Client, name: string, values: Record<string, unknown> = {}) => {
    const res = await stepOn(id, who, name, values);
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };

  const membersOf = async (orgId: number, type: '1' | '2') => {
    // [issue 40.2] only members whose 党籍 is 正常 hold the rights (a 转出 member is refused on the roll).
    const members = (await admin.post('/api/m/member/list?size=200', { orgId, memberType: type, partyStatus: '1' })).body.content as { id: number; name: string }[];
    // [issue 41] nor those in their 留党察看 period (条例第五条); the demo's lifecycle data may place one in this branch.
    const listed = await admin.post('/api/m/member-discipline/list?size=200&fields=all', { kind: '4' });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const disciplines = listed.body.content as { memberId: number; decidedOn: string; probationEnd: string | null }[];
    const onProbation = new Set(disciplines.filter((d) => d.decidedOn <= today && (d.probationEnd ?? '') >= today).map((d) => d.memberId));
    return members.filter((m) => !onProbation.has(m.id));
  };

  it('[S1.F4c] the 20% rule at its boundary: 7→9, 5→6, 3→4', async () => {
    for (const [seats, minimum] of [[7, 9], [5, 6], [3, 4]]) {
      expect((await zbsj.get(`/api/elections/check?seats=${seats}&candidates=${minimum}`)).body).toEqual({ ok: true, minimum });
      expect((await zbsj.get(`/api/elections/check?seats=${seats}&candidates=${minimum - 1}`)).body).toEqual({ ok: false, minimum });
    }
    const bad = await zbsj.get('/api/elections/check?seats=0&candidates=2');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/应选名额/);
  });

  it('[S1.F4c] tally: more than half of those entitled, void ballots, returned > issued, the tie at the last seat', async () => {
    const many = (n: number, marks: number[]) => Array.from({ length: n }, () => ({ marks }));
    // 20 entitled: 10 votes is half (not elected), 11 is more than half.
    const half = (await zbsj.post('/api/elections/tally', { seats: 2, entitled: 20, ballotsIssued: 17, ballots: [...many(11, [1, 2]), ...many(6, [1, 3])] })).body;
    expect(half).toMatchObject({ valid: true, ballotsReturned: 17, ballotsValid: 17, ballotsVoid: 0 });
    expect(half.votes).toEqual([{ candidateId: 1, votes: 17, against: 0, abstain: 0, elected: true }, { candidateId: 2, votes: 11, against: 0, abstain: 0, elected: true }, { candidateId: 3, votes: 6, against: 0, abstain: 0, elected: false }]);
    const justHalf = (await zbsj.post('/api/elections/tally', { seats: 2, entitled: 20, ballotsIssued: 20, ballots: [...many(10, [1, 2]), ...many(10, [1, 3])] })).body;
    expect(justHalf.votes.filter((v: { elected: boolean }) => v.elected).map((v: { candidateId: number }) => v.candidateId)).toEqual([1]);
    expect(justHalf.furtherRound).toEqual([2, 3]);
    // A ballot with more marks than seats is void; as many as seats is valid.
    const voids = (await zbsj.post('/api/elections/tally', { seats: 2, entitled: 3, ballotsIssued: 3, ballots: [{ marks: [1, 2, 3] }, { marks: [1, 2] }, { marks: [] }] })).body;
    expect(voids).toMatchObject({ ballotsReturned: 3, ballotsValid: 2, ballotsVoid: 1 });
    // Returned = issued is valid, one more is not (nobody elected).
    expect((await zbsj.post('/api/elections/tally', { seats: 1, entitled: 4, ballotsIssued: 4, ballots: many(4, [1]) })).body.valid).toBe(true);
    const over = (await zbsj.post('/api/elections/tally', { seats: 1, entitled: 4, ballotsIssued: 4, ballots: many(5, [1]) })).body;
    expect(over.valid).toBe(false);
    expect(over.votes[0]).toEqual({ candidateId: 1, votes: 5, against: 0, abstain: 0, elected: false });
    // Tie at the last seat: both tied go to a further round.
    const tie = (await zbsj.post('/api/elections/tally', { seats: 2, entitled: 10, ballotsIssued: 10, ballots: [...many(4, [1, 2]), ...many(4, [1, 3]), ...many(2, [2, 3])] })).body;
    expect(tie.votes.map((v: { elected: boolean }) => v.elected)).toEqual([true, false, false]);
    expect(tie.furtherRound).toEqual([2, 3]);
    expect((await zbsj.post('/api/elections/tally', { seats: 1, entitled: 1, ballotsIssued: 1, ballots: [{ marks: 'x' }] })).status).toBe(400);
  });

  it('[S1.F4c] a roll holding a probationary member is refused, naming the member; nothing is written', async () => {
    const probationary = (await membersOf(branchId, '2'))[0];
    const full = await membersOf(branchId, '1');
    expect(probationary, 'the demo branch has a probationary member').toBeDefined();
    const before = (await admin.post('/api/m/election/list', {})).body.totalElements;
    const res = await zbsj.post('/api/m/election', { name: '名册测试', orgId: branchId, voterIds: [full[0]!.id, probationary!.id] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`“${probationary!.name}”是预备党员`);
    expect(res.body.errors[0].field).toBe('voterIds');
    expect((await admin.post('/api/m/election/list', {})).body.totalElements).toBe(before);
  });

  it('[issue 40.1] the roll fills in as the full members with rights; the pickers name who may not be listed and why, and only for members the caller may pick', async () => {
    const full = await membersOf(branchId, '1');
    const probationary = (await membersOf(branchId, '2'))[0]!;
    // x-fill: choosing the organisation lists every full member whose rights stand (then adjusted by hand).
    const fill = await zbsj.post('/api/m/election/fill/elections.roll', { values: { orgId: branchId } });
    expect(fill.status, JSON.stringify(fill.body)).toBe(200);
    expect([...fill.body.values.voterIds].sort((a: number, b: number) => a - b)).toEqual(full.map((m) => m.id).sort((a, b) => a - b));
    // x-ref-eligible: the probationary member is greyed out with the reason, a full member is not.
    const judged = await zbsj.post('/api/m/election/eligible/candidateIds', { values: { orgId: branchId }, ids: [full[0]!.id, probationary.id] });
    expect(judged.status, JSON.stringify(judged.body)).toBe(200);
    expect(Object.keys(judged.body.ineligible)).toEqual([String(probationary.id)]);
    expect(judged.body.ineligible[probationary.id]).toContain(`“${probationary.name}”是预备党员`);
    expect(judged.body.ineligible[probationary.id]).toContain('被选举权');
    const roll = await zbsj.post('/api/m/election/eligible/voterIds', { values: { orgId: branchId }, ids: [probationary.id] });
    expect(roll.body.ineligible[probationary.id]).toContain('选举权');
    // A member of another branch, judged for this branch, is not of the organisation.
    const other = (await admin.post('/api/m/member/list?size=5', { memberType: '1', partyStatus: '1' })).body.content.find((m: { orgId: number }) => m.orgId !== branchId) as { id: number; name: string } | undefined;
    if (other) {
      const outside = await admin.post('/api/m/election/eligible/candidateIds', { values: { orgId: branchId }, ids: [other.id] });
      expect(outside.body.ineligible[other.id]).toBe(`“${other.name}”不是本组织的党员，不能列入候选人`);
      // The branch secretary may not pick that member: no reason tells about them.
      expect((await zbsj.post('/api/m/election/eligible/candidateIds', { values: { orgId: branchId }, ids: [other.id] })).body.ineligible).toEqual({});
    }
    expect((await zbsj.post('/api/m/election/eligible/name', { values: {}, ids: [1] })).status).toBe(404);
  });

  it('[S1.F4c] terms due within six months or ended, overdue flagged', async () => {
    const res = await admin.get('/api/elections/terms?due=6');
    expect(res.status).toBe(200);
    const rows = res.body as { orgId: number; name: string; termStart: string; termEnd: string; overdue: boolean }[];
    expect(rows.some((r) => r.overdue)).toBe(true);
    expect(rows.some((r) => !r.overdue)).toBe(true);
    const limit = addMonths(today, 6);
    for (const r of rows) {
      expect(r.termEnd <= limit).toBe(true);
      expect(r.overdue).toBe(r.termEnd < today);
    }
    // The branch secretary sees only the branch.
    const own = (await zbsj.get('/api/elections/terms?due=120')).body as { orgId: number }[];
    expect(own.map((r) => r.orgId)).toEqual([branchId]);
  });

  it('[S1.F4c] a branch election from the request to the new term: levels, the 4/5 quorum, a tie sent to a further round, the term written onto the organisation', async () => {
    const full = await membersOf(branchId, '1');
    expect(full.length, 'the demo branch has five full members or more').toBeGreaterThanOrEqual(5);
    const voters = full.map((m) => m.id);
    // The ballot lists the candidates 按姓氏笔画为序 and the counters enter its serial numbers: `candidates` in
    // that order; the branch submits them the other way round, so a count by the stored order would elect others.
    const distinct = full.filter((m, i) => full.findIndex((o) => o.name === m.name) === i).slice(0, 4);
    expect(distinct).toHaveLength(4);
    const candidates = byStrokes(distinct, (m) => m.name).map((m) => m.id);
    const submitted = [...candidates].reverse();
    const sorted = (ids: unknown) => [...(ids as number[])].sort((a, b) => a - b);
    const created = await zbsj.post('/api/m/election', { name: `换届选举测试${Date.now()}`, orgId: branchId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ state: -1, body: '党支部委员会', termYears: 3 });
    const step = (who: Client, name: string, values: Record<string, unknown> = {}) => stepOn(id, who, name, values);
    const ok = (who: Client, name: string, values: Record<string, unknown> = {}) => passOn(id, who, name, values);
    await ok(zbsj, 'request', { requestDate: today });
    expect((await step(zbsj, 'approveRequest', { approveDate: today })).status).toBe(403); // the level above approves
    await ok(ejdw, 'approveRequest', { approveDate: today });
    expect((await step(zbsj, 'plan', { seats: 3, termYears: 5 })).body.message).toMatch(/三年/);
    await ok(zbsj, 'plan', { seats: 3, termYears: 3 });
    await ok(zbsj, 'nominate', { nominationRound: '三下三上', candidateIds: submitted });
    // 3 candidates for 3 seats break the 20% rule; 4 meet it.
    const few = await step(zbsj, 'submitCandidates', { candidateIds: submitted.slice(0, 3) });
    expect(few.status).toBe(400);
    expect(few.body.message).toContain('候选人至少4名');
    await ok(zbsj, 'submitCandidates', { candidateIds: submitted });
    await ok(ejdw, 'approveCandidates', { candidatesApproveDate: today });
    // Quorum: more than 4/5 of those entitled present.
    const n = voters.length;
    const quorum = Math.floor((n * 4) / 5) + 1;
    const short = await step(zbsj, 'assembly', { assemblyDate: today, voterIds: voters, present: quorum - 1 });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain(`至少须到${quorum}人`);
    await ok(zbsj, 'assembly', { assemblyDate: today, voterIds: voters, present: quorum });
    // [issue 40.1] Before the count the dialog names the round and each serial number's candidate.
    const open = (await zbsj.get(`/api/m/election/${id}/transitions`)).body as { id: string; notes: string[] }[];
    const names = new Map(full.map((m) => [m.id, m.name]));
    expect(open.find((x) => x.id === 'count')!.notes).toEqual([
      expect.stringContaining('第1轮：应选3名，候选人4名'),
      `选票序号（按姓氏笔画为序）：${candidates.map((c, i) => `${i + 1} ${names.get(c)}`).join('；')}。`,
    ]);
    // Round 1: candidates 1 and 2 pass with every ballot; 3 and 4 tie at the last seat.
    const half = Math.ceil(quorum / 2);
    const lines = Array.from({ length: quorum }, (_, i) => (i < half ? '1 2 3' : '1 2 4'));
    const sameVotes = half === quorum - half;
    const round1 = await ok(zbsj, 'count', { ballotsIssued: quorum, ballots: lines.join('\n') });
    if (sameVotes) {
      expect(sorted(round1.electedIds)).toEqual(sorted(candidates.slice(0, 2)));
      expect(round1.furtherRoundIds.sort()).toEqual(candidates.slice(2).sort());
      expect(round1.seatsLeft).toBe(1);
      expect((await step(zbsj, 'confirm')).status).toBe(400); // a seat is still open
    }
    // The further round (or a clean count): the third candidate with every ballot, one more ballot void.
    if (round1.seatsLeft > 0) {
      // The further round's ballot lists the tied 按姓氏笔画为序 too.
      const serial = candidates.filter((c) => (round1.furtherRoundIds as number[]).includes(c)).indexOf(candidates[2]!) + 1;
      const round2 = await ok(zbsj, 'count', { ballotsIssued: quorum, ballots: [...Array.from({ length: quorum - 1 }, () => String(serial)), '1 2'].join('\n') });
      expect(round2.ballotsVoid).toBe(1);
      expect(sorted(round2.electedIds)).toEqual(sorted(candidates.slice(0, 3)));
    }
    await ok(zbsj, 'confirm');
    const posts = await step(zbsj, 'firstMeeting', { firstMeetingDate: today, secretaryId: candidates[3] });
    expect(posts.status).toBe(400); // not elected
    await ok(zbsj, 'firstMeeting', { firstMeetingDate: today, secretaryId: candidates[0], deputyIds: [candidates[1]] });
    // [issue 40.2] The result goes to the level above for approval; the term starts on the approval.
    const reported = await ok(zbsj, 'report', { reportDate: today });
    expect(reported.state).toBe(9);
    expect((await step(zbsj, 'approveResult', { resultApproveDate: today })).status).toBe(403);
    const done = await ok(ejdw, 'approveResult', { resultApproveDate: today });
    expect(done.state).toBe(8);
    expect(done.termStart).toBe(today);
    expect(done.termEnd).toBe(addDays(addMonths(today, 36), -1));

    const org = (await admin.get(`/api/m/org/${branchId}`)).body;
    expect(org.termStart).toBe(today);
    expect(org.termEnd).toBe(done.termEnd);
    expect(org.secretary).toBe(names.get(candidates[0]!));
    expect(org.committee).toContain(`${names.get(candidates[1]!)}（副书记）`);
    const terms = (await admin.post('/api/m/org-term/list?size=50&fields=all', { orgId: branchId })).body.content as { current: boolean; electionId: number }[];
    expect(terms.filter((x) => x.current)).toHaveLength(1);
    expect(terms.find((x) => x.current)!.electionId).toBe(id);
    // The count is in the approval log: the ballots as entered and the result.
    const log = (await admin.get(`/api/m/election/${id}/approvals`)).body as { transition: string; values: Record<string, unknown>; valueTexts: { field: string; title: string; text: string }[]; warnings: string[] }[];
    const counts = log.filter((e) => e.transition === 'count');
    expect(counts[0]!.values.ballots).toBe(lines.join('\n'));
    // The result is the step's 结果, not a warning.
    expect(counts[0]!.valueTexts.find((v) => v.title === '结果')!.text).toContain(`收回${quorum}张`);
    expect(counts[0]!.warnings).toEqual([]);
    // The printable documents: each round recounted from the ballots in the log; the report names the posts; .xlsx.
    const docs = (await zbsj.get(`/api/elections/${id}/documents`)).body;
    expect(docs.rounds).toHaveLength(counts.length);
    expect(docs.rounds[0].tally.ballotsReturned).toBe(quorum);
    expect(docs.elected.map((e: { post: string }) => e.post)).toEqual(['书记', '副书记', '委员']);
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/elections/${id}/documents/xlsx?doc=report`, headers: { authorization: `Bearer ${await login(t.app, 'zbsj', DEMO_USER_PASSWORD)}` } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('.xlsx');
    expect((await zbsj.get(`/api/elections/${id}/documents/xlsx?doc=constructor`)).status).toBe(400);
  });

  it('[S1.F4c] the organisation holding the election takes its own steps (level own): the committee above is refused them and approves', async () => {
    const created = await zbsj.post('/api/m/election', { name: `本级步骤测试${Date.now()}`, orgId: branchId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const offered = async (who: Client) => ((await who.get(`/api/m/election/${id}/transitions`)).body as { id: string; level: string }[]).map((s) => `${s.id}:${s.level}`);
    const waiting = async (who: Client) => ((await who.post('/api/m/election/list?size=500', { $waiting: true })).body.content as { id: number }[]).map((r) => r.id);
    const planTodos = async () =>
      (await t.database.db.selectFrom('msg_todo as t').innerJoin('users as u', 'u.id', 't.user_id').select('u.username').where('t.module', '=', 'election').where('t.ref_id', '=', `${id}:plan`).where('t.status', '=', 0).execute()).map((r) => r.username);

    // The branch's 请示 is the branch's: its committee's organiser sees the election but may not take it.
    expect(await offered(zbsj)).toContain('request:own');
    expect(await offered(ejdw)).not.toContain('request:own');
    const refused = await stepOn(id, ejdw, 'request', { requestDate: today });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('“向上级党组织请示”须由本级党组织办理');
    await passOn(id, zbsj, 'request', { requestDate: today });

    // The approval above still goes to the committee: on its waiting list, not on the branch's.
    expect(await waiting(ejdw)).toContain(id);
    expect(await waiting(zbsj)).not.toContain(id);
    expect((await stepOn(id, zbsj, 'approveRequest', { approveDate: today })).status).toBe(403);
    await passOn(id, ejdw, 'approveRequest', { approveDate: today });

    // Then the plan waits for the branch again: the to-do and the waiting list are the branch secretary's.
    expect(await planTodos()).toContain('zbsj');
    expect(await planTodos()).not.toContain('ejdw');
    expect(await waiting(zbsj)).toContain(id);
    expect(await waiting(ejdw)).not.toContain(id);
    expect((await stepOn(id, ejdw, 'plan', { seats: 3, termYears: 3 })).status).toBe(403);
    await passOn(id, zbsj, 'plan', { seats: 3, termYears: 3 });

    const log = (await admin.get(`/api/m/election/${id}/approvals`)).body as { transition: string; level: string; levelTitle: string; actingOrgId: number }[];
    expect(log.map((e) => [e.transition, e.level, e.actingOrgId])).toEqual([
      ['request', 'own', branchId],
      ['approveRequest', 'above', committeeId],
      ['plan', 'own', branchId],
    ]);
    expect(log[0]!.levelTitle).toBe('本级党组织');

    // The committee's own election is the committee's: its organiser takes its 请示; the branch does not see it.
    const own = await ejdw.post('/api/m/election', { name: `总支本级步骤测试${Date.now()}`, orgId: committeeId });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect((await stepOn(own.body.id, zbsj, 'request', { requestDate: today })).status).toBe(404);
    expect((await passOn(own.body.id, ejdw, 'request', { requestDate: today })).state).toBe(0);
    const ownLog = (await admin.get(`/api/m/election/${own.body.id}/approvals`)).body as { level: string; actingOrgId: number }[];
    expect(ownLog.map((e) => [e.level, e.actingOrgId])).toEqual([['own', committeeId]]);
  });

  it('[S1.F4a] the congress: allocation of the delegate number by member count, the 500-member rule, sessions', async () => {
    const congress = (await admin.post('/api/m/congress/list', {})).body.content[0] as { id: number; orgId: number; delegateQuota: number; state: number };
    expect(congress, 'the demo congress in preparation').toBeDefined();
    expect(congress.state).toBe(1);
    const alloc = (await admin.get(`/api/elections/congress/${congress.id}/allocation`)).body as { quota: number; members: number; units: { members: number; quota: number; elected: number }[] };
    expect(alloc.quota).toBe(congress.delegateQuota);
    expect(alloc.units.reduce((n, u) => n + u.quota, 0)).toBe(alloc.quota);
    const [big, small] = [...alloc.units].sort((a, b) => b.members - a.members);
    expect(big!.quota).toBeGreaterThanOrEqual(small!.quota);
    expect(alloc.units.some((u) => u.elected > 0)).toBe(true);
    // The demo school at test size has fewer than 500 members: a congress cannot be requested.
    const draft = await admin.post('/api/m/congress', { name: `党代会测试${Date.now()}`, orgId: congress.orgId, delegateQuota: 120 });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const refused = await admin.post(`/api/m/congress/${draft.body.id}/transitions/request`, { version: draft.body.version, comment: '', values: { requestDate: today, delegateQuota: 120 } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/党员人数500人以上/);
    expect((await admin.post('/api/m/congress-session', { congressId: draft.body.id, title: '预备会议', sessionDate: today, kind: '预备会议' })).status).toBe(201);
    // The branch secretary does not see the school's congress.
    expect((await zbsj.get(`/api/elections/congress/${congress.id}/allocation`)).status).toBe(404);
  });

  it('[S1.F4b] delegates: the structure against the members, probationary members refused, one record per member and congress', async () => {
    const congress = (await admin.post('/api/m/congress/list', {})).body.content.find((c: { state: number }) => c.state === 1) as { id: number };
    const structure = (await admin.get(`/api/elections/congress/${congress.id}/structure`)).body;
    expect(structure.delegates.total).toBeGreaterThan(0);
    expect(structure.delegates.ages.reduce((n: number, a: { count: number }) => n + a.count, 0)).toBe(structure.delegates.total);
    expect(structure.members.total).toBeGreaterThan(structure.delegates.total);
    expect(Array.isArray(structure.warnings)).toBe(true);
    const probationary = (await membersOf(branchId, '2'))[0]!;
    const refused = await admin.post('/api/m/delegate', { congressId: congress.id, unitOrgId: branchId, memberId: probationary.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`“${probationary.name}”是预备党员`);
    const taken = new Set(((await admin.post('/api/m/delegate/list?size=1000&fields=all', { congressId: congress.id })).body.content as { memberId: number }[]).map((d) => d.memberId));
    const full = (await membersOf(branchId, '1')).find((m) => !taken.has(m.id))!;
    const added = await admin.post('/api/m/delegate', { congressId: congress.id, unitOrgId: branchId, memberId: full.id, round: '一下一上' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ name: full.name, status: '推荐人选' });
    expect(typeof added.body.frontLine).toBe('boolean');
    expect((await admin.post('/api/m/delegate', { congressId: congress.id, unitOrgId: branchId, memberId: full.id })).status).toBe(400);
  });
});

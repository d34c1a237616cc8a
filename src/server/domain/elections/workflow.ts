/**
 * The guards and effects the `election` workflow names (schemas/modules/election.json), each citing its
 * rule (中国共产党基层组织选举工作条例, 2020; 中国共产党章程), and the write hook of its generic writes.
 */
import { paramRule } from '../../runtime/params/refusal.js';
import { sql } from 'kysely';
import { checkCandidates, hasQuorum, passesMajority, quorumMinimum } from '../../../shared/ballot.js';
import { HttpError } from '../../errors.js';
import { registerGuard, registerEffect, registerHook, type GuardResult } from '../../runtime/index.js';
import { countRound, roundNotes } from './count.js';
import { entitledOf, FULL_MEMBER, idList, membersOf, orgOf } from './facts.js';
import { rollProblems } from './roll.js';
import { bodyOf, defaultTermYears, newTermOf, DISCIPLINE_BODY, seatsProblem, termBodyOf, termYearsProblem } from './rules.js';
import { membersWithoutElectionRights } from '../member/rights.js';

const refuse = (field: string, message: string): GuardResult => ({ problems: [{ field, message }] });

/** Generic create/update: the roll and the candidates hold full members only; the organisation's term and type fill the defaults. */
registerHook('election.prepare', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const org = await orgOf(ctx.trx, r.orgId as number);
  if (org) {
    r.currentTermEnd = org.termEnd;
    if (ctx.action === 'create') {
      r.termYears ??= defaultTermYears(org.type);
      if (!ctx.previous && !r.body) r.body = bodyOf(org.type);
    }
  }
  const problems = await rollProblems(ctx.trx, r);
  if (problems.length) throw new HttpError(400, problems[0]!.message, { errors: problems });
});

registerGuard('election.roll', async (ctx) => {
  if (ctx.preview) return;
  const problems = await rollProblems(ctx.trx, ctx.next);
  return problems.length ? { problems } : undefined;
});

registerGuard('election.termYears', async (ctx) => {
  const org = await orgOf(ctx.trx, ctx.next.orgId as number);
  const years = Number(ctx.next.termYears);
  if (ctx.preview && !years) return;
  const num = (name: string, fallback: number) => (typeof ctx.params[name] === 'number' ? (ctx.params[name] as number) : fallback);
  const problem = termYearsProblem(org?.type ?? null, years, num('minBranchTermYears', 3), num('committeeTermYears', 5), num('branchTermYears', 3));
  return problem ? refuse('termYears', paramRule(ctx.module, 'minBranchTermYears', problem)) : undefined;
});

// 条例: 候选人数应多于应选人数的20%（差额选举）; the candidates emerge in rounds (三下三上).
registerGuard('election.candidates', (ctx) => {
  const seats = Number(ctx.next.seats) || 0;
  const candidates = idList(ctx.next.candidateIds).length;
  if (ctx.preview && !candidates) return;
  // The 差额 share: 20 % by the 条例, a school may require more (rule parameter, raise only).
  const margin = typeof ctx.params.candidateMarginPercent === 'number' ? ctx.params.candidateMarginPercent : 20;
  const { ok, minimum } = checkCandidates(seats, candidates, margin);
  if (!ok) return refuse('candidateIds', paramRule(ctx.module, 'candidateMarginPercent', `候选人数应多于应选人数的${margin}%（差额选举）：应选${seats}名，候选人至少${minimum}名，现有${candidates}名（《中国共产党基层组织选举工作条例》）`));
  if (ctx.transition.id === 'submitCandidates' && ctx.next.nominationRound !== '三下三上') {
    return { warnings: [`候选人预备人选尚未完成“三下三上”酝酿（已记录：${(ctx.next.nominationRound as string) ?? '无'}）`] };
  }
});

// 条例: 有选举权的到会人数超过应到会人数的五分之四，会议有效.
registerGuard('election.quorum', (ctx) => {
  const entitled = entitledOf(ctx.next);
  const present = Number(ctx.next.present);
  if (ctx.preview && !entitled) return;
  if (present > entitled) return refuse('present', `实到人数（${present}）不能多于应到会有选举权的党员数（${entitled}，名册人数减去因故不能到会的人数）`);
  if (!hasQuorum(present, entitled)) {
    return refuse('present', `有选举权的到会人数须超过应到会人数的五分之四，会议方为有效：应到${entitled}人，至少须到${quorumMinimum(entitled)}人，实到${present}人（《中国共产党基层组织选举工作条例》）`);
  }
});

registerGuard('election.count', async (ctx) => {
  // Before the count the dialog says which round it is and whom each serial number on the ballot names.
  if (ctx.preview) return { notes: await roundNotes(ctx.trx, ctx.record) };
  const outcome = await countRound(ctx.trx, ctx.record, Number(ctx.values.ballotsIssued), String(ctx.values.ballots ?? ''));
  if ('problem' in outcome) return refuse('ballots', outcome.problem);
  // The result is the step's result (not a warning); it goes into the approval log with the ballots as entered.
  return { notes: outcome.summary.split('\n') };
});

registerEffect('election.count', async (ctx) => {
  const outcome = await countRound(ctx.trx, ctx.record, Number(ctx.values.ballotsIssued), String(ctx.values.ballots ?? ''));
  return 'problem' in outcome ? undefined : outcome.values;
});

/**
 * Committee size (plan): 党支部工作条例 / 条例 — 有正式党员7人以上的党支部设支部委员会，由3至5人组成，一般不超过7人;
 * 正式党员不足7人的，不设支部委员会，选举书记1人（必要时副书记1人）; a 党委 or 党总支 elects the seats the level
 * above approved. The numbers are x-workflow.params (branchCommitteeMinMembers, branchCommitteeMinSeats,
 * branchCommitteeMaxSeats).
 */
registerGuard('election.seats', async (ctx) => {
  const seats = Number(ctx.next.seats);
  if (ctx.preview && !seats) return;
  const org = await orgOf(ctx.trx, ctx.next.orgId as number);
  const rows = await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${org?.id ?? -1} AND member_type = ${FULL_MEMBER}`.execute(ctx.trx);
  const lost = await membersWithoutElectionRights(ctx, rows.rows.map((r) => r.id), ctx.today);
  const num = (name: string, fallback: number) => (typeof ctx.params[name] === 'number' ? (ctx.params[name] as number) : fallback);
  const problem = seatsProblem({
    body: String(ctx.next.body ?? ''),
    seats,
    fullMembers: rows.rows.length - lost.size,
    seatsApproved: typeof ctx.next.seatsApproved === 'number' ? ctx.next.seatsApproved : null,
    minMembers: num('branchCommitteeMinMembers', 7),
    minSeats: num('branchCommitteeMinSeats', 3),
    maxSeats: num('branchCommitteeMaxSeats', 7),
  });
  return problem ? refuse('seats', problem) : undefined;
});

/** Whether the reduction passes: fewer elected than seats, some elected, and more than half of those present agree. */
function reduction(ctx: { next: Record<string, unknown>; values: Record<string, unknown> }): { problem: string } | { seats: number; note: string } {
  const seats = Number(ctx.next.seats) || 0;
  const elected = idList(ctx.next.electedIds).length;
  const present = Number(ctx.next.present) || 0;
  const agreed = Number(ctx.values.agreed);
  if (!ctx.next.round) return { problem: '尚未投票计票' };
  if (elected >= seats) return { problem: '应选名额已全部选出，无需减少名额' };
  if (elected === 0) return { problem: '尚无当选人，不能以减少名额代替另行选举' };
  if (!Number.isInteger(agreed) || agreed < 0 || agreed > present) return { problem: `同意人数应为0至${present}（实到人数）之间的整数` };
  // 条例: 如果接近应选名额，经半数以上选举人同意，也可以减少名额，不再进行选举 — more than half of those present.
  if (!passesMajority(agreed, present)) return { problem: `减少名额须经到会有选举权的党员过半数同意：实到${present}人，须至少${Math.floor(present / 2) + 1}人同意，现${agreed}人同意` };
  return { seats: elected, note: `应选${seats}名，当选${elected}名；经到会${present}人中${agreed}人同意，减少名额${seats - elected}名，不再另行选举` };
}

registerGuard('election.reduceSeats', (ctx) => {
  if (ctx.preview) {
    const seats = Number(ctx.next.seats) || 0;
    return ctx.next.round && idList(ctx.next.electedIds).length < seats ? undefined : { problems: [{ message: '当选人数少于应选名额时方可减少名额' }] };
  }
  const r = reduction(ctx);
  return 'problem' in r ? refuse('agreed', r.problem) : { warnings: [r.note] };
});

registerEffect('election.reduceSeats', (ctx) => {
  const r = reduction(ctx);
  if ('problem' in r) return;
  return { seats: r.seats, seatsLeft: 0, furtherRoundIds: [], seatsReduced: r.note };
});

// 条例: 获得赞成票超过应到会有选举权人数一半的被选举人数少于应选名额时，不足的名额另行选举.
registerGuard('election.seatsFilled', (ctx) => {
  const seats = Number(ctx.next.seats) || 0;
  const elected = idList(ctx.next.electedIds).length;
  if (elected >= seats && seats > 0) return;
  return refuse('electedIds', elected === 0 && !ctx.next.round ? '尚未投票计票' : `应选${seats}名，已当选${elected}名，不足的名额应另行选举`);
});

// 条例: 书记、副书记由委员会第一次全体会议从当选的委员中选举产生（可等额）.
registerGuard('election.posts', async (ctx) => {
  const elected = new Set(idList(ctx.next.electedIds));
  const secretary = ctx.next.secretaryId as number | null;
  const deputies = idList(ctx.next.deputyIds);
  if (ctx.preview && secretary == null) return;
  const outside = [secretary, ...deputies].filter((id): id is number => typeof id === 'number' && !elected.has(id));
  if (outside.length) {
    const names = await membersOf(ctx.trx, outside, null);
    return refuse('secretaryId', `书记、副书记应从当选的委员中选举产生：${outside.map((id) => names.get(id)?.name ?? id).join('、')}不是当选委员`);
  }
  if (typeof secretary === 'number' && deputies.includes(secretary)) return refuse('deputyIds', '书记不能同时为副书记');
});

/**
 * The level above's approval writes the new term (the term starts on the approval's day): a current term
 * record of the body elected (党委, 纪委, 总支, 支部) of the organisation; a 纪委's term never touches the
 * 党委's (terms.ts mirrors only the organisation's own committee onto it).
 */
registerEffect('election.newTerm', async (ctx) => {
  const r = ctx.next;
  const years = Number(r.termYears) || 3;
  const start = (r.resultApproveDate as string) ?? (r.assemblyDate as string) ?? ctx.today;
  const term = newTermOf(start, years);
  const elected = idList(r.electedIds);
  const names = await membersOf(ctx.trx, elected, null);
  const name = (id: number) => names.get(id)?.name ?? '';
  const deputies = idList(r.deputyIds);
  const post = (id: number) => (id === r.secretaryId ? '书记' : deputies.includes(id) ? '副书记' : '委员');
  const rank = (id: number) => (id === r.secretaryId ? 0 : deputies.includes(id) ? 1 : 2);
  const committee = [...elected].sort((a, b) => rank(a) - rank(b)).map((id) => `${name(id)}（${post(id)}）`).join('、');
  const org = await orgOf(ctx.trx, r.orgId as number);
  const body = termBodyOf(String(r.body ?? ''), org?.type ?? null);
  const terms = ctx.records('org-term');
  const last = await sql<{ n: number | null }>`SELECT max(term_no)::int AS n FROM m_org_term WHERE org_id = ${r.orgId as number} AND (body = ${body} OR (body IS NULL AND ${body} <> ${DISCIPLINE_BODY}))`.execute(ctx.trx);
  const lastNo = last.rows[0]?.n ?? 0;
  await terms.create(
    {
      orgId: r.orgId,
      body,
      termNo: lastNo + 1,
      ...term,
      current: true,
      secretary: typeof r.secretaryId === 'number' ? name(r.secretaryId) : null,
      deputySecretary: deputies.map(name).join('、') || null,
      committee,
      electionId: ctx.id,
    },
    ctx.actor,
    { trx: ctx.trx, source: ctx.source },
  );
  return term;
});

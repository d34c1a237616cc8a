/**
 * The guards and effects the `election` workflow names (schemas/modules/election.json), each citing its
 * rule (中国共产党基层组织选举工作条例, 2020; 中国共产党章程), and the write hook of its generic writes.
 */
import { paramRule } from '../../runtime/params/refusal.js';
import { sql } from 'kysely';
import { checkCandidates, hasQuorum, quorumMinimum } from '../../../shared/ballot.js';
import { HttpError } from '../../errors.js';
import { registerGuard, registerEffect, registerHook, type GuardResult } from '../../runtime/index.js';
import { countRound } from './count.js';
import { idList, membersOf, orgOf } from './facts.js';
import { rollProblems } from './roll.js';
import { bodyOf, defaultTermYears, newTermOf, termYearsProblem } from './rules.js';

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
  const min = typeof ctx.params.minBranchTermYears === 'number' ? ctx.params.minBranchTermYears : 3;
  const problem = termYearsProblem(org?.type ?? null, years, min);
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
  const entitled = idList(ctx.next.voterIds).length;
  const present = Number(ctx.next.present);
  if (ctx.preview && !entitled) return;
  if (present > entitled) return refuse('present', `实到人数（${present}）不能多于有选举权的党员数（${entitled}）`);
  if (!hasQuorum(present, entitled)) {
    return refuse('present', `有选举权的到会人数须超过应到会人数的五分之四，会议方为有效：应到${entitled}人，至少须到${quorumMinimum(entitled)}人，实到${present}人（《中国共产党基层组织选举工作条例》）`);
  }
});

registerGuard('election.count', async (ctx) => {
  if (ctx.preview) return;
  const outcome = await countRound(ctx.trx, ctx.record, Number(ctx.values.ballotsIssued), String(ctx.values.ballots ?? ''));
  if ('problem' in outcome) return refuse('ballots', outcome.problem);
  // The result goes into the approval log with the ballots as entered.
  return { warnings: [outcome.summary] };
});

registerEffect('election.count', async (ctx) => {
  const outcome = await countRound(ctx.trx, ctx.record, Number(ctx.values.ballotsIssued), String(ctx.values.ballots ?? ''));
  return 'problem' in outcome ? undefined : outcome.values;
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

/** The report step writes the new term: a current term record of the organisation (which mirrors itself onto it). */
registerEffect('election.newTerm', async (ctx) => {
  const r = ctx.next;
  const years = Number(r.termYears) || 3;
  const start = (r.assemblyDate as string) ?? ctx.today;
  const term = newTermOf(start, years);
  const elected = idList(r.electedIds);
  const names = await membersOf(ctx.trx, elected, null);
  const name = (id: number) => names.get(id)?.name ?? '';
  const deputies = idList(r.deputyIds);
  const post = (id: number) => (id === r.secretaryId ? '书记' : deputies.includes(id) ? '副书记' : '委员');
  const rank = (id: number) => (id === r.secretaryId ? 0 : deputies.includes(id) ? 1 : 2);
  const committee = [...elected].sort((a, b) => rank(a) - rank(b)).map((id) => `${name(id)}（${post(id)}）`).join('、');
  const terms = ctx.records('org-term');
  const last = await sql<{ n: number | null }>`SELECT max(term_no)::int AS n FROM m_org_term WHERE org_id = ${r.orgId as number}`.execute(ctx.trx);
  const lastNo = last.rows[0]?.n ?? 0;
  await terms.create(
    {
      orgId: r.orgId,
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

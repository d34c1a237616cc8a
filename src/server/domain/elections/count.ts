/**
 * One round of voting of an election record: who stands, for how many seats, the ballots counted by
 * src/shared/ballot.ts, and what the record keeps (the elected so far, the further round, the summary).
 * The guard shows the summary (it goes into the approval log with the ballots); the effect writes it.
 */
import type { Kysely } from 'kysely';
import { tallyElection, type ElectionTally } from '../../../shared/ballot.js';
import { parseBallotLines } from '../../../shared/ballot-sheet.js';
import type { DB } from '../../db/types.js';
import { byStrokes } from '../../../shared/strokes.js';
import { entitledOf, idList, membersNamed, membersOf } from './facts.js';

export interface RoundSetup {
  round: number;
  candidates: number[];
  seats: number;
  elected: number[];
}

/** The round the record is at: the first (the approved list, every seat) or a further one (另行选举). */
export function roundOf(record: Record<string, unknown>): RoundSetup {
  const done = typeof record.round === 'number' ? record.round : 0;
  if (done === 0) return { round: 1, candidates: idList(record.candidateIds), seats: Number(record.seats) || 0, elected: [] };
  return { round: done + 1, candidates: idList(record.furtherRoundIds), seats: Number(record.seatsLeft) || 0, elected: idList(record.electedIds) };
}

export interface RoundResult {
  tally: ElectionTally<number>;
  summary: string;
  /** What the count step writes on the record. */
  values: Record<string, unknown>;
}

export type RoundOutcome = { problem: string } | RoundResult;

/**
 * The candidates of a round as the ballot lists them, 按姓氏笔画为序 (条例: 候选人名单按姓氏笔画为序排列): their
 * position is the serial number (序号) the counters enter. The printed ballot (ballot-documents.ts) sorts the same way.
 */
export const ballotOrder = (candidates: readonly number[], name: (id: number) => string): number[] => byStrokes(candidates, name);

/** What the count dialog says before the count (GuardResult.notes): the round, the majority, the ballot's serial numbers. */
export async function roundNotes(db: Kysely<DB>, record: Record<string, unknown>): Promise<string[]> {
  const setup = roundOf(record);
  if (setup.seats < 1 || !setup.candidates.length) return [];
  const entitled = entitledOf(record);
  const names = await membersOf(db, setup.candidates, null);
  const name = (id: number) => names.get(id)?.name ?? String(id);
  const order = ballotOrder(setup.candidates, name);
  return [
    `第${setup.round}轮${setup.round > 1 ? '（另行选举）' : ''}：应选${setup.seats}名，候选人${order.length}名；应到会有选举权的党员${entitled}人，获得赞成票${Math.floor(entitled / 2) + 1}票以上方可当选。`,
    `选票序号（按姓氏笔画为序）：${order.map((id, i) => `${i + 1} ${name(id)}`).join('；')}。`,
  ];
}

export async function countRound(db: Kysely<DB>, record: Record<string, unknown>, ballotsIssued: number, ballotsText: string): Promise<RoundOutcome> {
  const setup = roundOf(record);
  if (setup.seats < 1 || !setup.candidates.length) return { problem: '应选名额已全部选出，无需再投票' };
  const entitled = entitledOf(record);
  const names = await membersOf(db, setup.candidates, null);
  const name = (id: number) => names.get(id)?.name ?? String(id);
  const { ballots, errors } = parseBallotLines(ballotsText, ballotOrder(setup.candidates, name));
  if (errors.length) return { problem: `第${errors[0]!.line}行“${errors[0]!.text}”无法识别：按选票上的序号录入（赞成填序号，不赞成填-序号，弃权可不填或填~序号，另选他人填+姓名，空白票填0）` };
  const tally = tallyElection({ seats: setup.seats, entitled, ballotsIssued, ballots, candidates: setup.candidates });
  // A name written in that passes is elected like a candidate: it must name one member of the organisation.
  const writtenIn = tally.valid ? tally.votes.filter((v) => v.writeIn && v.elected).map((v) => v.name as string) : [];
  const found = await membersNamed(db, writtenIn, typeof record.orgId === 'number' ? record.orgId : null);
  for (const n of writtenIn) {
    const ids = found.get(n) ?? [];
    if (ids.length !== 1) return { problem: `另选他人“${n}”得票过半数，但本组织${ids.length ? '有重名的党员，请核对' : '没有这名党员'}` };
  }
  const elected = [
    ...setup.elected,
    ...tally.votes.filter((v) => v.elected).map((v) => (v.writeIn ? found.get(v.name)![0]! : v.candidateId)),
  ];
  const counted = (v: (typeof tally.votes)[number]) =>
    v.writeIn ? `${v.name}（另选他人）赞成${v.votes}票` : `${name(v.candidateId)}赞成${v.votes}票、不赞成${v.against}票、弃权${v.abstain}票`;
  const lines = [
    `第${setup.round}轮投票（应选${setup.seats}名，应到会有选举权${entitled}人）：发出选票${ballotsIssued}张，收回${tally.ballotsReturned}张，有效${tally.ballotsValid}张，无效${tally.ballotsVoid}张。`,
    tally.votes.map((v) => `${counted(v)}${v.elected ? '（当选）' : ''}`).join('；') + '。',
  ];
  let further = tally.furtherRound;
  let seatsLeft = tally.seatsLeft;
  if (!tally.valid) {
    lines.push('收回选票多于发出选票，本轮选举无效，应重新投票。');
    further = setup.candidates;
    seatsLeft = setup.seats;
  } else if (seatsLeft > 0) {
    lines.push(`尚有${seatsLeft}个名额未选出，另行选举，候选人：${further.map(name).join('、')}。`);
  } else {
    lines.push('应选名额已全部选出。');
  }
  const summary = lines.join('\n');
  const previous = typeof record.voteSummary === 'string' && record.voteSummary ? `${record.voteSummary}\n` : '';
  return {
    tally,
    summary,
    values: {
      round: setup.round,
      ballotsIssued,
      ballotsReturned: tally.ballotsReturned,
      ballotsValid: tally.ballotsValid,
      ballotsVoid: tally.ballotsVoid,
      electedIds: elected,
      furtherRoundIds: further,
      seatsLeft,
      voteSummary: (previous + summary).slice(-4000),
    },
  };
}

/**
 * `npm run bench elections` (issue 28): counting the ballots of a big assembly — 3,000 ballots of 15
 * candidates for 11 seats (budget 200 ms), as the count step does it: the ballot lines parsed
 * (src/shared/ballot-sheet.ts) and counted (src/shared/ballot.ts). Median of 21 runs after a warm-up.
 */
import { tallyElection } from '../../../src/shared/ballot.js';
import { ballotLines, parseBallotLines } from '../../../src/shared/ballot-sheet.js';
import { median, type BenchResult } from '../lib.js';

const BALLOTS = 3000;
const CANDIDATES = 15;
const SEATS = 11;

/** Deterministic ballots: most mark 11, some fewer, one in 50 too many (void). */
function ballots(): { marks: number[] }[] {
  let seed = 20261127;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: BALLOTS }, (_, i) => {
    const want = i % 50 === 0 ? SEATS + 1 : SEATS - (i % 4);
    const marks = new Set<number>();
    while (marks.size < want) marks.add(1 + Math.floor(next() * CANDIDATES));
    return { marks: [...marks] };
  });
}

export async function electionsSuite(): Promise<BenchResult[]> {
  const candidates = Array.from({ length: CANDIDATES }, (_, i) => 1000 + i);
  const text = ballotLines(ballots().map((b) => ({ marks: b.marks.map((n) => candidates[n - 1]!) })), candidates);
  const count = () => {
    const parsed = parseBallotLines(text, candidates);
    return tallyElection({ seats: SEATS, entitled: BALLOTS, ballotsIssued: BALLOTS, ballots: parsed.ballots, candidates });
  };
  for (let i = 0; i < 5; i++) count();
  const times: number[] = [];
  let last = count();
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    last = count();
    times.push(performance.now() - t);
  }
  return [
    {
      suite: 'elections',
      name: `count ${BALLOTS} ballots of ${CANDIDATES} candidates (${SEATS} seats): parse + tally`,
      value: Number(median(times).toFixed(2)),
      unit: 'ms',
      budget: 200,
      note: `${last.ballotsValid} valid, ${last.ballotsVoid} void; ${last.votes.filter((v) => v.elected).length} elected`,
    },
  ];
}

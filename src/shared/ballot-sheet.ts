/**
 * Ballots as the count step takes them (选票录入): one ballot per line, the serial numbers (序号) of the
 * candidates as printed on the ballot sheet, separated by spaces, commas or 、:
 *   `3`  赞成 candidate 3;  `-3` 不赞成;  `~3` 弃权 (a candidate left out abstains too);  `+张三` 另选他人 (a name
 *   written in). A blank ballot is `0` (an empty line is no ballot). The same text is kept in the approval log,
 *   so the count can be redone.
 */
import type { ElectionBallot } from './ballot.js';

/** One ballot as entered: every mark a candidate id. */
export interface SheetBallot {
  marks: number[];
  against: number[];
  abstain: number[];
  writeIns: string[];
}

export interface ParsedBallots {
  /** Each ballot as candidate ids (a number beyond the list stays as the id `-n`: it voids the ballot). */
  ballots: SheetBallot[];
  /** Lines that cannot be read, with their line number (1-based), for the refusal. */
  errors: { line: number; text: string }[];
}

const TOKEN = /^([-~]?)(\d{1,3})$/;

export function parseBallotLines(text: string, candidateIds: readonly number[]): ParsedBallots {
  const ballots: ParsedBallots['ballots'] = [];
  const errors: { line: number; text: string }[] = [];
  const idOf = (n: number) => (n >= 1 && n <= candidateIds.length ? candidateIds[n - 1]! : -n);
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const tokens = line.split(/[\s,，、;；]+/).filter(Boolean);
    const ballot: SheetBallot = { marks: [], against: [], abstain: [], writeIns: [] };
    if (tokens.length === 1 && tokens[0] === '0') return void ballots.push(ballot);
    for (const t of tokens) {
      if (/^[+＋]\S{1,30}$/.test(t)) {
        ballot.writeIns.push(t.slice(1));
        continue;
      }
      const m = TOKEN.exec(t);
      if (!m) return void errors.push({ line: i + 1, text: line });
      const id = idOf(Number(m[2]));
      (m[1] === '-' ? ballot.against : m[1] === '~' ? ballot.abstain : ballot.marks).push(id);
    }
    ballots.push(ballot);
  });
  return { ballots, errors };
}

/** The lines of `ballots` (candidate ids) for a candidate list: the inverse of parseBallotLines. */
export function ballotLines(ballots: readonly ElectionBallot<number>[], candidateIds: readonly number[]): string {
  const serial = new Map(candidateIds.map((id, i) => [id, i + 1]));
  const s = (m: number) => serial.get(m) ?? 0;
  return ballots
    .map((b) => {
      const tokens = [...b.marks.map((m) => `${s(m)}`), ...(b.against ?? []).map((m) => `-${s(m)}`), ...(b.abstain ?? []).map((m) => `~${s(m)}`), ...(b.writeIns ?? []).map((w) => `+${w}`)];
      return tokens.length ? tokens.join(' ') : '0';
    })
    .join('\n');
}

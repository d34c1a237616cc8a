/**
 * Ballots as the count step takes them (选票录入): one ballot per line, the serial numbers (序号) of the
 * candidates it marks as printed on the ballot sheet, separated by spaces, commas or 、; a blank ballot is
 * `0` (an empty line is no ballot). The same text is kept in the approval log, so the count can be redone.
 */

export interface ParsedBallots {
  /** Each ballot's marks as candidate ids (a number beyond the list stays as the id `-n`: it voids the ballot). */
  ballots: { marks: number[] }[];
  /** Lines that are not numbers, with their line number (1-based), for the refusal. */
  errors: { line: number; text: string }[];
}

export function parseBallotLines(text: string, candidateIds: readonly number[]): ParsedBallots {
  const ballots: { marks: number[] }[] = [];
  const errors: { line: number; text: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const tokens = line.split(/[\s,，、;；]+/).filter(Boolean);
    if (!tokens.every((t) => /^\d{1,3}$/.test(t))) return void errors.push({ line: i + 1, text: line });
    const numbers = tokens.map(Number);
    if (numbers.length === 1 && numbers[0] === 0) return void ballots.push({ marks: [] });
    ballots.push({ marks: numbers.map((n) => (n >= 1 && n <= candidateIds.length ? candidateIds[n - 1]! : -n)) });
  });
  return { ballots, errors };
}

/** The lines of `ballots` (candidate ids) for a candidate list: the inverse of parseBallotLines. */
export function ballotLines(ballots: readonly { marks: readonly number[] }[], candidateIds: readonly number[]): string {
  const serial = new Map(candidateIds.map((id, i) => [id, i + 1]));
  return ballots.map((b) => (b.marks.length ? b.marks.map((m) => serial.get(m) ?? 0).join(' ') : '0')).join('\n');
}

/**
 * Counting ballots: a pure function for every vote the product holds, so the rules live in one place.
 *
 * Two kinds of ballot are counted here:
 *
 * 1. Elections (两委换届选举, 党代表选举, the congress's committee): `tallyElection`. Each ballot marks each
 *    listed candidate 赞成 (`marks`), 不赞成 (`against`) or 弃权 (`abstain`, or unmarked) and may write in other
 *    names (`writeIns`, 另选他人). Rules of 中国共产党基层组织选举工作条例 (2020):
 *    - candidates exceed the seats by at least 20% (差额): `minimumCandidates(seats)` = ceil(seats × 1.2);
 *    - the election is valid only when the ballots returned do not exceed the ballots issued; a
 *      ballot whose 赞成 plus write-ins exceed the seats is void (fewer or none is valid); a write-in alone never
 *      voids it, and a name written in is elected like a candidate when it passes the majority;
 *    - a candidate is elected with votes in favour from MORE than half of the voters ENTITLED
 *      (应到会有选举权的人数, not those present): `passesMajority(votes, entitled)`;
 *    - more passing than seats: the most votes win; a tie at the last seat goes to a further round
 *      between the tied; fewer passing than seats: a further round for the seats left, its candidates taken by
 *      votes in the first round, again at least ceil(left × 1.2) of them (ties at that cut are all taken).
 *    An assembly that elects needs more than 4/5 of those entitled present: `hasQuorum`.
 *
 * 2. Grade votes (民主评议党员: 优秀/合格/基本合格/不合格 per member, used by organisation life): `tallyGrades`.
 *    Each ballot chooses at most one grade per subject (`choices: { [subjectId]: grade }`). A choice that is
 *    not one of the grades voids that entry only; a ballot that gives a grade to more subjects than its limit
 *    (e.g. at most N 优秀) is void as a whole. The answer counts per subject and grade; what the counts mean
 *    (e.g. 不合格 by more than half) is the caller's rule, helped by `passesMajority`.
 *
 * 3. Counts entered by hand (民主评议党员's 民主测评 counted on paper: the branch enters the ballots issued,
 *    returned and void, and per member the votes per grade): `ballotTotalsProblems`, `validBallots`,
 *    `votesProblem`, `leadingGrade`. The per-grade counts have the shape `tallyGrades` answers (`counts`), so
 *    the same checks hold for ballots counted here and for counts typed in.
 *
 * All answer `valid: false` (or a problem on `returned`) when returned > issued (`returnedWithinIssued`); the
 * counts are still given (so they can be shown), but an invalid election elects nobody and sends nobody to a
 * further round: it is held again.
 */

export type BallotId = string | number;

/** A vote is valid only when the ballots returned do not exceed the ballots issued (every kind of ballot). */
export const returnedWithinIssued = (returned: number, issued: number): boolean => returned <= issued;

/** ceil(seats × (1 + margin %)) in integers (5 × 1.2 is not exactly 6 in floating point for every seat count). */
export function minimumCandidates(seats: number, marginPercent = 20): number {
  return Math.floor((seats * (100 + marginPercent) + 99) / 100);
}

/** The 差额 rule: candidates ≥ ceil(seats × (1 + margin)); the 条例's margin is 20 % (election.candidateMarginPercent). */
export function checkCandidates(seats: number, candidates: number, marginPercent = 20): { ok: boolean; minimum: number } {
  const minimum = minimumCandidates(seats, marginPercent);
  return { ok: seats > 0 && candidates >= minimum, minimum };
}

/** Votes from MORE than half of those entitled (exactly half does not pass). */
export function passesMajority(votes: number, entitled: number): boolean {
  return votes * 2 > entitled;
}

/** The least number present for a quorum of MORE than 4/5 of those entitled. */
export function quorumMinimum(entitled: number): number {
  return Math.floor((entitled * 4) / 5) + 1;
}

/** More than four fifths of those entitled present (exactly 4/5 is not enough). */
export function hasQuorum(present: number, entitled: number): boolean {
  return entitled > 0 && present * 5 > entitled * 4;
}

export interface ElectionBallot<Id extends BallotId = BallotId> {
  /** Candidates marked 赞成. */
  marks: readonly Id[];
  /** Candidates marked 不赞成. */
  against?: readonly Id[];
  /** Candidates marked 弃权 (a listed candidate left unmarked abstains too). */
  abstain?: readonly Id[];
  /** Other names written in (另选他人): each a vote in favour of that name. */
  writeIns?: readonly string[];
}

export interface ElectionTallyInput<Id extends BallotId = BallotId> {
  seats: number;
  /** Voters entitled (the full members on the roll less those excused), the base of the majority. */
  entitled: number;
  ballotsIssued: number;
  ballots: readonly ElectionBallot<Id>[];
  /** The candidate list, so a candidate without votes is listed; marks of anyone else void the ballot. */
  candidates?: readonly Id[];
}

export interface CandidateVotes<Id extends BallotId = BallotId> {
  candidateId: Id;
  /** 赞成. */
  votes: number;
  /** 不赞成. */
  against: number;
  /** 弃权 (marked so, or left unmarked on a valid ballot). */
  abstain: number;
  elected: boolean;
  writeIn?: undefined;
  name?: undefined;
}

/** A name written in (另选他人), elected like a candidate when it passes the majority. */
export interface WriteInVotes {
  writeIn: true;
  name: string;
  votes: number;
  elected: boolean;
  candidateId?: undefined;
}

export type TallyEntry<Id extends BallotId = BallotId> = CandidateVotes<Id> | WriteInVotes;

export interface ElectionTally<Id extends BallotId = BallotId> {
  valid: boolean;
  ballotsReturned: number;
  ballotsValid: number;
  ballotsVoid: number;
  /** By votes in favour, most first; equal votes keep the candidate list's (or first-seen) order, write-ins after. */
  votes: TallyEntry<Id>[];
  /** Candidates of the further round (另行选举), empty when every seat is filled or the election is invalid. */
  furtherRound: Id[];
  /** Seats the further round fills. */
  seatsLeft: number;
}

/** Write-ins are counted by the name as written, spaces removed (“张 三” and “张三” are one name). */
export const writeInName = (name: string): string => name.replace(/\s+/g, '');

/**
 * Whether a ballot counts (条例: 每张选票所选人数多于应选人数的为废票): 赞成 plus write-ins not more than the seats; no candidate marked
 * twice or with two marks; only listed candidates (when listed); a write-in alone never voids it.
 */
function ballotIsValid<Id extends BallotId>(b: ElectionBallot<Id>, seats: number, listed: Set<Id> | null): boolean {
  const writeIns = (b.writeIns ?? []).map(writeInName).filter(Boolean);
  if (b.marks.length + writeIns.length > seats) return false;
  const marked = [...b.marks, ...(b.against ?? []), ...(b.abstain ?? [])];
  if (new Set(marked).size !== marked.length || new Set(writeIns).size !== writeIns.length) return false;
  return listed === null || marked.every((m) => listed.has(m));
}

export function tallyElection<Id extends BallotId>(input: ElectionTallyInput<Id>): ElectionTally<Id> {
  const { seats, entitled, ballotsIssued, ballots } = input;
  if (!Number.isInteger(seats) || seats < 1) throw new RangeError('seats must be a positive integer');
  const listed = input.candidates ? new Set(input.candidates) : null;
  const counts = new Map<Id, CandidateVotes<Id>>();
  const row = (c: Id) => {
    let r = counts.get(c);
    if (!r) counts.set(c, (r = { candidateId: c, votes: 0, against: 0, abstain: 0, elected: false }));
    return r;
  };
  for (const c of input.candidates ?? []) row(c);
  const written = new Map<string, WriteInVotes>();
  let ballotsValid = 0;
  for (const b of ballots) {
    if (!ballotIsValid(b, seats, listed)) continue;
    ballotsValid++;
    for (const m of b.marks) row(m).votes++;
    for (const m of b.against ?? []) row(m).against++;
    for (const m of b.abstain ?? []) row(m).abstain++;
    for (const raw of b.writeIns ?? []) {
      const name = writeInName(raw);
      if (!name) continue;
      const w = written.get(name) ?? { writeIn: true as const, name, votes: 0, elected: false };
      w.votes++;
      written.set(name, w);
    }
  }
  // Unmarked on a valid ballot is 弃权: every valid ballot gives each listed candidate exactly one of the three.
  if (listed) for (const r of counts.values()) r.abstain = ballotsValid - r.votes - r.against;
  const ballotsReturned = ballots.length;
  const valid = returnedWithinIssued(ballotsReturned, ballotsIssued);
  // A stable sort keeps the list order among equal votes.
  const ranked: TallyEntry<Id>[] = [...counts.values(), ...written.values()].sort((a, b) => b.votes - a.votes);
  const result: ElectionTally<Id> = { valid, ballotsReturned, ballotsValid, ballotsVoid: ballotsReturned - ballotsValid, votes: ranked, furtherRound: [], seatsLeft: 0 };
  if (!valid) return result;

  const candidateIds = (rows: TallyEntry<Id>[]) => rows.filter((r): r is CandidateVotes<Id> => !r.writeIn).map((r) => r.candidateId);
  const passing = ranked.filter((r) => passesMajority(r.votes, entitled));
  if (passing.length > seats) {
    const lastVotes = passing[seats - 1]!.votes;
    if (passing[seats]!.votes === lastVotes) {
      // Tie at the last seat: those above it are elected, the tied go to a further round.
      for (const r of passing) if (r.votes > lastVotes) r.elected = true;
      const tied = passing.filter((r) => r.votes === lastVotes);
      result.furtherRound = candidateIds(tied);
      result.seatsLeft = seats - passing.filter((r) => r.elected).length;
    } else {
      for (const r of passing.slice(0, seats)) r.elected = true;
    }
    return result;
  }
  for (const r of passing) r.elected = true;
  const left = seats - passing.length;
  if (left > 0) {
    // The further round's candidates come from the list (a name written in is not a candidate there).
    const rest = ranked.filter((r): r is CandidateVotes<Id> => !r.elected && !r.writeIn);
    const wanted = minimumCandidates(left);
    const cut = rest.length > wanted ? rest[wanted - 1]!.votes : -1;
    result.furtherRound = rest.filter((r, i) => i < wanted || r.votes === cut).map((r) => r.candidateId);
    result.seatsLeft = left;
  }
  return result;
}

/**
 * The checks of a count entered by hand per candidate (计票单): the same as counted ballots — returned ≤
 * issued, valid + void = returned, and per candidate 赞成 + 不赞成 + 弃权 = the valid ballots.
 */
export function handCountProblems(t: { issued: number; returned: number; valid: number; void: number }, rows: readonly { name: string; votes: number; against: number; abstain: number }[]): string[] {
  const out: string[] = [];
  if (!returnedWithinIssued(t.returned, t.issued)) out.push(`收回选票（${t.returned}张）不能多于发出选票（${t.issued}张）`);
  if (t.valid + t.void !== t.returned) out.push(`有效票（${t.valid}张）与无效票（${t.void}张）之和应等于收回选票（${t.returned}张）`);
  for (const r of rows) {
    const sum = r.votes + r.against + r.abstain;
    if (sum !== t.valid) out.push(`${r.name}的赞成、不赞成、弃权之和（${sum}）应等于有效票（${t.valid}张）`);
  }
  return out;
}

export interface GradeBallot<Grade extends string = string, Subject extends BallotId = BallotId> {
  /** The grade chosen for each subject; a subject left out is an abstention for it. */
  choices: Readonly<Partial<Record<Subject, Grade>>>;
}

export interface GradeTallyInput<Grade extends string = string, Subject extends BallotId = BallotId> {
  /** The grades in order, e.g. ['优秀', '合格', '基本合格', '不合格']. */
  grades: readonly Grade[];
  /** The subjects, so a subject without choices is listed. */
  subjects?: readonly Subject[];
  ballotsIssued: number;
  ballots: readonly GradeBallot<Grade, Subject>[];
  /** At most this many subjects with a grade on one ballot (e.g. { 优秀: 3 }); more voids the ballot. */
  limits?: Readonly<Partial<Record<Grade, number>>>;
}

export interface SubjectGrades<Grade extends string = string, Subject extends BallotId = BallotId> {
  subjectId: Subject;
  /** Every grade with its count (0 included). */
  counts: Record<Grade, number>;
  /** Entries on valid ballots naming something that is not a grade. */
  void: number;
  /** Valid ballots without a choice for this subject. */
  abstained: number;
  /** The grade chosen most; null when none or tied at the top. */
  top: Grade | null;
}

export interface GradeTally<Grade extends string = string, Subject extends BallotId = BallotId> {
  valid: boolean;
  ballotsReturned: number;
  ballotsValid: number;
  ballotsVoid: number;
  subjects: SubjectGrades<Grade, Subject>[];
}

export function tallyGrades<Grade extends string, Subject extends BallotId>(input: GradeTallyInput<Grade, Subject>): GradeTally<Grade, Subject> {
  const grades = new Set<string>(input.grades);
  const rows = new Map<string, SubjectGrades<Grade, Subject>>();
  const row = (subjectId: Subject): SubjectGrades<Grade, Subject> => {
    const key = String(subjectId);
    let r = rows.get(key);
    if (!r) {
      const counts = {} as Record<Grade, number>;
      for (const g of input.grades) counts[g] = 0;
      r = { subjectId, counts, void: 0, abstained: 0, top: null };
      rows.set(key, r);
    }
    return r;
  };
  for (const s of input.subjects ?? []) row(s);
  const limits = Object.entries(input.limits ?? {}) as [Grade, number][];
  let ballotsValid = 0;
  const entriesOf = (b: GradeBallot<Grade, Subject>) => Object.entries(b.choices).filter(([, g]) => g !== undefined && g !== null && g !== '') as [string, string][];
  for (const b of input.ballots) {
    const entries = entriesOf(b);
    if (limits.some(([grade, max]) => entries.filter(([, g]) => g === grade).length > max)) continue;
    ballotsValid++;
    for (const [subject, grade] of entries) {
      const r = rows.get(subject) ?? (input.subjects ? null : row(subject as Subject));
      if (!r) continue; // not a subject of this vote: ignored
      if (grades.has(grade)) r.counts[grade as Grade]++;
      else r.void++;
    }
  }
  for (const r of rows.values()) {
    const chosen = input.grades.reduce((n, g) => n + r.counts[g], 0);
    r.abstained = ballotsValid - chosen - r.void;
    const best = Math.max(0, ...input.grades.map((g) => r.counts[g]));
    const atTop = input.grades.filter((g) => r.counts[g] === best);
    r.top = best > 0 && atTop.length === 1 ? atTop[0]! : null;
  }
  const ballotsReturned = input.ballots.length;
  return { valid: returnedWithinIssued(ballotsReturned, input.ballotsIssued), ballotsReturned, ballotsValid, ballotsVoid: ballotsReturned - ballotsValid, subjects: [...rows.values()] };
}

/** The totals of a vote counted by hand. */
export interface BallotTotals {
  issued: number;
  returned: number;
  void: number;
}

/** The valid ballots: returned less void. */
export const validBallots = (t: BallotTotals): number => Math.max(0, t.returned - t.void);

/** What is wrong with a count's totals (the returned cannot exceed the issued, nor the void the returned). */
export function ballotTotalsProblems(t: BallotTotals): { field: keyof BallotTotals; message: string }[] {
  const problems: { field: keyof BallotTotals; message: string }[] = [];
  if (!returnedWithinIssued(t.returned, t.issued)) problems.push({ field: 'returned', message: `收回选票（${t.returned}张）不能多于发出选票（${t.issued}张）` });
  if (t.void > t.returned) problems.push({ field: 'void', message: `无效票（${t.void}张）不能多于收回选票（${t.returned}张）` });
  return problems;
}

/** The votes one subject (a member appraised, a candidate) received per grade; a grade left out has none. */
export type GradeCounts<Grade extends string = string> = Readonly<Partial<Record<Grade, number | null>>>;

/** A subject's votes cannot exceed the valid ballots: each valid ballot gives each subject at most one grade. */
export function votesProblem(name: string, counts: GradeCounts, valid: number): string | undefined {
  const sum = Object.values(counts).reduce<number>((s, n) => s + (n ?? 0), 0);
  return sum > valid ? `${name}的得票合计（${sum}票）多于有效票（${valid}张）` : undefined;
}

/**
 * The grade with the most votes, `grades` given best first; a tie goes to the lower grade (a doubt never
 * raises a grade); undefined without votes.
 */
export function leadingGrade<Grade extends string>(grades: readonly Grade[], counts: GradeCounts<Grade>): Grade | undefined {
  let best: Grade | undefined;
  let most = 0;
  for (const g of grades) {
    const n = counts[g] ?? 0;
    if (n > 0 && n >= most) {
      best = g;
      most = n;
    }
  }
  return best;
}

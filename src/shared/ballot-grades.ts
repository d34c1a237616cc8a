/**
 * Counting a ballot by grade (民主评议党员's 民主测评: every ballot grades every member 优秀 / 合格 / 基本合格 /
 * 不合格). Pure, shared by server and web, and meant to be shared with the election ballots (per candidate):
 * the totals (issued, returned, valid, void) are checked the same way for both.
 */

/** The grades of 民主评议党员 (dictionary DJ_PY_DC), best first. */
export const GRADES = [
  { value: '1', label: '优秀', votes: 'votesExcellent' },
  { value: '2', label: '合格', votes: 'votesQualified' },
  { value: '3', label: '基本合格', votes: 'votesBasic' },
  { value: '4', label: '不合格', votes: 'votesUnqualified' },
] as const;
export type GradeValue = (typeof GRADES)[number]['value'];
export const EXCELLENT: GradeValue = '1';

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
  if (t.returned > t.issued) problems.push({ field: 'returned', message: `收回选票（${t.returned}张）不能多于发出选票（${t.issued}张）` });
  if (t.void > t.returned) problems.push({ field: 'void', message: `无效票（${t.void}张）不能多于收回选票（${t.returned}张）` });
  return problems;
}

/** The votes one member (or candidate) received per grade. */
export type GradeVotes = Partial<Record<(typeof GRADES)[number]['votes'], number | null>>;

/** A member's votes cannot exceed the valid ballots: each valid ballot gives each member at most one grade. */
export function votesProblem(name: string, votes: GradeVotes, valid: number): string | undefined {
  const sum = GRADES.reduce((s, g) => s + (votes[g.votes] ?? 0), 0);
  return sum > valid ? `${name}的得票合计（${sum}票）多于有效票（${valid}张）` : undefined;
}

/** The grade with the most votes (ties go to the lower grade: a doubt never raises a grade); undefined without votes. */
export function leadingGrade(votes: GradeVotes): GradeValue | undefined {
  let best: GradeValue | undefined;
  let most = 0;
  for (const g of GRADES) {
    const n = votes[g.votes] ?? 0;
    if (n > 0 && n >= most) {
      best = g.value;
      most = n;
    }
  }
  return best;
}

/**
 * The most members a branch may grade 优秀: the school's cap as a share of the members appraised, rounded down
 * (党员教育管理工作条例 2019 第二十九条 leaves the share to the level above; schools set it, e.g. 30%).
 */
export const excellentCap = (members: number, capPercent: number): number => Math.floor((members * capPercent) / 100 + 1e-9);

/** The cap's refusal, or nothing when `excellent` is within it (exactly the cap passes, one more is refused). */
export function excellentCapProblem(excellent: number, members: number, capPercent: number): string | undefined {
  const cap = excellentCap(members, capPercent);
  return excellent > cap
    ? `评定为“优秀”的党员（${excellent}名）超过比例上限：参评${members}名的${capPercent}%，最多${cap}名（《党员教育管理工作条例》第二十九条，学校设定的优秀比例）`
    : undefined;
}

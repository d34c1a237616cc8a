import { describe, expect, it } from 'vitest';
import { type CandidateVotes, ballotTotalsProblems, checkCandidates, handCountProblems, hasQuorum, leadingGrade, minimumCandidates, passesMajority, quorumMinimum, returnedWithinIssued, tallyElection, tallyGrades, validBallots, votesProblem } from '../../src/shared/ballot.js';

/** `n` ballots marking `marks`. */
const many = (n: number, marks: number[]) => Array.from({ length: n }, () => ({ marks }));
const elected = (t: ReturnType<typeof tallyElection<number>>) => t.votes.filter((v) => v.elected).map((v) => v.candidateId);

describe('the 20% rule (差额, 条例第十二条)', () => {
  it('[S1.F4c] candidates ≥ ceil(seats × 1.2): 7→9, 5→6, 3→4', () => {
    expect([7, 5, 3, 1, 10, 15, 25].map((seats) => minimumCandidates(seats))).toEqual([9, 6, 4, 2, 12, 18, 30]);
    expect(checkCandidates(7, 8)).toEqual({ ok: false, minimum: 9 });
    expect(checkCandidates(7, 9)).toEqual({ ok: true, minimum: 9 });
    expect(checkCandidates(5, 6).ok).toBe(true);
    expect(checkCandidates(5, 5).ok).toBe(false);
    expect(checkCandidates(0, 3).ok).toBe(false);
  });
});

describe('majority and quorum', () => {
  it('[S1.F4c] elected with votes from MORE than half of those entitled: half is not enough', () => {
    expect(passesMajority(10, 20)).toBe(false);
    expect(passesMajority(11, 20)).toBe(true);
    expect(passesMajority(10, 19)).toBe(true);
    expect(passesMajority(9, 19)).toBe(false);
  });
  it('[S1.F4c] an electing assembly needs MORE than 4/5 of those entitled present', () => {
    expect(hasQuorum(16, 20)).toBe(false);
    expect(hasQuorum(17, 20)).toBe(true);
    expect(quorumMinimum(20)).toBe(17);
    expect(quorumMinimum(9)).toBe(8);
    expect(hasQuorum(7, 9)).toBe(false);
    expect(hasQuorum(8, 9)).toBe(true);
    expect(hasQuorum(0, 0)).toBe(false);
  });
});

describe('tallyElection', () => {
  it('counts against those entitled, not those present', () => {
    // 20 entitled, 17 present; candidate 3 has 10 = half of the entitled (not elected), though > half of 17.
    const t = tallyElection({ seats: 3, entitled: 20, ballotsIssued: 17, candidates: [1, 2, 3, 4], ballots: [...many(10, [1, 2, 3]), ...many(7, [1, 2, 4])] });
    expect(t).toMatchObject({ valid: true, ballotsReturned: 17, ballotsValid: 17, ballotsVoid: 0 });
    expect(t.votes).toEqual([
      { candidateId: 1, votes: 17, against: 0, abstain: 0, elected: true },
      { candidateId: 2, votes: 17, against: 0, abstain: 0, elected: true },
      { candidateId: 3, votes: 10, against: 0, abstain: 7, elected: false },
      { candidateId: 4, votes: 7, against: 0, abstain: 10, elected: false },
    ]);
    // One seat left: a further round of at least ceil(1 × 1.2) = 2 candidates, by votes.
    expect(t.furtherRound).toEqual([3, 4]);
    expect(t.seatsLeft).toBe(1);
  });

  it('[S1.F4c] a ballot with more marks than seats is void; as many as seats, fewer or none is valid', () => {
    const t = tallyElection({ seats: 2, entitled: 5, ballotsIssued: 5, candidates: [1, 2, 3], ballots: [{ marks: [1, 2, 3] }, { marks: [1, 2] }, { marks: [1] }, { marks: [] }, { marks: [1, 1] }] });
    expect(t).toMatchObject({ ballotsReturned: 5, ballotsValid: 3, ballotsVoid: 2 });
    expect(t.votes.find((v) => v.candidateId === 1)!.votes).toBe(2);
  });

  it('a mark for someone not on the list voids the ballot', () => {
    const t = tallyElection({ seats: 2, entitled: 3, ballotsIssued: 3, candidates: [1, 2, 3], ballots: [{ marks: [1, 9] }, { marks: [1] }] });
    expect(t.ballotsVoid).toBe(1);
    expect(t.votes.map((v) => v.candidateId)).toEqual([1, 2, 3]);
  });

  it('[S1.F4c] returned > issued makes the election invalid: nobody elected, no further round; returned = issued is valid', () => {
    const over = tallyElection({ seats: 1, entitled: 5, ballotsIssued: 4, candidates: [1, 2], ballots: many(5, [1]) });
    expect(over.valid).toBe(false);
    expect(elected(over)).toEqual([]);
    expect(over.furtherRound).toEqual([]);
    expect(over.votes[0]).toEqual({ candidateId: 1, votes: 5, against: 0, abstain: 0, elected: false });
    const equal = tallyElection({ seats: 1, entitled: 5, ballotsIssued: 5, candidates: [1, 2], ballots: many(5, [1]) });
    expect(equal.valid).toBe(true);
    expect(elected(equal)).toEqual([1]);
  });

  it('[S1.F4c] more passing than seats: the most votes win; a tie at the last seat goes to a further round between the tied', () => {
    const clear = tallyElection({ seats: 2, entitled: 10, ballotsIssued: 10, candidates: [1, 2, 3], ballots: [...many(4, [1, 2]), ...many(3, [1, 3]), ...many(3, [2, 3])] });
    // 1: 7, 2: 7, 3: 6 — all pass (> 5), the two most are elected.
    expect(elected(clear)).toEqual([1, 2]);
    expect(clear.furtherRound).toEqual([]);

    const t = tallyElection({ seats: 2, entitled: 10, ballotsIssued: 10, candidates: [1, 2, 3], ballots: [...many(4, [1, 2]), ...many(4, [1, 3]), ...many(2, [2, 3])] });
    // 1: 8, 2: 6, 3: 6 — all pass, 2 and 3 tie at the second seat.
    expect(elected(t)).toEqual([1]);
    expect(t.furtherRound).toEqual([2, 3]);
    expect(t.seatsLeft).toBe(1);
  });

  it('a tie at the last seat among everyone passing elects nobody by that round', () => {
    const t = tallyElection({ seats: 1, entitled: 4, ballotsIssued: 4, candidates: [1, 2], ballots: [...many(3, [1]), ...many(1, [2])] });
    expect(elected(t)).toEqual([1]);
    const allTied = tallyElection({ seats: 2, entitled: 6, ballotsIssued: 6, candidates: [1, 2, 3], ballots: [...many(2, [1, 2]), ...many(2, [2, 3]), ...many(2, [1, 3])] });
    // 1: 4, 2: 4, 3: 4 — all pass, three tied for two seats.
    expect(elected(allTied)).toEqual([]);
    expect(allTied.furtherRound).toEqual([1, 2, 3]);
    expect(allTied.seatsLeft).toBe(2);
  });

  it('[S1.F4c] fewer passing than seats: a further round for the seats left, candidates by votes (ties at the cut included)', () => {
    const t = tallyElection({ seats: 3, entitled: 10, ballotsIssued: 10, candidates: [1, 2, 3, 4, 5], ballots: [...many(6, [1, 2, 3]), ...many(4, [1, 4, 5])] });
    // 1: 10, 2: 6, 3: 6, 4: 4, 5: 4 → 1, 2, 3 elected.
    expect(elected(t)).toEqual([1, 2, 3]);
    const short = tallyElection({ seats: 3, entitled: 10, ballotsIssued: 10, candidates: [1, 2, 3, 4, 5], ballots: [...many(5, [1, 2, 3]), ...many(5, [1, 4, 5])] });
    // 1: 10 elected; 2..5 have 5 = half: two seats left, at least ceil(2 × 1.2) = 3 candidates; all four tie at 5.
    expect(elected(short)).toEqual([1]);
    expect(short.seatsLeft).toBe(2);
    expect(short.furtherRound).toEqual([2, 3, 4, 5]);
  });

  it('lists candidates without votes, and refuses zero seats', () => {
    const t = tallyElection({ seats: 1, entitled: 2, ballotsIssued: 2, candidates: ['a', 'b'], ballots: [{ marks: ['a'] }, { marks: ['a'] }] });
    expect(t.votes).toEqual([{ candidateId: 'a', votes: 2, against: 0, abstain: 0, elected: true }, { candidateId: 'b', votes: 0, against: 0, abstain: 2, elected: false }]);
    expect(() => tallyElection({ seats: 0, entitled: 2, ballotsIssued: 2, ballots: [] })).toThrow(RangeError);
  });
});

describe('[issue 40.1] 赞成, 不赞成, 弃权 and 另选他人 on one ballot', () => {
  it('[issue 40.1] counts the three marks per candidate; unmarked is 弃权, so each row adds up to the valid ballots', () => {
    const t = tallyElection<number>({
      seats: 2,
      entitled: 5,
      ballotsIssued: 5,
      candidates: [1, 2, 3],
      ballots: [{ marks: [1, 2], against: [3] }, { marks: [1], against: [2], abstain: [3] }, { marks: [1, 3] }, { marks: [2], against: [1] }, { marks: [] }],
    });
    const row = (id: number) => t.votes.find((v): v is CandidateVotes<number> => v.candidateId === id)!;
    expect([row(1).votes, row(1).against, row(1).abstain]).toEqual([3, 1, 1]);
    expect([row(2).votes, row(2).against, row(2).abstain]).toEqual([2, 1, 2]);
    expect([row(3).votes, row(3).against, row(3).abstain]).toEqual([1, 1, 3]);
    for (const v of t.votes) if (!v.writeIn) expect(v.votes + v.against + v.abstain).toBe(t.ballotsValid);
    expect(elected(t)).toEqual([1]);
  });

  it('[issue 40.1] seats and seats + 1: 赞成 plus write-ins up to the seats is valid, one more voids; a write-in alone never voids', () => {
    const base = { seats: 2, entitled: 3, ballotsIssued: 3, candidates: [1, 2, 3] };
    expect(tallyElection({ ...base, ballots: [{ marks: [1], writeIns: ['王五'] }] }).ballotsVoid).toBe(0);
    expect(tallyElection({ ...base, ballots: [{ marks: [1, 2], writeIns: ['王五'] }] }).ballotsVoid).toBe(1);
    expect(tallyElection({ ...base, ballots: [{ marks: [], writeIns: ['王五'] }] }).ballotsVoid).toBe(0);
    // Not 赞成 marks: 不赞成 and 弃权 for every candidate never void.
    expect(tallyElection({ ...base, ballots: [{ marks: [1, 2], against: [3] }] }).ballotsVoid).toBe(0);
    // Two marks for one candidate void the ballot.
    expect(tallyElection({ ...base, ballots: [{ marks: [1], against: [1] }] }).ballotsVoid).toBe(1);
  });

  it('[issue 40.1] a write-in is an entry of its own and is elected when it passes the majority (half and one more)', () => {
    const ballots = (n: number) => [...Array.from({ length: n }, () => ({ marks: [1], writeIns: ['王 五'] })), ...Array.from({ length: 10 - n }, () => ({ marks: [1, 2] }))];
    const half = tallyElection({ seats: 2, entitled: 10, ballotsIssued: 10, candidates: [1, 2, 3], ballots: ballots(5) });
    expect(half.votes.find((v) => v.writeIn)).toEqual({ writeIn: true, name: '王五', votes: 5, elected: false });
    const more = tallyElection({ seats: 2, entitled: 10, ballotsIssued: 10, candidates: [1, 2, 3], ballots: ballots(6) });
    expect(more.votes.find((v) => v.writeIn)).toEqual({ writeIn: true, name: '王五', votes: 6, elected: true });
    expect(more.seatsLeft).toBe(0);
    // A further round is among candidates only.
    expect(half.furtherRound).toEqual([2, 3]);
  });

  it('[issue 40.1] a count entered by hand goes through the same checks', () => {
    expect(handCountProblems({ issued: 10, returned: 10, valid: 9, void: 1 }, [{ name: '张三', votes: 6, against: 2, abstain: 1 }])).toEqual([]);
    expect(handCountProblems({ issued: 10, returned: 11, valid: 10, void: 0 }, [{ name: '张三', votes: 6, against: 2, abstain: 1 }])).toEqual([
      '收回选票（11张）不能多于发出选票（10张）',
      '有效票（10张）与无效票（0张）之和应等于收回选票（11张）',
      '张三的赞成、不赞成、弃权之和（9）应等于有效票（10张）',
    ]);
    expect(handCountProblems({ issued: 10, returned: 10, valid: 8, void: 1 }, [])).toEqual(['有效票（8张）与无效票（1张）之和应等于收回选票（10张）']);
  });
});

describe('tallyGrades (民主评议 appraisal votes)', () => {
  const grades = ['优秀', '合格', '基本合格', '不合格'] as const;
  it('counts per subject and grade, with abstentions, void entries and ballots over a limit', () => {
    const t = tallyGrades({
      grades,
      subjects: [11, 12],
      ballotsIssued: 4,
      limits: { 优秀: 1 },
      ballots: [
        { choices: { 11: '优秀', 12: '合格' } },
        { choices: { 11: '合格', 12: '不合格' } },
        { choices: { 11: '优秀', 12: '差' as never } },
        { choices: { 11: '优秀', 12: '优秀' } }, // two 优秀 where one is allowed: void
      ],
    });
    expect(t).toMatchObject({ valid: true, ballotsReturned: 4, ballotsValid: 3, ballotsVoid: 1 });
    expect(t.subjects[0]).toEqual({ subjectId: 11, counts: { 优秀: 2, 合格: 1, 基本合格: 0, 不合格: 0 }, void: 0, abstained: 0, top: '优秀' });
    expect(t.subjects[1]).toEqual({ subjectId: 12, counts: { 优秀: 0, 合格: 1, 基本合格: 0, 不合格: 1 }, void: 1, abstained: 0, top: null });
  });
  it('returned > issued is invalid; a subject not chosen abstains', () => {
    const t = tallyGrades({ grades, subjects: [1], ballotsIssued: 1, ballots: [{ choices: {} }, { choices: { 1: '合格' } }] });
    expect(t.valid).toBe(false);
    expect(t.subjects[0]!.abstained).toBe(1);
  });
});

describe('counts entered by hand (民主测评 counted on paper)', () => {
  const grades = ['优秀', '合格', '基本合格', '不合格'] as const;
  it('returned up to the issued is valid for every kind of ballot, one more is not', () => {
    expect(returnedWithinIssued(10, 10)).toBe(true);
    expect(returnedWithinIssued(11, 10)).toBe(false);
    expect(ballotTotalsProblems({ issued: 10, returned: 10, void: 0 })).toEqual([]);
    expect(ballotTotalsProblems({ issued: 10, returned: 11, void: 0 }).map((p) => p.field)).toEqual(['returned']);
    expect(tallyGrades({ grades, ballotsIssued: 1, ballots: [{ choices: {} }, { choices: {} }] }).valid).toBe(false);
  });
  it('checks the counts a tally answers the same way as counts typed in', () => {
    const t = tallyGrades({ grades, subjects: ['a'], ballotsIssued: 3, ballots: [{ choices: { a: '合格' } }, { choices: { a: '优秀' } }, { choices: {} }] });
    const counts = t.subjects[0]!.counts;
    const valid = validBallots({ issued: 3, returned: t.ballotsReturned, void: t.ballotsVoid });
    expect(valid).toBe(t.ballotsValid);
    expect(votesProblem('a', counts, valid)).toBeUndefined();
    expect(leadingGrade(grades, counts)).toBe('合格'); // 1 : 1, the lower grade
    expect(votesProblem('a', { ...counts, 不合格: 2 }, valid)).toContain('（4票）多于有效票（3张）');
  });
});

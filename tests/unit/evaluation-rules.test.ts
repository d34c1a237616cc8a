import { describe, expect, it } from 'vitest';
import { ballotTotalsProblems, leadingGrade, validBallots, votesProblem } from '../../src/shared/ballot.js';
import { addMonths, APPRAISAL_GRADE_VALUES, appraisalCounts, committeeNames, excellentCap, excellentCapProblem, quarterRates, rankBy, secretaryVacantTooLong, talkCoverage, weightedTotal } from '../../src/shared/evaluation/rules.js';

/** Issue 27: the rules of members' daily management at their boundaries (docs/organisation-life.md). */
describe('evaluation rules', () => {
  it('[S1.F14c] the 优秀 cap: exactly the cap passes, one more is refused; the cap rounds down', () => {
    expect(excellentCap(10, 30)).toBe(3);
    expect(excellentCap(7, 30)).toBe(2); // 2.1
    expect(excellentCap(20, 15)).toBe(3);
    expect(excellentCapProblem(3, 10, 30)).toBeUndefined();
    expect(excellentCapProblem(4, 10, 30)).toContain('最多3名');
  });

  it('[S1.F14c] ballot totals: returned up to the issued, void up to the returned; a member\'s votes up to the valid ballots', () => {
    expect(ballotTotalsProblems({ issued: 10, returned: 10, void: 10 })).toEqual([]);
    expect(ballotTotalsProblems({ issued: 10, returned: 11, void: 0 })[0].field).toBe('returned');
    expect(ballotTotalsProblems({ issued: 10, returned: 9, void: 10 })[0].field).toBe('void');
    expect(validBallots({ issued: 10, returned: 9, void: 2 })).toBe(7);
    expect(votesProblem('张三', appraisalCounts({ votesExcellent: 4, votesQualified: 3 }), 7)).toBeUndefined();
    expect(votesProblem('张三', appraisalCounts({ votesExcellent: 4, votesQualified: 4 }), 7)).toContain('多于有效票');
    expect(votesProblem('张三', appraisalCounts({ votesBasic: 4, votesUnqualified: 4 }), 7)).toContain('8票'); // every grade's field counts
    expect(leadingGrade(APPRAISAL_GRADE_VALUES, appraisalCounts({ votesExcellent: 3, votesQualified: 3 }))).toBe('2'); // a tie never raises a grade
    expect(leadingGrade(APPRAISAL_GRADE_VALUES, appraisalCounts({}))).toBeUndefined();
  });

  it('[S1.F14d] talk coverage: committee talks cover members, the secretary covers the committee', () => {
    const members = [1, 2, 3, 4, 5].map((id) => ({ id, name: `m${id}` }));
    const committee = new Set([1, 2]);
    const secretary = new Set([1]);
    const c = talkCoverage(members, committee, secretary, [{ talkerId: 2, memberId: 3 }, { talkerId: 5, memberId: 4 }]);
    expect(c.uncovered.map((m) => m.id)).toEqual([4, 5]); // a talk by a member outside the committee does not count
    expect(c.committeeMissed.map((m) => m.id)).toEqual([2]);
    expect(c.required).toBe(4);
    expect(c.covered).toBe(1);
    expect(committeeNames({ secretary: '张三', committee: '张三、李四，王五' })).toEqual({ secretary: ['张三'], committee: ['张三', '李四', '王五'] });
  });

  it('[S1.F11c] secretary vacant over three months: not on the day three months later, from the day after', () => {
    expect(addMonths('2026-01-31', 3)).toBe('2026-04-30');
    expect(secretaryVacantTooLong('2026-01-31', '2026-04-30', 3)).toBe(false);
    expect(secretaryVacantTooLong('2026-01-31', '2026-05-01', 3)).toBe(true);
    expect(secretaryVacantTooLong('2026-03-15', '2026-06-15', 3)).toBe(false);
    expect(secretaryVacantTooLong('2026-03-15', '2026-06-16', 3)).toBe(true);
  });

  it('[S1.F11c] quarter rates of compliance: months and quarters counted, open periods not yet due, the year left out', () => {
    const rates = quarterRates([
      { period: '2026-01', compliant: true, open: false },
      { period: '2026-02', compliant: false, open: false },
      { period: '2026-03', compliant: true, open: false },
      { period: '2026-Q1', compliant: false, open: false },
      { period: '2026-04', compliant: false, open: true },
      { period: '2026', compliant: false, open: false },
    ]);
    expect(rates).toEqual([0.5, null, null, null]);
  });

  it('[S1.F14b] assessment: weighted total and ranks with ties', () => {
    expect(weightedTotal([{ score: 90, maxScore: 100, weight: 60 }, { score: 40, maxScore: 50, weight: 40 }])).toBe(86);
    expect(rankBy([{ v: 1 }, { v: 3 }, { v: 3 }, { v: 0 }], (r) => r.v).map((r) => r.rank)).toEqual([1, 1, 3, 4]);
  });
});

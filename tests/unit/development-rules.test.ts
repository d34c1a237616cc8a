import { describe, expect, it } from 'vitest';
import {
  addMonths,
  addYears,
  ageProblem,
  extensionProblem,
  probationProblem,
  publicityProblem,
  trainingProblem,
  turns18,
  voteProblems,
  workdaysBetween,
} from '../../src/shared/development/rules.js';
import { completedStep, nextDue, stageOfState } from '../../src/shared/development/steps.js';

describe('development rules (pure)', () => {
  it('calendar arithmetic keeps the day or takes the month\'s last one', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2025-11-30', 3)).toBe('2026-02-28');
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(addMonths('2025-03-15', -3)).toBe('2024-12-15');
    expect(turns18('2008-02-29')).toBe('2026-03-01');
    expect(turns18('2008-06-01')).toBe('2026-06-01');
  });

  it('counts working days Monday to Friday, both ends included', () => {
    expect(workdaysBetween('2026-11-16', '2026-11-20')).toBe(5); // Mon–Fri
    expect(workdaysBetween('2026-11-16', '2026-11-19')).toBe(4);
    expect(workdaysBetween('2026-11-20', '2026-11-26')).toBe(5); // Fri–Thu over a weekend
    expect(workdaysBetween('2026-11-21', '2026-11-22')).toBe(0);
    expect(workdaysBetween('2026-11-22', '2026-11-21')).toBe(0);
  });

  it.each([
    ['2008-11-23', '2026-11-22', true],
    ['2008-11-23', '2026-11-23', false],
    ['2008-02-29', '2026-02-28', true],
    ['2008-02-29', '2026-03-01', false],
  ])('age: born %s, applying %s → refused %s', (birth, apply, refused) => {
    expect(!!ageProblem(birth, apply)).toBe(refused);
  });

  it.each([
    [10, 5, 5, ['present', 'votesFor']],
    [10, 6, 5, ['votesFor']],
    [10, 6, 6, []],
    [9, 4, 4, ['present', 'votesFor']],
    [9, 5, 5, []],
    [1, 1, 1, []],
  ])('vote: %i entitled, %i present, %i for → problems on %j', (entitled, present, votesFor, fields) => {
    expect(voteProblems({ entitled, present, votesFor, votesAgainst: 0, abstentions: present - votesFor }).map((p) => p.field)).toEqual(fields);
  });

  it('training, publicity, extension and probation at their limits', () => {
    expect(trainingProblem(2, 23)).toBeDefined();
    expect(trainingProblem(3, 0)).toBeUndefined();
    expect(trainingProblem(0, 24)).toBeUndefined();
    expect(publicityProblem('2026-11-16', '2026-11-19', undefined)).toContain('不足5个工作日');
    expect(publicityProblem('2026-11-16', '2026-11-20', undefined)).toBeUndefined();
    expect(publicityProblem('2026-11-16', '2026-11-20', '2026-11-20')).toContain('之后召开');
    expect(publicityProblem('2026-11-16', '2026-11-20', '2026-11-21')).toBeUndefined();
    expect(publicityProblem('2026-11-16', '2026-11-24', undefined, 7)).toBeUndefined();
    expect(extensionProblem(12, false)).toBeUndefined();
    expect(extensionProblem(13, false)).toContain('超过一年');
    expect(extensionProblem(6, false)).toBeUndefined();
    expect(extensionProblem(5, false)).toContain('不能少于半年');
    expect(extensionProblem(6, true)).toContain('已延长过一次');
    expect(probationProblem('2026-06-01', '2026-05-31')).toContain('尚未期满');
    expect(probationProblem('2026-06-01', '2026-06-01')).toBeUndefined();
  });

  it('the furthest step follows the state and the filings made in it; a return takes it back', () => {
    expect(completedStep({ state: -1 })).toBeNull();
    expect(completedStep({ state: 0 })).toBe('1');
    expect(completedStep({ state: 2, activistFiledDate: '2025-01-01', contactIds: [1] })).toBe('5');
    expect(completedStep({ state: 2, activistDate: '2025-01-01', lastAssessDate: '2025-07-01' })).toBe('6');
    expect(completedStep({ state: 5, branchReviewDate: '2025-01-01', preReviewDate: '2025-01-05', bookDate: '2025-01-20' })).toBe('14');
    // Assessed as an activist, not yet as a probationary member: 21 is not reached.
    expect(completedStep({ state: 7, admitDate: '2025-06-01', lastAssessDate: '2024-06-01', oathDate: '2025-07-01' })).toBe('20');
    expect(completedStep({ state: 7, admitDate: '2025-06-01', lastAssessDate: '2025-12-01' })).toBe('21');
    expect(completedStep({ state: 10 })).toBe('25');
    expect(completedStep({ state: 1, talkDate: '2025-01-01', activistDate: '2025-02-01' })).toBe('2');
    expect([stageOfState(-1), stageOfState(2), stageOfState(6), stageOfState(8), stageOfState(10), stageOfState(-2)]).toEqual(['1', '2', '3', '4', '5', null]);
  });

  it('the next deadline comes from the record\'s dates', () => {
    expect(nextDue({ state: 0, applyDate: '2026-01-31' })).toEqual({ dueDate: '2026-02-28', dueItem: '入党谈话' });
    expect(nextDue({ state: 2, activistDate: '2026-01-10' })).toEqual({ dueDate: '2026-07-10', dueItem: '培养考察' });
    expect(nextDue({ state: 3, activistDate: '2025-01-10', lastAssessDate: '2026-02-01' })).toEqual({ dueDate: '2026-08-01', dueItem: '培养考察' });
    expect(nextDue({ state: 6, meetingDate: '2026-03-01' })).toEqual({ dueDate: '2026-06-01', dueItem: '上级党委审批' });
    expect(nextDue({ state: 7, admitDate: '2026-03-01', probationEnd: '2027-03-01' })).toEqual({ dueDate: '2026-09-01', dueItem: '培养考察' });
    expect(nextDue({ state: 7, admitDate: '2026-03-01', lastAssessDate: '2026-12-01', probationEnd: '2027-03-01' })).toEqual({ dueDate: '2027-03-01', dueItem: '讨论转正' });
    expect(nextDue({ state: 10 })).toEqual({ dueDate: null, dueItem: null });
  });
});

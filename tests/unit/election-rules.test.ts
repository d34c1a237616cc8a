import { describe, expect, it } from 'vitest';
import { ballotLines, parseBallotLines } from '../../src/shared/ballot-sheet.js';
import { byStrokes, compareByStrokes, knowsStrokes, strokesOf } from '../../src/shared/strokes.js';
import { allocateDelegates, seatsProblem, termBodyOf, newTermOf, structureOf, structureWarnings, termDue, termYearsProblem } from '../../src/server/domain/elections/rules.js';

describe('election rules', () => {
  it('[S1.F4c] terms: 党委 five years, 党总支 and 支部 three (two where the school allows)', () => {
    expect(termYearsProblem('1', 5, 3)).toBeUndefined();
    expect(termYearsProblem('1', 3, 3)).toMatch(/五年/);
    expect(termYearsProblem('3', 3, 3)).toBeUndefined();
    expect(termYearsProblem('3', 2, 3)).toMatch(/三年/);
    expect(termYearsProblem('3', 2, 2)).toBeUndefined();
    expect(termYearsProblem('2', 4, 2)).toMatch(/2至3年/);
  });
  it('[S1.F4c] a new term runs from the assembly to the day before the same date; due within six months, overdue after the end', () => {
    expect(newTermOf('2026-11-27', 3)).toEqual({ termStart: '2026-11-27', termEnd: '2029-11-26' });
    expect(newTermOf('2024-02-29', 5).termEnd).toBe('2029-02-27');
    expect(termDue('2027-05-27', '2026-11-27', 6)).toEqual({ due: true, overdue: false });
    expect(termDue('2027-05-28', '2026-11-27', 6)).toEqual({ due: false, overdue: false });
    expect(termDue('2026-11-26', '2026-11-27', 6)).toEqual({ due: true, overdue: true });
    expect(termDue('2026-11-27', '2026-11-27', 6).overdue).toBe(false);
  });
  it('[S1.F4a] the delegate number allocated by member count sums to the number, every unit with members at least one', () => {
    const units = [{ id: 1, members: 600 }, { id: 2, members: 300 }, { id: 3, members: 95 }, { id: 4, members: 5 }];
    const a = allocateDelegates(150, units);
    expect([...a.values()].reduce((n, v) => n + v, 0)).toBe(150);
    expect(a.get(1)).toBe(90);
    expect(a.get(2)).toBe(45);
    expect(a.get(4)).toBe(1);
    expect([...allocateDelegates(3, [{ id: 1, members: 10 }, { id: 2, members: 0 }]).values()]).toEqual([3, 0]);
  });
  it('[S1.F4b] the structure: women, minorities, front line, age bands, and what the check flags', () => {
    const today = '2026-11-27';
    const people = [
      { gender: '2', ethnicity: '01', birthDate: '1991-11-27', frontLine: true }, // 35 today
      { gender: '1', ethnicity: '03', birthDate: '1991-11-28', frontLine: false }, // 34
      { gender: '1', ethnicity: '01', birthDate: '1975-01-01', frontLine: false },
      { gender: '1', ethnicity: '01', birthDate: '1960-01-01', frontLine: false },
    ];
    const s = structureOf(people, today);
    expect(s).toMatchObject({ total: 4, women: { count: 1, percent: 25 }, minorities: { count: 1, percent: 25 }, frontLine: { count: 1, percent: 25 } });
    expect(s.ages.map((a) => a.count)).toEqual([2, 0, 1, 1]);
    const members = structureOf([...people, { gender: '2', ethnicity: '01', birthDate: '2000-01-01', frontLine: true }], today);
    expect(structureWarnings(s, members)).toEqual(['女性代表比例25%，低于党员中女性比例40%', '一线党员代表比例25%，一般应不少于代表总数的一半']);
  });
  it('[S1.F4c] ballot lines: serial numbers per line, 0 a blank ballot, numbers beyond the list void the ballot, text refused', () => {
    const ids = [11, 12, 13];
    const b = (marks: number[], against: number[] = [], abstain: number[] = [], writeIns: string[] = []) => ({ marks, against, abstain, writeIns });
    expect(parseBallotLines('1 3\n\n0\n2，3、1\n4', ids)).toEqual({ ballots: [b([11, 13]), b([]), b([12, 13, 11]), b([-4])], errors: [] });
    expect(parseBallotLines('1\n张三', ids).errors).toEqual([{ line: 2, text: '张三' }]);
    expect(ballotLines([{ marks: [13, 11] }, { marks: [] }], ids)).toBe('3 1\n0');
    // [issue 40.1] -n 不赞成, ~n 弃权, +姓名 另选他人; the lines read back.
    expect(parseBallotLines('1 -2 ~3\n-1 +王五', ids).ballots).toEqual([b([11], [12], [13]), b([], [11], [], ['王五'])]);
    expect(ballotLines([b([11], [12], [13]), b([], [11], [], ['王五'])], ids)).toBe('1 -2 ~3\n-1 +王五');
    expect(parseBallotLines('1 *2', ids).errors).toEqual([{ line: 1, text: '1 *2' }]);
  });

  it('[issue 40.1] 按姓氏笔画为序: surname strokes, then the given name; differs from pinyin', () => {
    expect([strokesOf('王'), strokesOf('李'), strokesOf('张'), strokesOf('赵'), strokesOf('丁'), strokesOf('戴')]).toEqual([4, 7, 7, 9, 2, 17]);
    const names = ['李华', '张三', '王明', '赵六', '丁一'];
    // Pinyin: 丁 李 王 张 赵; strokes: 丁2 王4 张7(三3) 李7(华6) 赵9.
    expect([...names].sort(new Intl.Collator('zh-CN').compare)).toEqual(['丁一', '李华', '王明', '张三', '赵六']);
    expect(byStrokes(names, (n) => n)).toEqual(['丁一', '王明', '张三', '李华', '赵六']);
    expect(compareByStrokes('陈红', '陈红')).toBe(0);
    // An unknown character sorts after the known ones of its position.
    expect(knowsStrokes('彧')).toBe(false);
    expect(byStrokes(['彧明', '戴明'], (n) => n)).toEqual(['戴明', '彧明']);
  });

  it('[issue 40.2] committee size: 6 full members elect a secretary (and deputy) only, 7 a committee of 3 to 7; a 党委 its approved seats', () => {
    const f = { body: '党支部委员会', seatsApproved: null, minMembers: 7, minSeats: 3, maxSeats: 7 };
    expect(seatsProblem({ ...f, fullMembers: 6, seats: 2 })).toBeUndefined();
    expect(seatsProblem({ ...f, fullMembers: 6, seats: 3 })).toMatch(/不设支部委员会/);
    expect(seatsProblem({ ...f, fullMembers: 7, seats: 3 })).toBeUndefined();
    expect(seatsProblem({ ...f, fullMembers: 7, seats: 2 })).toMatch(/3至7/);
    expect(seatsProblem({ ...f, fullMembers: 30, seats: 7 })).toBeUndefined();
    expect(seatsProblem({ ...f, fullMembers: 30, seats: 8 })).toMatch(/不超过7人/);
    expect(seatsProblem({ ...f, body: '党的委员会', seatsApproved: 9, fullMembers: 600, seats: 9 })).toBeUndefined();
    expect(seatsProblem({ ...f, body: '党的委员会', seatsApproved: 9, fullMembers: 600, seats: 11 })).toMatch(/批准的9名/);
  });
  it('[issue 40.3] terms per body: a 纪委 election makes a 纪委 term, a 党委 election the 党委 term', () => {
    expect(termBodyOf('纪律检查委员会', '1')).toBe('纪委');
    expect(termBodyOf('党的委员会', '1')).toBe('党委');
    expect(termBodyOf('党支部委员会', '3')).toBe('支部');
  });
});

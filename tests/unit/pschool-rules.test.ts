import { describe, expect, it } from 'vitest';
import { ChapterType, CourseEvaluationType, DxPcType, QuestionType } from '../../src/shared/constants.js';
import { markAnswer, markSheet, normaliseJudge, type KeyedQuestion } from '../../src/shared/pschool/marking.js';
import { composeByHand, composeByRules, PaperRuleError, seededRandom } from '../../src/shared/pschool/paper.js';
import { EMPTY_PROGRESS, PROGRESS_SESSION_GAP_SECONDS, PROGRESS_TOLERANCE_SECONDS, judgeProgress } from '../../src/shared/pschool/progress.js';
import { arrangeSeats, makeGroups, SeatingError } from '../../src/shared/pschool/seating.js';
import { certificateNo, standingOf } from '../../src/shared/pschool/standing.js';

describe('party-school enumerations (spec §9)', () => {
  it('[S9.K5] batch type dxPc: APPLY 1, ACTIVE 2, DEVELOP 3, PREPARE 4', () => expect(DxPcType).toEqual({ APPLY: 1, ACTIVE: 2, DEVELOP: 3, PREPARE: 4 }));
  it('[S9.K6] course evaluation: OFFLINE 1, ONLINE 2', () => expect(CourseEvaluationType).toEqual({ OFFLINE: 1, ONLINE: 2 }));
  it('[S9.K7] chapter/node: CHAPTER 1, NODE 2', () => expect(ChapterType).toEqual({ CHAPTER: 1, NODE: 2 }));
  it('[S9.K8] question type starts at 0: single 0, multiple 1, judge 2, fill 3, short answer 4', () => expect(QuestionType).toEqual({ SINGLE: 0, MULTIPLE: 1, JUDGE: 2, FILL: 3, SHORT_ANSWER: 4 }));
});

describe('video and document progress (server-decided)', () => {
  const T0 = 1_700_000_000_000;
  const at = (s: number) => T0 + s * 1000;

  it('the first report may not run ahead of the tolerance: no whole video in one call', () => {
    expect(judgeProgress(EMPTY_PROGRESS, 600, 600, T0)).toEqual({ accepted: false, furthest: 0, limit: PROGRESS_TOLERANCE_SECONDS });
    expect(judgeProgress(EMPTY_PROGRESS, PROGRESS_TOLERANCE_SECONDS, 600, T0)).toMatchObject({ accepted: true, credited: PROGRESS_TOLERANCE_SECONDS });
    expect(judgeProgress(EMPTY_PROGRESS, PROGRESS_TOLERANCE_SECONDS + 0.01, 600, T0).accepted).toBe(false);
  });

  it('credits at most the wall-clock time since the last accepted report, plus the tolerance', () => {
    const first = judgeProgress(EMPTY_PROGRESS, 0, 600, at(0));
    if (!first.accepted) throw new Error('refused');
    expect(judgeProgress(first.state, 33, 600, at(30))).toMatchObject({ accepted: true, credited: 33 });
    expect(judgeProgress(first.state, 33.01, 600, at(30))).toMatchObject({ accepted: false, furthest: 0, limit: 33 });
  });

  it('a long pause gives at most the session gap, and rewinding never lowers the furthest point', () => {
    const state = { furthest: 100, position: 100, lastReportAt: at(0), lead: 0, completedAt: null };
    const limit = 100 + PROGRESS_SESSION_GAP_SECONDS + PROGRESS_TOLERANCE_SECONDS;
    expect(judgeProgress(state, limit, 9999, at(86_400)).accepted).toBe(true);
    expect(judgeProgress(state, limit + 1, 9999, at(86_400)).accepted).toBe(false);
    expect(judgeProgress(state, 10, 9999, at(1))).toMatchObject({ accepted: true, credited: 100, state: { position: 10, furthest: 100 } });
  });

  it('completes within a second of the end, once; a position past the end counts as the end', () => {
    const near = { furthest: 590, position: 590, lastReportAt: at(0), lead: 0, completedAt: null };
    expect(judgeProgress(near, 598.9, 600, at(10))).toMatchObject({ completed: false });
    const done = judgeProgress(near, 599, 600, at(10));
    expect(done).toMatchObject({ completed: true, justCompleted: true, state: { completedAt: at(10) } });
    if (!done.accepted) throw new Error('refused');
    expect(judgeProgress(done.state, 10, 600, at(20))).toMatchObject({ completed: true, justCompleted: false, state: { completedAt: at(10) } });
    expect(judgeProgress({ ...near, furthest: 599.5 }, 700, 600, at(10))).toMatchObject({ accepted: true, credited: 600 });
  });
});

describe('marking', () => {
  const q = (type: number, answer: string): KeyedQuestion => ({ type: type as KeyedQuestion['type'], answer });
  const strict = { partialCredit: false };
  const lenient = { partialCredit: true };

  it('single choice and judge: the key or nothing; judge accepts 对/错, √/×, T/F', () => {
    expect(markAnswer(q(0, 'B'), 'b', 2, strict)).toBe(2);
    expect(markAnswer(q(0, 'B'), 'AB', 2, strict)).toBe(0);
    expect(markAnswer(q(0, 'B'), undefined, 2, strict)).toBe(0);
    expect(markAnswer(q(2, '正确'), '对', 1, strict)).toBe(1);
    expect(markAnswer(q(2, '错误'), '√', 1, strict)).toBe(0);
    expect(normaliseJudge('×')).toBe('错误');
    expect(normaliseJudge('也许')).toBeNull();
  });

  it('multiple choice: all or nothing; with partial credit a correct subset earns half, any wrong choice nothing', () => {
    expect(markAnswer(q(1, 'ACD'), 'DCA', 3, strict)).toBe(3);
    expect(markAnswer(q(1, 'ACD'), 'AC', 3, strict)).toBe(0);
    expect(markAnswer(q(1, 'ACD'), 'AC', 3, lenient)).toBe(1.5);
    expect(markAnswer(q(1, 'ACD'), 'AB', 3, lenient)).toBe(0);
    expect(markAnswer(q(1, 'ACD'), '', 3, lenient)).toBe(0);
    expect(markAnswer(q(1, 'ACD'), ['A', 'C', 'D'], 3, strict)).toBe(3);
  });

  it('fill in the blanks: per blank, alternatives by /, spaces, case and full-width ignored', () => {
    const key = q(3, '全心全意为人民服务/为人民服务|实事求是|CPC');
    expect(markAnswer(key, ['为人民服务', '实事求是', 'cpc'], 6, strict)).toBe(6);
    expect(markAnswer(key, [' 全心全意 为人民服务', '错', 'ＣＰＣ'], 6, strict)).toBe(4);
    expect(markAnswer(key, '为人民服务|实事求是', 6, strict)).toBe(4);
    expect(markAnswer(key, undefined, 6, strict)).toBe(0);
  });

  it('short answers wait for a marker; a sheet sums what is marked and lists what waits', () => {
    expect(markAnswer(q(4, '参考'), '回答', 10, strict)).toBeNull();
    const keys = new Map([[1, q(0, 'A')], [2, q(4, '参考')], [3, q(2, '正确')]]);
    const result = markSheet([{ q: 1, type: 0, score: 2 }, { q: 2, type: 4, score: 10 }, { q: 3, type: 2, score: 1 }, { q: 9, type: 0, score: 5 }], { 1: 'A', 2: '答', 3: '错误' }, keys, strict);
    expect(result).toEqual({ marks: { 1: 2, 2: null, 3: 0, 9: 0 }, objective: 2, pending: [2] });
  });
});

describe('papers', () => {
  const bank = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, type: (i % 3) as 0 | 1 | 2, tags: i < 6 ? ['dz'] : ['ds'], score: 2 }));

  it('rules draw distinct questions of the type and tag, the same for the same seed and different for another', () => {
    const rules = [{ type: 0 as const, tag: 'dz', count: 2, score: 5 }, { type: 1 as const, count: 3 }];
    const a = composeByRules(rules, bank, 7);
    expect(a).toHaveLength(5);
    expect(new Set(a.map((p) => p.q)).size).toBe(5);
    expect(a.filter((p) => p.type === 0).every((p) => bank[p.q - 1].tags.includes('dz') && p.score === 5)).toBe(true);
    expect(a.filter((p) => p.type === 1).every((p) => p.score === 2)).toBe(true);
    expect(composeByRules(rules, bank, 7)).toEqual(a);
    const others = [8, 9, 10, 11, 12].map((s) => JSON.stringify(composeByRules(rules, bank, s)));
    expect(others.some((o) => o !== JSON.stringify(a))).toBe(true);
  });

  it('refuses a rule the bank cannot fill, and keeps a hand-made paper in order without missing questions', () => {
    expect(() => composeByRules([{ type: 0, tag: 'dz', count: 3 }], bank, 1)).toThrow(PaperRuleError);
    expect(() => composeByRules([{ type: 0, tag: 'dz', count: 3 }], bank, 1)).toThrow('题库中符合规则的题目不足：需要3道，只有2道');
    const byId = new Map(bank.map((b) => [b.id, b]));
    expect(composeByHand([3, 99, 1], byId).map((p) => p.q)).toEqual([3, 1]);
  });

  it('the seeded generator is uniform enough to draw every question', () => {
    const random = seededRandom(42);
    const seen = new Set(Array.from({ length: 2000 }, () => Math.floor(random() * 10)));
    expect(seen.size).toBe(10);
  });
});

describe('seating and groups', () => {
  const people = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `人${i + 1}`, orgId: i < 6 ? 1 : 2 }));

  it('seats everyone once, row by row, and refuses a room one seat too small', () => {
    const seats = arrangeSeats(people, 2, 5, 'random', 1);
    expect(seats.map((s) => s.no)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(seats.map((s) => s.id)).size).toBe(10);
    expect(seats[5]).toMatchObject({ row: 2, col: 1 });
    expect(() => arrangeSeats(people, 3, 3, 'random', 1)).toThrow(SeatingError);
    expect(() => arrangeSeats(people, 0, 30, 'random', 1)).toThrow('考场的行数和列数须为1到50的整数');
  });

  it('by branch keeps a branch together; spread alternates branches', () => {
    const together = arrangeSeats(people, 2, 5, 'branch', 3).map((s) => s.orgId);
    expect(together.join('')).toMatch(/^(1{6}2{4}|2{4}1{6})$/);
    const spread = arrangeSeats(people, 2, 5, 'spread', 3).map((s) => s.orgId);
    expect(spread.slice(0, 8).join('')).toBe('12121212');
  });

  it('groups are near-equal; by branch they are contiguous slices', () => {
    expect(makeGroups(people, 3, 'random', 1).map((g) => g.length)).toEqual([4, 3, 3]);
    const byBranch = makeGroups(people, 2, 'branch', 1);
    expect(byBranch.map((g) => g.length)).toEqual([5, 5]);
    expect(() => makeGroups(people, 11, 'random', 1)).toThrow(SeatingError);
  });
});

describe('standing and certificates', () => {
  it('completes at the required hours exactly (one short is not enough), and only with the exam passed when there is one', () => {
    expect(standingOf({ onlineHours: 20, offlineHours: 4, requiredHours: 24, examRequired: false, examPassed: false })).toEqual({ hoursDone: 24, completed: true });
    expect(standingOf({ onlineHours: 19.5, offlineHours: 4, requiredHours: 24, examRequired: false, examPassed: false }).completed).toBe(false);
    expect(standingOf({ onlineHours: 24, offlineHours: 0, requiredHours: 24, examRequired: true, examPassed: false }).completed).toBe(false);
    expect(standingOf({ onlineHours: 24, offlineHours: 0, requiredHours: 24, examRequired: true, examPassed: true }).completed).toBe(true);
  });

  it('certificate numbers carry year, batch type and a five-digit sequence', () => {
    expect(certificateNo(2026, 3, 12)).toBe('DX2026300012');
  });
});

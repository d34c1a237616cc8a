/**
 * The pure rules of selection and appointment, assessment and the .lrmx reader at their boundaries
 * (src/server/domain/cadre/appointment-rules.ts, assessment.ts, lrmx-xml.ts).
 */
import { describe, expect, it } from 'vitest';
import { dateProblems, appointFromOf, probationEndOf, probationProblem, publicityProblem } from '../../src/server/domain/cadre/appointment-rules.js';
import { excellentCap } from '../../src/server/domain/cadre/assessment.js';
import { lrmxMonth, parseLrmx, resumeEntries } from '../../src/server/domain/cadre/lrmx-xml.js';
import { calendarOf } from '../../src/shared/working-days.js';
import { qualificationProblems, servedYears } from '../../src/server/domain/cadre/qualification.js';

describe('任前公示 (《条例》第四十二条)', () => {
  // 2026-03-02 is a Monday.
  it('five working days pass, four are refused; the decision only after the last day', () => {
    expect(publicityProblem('2026-03-02', '2026-03-05', undefined)).toContain('共4个工作日，不足5个工作日');
    expect(publicityProblem('2026-03-02', '2026-03-06', undefined)).toBeUndefined();
    expect(publicityProblem('2026-03-02', '2026-03-06', '2026-03-06')).toContain('须在任前公示期满');
    expect(publicityProblem('2026-03-02', '2026-03-06', '2026-03-07')).toBeUndefined();
    expect(appointFromOf('2026-03-06')).toBe('2026-03-07');
  });
  it('a holiday does not count, a make-up working day does', () => {
    const calendar = calendarOf([{ kind: 'holiday', startDate: '2026-03-04', endDate: '2026-03-04' }, { kind: 'workday', startDate: '2026-03-07', endDate: '2026-03-07' }]);
    expect(publicityProblem('2026-03-02', '2026-03-06', undefined, 5, calendar)).toContain('共4个工作日');
    expect(publicityProblem('2026-03-02', '2026-03-07', undefined, 5, calendar)).toBeUndefined();
  });
  it('refuses a missing or reversed period', () => {
    expect(publicityProblem(null, '2026-03-06', undefined)).toContain('尚未记录');
    expect(publicityProblem('2026-03-06', '2026-03-02', undefined)).toContain('早于开始日期');
  });
});

describe('试用期 (《条例》第四十五条)', () => {
  it('one year from the appointment; 02-29 ends on 02-28', () => {
    expect(probationEndOf('2025-03-15')).toBe('2026-03-15');
    expect(probationEndOf('2024-02-29')).toBe('2025-02-28');
  });
  it('confirmation the day it ends, not the day before', () => {
    expect(probationProblem('2026-03-15', '2026-03-14')).toContain('尚未期满');
    expect(probationProblem('2026-03-15', '2026-03-15')).toBeUndefined();
    expect(probationProblem(null, '2026-03-15')).toContain('没有试用期');
  });
});

describe('the procedure in order', () => {
  it('refuses a step dated before the one before it, or in the future (the publicity aside)', () => {
    const record = { proposeDate: '2026-01-10', recommendDate: '2026-01-09', publicityStart: '2026-12-01' };
    expect(dateProblems(record, ['recommendDate'], '2026-06-01')).toEqual([{ field: 'recommendDate', message: '民主推荐日期（2026-01-09）不能早于动议日期（2026-01-10）' }]);
    expect(dateProblems({ proposeDate: '2026-06-02' }, ['proposeDate'], '2026-06-01')[0].message).toContain('不能晚于今天');
    expect(dateProblems(record, ['publicityStart'], '2026-06-01')).toEqual([]);
  });
});

describe('优秀 cap', () => {
  it('the percentage of those taking part, rounded down, at least one', () => {
    expect(excellentCap(10, 20)).toBe(2);
    expect(excellentCap(14, 20)).toBe(2);
    expect(excellentCap(15, 20)).toBe(3);
    expect(excellentCap(3, 20)).toBe(1);
    expect(excellentCap(0, 20)).toBe(0);
  });
});

describe('.lrmx reader', () => {
  it('reads the fields, the family and entities', () => {
    const p = parseLrmx('<?xml version="1.0"?><Person><XingMing>张三</XingMing><XingBie>男</XingBie><JiGuan>A&amp;B</JiGuan><NiRenZhiWu/><JiaTingChengYuan><Item><ChengWei>配偶</ChengWei><XingMing>李四</XingMing></Item></JiaTingChengYuan></Person>');
    expect(p.fields).toMatchObject({ XingMing: '张三', XingBie: '男', JiGuan: 'A&B', NiRenZhiWu: '' });
    expect(p.family).toEqual([{ ChengWei: '配偶', XingMing: '李四', ChuShengRiQi: '', ZhengZhiMianMao: '', GongZuoDanWeiJiZhiWu: '' }]);
    expect(() => parseLrmx('<html/>')).toThrow('没有找到 Person 节点');
  });
  it('reads months as the software writes them, and résumé lines with open ends and continuations', () => {
    expect(['197805', '1978.05', '1978-5', '1978年5月'].map(lrmxMonth)).toEqual(['1978-05', '1978-05', '1978-05', '1978-05']);
    expect(lrmxMonth('197813')).toBeNull();
    expect(resumeEntries('1996.09--2000.07  某大学学习\n2000.07--  本校教师\n          （其间：2003.09 进修）')).toEqual([
      { start: '1996-09', end: '2000-07', text: '某大学学习' },
      { start: '2000-07', end: null, text: '本校教师（其间：2003.09 进修）' },
    ]);
  });
});

describe('[39.1] 任职资格 (《条例》第八条)', () => {
  const base = { rank: '06', rankDate: null, workStart: '2000-07-01', grassrootsYears: 3, education: '21', posts: [{ rank: '06', startDate: '2024-03-15', endDate: null }] };
  it('副职 → 正职: two years in the 副职 — the day before refused, the day of passes', () => {
    expect(qualificationProblems(base, '05', '2026-03-14')[0]).toContain('副职岗位工作2年以上');
    expect(qualificationProblems(base, '05', '2026-03-15')).toEqual([]);
    // Two spans of the same rank add up (an overlap counted once).
    const split = { ...base, posts: [{ rank: '06', startDate: '2023-01-01', endDate: '2023-12-31' }, { rank: '06', startDate: '2023-06-01', endDate: '2023-12-31' }, { rank: '06', startDate: '2025-01-01', endDate: null }] };
    expect(servedYears(split.posts, '06', '2026-01-02', 2, null)).toBe(false); // 364 + 366 days < 731
    expect(servedYears(split.posts, '06', '2026-01-03', 2, null)).toBe(true);
  });
  it('下级正职 → 上级副职: three years; without posts the rank date counts', () => {
    const chief = { ...base, rank: '07', posts: [], rankDate: '2023-05-01' };
    expect(qualificationProblems(chief, '06', '2026-04-30')[0]).toContain('下级正职岗位工作3年以上');
    expect(qualificationProblems(chief, '06', '2026-05-01')).toEqual([]);
  });
  it('县处级: five years of work and two years at the base level; 专科 at least, 本科 for 厅级', () => {
    const young = { ...base, workStart: '2021-03-15', posts: [{ rank: '06', startDate: '2020-01-01', endDate: null }] };
    expect(qualificationProblems(young, '05', '2026-03-14').join()).toContain('5年以上工龄');
    expect(qualificationProblems(young, '05', '2026-03-15')).toEqual([]);
    expect(qualificationProblems({ ...base, grassrootsYears: 1 }, '05', '2027-01-01').join()).toContain('2年以上基层工作经历');
    expect(qualificationProblems({ ...base, education: '31' }, '05', '2027-01-01')).toEqual([]);
    expect(qualificationProblems({ ...base, education: '41' }, '05', '2027-01-01').join()).toContain('大学专科以上');
    expect(qualificationProblems({ ...base, rank: '05', education: '31', posts: [{ rank: '05', startDate: '2010-01-01', endDate: null }] }, '04', '2027-01-01').join()).toContain('大学本科以上');
  });
});

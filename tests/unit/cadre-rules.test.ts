/**
 * The cadre base's rules (src/server/domain/cadre/rules.ts, docs/cadres.md) at their boundaries: the work
 * record's continuity in months, the retirement age by rank and gender, a term's end, staffing figures.
 */
import { describe, expect, it } from 'vitest';
import { resumeProblems, retireAgeOf, retirementDateOf, staffingFigures, termEndOf } from '../../src/server/domain/cadre/rules.js';

describe('cadre rules', () => {
  const first = { startDate: '2000-07-01', endDate: '2010-06-30', text: '教师' };
  it('the work record: the next entry starts in the month the previous ended or the next one; earlier overlaps, later leaves a gap', () => {
    expect(resumeProblems([first, { startDate: '2010-07-01', text: '副教授' }])).toEqual([]);
    expect(resumeProblems([first, { startDate: '2010-06-15', text: '副教授' }])).toEqual([]);
    expect(resumeProblems([first, { startDate: '2010-05-31', text: '副教授' }])[0]).toContain('重叠');
    expect(resumeProblems([first, { startDate: '2010-08-01', text: '副教授' }])[0]).toContain('断档1个月');
    // A school allowing two months.
    expect(resumeProblems([first, { startDate: '2010-09-01', text: '副教授' }], 2)).toEqual([]);
    expect(resumeProblems([first, { startDate: '2010-10-01', text: '副教授' }], 2)[0]).toContain('断档3个月，超过允许的2个月');
    // Part-time entries overlap freely; an open entry must be the last; an end before its start.
    expect(resumeProblems([first, { startDate: '2005-01-01', endDate: '2006-01-01', text: '兼任', fullTime: false }, { startDate: '2010-07-01', text: '副教授' }])).toEqual([]);
    expect(resumeProblems([{ startDate: '2000-07-01', text: '教师' }, { startDate: '2010-07-01', text: '副教授' }])[0]).toContain('至今的经历应为最后一段');
    expect(resumeProblems([{ startDate: '2000-07-01', endDate: '2000-06-01', text: '教师' }])[0]).toContain('早于开始日期');
  });

  it('retirement: 60 for men; women 55 at 处级 and below, 60 above; 02-29 birthdays end on 02-28', () => {
    expect(retireAgeOf('1', '05')).toBe(60);
    expect(retireAgeOf('2', '05')).toBe(55);
    expect(retireAgeOf('2', '04')).toBe(60);
    expect(retireAgeOf('2', '04', { male: 60, female: 55, femaleSenior: 58 })).toBe(58);
    expect(retirementDateOf('1968-02-29', '1', '06')).toBe('2028-02-29');
    expect(retirementDateOf('1972-02-29', '2', '06')).toBe('2027-02-28');
    expect(retirementDateOf(null, '1', '06')).toBeNull();
  });

  it('a term ends its years after the start (the default when the post gives none)', () => {
    expect(termEndOf('2021-03-15', 5)).toBe('2026-03-15');
    expect(termEndOf('2021-03-15', null, 4)).toBe('2025-03-15');
    expect(termEndOf('2024-02-29', 3)).toBe('2027-02-28');
  });

  it('staffing: under, exactly at and over the approved number', () => {
    expect(staffingFigures(3, 2)).toEqual({ occupied: 2, vacant: 1, excess: 0, status: '空缺' });
    expect(staffingFigures(3, 3)).toEqual({ occupied: 3, vacant: 0, excess: 0, status: '满编' });
    expect(staffingFigures(3, 4)).toEqual({ occupied: 4, vacant: 0, excess: 1, status: '超编' });
  });
});

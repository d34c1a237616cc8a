/**
 * The cadre base's rules (src/server/domain/cadre/rules.ts, docs/cadres.md) at their boundaries: the work
 * record's continuity in months, the retirement age by rank and gender, a term's end, staffing figures.
 */
import { schoolAndMajor } from '../../src/server/domain/cadre/lrmx.js';
import { describe, expect, it } from 'vitest';
import { resumeProblems, retirementDateOf, staffingFigures, termEndOf } from '../../src/server/domain/cadre/rules.js';
import { ageLabel, retirementAgeMonths } from '../../src/shared/cadre/retirement.js';

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

  it('[39.2] retirement by the 2025 decision: men +1 month per 4 months of birth from 1965-01 up to 63; women cadres 55 → 58 from 1970-01; women at 处级 or with a senior title 60', () => {
    const man = (birthDate: string) => retirementAgeMonths({ birthDate, gender: '1', rank: '07' });
    expect(man('1964-12-15')).toBe(720); // the month before: no delay
    expect(man('1965-01-15')).toBe(721); // the month of: one month
    expect(man('1965-04-30')).toBe(721);
    expect(man('1965-05-01')).toBe(722);
    expect(man('1976-08-31')).toBe(755); // 62岁11个月
    expect(man('1976-09-01')).toBe(756); // 63
    expect(man('1990-01-01')).toBe(756);
    const woman = (birthDate: string, extra: Record<string, unknown> = {}) => retirementAgeMonths({ birthDate, gender: '2', rank: '07', title: '301', ...extra });
    expect(woman('1969-12-31')).toBe(660);
    expect(woman('1970-01-01')).toBe(661);
    expect(woman('1970-04-01')).toBe(661);
    expect(woman('1970-05-01')).toBe(662);
    expect(woman('1981-08-01')).toBe(695);
    expect(woman('1981-09-01')).toBe(696); // 58
    // 组通字〔2015〕14号: 处级 (05, 06) and above, or a senior title: 60, unless she chose the women's age.
    expect(woman('1975-03-10', { rank: '06' })).toBe(720);
    expect(woman('1975-03-10', { rank: '05' })).toBe(720);
    expect(woman('1975-03-10', { rank: '04' })).toBe(720);
    expect(woman('1975-03-10', { title: '201' })).toBe(720);
    expect(woman('1975-03-10', { title: '101' })).toBe(720);
    expect(woman('1975-03-10', { rank: '06', retireEarly: true })).toBe(woman('1975-03-10'));
    expect(ageLabel(755)).toBe('62岁11个月');
    // The day: the birthday that many months on (a day the month lacks: its last).
    expect(retirementDateOf({ birthDate: '1964-12-15', gender: '1' })).toBe('2024-12-15');
    expect(retirementDateOf({ birthDate: '1965-01-31', gender: '1' })).toBe('2025-02-28');
    expect(retirementDateOf({ birthDate: '1976-09-01', gender: '1' })).toBe('2039-09-01');
    expect(retirementDateOf({ birthDate: '1972-02-29', gender: '2', rank: '06' })).toBe('2032-02-29');
    expect(retirementDateOf({ birthDate: null, gender: '1' })).toBeNull();
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

describe('[43.14] LRMX 毕业院校系及专业', () => {
  it('names the institution and the major as a major', () => {
    expect(schoolAndMajor({ school: '湖南大学', major: '计算机科学与技术' })).toBe('湖南大学计算机科学与技术专业');
    expect(schoolAndMajor({ school: '湖南大学', major: '法学专业' })).toBe('湖南大学法学专业');
    expect(schoolAndMajor({ school: '中央党校', major: null })).toBe('中央党校');
  });
});

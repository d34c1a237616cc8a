import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicityProblem } from '../../src/shared/development/rules.js';
import { addWorkingDays, calendarOf, isWorkingDay, PUBLISHED_SCHEDULE, workingDaysBetween } from '../../src/shared/working-days.js';

const y2026 = calendarOf(PUBLISHED_SCHEDULE);

describe('working days with the national holiday calendar', () => {
  it('the 2026 schedule as the State Council published it: holidays off, make-up weekends on', () => {
    expect(isWorkingDay('2026-10-01', y2026)).toBe(false); // Thursday, 国庆
    expect(isWorkingDay('2026-10-07', y2026)).toBe(false); // Wednesday, 国庆
    expect(isWorkingDay('2026-10-08', y2026)).toBe(true);
    expect(isWorkingDay('2026-09-20', y2026)).toBe(true); // Sunday worked
    expect(isWorkingDay('2026-10-10', y2026)).toBe(true); // Saturday worked
    expect(isWorkingDay('2026-10-11', y2026)).toBe(false); // an ordinary Sunday
    expect(isWorkingDay('2026-02-23', y2026)).toBe(false); // Monday, last day of 春节
    expect(isWorkingDay('2026-02-14', y2026)).toBe(true); // Saturday worked
    // Without a calendar: Monday to Friday.
    expect(isWorkingDay('2026-10-01')).toBe(true);
    expect(isWorkingDay('2026-10-10')).toBe(false);
    // 2027: the statutory days on weekdays (the notice's make-up days are for the administrator to add).
    expect(isWorkingDay('2027-02-05', y2026)).toBe(false);
    expect(isWorkingDay('2027-02-08', y2026)).toBe(false);
    expect(isWorkingDay('2027-09-15', y2026)).toBe(false);
  });

  it('counts a span over 国庆 2026: 09-28…10-10 holds 3 weekdays before, the week off, then 10-08, 10-09 and the worked Saturday', () => {
    expect(workingDaysBetween('2026-09-28', '2026-10-10', y2026)).toBe(6);
    expect(workingDaysBetween('2026-09-28', '2026-10-10')).toBe(10);
    expect(workingDaysBetween('2026-09-18', '2026-09-20', y2026)).toBe(2); // Fri + worked Sunday
    expect(workingDaysBetween('2026-10-02', '2026-10-01', y2026)).toBe(0);
  });

  it('adds working days over holidays and make-up days, both ways', () => {
    expect(addWorkingDays('2026-09-30', 1, y2026)).toBe('2026-10-08');
    expect(addWorkingDays('2026-10-08', 2, y2026)).toBe('2026-10-10');
    expect(addWorkingDays('2026-10-08', -1, y2026)).toBe('2026-09-30');
    expect(addWorkingDays('2026-10-03', 0, y2026)).toBe('2026-10-08');
    expect(addWorkingDays('2026-09-30', 1)).toBe('2026-10-01');
  });

  it('calendar periods: bad or reversed periods are ignored, a make-up day wins over a holiday', () => {
    const c = calendarOf([
      { kind: 'holiday', startDate: '2026-03-02', endDate: '2026-03-01' },
      { kind: 'other', startDate: '2026-03-03', endDate: '2026-03-03' },
      { kind: 'holiday', startDate: '2026-03-04', endDate: '2026-03-05' },
      { kind: 'workday', startDate: '2026-03-05', endDate: '2026-03-05' },
    ]);
    expect(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'].map((d) => isWorkingDay(d, c))).toEqual([true, true, false, true]);
  });

  it('公示 of 5 working days: across 国庆 it must run to 10-09; the same dates pass when only weekends count', () => {
    expect(publicityProblem('2026-09-28', '2026-10-08', undefined, 5, y2026)).toBe(
      '公示2026-09-28至2026-10-08共4个工作日，不足5个工作日。对发展对象应当进行公示，公示期满无异议方可提交支部大会讨论（《细则》第五章）',
    );
    expect(publicityProblem('2026-09-28', '2026-10-09', undefined, 5, y2026)).toBeUndefined();
    expect(publicityProblem('2026-09-28', '2026-10-02', undefined, 5)).toBeUndefined();
  });

  it('working days are counted in one place: no other source computes a weekday (formatting aside)', () => {
    const root = path.join(import.meta.dirname, '../../src');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !f.includes('generated'));
    const weekdays = files.filter((f) => /getUTCDay\(\)|getDay\(\)/.test(fs.readFileSync(path.join(root, f), 'utf8'))).map((f) => f.split(path.sep).join('/'));
    expect(weekdays.sort()).toEqual(['shared/format.ts', 'shared/working-days.ts']);
  });
});

/**
 * The date arithmetic of x-reminders (src/shared/module-schema/reminders.ts): due dates from a date and an
 * offset (days, months at month ends, years, working days with holidays and make-up days), the state on a
 * given day around the announcement, and the schema checks.
 */
import { describe, expect, it } from 'vitest';
import { REMINDER_STATE, announceFrom, checkReminders, dueDateOf, fillTemplate, reminderStateOn } from '../../src/shared/module-schema/reminders.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';
import { calendarOf } from '../../src/shared/working-days.js';

const { NO_START, START, FINISH } = REMINDER_STATE;

describe('reminder state around its announcement', () => {
  it('is NO_START the day before the announcement, START on its first day, and stays START when overdue', () => {
    // Due 2026-06-30, announced 30 days ahead: from 2026-05-31.
    expect(announceFrom('2026-06-30', 30)).toBe('2026-05-31');
    expect(reminderStateOn('2026-06-30', '2026-05-30', 30)).toBe(NO_START);
    expect(reminderStateOn('2026-06-30', '2026-05-31', 30)).toBe(START);
    expect(reminderStateOn('2026-06-30', '2026-06-30', 30)).toBe(START);
    expect(reminderStateOn('2026-06-30', '2026-08-01', 30)).toBe(START);
  });

  it('without overdue, it is START on its due date and ends the day after', () => {
    expect(reminderStateOn('2026-06-30', '2026-06-30', 1, false)).toBe(START);
    expect(reminderStateOn('2026-06-30', '2026-07-01', 1, false)).toBe(FINISH);
    expect(reminderStateOn('2026-06-30', '2026-06-28', 1, false)).toBe(NO_START);
  });

  it('a negative window announces after the due date: -1 starts the day after (a date that has passed)', () => {
    expect(reminderStateOn('2026-06-30', '2026-06-30', -1)).toBe(NO_START);
    expect(reminderStateOn('2026-06-30', '2026-07-01', -1)).toBe(START);
  });
});

describe('due dates', () => {
  it.each([
    ['2026-08-31', { months: 6 }, '2027-02-28'],
    ['2027-08-31', { months: 6 }, '2028-02-29'],
    ['2026-01-31', { months: 1 }, '2026-02-28'],
    ['2026-03-31', { months: -1 }, '2026-02-28'],
    ['2024-02-29', { years: 1 }, '2025-02-28'],
    ['1966-05-20', { years: 60 }, '2026-05-20'],
    ['2026-12-25', { days: 10 }, '2027-01-04'],
    ['2026-05-01', {}, '2026-05-01'],
  ])('%s + %o = %s (a day the month lacks becomes its last)', (date, period, expected) => {
    expect(dueDateOf(date, period)).toBe(expected);
  });

  it('working days skip weekends, holidays, and count make-up days', () => {
    // 2026-11-27 is a Friday: one working day later is Monday.
    expect(dueDateOf('2026-11-27', { workingDays: 1 })).toBe('2026-11-30');
    expect(dueDateOf('2026-11-23', { workingDays: 5 })).toBe('2026-11-30');
    // 国庆: 2026-10-01..07 off, Saturday 2026-10-10 worked instead.
    const calendar = calendarOf([
      { kind: 'holiday', startDate: '2026-10-01', endDate: '2026-10-07' },
      { kind: 'workday', startDate: '2026-10-10', endDate: '2026-10-10' },
    ]);
    expect(dueDateOf('2026-09-30', { workingDays: 1 }, calendar)).toBe('2026-10-08');
    expect(dueDateOf('2026-09-30', { workingDays: 3 }, calendar)).toBe('2026-10-10');
    expect(dueDateOf('2026-09-30', { workingDays: 5 }, calendar)).toBe('2026-10-13');
  });
});

describe('messages and checks', () => {
  it('fills the placeholders it knows and leaves the others', () => {
    expect(fillTemplate('{title}：{name}，{dueDate}前{x}', { title: '公示即将结束', name: '张三', dueDate: '2026-05-01' })).toBe('公示即将结束：张三，2026-05-01前{x}');
  });

  const module = (reminders: unknown): ModuleSchema =>
    ({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      'x-id': 'thing',
      title: '事项',
      type: 'object',
      properties: { name: { type: 'string', title: '名称' }, endDate: { type: 'string', title: '截止', format: 'date' }, note: { type: 'string', title: '备注' } },
      'x-reminders': reminders,
    }) as ModuleSchema;
  const base = { type: 'end', title: '到期', date: { field: 'endDate' }, ahead: 7, receivers: [{ permission: 'thing:edit' }], message: { title: '{name}到期' } };

  it('accepts a well-formed declaration and names each problem of a bad one', () => {
    expect(checkReminders(module([base]))).toEqual([]);
    expect(checkReminders(module([{ ...base, date: { field: 'note' } }]))).toEqual(['x-reminders[0] (end).date.field: "note" is not a date field']);
    expect(checkReminders(module([base, { ...base, until: { filled: ['gone'] } }]))).toEqual([
      'x-reminders[1] (end): type "end" is declared twice',
      'x-reminders[1] (end).when/until names unknown field "gone"',
    ]);
    expect(checkReminders(module([{ ...base, receivers: [{ step: 'approve' }], when: { states: [1] } }]))).toEqual([
      'x-reminders[0] (end): states and final need x-workflow',
      'x-reminders[0] (end).receivers: a step needs x-workflow',
    ]);
  });

  it('an expected-record source needs x-scope, names no record condition and receivers by level or permission only', () => {
    const expected = { ...base, type: 'late', date: { expected: 'forms.late' }, receivers: [{ level: 'branch' }] };
    const scoped = (r: unknown) => ({ ...module(r), properties: { ...module(r).properties, orgId: { type: 'integer', title: '组织', 'x-ref': 'org' } }, 'x-scope': 'orgId' }) as ModuleSchema;
    expect(checkReminders(scoped([expected]))).toEqual([]);
    expect(checkReminders(scoped([{ ...expected, when: { filled: ['note'] }, receivers: [{ field: 'note' }] }]))).toEqual([
      'x-reminders[0] (late): when and until do not apply to an expected-record source',
      'x-reminders[0] (late).receivers: an expected-record source has no record: name a level or a permission',
      'x-reminders[0] (late).receivers: "note" must reference a user (x-ref "user")',
    ]);
    expect(checkReminders(module([{ ...expected, receivers: [{ permission: 'thing:edit' }] }]))).toEqual(['x-reminders[0] (late).date.expected needs x-scope (the expected organisation)']);
  });
});

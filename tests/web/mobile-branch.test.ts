import { describe, expect, it } from 'vitest';
import { fieldErrors, mobileKind, visibleFields } from '../../src/web/mobile/form/MobileFields';
import { afterLogin } from '../../src/web/mobile/login/MobileLogin';
import { attendanceValues } from '../../src/web/mobile/screens/branch/RecordMeeting';
import type { FieldSchema } from '../../src/shared/module-schema/types';

const f = (s: Partial<FieldSchema>) => ({ type: 'string', title: 't', ...s }) as FieldSchema;

describe('the branch secretary\'s mobile forms (issue 31)', () => {
  it('shows the simple field kinds on a phone and leaves pickers and tables to the full site', () => {
    expect(mobileKind(f({ 'x-dict': 'DJ_HY_LX' }))).toBe('dict');
    expect(mobileKind(f({ format: 'date' }))).toBe('date');
    expect(mobileKind(f({ format: 'textarea' }))).toBe('textarea');
    expect(mobileKind(f({ format: 'image' }))).toBe('image');
    expect(mobileKind(f({ format: 'file' }))).toBe('file');
    expect(mobileKind(f({ type: 'integer' }))).toBe('number');
    expect(mobileKind(f({ type: 'boolean' }))).toBe('switch');
    expect(mobileKind(f({ type: 'array', 'x-ref': 'member', 'x-widget': 'roster' }))).toBe('roster');
    expect(mobileKind(f({ type: 'array', 'x-ref': 'member', 'x-widget': 'person' }))).toBeNull();
    expect(mobileKind(f({ type: 'integer', 'x-ref': 'member' }))).toBeNull();
    expect(mobileKind(f({}))).toBe('text');
  });

  it('hides fields whose x-show-if does not hold, and reads the server\'s field messages by field', () => {
    const fields = [{ name: 'type', schema: f({}) }, { name: 'committeeSize', schema: f({ type: 'integer', 'x-show-if': { field: 'type', in: ['支委会'] } }) }];
    expect(visibleFields(fields, { type: '党课' }).map((x) => x.name)).toEqual(['type']);
    expect(visibleFields(fields, { type: '支委会' }).map((x) => x.name)).toEqual(['type', 'committeeSize']);
    expect(fieldErrors([{ field: 'attendeeIds', message: 'a' }, { field: '/topic', message: 'b' }, { field: 'attendeeIds', message: 'c' }])).toEqual({ attendeeIds: 'a', topic: 'b' });
  });

  it('turns the roll into the meeting\'s attendance: present, absent, and the reasons of those on leave or absent', () => {
    const roll = new Map([
      [1, { presence: 'present' as const, reason: '' }],
      [2, { presence: 'leave' as const, reason: ' 出差 ' }],
      [3, { presence: 'absent' as const, reason: '' }],
    ]);
    expect(attendanceValues(roll, new Map([[1, '甲'], [2, '乙'], [3, '丙']]))).toEqual({ attendeeIds: [1], absentIds: [2, 3], absentReason: '乙请假：出差；丙缺席' });
    expect(attendanceValues(new Map([[1, { presence: 'present' as const, reason: '' }]]), new Map())).toEqual({ attendeeIds: [1], absentIds: [] });
    // [43.7] Someone not marked yet is neither present nor absent.
    expect(attendanceValues(new Map([[1, { presence: 'unmarked' as const, reason: '' }], [2, { presence: 'present' as const, reason: '' }]]), new Map())).toEqual({ attendeeIds: [2], absentIds: [] });
  });

  it('goes back after login only to a screen of the mobile app', () => {
    expect(afterLogin('?redirect=%2Fweb%2Fm%2Fapprovals%2Fdevelopment%2F5')).toBe('approvals/development/5');
    expect(afterLogin('')).toBe('');
    expect(afterLogin('?redirect=%2Fweb%2Fsystem')).toBe('');
    expect(afterLogin('?redirect=%2Fweb%2Fm%2Flogin')).toBe('');
    expect(afterLogin('?redirect=https%3A%2F%2Fevil.example%2Fweb%2Fm%2F')).toBe('');
  });
});

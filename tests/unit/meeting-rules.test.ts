/** The pure rules of organisation life (src/shared/meetings/rules.ts) at their boundaries. */
import { describe, expect, it } from 'vitest';
import { nextPeriod, periodEnd, periodOf, periodsOfYear, quorumOf } from '../../src/shared/meetings/rules.js';

describe('meeting rules', () => {
  it('[S1.F12c] 支委会: exactly half of the committee is not a quorum, one more is', () => {
    expect(quorumOf({ type: '支委会', committeeSize: 6, attendeeIds: [1, 2, 3] }).ok).toBe(false);
    expect(quorumOf({ type: '支委会', committeeSize: 6, attendeeIds: [1, 2, 3, 4] }).ok).toBe(true);
    expect(quorumOf({ type: '支委会', committeeSize: 5, attendeeIds: [1, 2] }).ok).toBe(false);
    expect(quorumOf({ type: '支委会', committeeSize: 5, attendeeIds: [1, 2, 3] }).ok).toBe(true);
    // The same person twice counts once.
    expect(quorumOf({ type: '支委会', committeeSize: 5, attendeeIds: [1, 1, 2] }).ok).toBe(false);
    expect(quorumOf({ type: '支委会', attendeeIds: [1] })).toMatchObject({ ok: null, field: 'committeeSize' });
  });

  it('[S1.F12c] a voting 支部党员大会: more than half of the full members entitled; without a vote no quorum', () => {
    expect(quorumOf({ type: '支部党员大会', votes: true, entitled: 9, attendeeIds: [1, 2, 3, 4] }).ok).toBe(false);
    expect(quorumOf({ type: '支部党员大会', votes: true, entitled: 9, attendeeIds: [1, 2, 3, 4, 5] }).ok).toBe(true);
    expect(quorumOf({ type: '支部党员大会', votes: false, entitled: 9, attendeeIds: [1] }).ok).toBeNull();
    expect(quorumOf({ type: '党课', attendeeIds: [1, 2] })).toEqual({ ok: null, text: '到会2人' });
  });

  it('periods: the last day of a month, a quarter and a year belongs to it, the next day to the next', () => {
    expect(periodOf('2026-03-31', 'month')).toBe('2026-03');
    expect(periodOf('2026-04-01', 'month')).toBe('2026-04');
    expect(periodOf('2026-03-31', 'quarter')).toBe('2026-Q1');
    expect(periodOf('2026-04-01', 'quarter')).toBe('2026-Q2');
    expect(periodOf('2026-12-31', 'year')).toBe('2026');
    expect(periodEnd('2028-02')).toBe('2028-02-29');
    expect(periodEnd('2026-Q4')).toBe('2026-12-31');
    expect(periodEnd('2026')).toBe('2026-12-31');
    expect(nextPeriod('2026-12')).toBe('2027-01');
    expect(nextPeriod('2026-Q4')).toBe('2027-Q1');
    expect(nextPeriod('2026')).toBe('2027');
    expect(periodsOfYear(2026, 'quarter')).toEqual(['2026-Q1', '2026-Q2', '2026-Q3', '2026-Q4']);
    expect(periodsOfYear(2026, 'month')).toHaveLength(12);
  });
});

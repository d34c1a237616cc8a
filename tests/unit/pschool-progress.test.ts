/**
 * Issue 25.1: study progress may advance at most the wall-clock time since the last accepted report plus
 * ONE tolerance in all. Before, the tolerance was added on every report: 2.9, 5.8, 8.7 … sent back to back
 * completed a 20-second video in 7 reports and 55 ms.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_PROGRESS, PROGRESS_SESSION_GAP_SECONDS, PROGRESS_TOLERANCE_SECONDS as TOL, judgeProgress, type ProgressState } from '../../src/shared/pschool/progress.js';

const T0 = 1_700_000_000_000;
const at = (s: number) => T0 + s * 1000;

/** Sends reports in order; answers each verdict and the state after the accepted ones. */
function run(reports: [seconds: number, position: number][], length = 20, start: ProgressState = EMPTY_PROGRESS) {
  let state = start;
  const verdicts = reports.map(([s, p]) => {
    const v = judgeProgress(state, p, length, at(s));
    if (v.accepted) state = v.state;
    return v;
  });
  return { state, verdicts };
}

describe('study progress: one tolerance, not one per report (issue 25.1)', () => {
  it('[25.1] positions 2.9, 5.8, 8.7 … sent back to back get no further than the first: the video is not completed', () => {
    const { state, verdicts } = run(Array.from({ length: 7 }, (_, i) => [i * 0.008, Math.min(20, 2.9 * (i + 1))]));
    expect(verdicts.map((v) => v.accepted)).toEqual([true, false, false, false, false, false, false]);
    expect(state).toMatchObject({ furthest: 2.9, completedAt: null });
  });

  it('[25.1] many small steps cannot add up to more than the wall clock plus one tolerance', () => {
    // 100 reports 10 ms apart (1 s of wall clock), each 0.05 s further than the one before.
    const { state } = run(Array.from({ length: 100 }, (_, i) => [i * 0.01, (i + 1) * 0.05]), 600);
    expect(state.furthest).toBeLessThanOrEqual(0.99 + TOL);
    expect(state.furthest).toBeGreaterThan(TOL);
  });

  it('the boundary: exactly the elapsed time plus the unused tolerance is accepted, a hundredth more is refused', () => {
    const first = run([[0, 2]]).state; // 2 s of the tolerance in use
    expect(first.lead).toBe(2);
    expect(judgeProgress(first, 2 + 1 + 10, 600, at(10))).toMatchObject({ accepted: true, credited: 13 });
    expect(judgeProgress(first, 13.01, 600, at(10))).toMatchObject({ accepted: false, furthest: 2, limit: 13 });
  });

  it('honest reports every 5 s, a little late or early, complete the video', () => {
    const { state, verdicts } = run([[0, 0], [5.4, 5], [9.9, 10], [15.2, 15], [19.8, 19.5], [20.3, 20]]);
    expect(verdicts.every((v) => v.accepted)).toBe(true);
    expect(state).toMatchObject({ furthest: 20, completedAt: at(19.8) }); // within a second of the end
  });

  it('the tolerance comes back as real time catches up: a pause pays back what a report ran ahead', () => {
    const ahead = run([[0, 0], [10, 13]], 600).state; // 3 s ahead of 10 s of wall clock
    expect(ahead.lead).toBe(TOL);
    expect(judgeProgress(ahead, 13.5, 600, at(10.1)).accepted).toBe(false);
    expect(judgeProgress(ahead, 13.1, 600, at(10.1)).accepted).toBe(true);
    // Watching back (positions behind the furthest point) while time passes: the clock catches up.
    const behind = run([[20, 5]], 600, ahead).state;
    expect(behind).toMatchObject({ furthest: 13, lead: 0 });
    expect(judgeProgress(behind, 16, 600, at(20)).accepted).toBe(true);
  });

  it('a long pause still gives at most the session gap plus one tolerance', () => {
    const s = run([[0, 2]], 9999).state;
    const limit = 2 - 2 + PROGRESS_SESSION_GAP_SECONDS + TOL;
    expect(judgeProgress(s, limit, 9999, at(86_400)).accepted).toBe(true);
    expect(judgeProgress(s, limit + 0.01, 9999, at(86_400)).accepted).toBe(false);
  });
});

/**
 * What a learner's progress report on a video or document node earns. The server decides: it keeps the
 * furthest point credited per learner and node, and credits at most the wall-clock time since the last
 * accepted report plus ONE tolerance in all (issue 25.1): the part of the tolerance a report used stays
 * used (`lead`) until real time has caught up with it, so positions 2.9, 5.8, 8.7 … sent back to back get
 * no further than the first. Jumps beyond that are refused, and the node is complete once the furthest
 * point reaches its length. A client therefore cannot post that it watched a whole video in one call,
 * in many quick calls, nor fast-forward by editing the player (which plays at rate 1 only).
 *
 * For a document, `position` is the number of seconds the learner has spent reading it and `length` the
 * document's minimum reading time; the same rule applies.
 */

/** Seconds a report may run ahead of the wall clock (network delay, timer jitter, a seek to the end). */
export const PROGRESS_TOLERANCE_SECONDS = 3;
/**
 * A gap between reports longer than this starts a new viewing: after a long pause only this much is
 * credited at once, so yesterday's last report cannot pay for a jump today.
 */
export const PROGRESS_SESSION_GAP_SECONDS = 300;
/** The player plays at rate 1 only (VideoPage forces it): a second of wall clock earns a second. */
export const PROGRESS_PLAYBACK_RATE = 1;
/** A node counts as complete when the furthest point is this close to its end (players stop short). */
export const PROGRESS_END_MARGIN_SECONDS = 1;

export interface ProgressState {
  /** The furthest point credited, in seconds (never decreases). */
  furthest: number;
  /** Where the learner was at the last accepted report (resume point). */
  position: number;
  /** Time of the last accepted report, ms since the epoch; null before the first one. */
  lastReportAt: number | null;
  /** Seconds the furthest point ran ahead of the wall clock at the last report: tolerance in use (0..tolerance). */
  lead: number;
  /** Time the node was completed, ms since the epoch; null until then. */
  completedAt: number | null;
}

export type ProgressVerdict =
  | { accepted: true; state: ProgressState; credited: number; completed: boolean; justCompleted: boolean }
  | { accepted: false; furthest: number; limit: number };

export const EMPTY_PROGRESS: ProgressState = { furthest: 0, position: 0, lastReportAt: null, lead: 0, completedAt: null };

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Judges one report. `now` is the server's clock (ms); `length` the node's length in seconds (video
 * duration, or minimum reading time). A position beyond the length counts as the end.
 */
export function judgeProgress(before: ProgressState, position: number, length: number, now: number): ProgressVerdict {
  const at = Math.max(0, Math.min(position, length));
  const elapsed = before.lastReportAt === null ? 0 : Math.min(Math.max(0, (now - before.lastReportAt) / 1000), PROGRESS_SESSION_GAP_SECONDS);
  // The point real time pays for: the furthest point less the tolerance it already used, plus the time since.
  const clock = before.furthest - Math.min(Math.max(0, before.lead), PROGRESS_TOLERANCE_SECONDS) + elapsed * PROGRESS_PLAYBACK_RATE;
  const limit = clock + PROGRESS_TOLERANCE_SECONDS;
  if (at > limit + 1e-9) return { accepted: false, furthest: before.furthest, limit: round(limit) };
  const furthest = Math.max(before.furthest, at);
  const wasComplete = before.completedAt !== null;
  const complete = wasComplete || furthest >= length - PROGRESS_END_MARGIN_SECONDS;
  return {
    accepted: true,
    state: { furthest: round(furthest), position: round(at), lastReportAt: now, lead: round(Math.max(0, furthest - clock)), completedAt: wasComplete ? before.completedAt : complete ? now : null },
    credited: round(furthest),
    completed: complete,
    justCompleted: complete && !wasComplete,
  };
}

/**
 * What a learner's progress report on a video or document node earns. The server decides: it keeps the
 * furthest point credited per learner and node, credits at most the wall-clock time since the last
 * accepted report (plus a small tolerance), refuses jumps ahead of that, and marks the node complete
 * once the furthest point reaches its length. A client therefore cannot post that it watched a whole
 * video in one call, nor fast-forward by editing the player.
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
/** A node counts as complete when the furthest point is this close to its end (players stop short). */
export const PROGRESS_END_MARGIN_SECONDS = 1;

export interface ProgressState {
  /** The furthest point credited, in seconds (never decreases). */
  furthest: number;
  /** Where the learner was at the last accepted report (resume point). */
  position: number;
  /** Time of the last accepted report, ms since the epoch; null before the first one. */
  lastReportAt: number | null;
  /** Time the node was completed, ms since the epoch; null until then. */
  completedAt: number | null;
}

export type ProgressVerdict =
  | { accepted: true; state: ProgressState; credited: number; completed: boolean; justCompleted: boolean }
  | { accepted: false; furthest: number; limit: number };

export const EMPTY_PROGRESS: ProgressState = { furthest: 0, position: 0, lastReportAt: null, completedAt: null };

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Judges one report. `now` is the server's clock (ms); `length` the node's length in seconds (video
 * duration, or minimum reading time). A position beyond the length counts as the end.
 */
export function judgeProgress(before: ProgressState, position: number, length: number, now: number): ProgressVerdict {
  const at = Math.max(0, Math.min(position, length));
  const elapsed = before.lastReportAt === null ? 0 : Math.min(Math.max(0, (now - before.lastReportAt) / 1000), PROGRESS_SESSION_GAP_SECONDS);
  const limit = before.furthest + elapsed + PROGRESS_TOLERANCE_SECONDS;
  if (at > limit) return { accepted: false, furthest: before.furthest, limit: round(limit) };
  const furthest = Math.max(before.furthest, at);
  const wasComplete = before.completedAt !== null;
  const complete = wasComplete || furthest >= length - PROGRESS_END_MARGIN_SECONDS;
  return {
    accepted: true,
    state: { furthest: round(furthest), position: round(at), lastReportAt: now, completedAt: wasComplete ? before.completedAt : complete ? now : null },
    credited: round(furthest),
    completed: complete,
    justCompleted: complete && !wasComplete,
  };
}

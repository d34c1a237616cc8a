/**
 * Background jobs (docs/architecture.md, "Background jobs"): the wire shape of `GET /api/jobs/{id}` and the
 * two sets of state codes the spec gives long work. Every job is stored with the export state; an import
 * also answers the spec's task status, derived here and nowhere else.
 */
import { TaskStatus } from './constants.js';

/** Export state (spec §4): start 1, finish 2, error 3; the state of every background job. */
export const ExportState = { START: 1, FINISH: 2, ERROR: 3 } as const;
export const EXPORT_STATE_LABELS: Record<number, string> = { 1: '进行中', 2: '已完成', 3: '失败' };

/** A file a job made, downloaded through the request layer (the caller's session): a GET of `url` with `params`. */
export interface JobDownload {
  url: string;
  params?: Record<string, string>;
  name: string;
}

export interface Job {
  id: number;
  kind: string;
  title: string;
  state: number;
  progress: number;
  total: number;
  message: string;
  /** What the work answered (JSON); `download` when it made a file. */
  result: unknown;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The file of a job's result, if it made one. */
export function jobDownload(job: Pick<Job, 'result'>): JobDownload | undefined {
  const d = (job.result as { download?: JobDownload } | null)?.download;
  return d && typeof d.url === 'string' ? d : undefined;
}

/**
 * An import's task status (spec §4: PREPARE 1, START 2, SUCCESS 3, ERROR 4) from its job's export state:
 * waiting to begin is PREPARE, running is START, finished SUCCESS, failed ERROR.
 */
export function taskStatusOf(job: { state: number; startedAt: string | Date | null }): number {
  if (job.state === ExportState.FINISH) return TaskStatus.SUCCESS;
  if (job.state === ExportState.ERROR) return TaskStatus.ERROR;
  return job.startedAt ? TaskStatus.START : TaskStatus.PREPARE;
}

/** Rows an export writes at once, in the request; more run as a job (setting `exportInlineMax`). */
export const EXPORT_INLINE_MAX = 10_000;

/** Seconds without a heartbeat after which a job's server is taken as gone (setting `jobAbandonedAfterS`). */
export const JOB_ABANDONED_AFTER_S = 60;

/**
 * Background jobs (docs/architecture.md, "Background jobs"): work that outlives a request (a snapshot, an
 * export of more than `exportInlineMax` rows, an import) runs here with its progress in `runtime_jobs`, and
 * its owner gets a message with a link when it ends. State is spec §4's export state: start 1, finish 2,
 * error 3 (an import answers the spec's task status besides, derived in src/shared/jobs.ts).
 *
 * A running job renews its heartbeat; a server that dies stops renewing it. At start, the embedded
 * database (one server per data directory) fails every job still running: none can be alive. On
 * PostgreSQL several app servers share the table, so only a heartbeat older than the limit counts, at
 * start and whenever a job is read; no job stays "running" for ever. Jobs are not resumed: the owner
 * starts the work again (the message says so).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { LOGIN, currentUser } from '../core/auth/guard.js';
import type { MessageService } from '../core/messages/service.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { ExportState, JOB_ABANDONED_AFTER_S, type Job } from '../../shared/jobs.js';

/** What a job a stopped server left running says once it is marked failed. */
export const ABANDONED_MESSAGE = '服务器已重启，任务中断，请重新发起';

export interface JobControl {
  readonly id: number;
  /** Report progress (`done` of `total`); written at most once a second (and at the end), renewing the heartbeat. */
  progress(done: number, total?: number): Promise<void>;
}

/** Thrown by a job's work: the job fails with this message, keeping `result` (an error report to download). */
export class JobFailure<R = unknown> extends Error {
  constructor(message: string, readonly result?: R) {
    super(message);
  }
}

export interface JobSpec<R> {
  kind: string;
  title: string;
  ownerId: number | null;
  /** The work; its value is stored as the job's result (JSON). */
  run(job: JobControl): Promise<R>;
  /** The link of the message sent when the job ends (also after a JobFailure with a result); default: none. */
  link?(result: R, jobId: number): string | null;
  /** The job's message and the owner's on success; default: `<title>已完成`. */
  done?(result: R): string;
}

export interface JobRunnerOptions {
  /** Seconds without a heartbeat after which a job is taken as abandoned (PostgreSQL). */
  abandonedAfterS?: number;
  /** One app server per database (the embedded engine): at start every running job is abandoned. */
  singleServer: boolean;
}

interface JobRow {
  id: number;
  kind: string;
  title: string;
  state: number;
  progress: number;
  total: number;
  message: string;
  result: unknown;
  owner_id: number | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toJob = (r: JobRow): Job => ({
  id: r.id, kind: r.kind, title: r.title, state: r.state, progress: r.progress, total: r.total, message: r.message, result: r.result,
  createdAt: new Date(r.created_at).toISOString(), startedAt: iso(r.started_at), finishedAt: iso(r.finished_at),
});

export class JobRunner {
  /** The jobs this server runs: alive whatever their heartbeat says (a long transaction may hold it back on PGlite). */
  private readonly running = new Map<number, Promise<unknown>>();
  readonly abandonedAfterS: number;
  /** How often a running job renews its heartbeat: six times within the limit. */
  readonly heartbeatMs: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly messages: () => Pick<MessageService, 'sendMessage'> | undefined,
    private readonly log: { error(o: object, msg: string): void; warn(o: object, msg: string): void },
    private readonly options: JobRunnerOptions,
  ) {
    this.abandonedAfterS = options.abandonedAfterS ?? JOB_ABANDONED_AFTER_S;
    this.heartbeatMs = Math.max(200, (this.abandonedAfterS * 1000) / 6);
  }

  /**
   * Marks failed the jobs whose server is gone, tells their owners, and answers how many. `atStart` on the
   * embedded engine: every running job (this server has just started, so none is its own).
   */
  async failAbandoned(atStart = false): Promise<number> {
    const everyRunning = atStart && this.options.singleServer;
    const own = [...this.running.keys()].join(',');
    const { rows } = await sql<{ id: number; title: string; owner_id: number | null; kind: string }>`
      UPDATE runtime_jobs SET state = ${ExportState.ERROR}, message = ${ABANDONED_MESSAGE}, finished_at = now()
      WHERE state = ${ExportState.START} AND NOT (id = ANY(string_to_array(${own}, ',')::int[]))
        AND (${everyRunning}::boolean OR heartbeat < now() - make_interval(secs => ${this.abandonedAfterS}))
      RETURNING id, title, owner_id, kind`.execute(this.db);
    if (rows.length) this.log.warn({ jobs: rows.map((r) => r.id) }, 'jobs a stopped server left running marked failed');
    for (const r of rows) await this.tell(r.owner_id, `${r.title}失败：${ABANDONED_MESSAGE}`, null);
    return rows.length;
  }

  /** Starts a job and answers its id at once; the work goes on after the request. */
  async start<R>(spec: JobSpec<R>): Promise<number> {
    const id = await this.create(spec);
    this.launch(id, spec);
    return id;
  }

  /** Stores a job before its work can begin (an import checks its file in between); `launch` runs it. */
  async create(spec: Pick<JobSpec<unknown>, 'kind' | 'title' | 'ownerId'>, db: Kysely<DB> = this.db): Promise<number> {
    const { rows } = await sql<{ id: number }>`INSERT INTO runtime_jobs (kind, title, owner_id) VALUES (${spec.kind}, ${spec.title}, ${spec.ownerId}) RETURNING id`.execute(db);
    return rows[0].id;
  }

  launch<R>(id: number, spec: JobSpec<R>): void {
    const done = this.execute(id, spec).finally(() => this.running.delete(id));
    this.running.set(id, done);
  }

  /** Runs a job to its end (tests and seeders wait for it). */
  async startAndWait<R>(spec: JobSpec<R>): Promise<Job> {
    const id = await this.start(spec);
    await this.running.get(id);
    return (await this.get(id))!;
  }

  private async execute<R>(id: number, spec: JobSpec<R>): Promise<void> {
    let last = 0;
    const control: JobControl = {
      id,
      progress: async (done, total) => {
        if (Date.now() - last < 1000 && (total === undefined || done < total)) return;
        last = Date.now();
        await sql`UPDATE runtime_jobs SET progress = ${done}, total = coalesce(${total ?? null}::int, total), heartbeat = now() WHERE id = ${id}`.execute(this.db);
      },
    };
    // The heartbeat goes on while the work waits on the database for long.
    const beat = setInterval(() => void sql`UPDATE runtime_jobs SET heartbeat = now() WHERE id = ${id} AND state = ${ExportState.START}`.execute(this.db).catch(() => {}), this.heartbeatMs);
    beat.unref();
    try {
      await sql`UPDATE runtime_jobs SET started_at = now(), heartbeat = now() WHERE id = ${id}`.execute(this.db);
      const result = await spec.run(control);
      const text = spec.done?.(result) ?? `${spec.title}已完成`;
      await sql`UPDATE runtime_jobs SET state = ${ExportState.FINISH}, progress = greatest(progress, total), message = ${text}, result = ${JSON.stringify(result ?? null)}::jsonb, finished_at = now() WHERE id = ${id}`.execute(this.db);
      await this.tell(spec.ownerId, text, spec.link?.(result, id) ?? null);
    } catch (error) {
      const failure = error instanceof JobFailure ? error : undefined;
      // A refusal of the caller's input (4xx: a record out of scope, bad values) is no fault of the server:
      // at error level anyone could flood the error log with jobs over ids they cannot read (issue 38.17).
      const refused = error instanceof HttpError && error.statusCode < 500;
      if (!failure) this.log[refused ? 'warn' : 'error']({ err: error, job: id }, refused ? 'background job refused' : 'background job failed');
      const message = error instanceof HttpError || failure ? (error as Error).message : '任务执行失败，请稍后重试';
      const result = failure?.result === undefined ? null : JSON.stringify(failure.result);
      await sql`UPDATE runtime_jobs SET state = ${ExportState.ERROR}, message = ${message}, result = ${result}::jsonb, finished_at = now() WHERE id = ${id}`.execute(this.db).catch(() => {});
      await this.tell(spec.ownerId, `${spec.title}失败：${message}`, failure?.result === undefined ? null : (spec.link?.(failure.result as R, id) ?? null));
    } finally {
      clearInterval(beat);
    }
  }

  private async tell(ownerId: number | null, title: string, link: string | null): Promise<void> {
    const messages = this.messages();
    if (!ownerId || !messages) return;
    await messages.sendMessage({ toUserIds: [ownerId], type: 'remind', title, content: title, link }).catch((err: unknown) => this.log.error({ err }, 'job message failed'));
  }

  async get(id: number): Promise<Job | undefined> {
    await this.failAbandoned();
    const { rows } = await sql<JobRow>`SELECT * FROM runtime_jobs WHERE id = ${id}`.execute(this.db);
    return rows[0] ? toJob(rows[0]) : undefined;
  }

  /** The owner of a job (access checks). */
  async ownerOf(id: number): Promise<number | null | undefined> {
    const { rows } = await sql<{ owner_id: number | null }>`SELECT owner_id FROM runtime_jobs WHERE id = ${id}`.execute(this.db);
    return rows[0]?.owner_id;
  }

  /** Waits for every job this server runs (before the database closes). */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }
}

/** The app's job runner (the runtime's: one per app). */
export function jobsOf(app: FastifyInstance): JobRunner {
  return app.runtime.jobs;
}

/** `GET /api/jobs/{id}`: a job's state, progress and result, for its owner (or a superuser). */
export async function jobRoutes(app: FastifyInstance): Promise<void> {
  const jobs = jobsOf(app);
  app.get('/api/jobs/:id', { config: LOGIN }, async (req) => {
    const id = Number((req.params as { id: string }).id);
    const user = currentUser(req);
    const owner = Number.isSafeInteger(id) && id > 0 ? await jobs.ownerOf(id) : undefined;
    if (owner === undefined || (owner !== user.id && !user.isSuper)) throw new HttpError(404, '任务不存在');
    return jobs.get(id);
  });
}

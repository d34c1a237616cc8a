/**
 * Background jobs (docs/architecture.md, "Background jobs"): work that outlives a request (a snapshot, an
 * export of more than 10,000 rows, a long import) runs here with its progress in `runtime_jobs`, and its
 * owner gets a message with a link when it ends. State is spec §4's export state: start 1, finish 2, error 3.
 *
 * A running job renews its heartbeat; a server that dies stops renewing it, and any server marks such a
 * job failed (on start and whenever a job is read), so no job stays "running" for ever. Jobs are not
 * resumed: the owner starts the work again.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { LOGIN, currentUser } from '../core/auth/guard.js';
import type { MessageService } from '../core/messages/service.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { ExportState, type Job } from '../../shared/statistics.js';

/** How often a running job renews its heartbeat, and how old a heartbeat is when its server is taken as dead. */
export const HEARTBEAT_MS = 10_000;
export const ABANDONED_AFTER_S = 60;

export interface JobControl {
  readonly id: number;
  /** Report progress (`done` of `total`); renews the heartbeat at most every few seconds. */
  progress(done: number, total?: number): Promise<void>;
}

export interface JobSpec<R> {
  kind: string;
  title: string;
  ownerId: number | null;
  /** The work; its value is stored as the job's result (JSON). */
  run(job: JobControl): Promise<R>;
  /** The link of the message sent when the job ends (null: no link); default: none. */
  link?(result: R, jobId: number): string | null;
  /** The message's text on success; default: `<title>已完成`. */
  done?(result: R): string;
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
  finished_at: Date | null;
}

const toJob = (r: JobRow): Job => ({
  id: r.id, kind: r.kind, title: r.title, state: r.state, progress: r.progress, total: r.total, message: r.message, result: r.result,
  createdAt: new Date(r.created_at).toISOString(), finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
});

export class JobRunner {
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly messages: Pick<MessageService, 'sendMessage'> | undefined,
    private readonly log: { error(o: object, msg: string): void },
  ) {}

  /** Marks jobs whose server stopped renewing their heartbeat as failed; returns how many. */
  async failAbandoned(): Promise<number> {
    const r = await sql`UPDATE runtime_jobs SET state = ${ExportState.ERROR}, message = '服务器已重启，任务中断，请重新发起', finished_at = now()
      WHERE state = ${ExportState.START} AND heartbeat < now() - make_interval(secs => ${ABANDONED_AFTER_S})`.execute(this.db);
    return Number(r.numAffectedRows ?? 0);
  }

  /** Starts a job and answers its id at once; the work goes on after the request. */
  async start<R>(spec: JobSpec<R>): Promise<number> {
    const { rows } = await sql<{ id: number }>`INSERT INTO runtime_jobs (kind, title, owner_id) VALUES (${spec.kind}, ${spec.title}, ${spec.ownerId}) RETURNING id`.execute(this.db);
    const id = rows[0].id;
    const done = this.execute(id, spec).finally(() => this.running.delete(done));
    this.running.add(done);
    return id;
  }

  /** Runs a job to its end (tests and seeders wait for it). */
  async startAndWait<R>(spec: JobSpec<R>): Promise<Job> {
    const id = await this.start(spec);
    await this.drain();
    return (await this.get(id))!;
  }

  private async execute<R>(id: number, spec: JobSpec<R>): Promise<void> {
    let last = Date.now();
    const control: JobControl = {
      id,
      progress: async (done, total) => {
        if (Date.now() - last < 1000 && (total === undefined || done < total)) return;
        last = Date.now();
        await sql`UPDATE runtime_jobs SET progress = ${done}, total = coalesce(${total ?? null}::int, total), heartbeat = now() WHERE id = ${id}`.execute(this.db);
      },
    };
    // The heartbeat goes on while the work waits on the database for long.
    const beat = setInterval(() => void sql`UPDATE runtime_jobs SET heartbeat = now() WHERE id = ${id} AND state = 1`.execute(this.db).catch(() => {}), HEARTBEAT_MS);
    beat.unref();
    try {
      const result = await spec.run(control);
      await sql`UPDATE runtime_jobs SET state = ${ExportState.FINISH}, progress = greatest(progress, total), result = ${JSON.stringify(result ?? null)}::jsonb, finished_at = now() WHERE id = ${id}`.execute(this.db);
      await this.tell(spec.ownerId, spec.done?.(result) ?? `${spec.title}已完成`, spec.link?.(result, id) ?? null);
    } catch (error) {
      this.log.error({ err: error, job: id }, 'background job failed');
      const message = error instanceof HttpError ? error.message : '任务执行失败，请稍后重试';
      await sql`UPDATE runtime_jobs SET state = ${ExportState.ERROR}, message = ${message}, finished_at = now() WHERE id = ${id}`.execute(this.db).catch(() => {});
      await this.tell(spec.ownerId, `${spec.title}失败：${message}`, null);
    } finally {
      clearInterval(beat);
    }
  }

  private async tell(ownerId: number | null, title: string, link: string | null): Promise<void> {
    if (!ownerId || !this.messages) return;
    await this.messages.sendMessage({ toUserIds: [ownerId], type: 'remind', title, content: title, link }).catch((err: unknown) => this.log.error({ err }, 'job message failed'));
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
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}

// Keyed by the app's services: route plugins are encapsulated, each sees its own instance of the app.
const runners = new WeakMap<object, JobRunner>();

/** The app's job runner (one per app; created on first use, failing jobs a dead server left behind). */
export function jobsOf(app: FastifyInstance): JobRunner {
  let runner = runners.get(app.services);
  if (!runner) {
    runner = new JobRunner(app.services.database.db, app.services.messages, app.log);
    runners.set(app.services, runner);
    const r = runner;
    app.addHook('onReady', async () => void (await r.failAbandoned()));
    app.addHook('preClose', async () => r.drain());
  }
  return runner;
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

/**
 * Snapshots on a schedule: at the end of each month or of each year (the roster on 31 December). A timer
 * looks every hour; a schedule due today is claimed with one conditional UPDATE, so with several app servers
 * one of them takes it, once. The snapshot runs as any other: a background job, its owner told when done.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { SessionUser } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import { jobsOf } from '../../runtime/jobs.js';
import { checkModules, newSnapshot, takeSnapshot } from './snapshots.js';

export type Every = 'month-end' | 'year-end';
export const EVERY_LABELS: Record<Every, string> = { 'month-end': '每月末', 'year-end': '每年末（12月31日）' };
const CHECK_MS = 60 * 60_000;

export interface Schedule {
  id: number;
  title: string;
  modules: string[];
  every: Every;
  lastRun: string | null;
}

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Whether a schedule is due on this day: the last day of the month, or 31 December. */
export function dueOn(every: Every, day: Date): boolean {
  const tomorrow = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1);
  return every === 'month-end' ? tomorrow.getDate() === 1 : day.getMonth() === 11 && day.getDate() === 31;
}

export async function listSchedules(app: FastifyInstance): Promise<Schedule[]> {
  const { rows } = await sql<{ id: number; title: string; modules: string[]; every: Every; last_run: string | null }>`
    SELECT id, title, modules, every, last_run::text FROM stat_snapshot_schedule ORDER BY id`.execute(app.services.database.db);
  return rows.map((r) => ({ id: r.id, title: r.title, modules: r.modules, every: r.every, lastRun: r.last_run }));
}

export async function addSchedule(app: FastifyInstance, user: SessionUser, body: unknown): Promise<Schedule> {
  const b = (body ?? {}) as { title?: unknown; modules?: unknown; every?: unknown };
  const title = typeof b.title === 'string' ? b.title.trim() : '';
  if (!title || title.length > 60) throw new HttpError(400, '请填写计划名称（不超过60个字）', { errors: [{ field: 'title', message: '请填写计划名称（不超过60个字）' }] });
  if (b.every !== 'month-end' && b.every !== 'year-end') throw new HttpError(400, '请选择快照周期（每月末或每年末）', { errors: [{ field: 'every', message: '请选择快照周期' }] });
  const modules = checkModules(app.runtime, b.modules);
  const { rows } = await sql<{ id: number }>`INSERT INTO stat_snapshot_schedule (title, modules, every, created_by) VALUES (${title}, ${modules}::text[], ${b.every}, ${user.id}) RETURNING id`.execute(app.services.database.db);
  return { id: rows[0].id, title, modules, every: b.every, lastRun: null };
}

export async function removeSchedule(app: FastifyInstance, id: number): Promise<void> {
  const r = await sql`DELETE FROM stat_snapshot_schedule WHERE id = ${id}`.execute(app.services.database.db);
  if (!Number(r.numAffectedRows ?? 0)) throw new HttpError(404, '快照计划不存在');
}

/** Starts the snapshots of the schedules due on `day` that no server has taken yet; answers their job ids. */
export async function runDueSchedules(app: FastifyInstance, day = new Date()): Promise<number[]> {
  const db = app.services.database.db;
  const today = isoDay(day);
  const jobs: number[] = [];
  for (const s of await listSchedules(app)) {
    if (!dueOn(s.every, day) || s.lastRun === today) continue;
    const claimed = await sql`UPDATE stat_snapshot_schedule SET last_run = ${today}::date WHERE id = ${s.id} AND last_run IS DISTINCT FROM ${today}::date`.execute(db);
    if (!Number(claimed.numAffectedRows ?? 0)) continue;
    const { rows } = await sql<{ created_by: number | null }>`SELECT created_by FROM stat_snapshot_schedule WHERE id = ${s.id}`.execute(db);
    const owner = rows[0]?.created_by ?? null;
    const title = `${s.title}（${today}）`;
    const id = await newSnapshot(db, title, s.modules, { id: owner, name: '快照计划' });
    jobs.push(await jobsOf(app).start({ kind: 'snapshot', title: `数据快照“${title}”`, ownerId: owner, run: (job) => takeSnapshot(app.runtime, id, job), link: () => '/statistics/data/snapshot' }));
  }
  return jobs;
}

/** The hourly check, from the app's start to its close. */
export function startScheduleTimer(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => void runDueSchedules(app).catch((err: unknown) => app.log.error({ err }, 'scheduled snapshots failed')), CHECK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

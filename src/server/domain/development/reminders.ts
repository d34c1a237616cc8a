/**
 * Reminders of the development of new members, computed on the server from the applications' dates and
 * sent through the existing message service (type `remind`, 智能提醒) to those who act on them:
 * - 谈话到期: the talk within a month of the application (7 days ahead, and when overdue);
 * - 考察到期: the six-monthly assessment of activists and probationary members (14 days ahead);
 * - 预备期满: the probation ends within 30 days;
 * - 公示结束: the publicity ends today or tomorrow and the meeting has not been held.
 * Each (application, kind, due date) is reminded once (table workflow_reminders), also with several servers.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { addDays } from '../../../shared/development/rules.js';
import { localToday } from '../../../shared/module-schema/computed.js';

interface Due {
  id: number;
  name: string;
  state: number;
  orgId: number | null;
  userId: number | null;
  dueOn: string;
}

interface Kind {
  kind: string;
  /** The step whose actors are reminded. */
  step: string;
  title: (d: Due) => string;
  content: (d: Due) => string;
  /** Applications due, as of `today`. */
  where: (today: string) => ReturnType<typeof sql>;
  dueColumn: string;
}

const KINDS: Kind[] = [
  {
    kind: 'talk',
    step: 'talk',
    dueColumn: 'due_date',
    where: (today) => sql`state = 0 AND due_date <= ${addDays(today, 7)}::date`,
    title: (d) => `入党谈话期限：${d.name}`,
    content: (d) => `请于${d.dueOn}前派人同入党申请人${d.name}谈话（党组织收到入党申请书后，应当在一个月内派人谈话）。`,
  },
  {
    kind: 'assess',
    step: 'assess',
    dueColumn: 'due_date',
    where: (today) => sql`state IN (2, 3, 4, 5, 7, 8) AND due_item = '培养考察' AND due_date <= ${addDays(today, 14)}::date`,
    title: (d) => `培养考察到期：${d.name}`,
    content: (d) => `${d.name}的半年一次培养教育考察应于${d.dueOn}前完成。`,
  },
  {
    kind: 'probation',
    step: 'fullMeeting',
    dueColumn: 'probation_end',
    where: (today) => sql`state IN (7, 8) AND probation_end BETWEEN ${today}::date AND ${addDays(today, 30)}::date`,
    title: (d) => `预备期即将届满：${d.name}`,
    content: (d) => `预备党员${d.name}的预备期于${d.dueOn}届满，请及时组织转正申请和支部大会讨论。`,
  },
  {
    kind: 'publicity',
    step: 'admit',
    dueColumn: 'publicity_end',
    where: (today) => sql`state = 5 AND meeting_date IS NULL AND publicity_end BETWEEN ${today}::date AND ${addDays(today, 1)}::date`,
    title: (d) => `公示即将结束：${d.name}`,
    content: (d) => `发展对象${d.name}的公示于${d.dueOn}结束，公示期满无异议后可提交支部大会讨论。`,
  },
];

/** Sends the reminders due as of `today`; answers how many applications were reminded. */
export async function sendDevelopmentReminders(app: FastifyInstance, today: string = localToday()): Promise<number> {
  const { runtime } = app;
  const { database, messages } = app.services;
  const m = runtime.module('development');
  if (!m) return 0;
  const directory = runtime.workflows.newDirectory();
  let sent = 0;
  for (const kind of KINDS) {
    // The applications due and not yet reminded, claimed in one statement: a run that finds nothing new
    // (every run but the first of a deadline) costs one statement per kind, however many are due.
    const rows = await sql<Due>`
      WITH due AS (
        SELECT id, name, state, org_id AS "orgId", user_id AS "userId", ${sql.ref(kind.dueColumn)}::text AS "dueOn"
        FROM m_development WHERE ${kind.where(today)}
      ), fresh AS (
        INSERT INTO workflow_reminders (module, record_id, kind, due_on)
        SELECT 'development', id, ${kind.kind}, "dueOn"::date FROM due
        ON CONFLICT DO NOTHING RETURNING record_id
      )
      SELECT due.* FROM due JOIN fresh ON fresh.record_id = due.id ORDER BY due.id`.execute(database.db);
    for (const due of rows.rows) {
      const toUserIds = await runtime.workflows.actorsOf(m, kind.step, { ...due }, directory);
      if (!toUserIds.length) continue;
      await messages.sendMessage({ toUserIds, type: 'remind', title: kind.title(due), content: kind.content(due), link: `/development/process?id=${due.id}` });
      sent++;
    }
  }
  return sent;
}

const FIRST_RUN_MS = 20_000;
const EVERY_MS = 6 * 60 * 60_000;

/** Runs the reminders shortly after the start, then every six hours; stops with the app. */
export function scheduleDevelopmentReminders(app: FastifyInstance): () => void {
  const { log } = app;
  const run = () => void sendDevelopmentReminders(app).then((n) => n && log.info({ reminders: n }, 'development reminders sent'), (err: unknown) => log.warn({ err }, 'development reminders failed'));
  const first = setTimeout(run, FIRST_RUN_MS);
  const every = setInterval(run, EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}

/**
 * `GET /api/development/mine` — an applicant's own development (issue 31, the mobile terminal's 我的发展): their
 * applications (the one in progress first), for each the steps of 《中国共产党发展党员工作细则》 done with their
 * dates and the next ones, the state, stage and next deadline; and their party-school classes. The account
 * is the application's `userId` (its `selfField`); an account with none answers empty lists.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { completedStep, DEVELOPMENT_STEPS, STAGE_TITLES } from '../../../shared/development/steps.js';
import { currentUser, LOGIN } from '../../core/auth/guard.js';
import { endedUnfinishedStates, finalStates } from '../../runtime/workflow/states.js';

const filled = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

export async function myDevelopmentRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const m = runtime.module('development');
  if (!m) return;
  const db = app.services.database.db;

  app.get('/api/development/mine', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    const ended = endedUnfinishedStates(m);
    const final = finalStates(m);
    const ids = await sql<{ id: number }>`SELECT id FROM m_development WHERE user_id = ${user.id} ORDER BY id DESC`.execute(db);
    const applications = [];
    for (const { id } of ids.rows) {
      // The applicant's own (selfField) record, whatever the account's data scope, as the workflow lets them read it.
      const records = runtime.records('development');
      const r = await records.decorateOne((await records.readRow(id))!);
      const furthest = Number(completedStep(r) ?? 0);
      const steps = DEVELOPMENT_STEPS.map((s) => ({
        no: s.no,
        stage: STAGE_TITLES[s.stage - 1],
        title: s.title,
        date: s.date && filled(r[s.date]) ? String(r[s.date]) : null,
        done: s.no <= furthest || (s.date !== undefined && filled(r[s.date])),
      }));
      const state = r.state as number;
      applications.push({
        id,
        name: r.name,
        orgName: r.orgIdName,
        state,
        stateLabel: r.stateLabel,
        stageLabel: r.stageLabel,
        inProgress: !final.includes(state),
        dueDate: r.dueDate,
        dueItem: r.dueItem,
        steps,
        next: ended.includes(state) ? null : (steps.find((s) => !s.done) ?? null),
      });
    }
    applications.sort((a, b) => Number(b.inProgress) - Number(a.inProgress));
    const classes = await sql<{ id: number; name: string; startDate: string | null; endDate: string | null; requiredHours: number | null; hoursDone: number | null; completed: boolean | null; certificateNo: string | null }>`
      SELECT c.id, c.name, c.start_date::text AS "startDate", c.end_date::text AS "endDate", c.required_hours AS "requiredHours",
             s.hours_done AS "hoursDone", s.completed, s.certificate_no AS "certificateNo"
      FROM m_pschool_student s JOIN m_pschool_class c ON c.id = s.class_id WHERE s.user_id = ${user.id} ORDER BY c.start_date DESC NULLS LAST, c.id DESC`.execute(db);
    return { applications, classes: classes.rows };
  });
}

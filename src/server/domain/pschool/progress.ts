/**
 * `POST /api/pschool/progress {nodeId, position}`: a learner's video or document progress. The server
 * decides what counts (shared/pschool/progress.ts): a report ahead of what the wall clock allows is
 * refused with 409 and the furthest point, so the player seeks back. Completing a node credits its
 * hours to the learner's classes.
 */
import type { FastifyInstance } from 'fastify';
import { EMPTY_PROGRESS, judgeProgress, type ProgressState } from '../../../shared/pschool/progress.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { STUDY, idParam } from './common.js';
import type { NodeCatalog, StudyNode } from './nodes.js';
import { refreshStudentsOf } from './standing.js';
import { pschoolDb, type PschoolDb } from './tables.js';

export interface ProgressAnswer {
  nodeId: number;
  position: number;
  furthest: number;
  /** Seconds credited so far (the furthest point). */
  credited: number;
  length: number;
  completed: boolean;
  /** Hours the node is worth; earned once it is completed. */
  hours: number;
}

type Row = { position: number; furthest: number; last_report_at: Date | null; lead: number; completed_at: Date | null };
const stateOf = (row: Row | undefined): ProgressState =>
  row ? { position: row.position, furthest: row.furthest, lastReportAt: row.last_report_at?.getTime() ?? null, lead: row.lead, completedAt: row.completed_at?.getTime() ?? null } : EMPTY_PROGRESS;

/**
 * Judges and stores one report in two statements (this is the busiest call of the product): read the
 * row, judge it, write it only if nobody wrote it in between (the last report time still matches);
 * a write that lost such a race is judged again against the row that won.
 */
export async function recordProgress(db: PschoolDb, userId: number, node: StudyNode, position: number, now = Date.now()) {
  if (node.kind === 'offline' || node.length <= 0) throw new HttpError(400, '线下授课的小节不记录学习进度');
  for (let attempt = 0; ; attempt++) {
    const row = await db.selectFrom('pschool_progress').select(['position', 'furthest', 'last_report_at', 'lead', 'completed_at']).where('user_id', '=', userId).where('node_id', '=', node.id).executeTakeFirst();
    const verdict = judgeProgress(stateOf(row), position, node.length, now);
    if (!verdict.accepted) {
      throw new HttpError(409, '不能跳到尚未学习的位置，请从上次学到的地方继续', { furthest: verdict.furthest, nodeId: node.id });
    }
    const s = verdict.state;
    const values = { position: s.position, furthest: s.furthest, last_report_at: new Date(s.lastReportAt!), lead: s.lead, completed_at: s.completedAt ? new Date(s.completedAt) : null, updated_at: new Date(now) };
    const written = row
      ? await db
          .updateTable('pschool_progress')
          .set(values)
          .where('user_id', '=', userId)
          .where('node_id', '=', node.id)
          .where((eb) => (row.last_report_at ? eb('last_report_at', '=', row.last_report_at) : eb('last_report_at', 'is', null)))
          .executeTakeFirst()
          .then((r) => Number(r.numUpdatedRows) > 0)
      : await db
          .insertInto('pschool_progress')
          .values({ user_id: userId, node_id: node.id, ...values })
          .onConflict((oc) => oc.columns(['user_id', 'node_id']).doNothing())
          .returning('user_id')
          .executeTakeFirst()
          .then((r) => r !== undefined);
    if (!written && attempt < 3) continue;
    if (!written) throw new HttpError(409, '学习进度同时从多处提交，请刷新后继续', { furthest: s.furthest, nodeId: node.id });
    const answer: ProgressAnswer = { nodeId: node.id, position: s.position, furthest: s.furthest, credited: verdict.credited, length: node.length, completed: verdict.completed, hours: node.hours };
    return { answer, justCompleted: verdict.justCompleted };
  }
}

export async function progressRoutes(app: FastifyInstance, opts: { nodes: NodeCatalog }): Promise<void> {
  const db = pschoolDb(app.services.database.db);
  app.post('/api/pschool/progress', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const body = (req.body ?? {}) as { nodeId?: unknown; position?: unknown };
    const nodeId = idParam(body.nodeId, '课程小节');
    const position = Number(body.position);
    if (body.position === null || body.position === '' || !Number.isFinite(position) || position < 0) {
      throw new HttpError(400, '学习位置不正确', { errors: [{ field: 'position', message: '学习位置须是不小于0的秒数' }] });
    }
    const node = await opts.nodes.studyable(nodeId);
    const { answer, justCompleted } = await recordProgress(db, user.id, node, position);
    // Hours follow a completed node into the learner's classes (after the report is stored).
    if (justCompleted && node.hours > 0) await refreshStudentsOf(app, user.id);
    return answer;
  });
}

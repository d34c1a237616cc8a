/**
 * A class student's standing, kept on the student record (read-only fields of pschool-student): online
 * hours from completed course nodes, the class's exam, completion and the certificate. The hook
 * `pschool.studentStanding` computes it on every write of a student; `refreshStudentsOf` rewrites a
 * learner's student records (through the runtime, so the trail shows it) when their progress or exam
 * result changes.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { standingOf, certificateNo } from '../../../shared/pschool/standing.js';
import type { FastifyInstance } from 'fastify';
import { SYSTEM_ACTOR } from '../../runtime/index.js';
import { StudentStatus, jsonArray, round2 } from './common.js';
import { pschoolDb, type AnyDb } from './tables.js';

export interface ClassRequirements {
  requiredHours: number;
  courseIds: number[];
  examIds: number[];
  className: string;
  batchName: string;
  dxPc: number | null;
  year: number;
}

export async function classRequirements(db: AnyDb, classId: number): Promise<ClassRequirements | undefined> {
  const p = pschoolDb(db);
  const row = await p
    .selectFrom('m_pschool_class as c')
    .leftJoin('m_pschool_batch as b', 'b.id', 'c.batch_id')
    .select(['c.name', 'c.required_hours as classHours', 'c.course_ids', 'b.required_hours as batchHours', 'b.name as batchName', 'b.dx_pc', 'b.year'])
    .where('c.id', '=', classId)
    .executeTakeFirst();
  if (!row) return undefined;
  const exams = await p.selectFrom('m_exam').select('id').where('class_id', '=', classId).where('published', '=', true).execute();
  return {
    requiredHours: Number(row.classHours ?? row.batchHours ?? 0),
    courseIds: jsonArray<number>(row.course_ids),
    examIds: exams.map((e) => e.id),
    className: row.name,
    batchName: row.batchName ?? '',
    dxPc: row.dx_pc ? Number(row.dx_pc) : null,
    year: row.year ?? new Date().getFullYear(),
  };
}

/** Hours of the nodes of these courses the user has completed. */
export async function onlineHoursOf(db: AnyDb, userId: number, courseIds: number[]): Promise<number> {
  if (!courseIds.length) return 0;
  const row = await pschoolDb(db)
    .selectFrom('pschool_progress as p')
    .innerJoin('m_course_node as n', 'n.id', 'p.node_id')
    .select(sql<number>`coalesce(sum(n.hours), 0)::float8`.as('hours'))
    .where('p.user_id', '=', userId)
    .where('p.completed_at', 'is not', null)
    .where('n.course_id', 'in', courseIds)
    .executeTakeFirstOrThrow();
  return round2(Number(row.hours));
}

export async function examPassedBy(db: AnyDb, userId: number, examIds: number[]): Promise<boolean> {
  if (!examIds.length) return false;
  const row = await pschoolDb(db).selectFrom('pschool_exam_sessions').select('id').where('user_id', '=', userId).where('exam_id', 'in', examIds).where('passed', '=', true).limit(1).executeTakeFirst();
  return !!row;
}

/** The read-only standing fields of a student record as they should be now. */
export async function standingFields(db: AnyDb, record: Record<string, unknown>, previous?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const req = await classRequirements(db, Number(record.classId));
  const userId = typeof record.userId === 'number' ? record.userId : null;
  const onlineHours = req && userId ? await onlineHoursOf(db, userId, req.courseIds) : 0;
  const examPassed = req && userId ? await examPassedBy(db, userId, req.examIds) : false;
  const s = standingOf({
    onlineHours,
    offlineHours: Number(record.offlineHours ?? 0),
    requiredHours: req?.requiredHours ?? 0,
    examRequired: !!req?.examIds.length,
    examPassed,
  });
  const completed = s.completed && record.status === StudentStatus.ADMITTED;
  const wasCompleted = previous?.completed === true;
  return {
    onlineHours,
    hoursDone: s.hoursDone,
    examPassed,
    completed,
    completedAt: completed ? (wasCompleted && previous?.completedAt ? previous.completedAt : new Date().toISOString()) : null,
  };
}

/**
 * Issues the certificate of a student who has just completed, or revokes it when completion was lost
 * (hours corrected by an administrator). Runs in the student write's transaction.
 */
export async function syncCertificate(trx: AnyDb, studentId: number, record: Record<string, unknown>): Promise<void> {
  const p = pschoolDb(trx);
  const existing = await p.selectFrom('pschool_certificates').selectAll().where('student_id', '=', studentId).executeTakeFirst();
  if (record.completed === true) {
    if (existing && !existing.revoked_at) return;
    const req = await classRequirements(trx, Number(record.classId));
    if (existing) {
      await p.updateTable('pschool_certificates').set({ revoked_at: null, issued_at: new Date(), hours: Number(record.hoursDone ?? 0), holder_name: String(record.name) }).where('id', '=', existing.id).execute();
      await p.updateTable('m_pschool_student').set({ certificate_no: existing.no }).where('id', '=', studentId).execute();
      return;
    }
    const inserted = await p
      .insertInto('pschool_certificates')
      .values({
        no: `pending-${crypto.randomUUID()}`,
        verify_code: crypto.randomBytes(18).toString('base64url'),
        student_id: studentId,
        user_id: typeof record.userId === 'number' ? record.userId : null,
        holder_name: String(record.name),
        class_id: Number(record.classId),
        class_name: req?.className ?? '',
        batch_name: req?.batchName ?? '',
        dx_pc: req?.dxPc ?? null,
        hours: Number(record.hoursDone ?? 0),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The number carries the certificate's own id: unique without a separate counter.
    const no = certificateNo(req?.year ?? new Date().getFullYear(), req?.dxPc ?? 0, inserted.id);
    await p.updateTable('pschool_certificates').set({ no }).where('id', '=', inserted.id).execute();
    await p.updateTable('m_pschool_student').set({ certificate_no: no }).where('id', '=', studentId).execute();
  } else if (existing && !existing.revoked_at) {
    await p.updateTable('pschool_certificates').set({ revoked_at: new Date() }).where('id', '=', existing.id).execute();
    await p.updateTable('m_pschool_student').set({ certificate_no: null }).where('id', '=', studentId).execute();
  }
}

/**
 * Rewrites the standing of a learner's admitted student records (after a node was completed or an exam
 * marked). Each goes through the runtime's update, so the hook recomputes and the trail records it.
 */
export async function refreshStudentsOf(app: FastifyInstance, userId: number): Promise<void> {
  const rows = await pschoolDb(app.services.database.db)
    .selectFrom('m_pschool_student')
    .select(['id', 'version'])
    .where('user_id', '=', userId)
    .where('status', '=', StudentStatus.ADMITTED)
    .execute();
  const students = app.runtime.records('pschool-student');
  for (const row of rows) {
    // A concurrent change (an administrator editing the record) wins; the next refresh catches up.
    await students.update({ id: row.id, version: row.version }, SYSTEM_ACTOR).catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 409) throw error;
    });
  }
}

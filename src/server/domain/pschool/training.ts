/**
 * The party-school training a person has completed, for the development workflow's training guard
 * (《中国共产党发展党员工作细则》第十八条: 发展对象 are trained in a short concentrated course of
 * generally not less than three days or 24 class hours). The guard decides; this only reports.
 */
import { StudentStatus, round2 } from './common.js';
import { pschoolDb, type AnyDb } from './tables.js';

export interface CompletedClass {
  classId: number;
  className: string;
  /** Batch type (dxPc): 1 入党申请人, 2 积极分子, 3 发展对象, 4 预备党员. */
  dxPc: number | null;
  hours: number;
  days: number;
  completedAt: Date | null;
  certificateNo: string | null;
}

export interface CompletedTraining {
  /** Class hours of the completed classes, summed. */
  hours: number;
  /** Attendance days of the completed classes, summed. */
  days: number;
  classes: CompletedClass[];
}

/**
 * The completed party-school classes of a person, found by ID number and/or user id (a student record
 * matching either counts). Optionally only classes of one batch type.
 */
export async function completedTrainingOf(db: AnyDb, who: { idCard?: string | null; userId?: number | null }, opts: { dxPc?: number } = {}): Promise<CompletedTraining> {
  const idCard = who.idCard?.trim().toUpperCase() || null;
  const userId = who.userId ?? null;
  if (!idCard && !userId) return { hours: 0, days: 0, classes: [] };
  let q = pschoolDb(db)
    .selectFrom('m_pschool_student as s')
    .innerJoin('m_pschool_class as c', 'c.id', 's.class_id')
    .leftJoin('m_pschool_batch as b', 'b.id', 'c.batch_id')
    .select(['c.id as classId', 'c.name as className', 'b.dx_pc as dxPc', 's.hours_done as hours', 's.attendance_days as days', 's.completed_at as completedAt', 's.certificate_no as certificateNo'])
    .where('s.status', '=', StudentStatus.ADMITTED)
    .where('s.completed', '=', true)
    .where((eb) => eb.or([...(idCard ? [eb(eb.fn('upper', ['s.id_card']), '=', idCard)] : []), ...(userId ? [eb('s.user_id', '=', userId)] : [])]));
  if (opts.dxPc) q = q.where('b.dx_pc', '=', String(opts.dxPc));
  const rows = await q.orderBy('s.completed_at').execute();
  const classes = rows.map((r) => ({ classId: r.classId, className: r.className, dxPc: r.dxPc ? Number(r.dxPc) : null, hours: Number(r.hours ?? 0), days: Number(r.days ?? 0), completedAt: r.completedAt, certificateNo: r.certificateNo }));
  return { hours: round2(classes.reduce((s, c) => s + c.hours, 0)), days: round2(classes.reduce((s, c) => s + c.days, 0)), classes };
}

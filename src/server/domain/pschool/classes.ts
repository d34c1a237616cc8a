/**
 * Classes from both sides. Learners: their home page (classes with hours required and done, exam,
 * completion, certificate), classes open for self-registration, and registering (an administrator
 * admits). Administrators: candidates from the development pipeline at the batch's stage, enrolling them,
 * and admitting or turning down registrations. Student records are written through the runtime, so
 * validation, data scope, hooks (standing) and the trail apply.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { DxPcType, DxPcTypeLabel } from '../../../shared/constants.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { likeContains } from '../../core/paging.js';
import { HttpError } from '../../errors.js';
import { personNameOf } from '../member/accounts.js';
import { SYSTEM_ACTOR } from '../../runtime/index.js';
import { STUDY, StudentSource, StudentStatus, idParam, jsonArray, param } from './common.js';
import { pschoolDb, type AnyDb } from './tables.js';

export interface Candidate {
  name: string;
  idCard: string | null;
  orgId: number | null;
  orgName?: string | null;
  userId?: number | null;
  /** Where the person comes from, e.g. 预备党员 or 发展对象. */
  note?: string;
}

/**
 * Where candidates of a batch type come from, within the caller's data scope. Probationary members
 * (PREPARE) are the member register's; the composition root (src/server/seams.ts) registers the
 * development workflow's applicants, activists and development objects for the earlier types.
 */
export type CandidateSource = (db: AnyDb, opts: { q?: string; limit: number; scope: number[] | 'all' }) => Promise<Candidate[]>;
const candidateSources = new Map<number, CandidateSource>();

export function registerCandidateSource(dxPc: number, source: CandidateSource): void {
  candidateSources.set(dxPc, source);
}

registerCandidateSource(DxPcType.PREPARE, async (db, { q, limit, scope }) => {
  const name = q?.trim() ? likeContains(q.trim()) : null;
  const orgs = scope === 'all' ? null : scope;
  const rows = await sql<{ name: string; id_card: string | null; org_id: number | null; org_name: string | null }>`
    SELECT m.name, m.id_card, m.org_id, o.name AS org_name
    FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id
    WHERE m.member_type = '2' AND (${name}::text IS NULL OR m.name ILIKE ${name})
      AND (${orgs === null}::boolean OR m.org_id = ANY(${orgs ?? []}::int[]))
    ORDER BY m.id LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => ({ name: r.name, idCard: r.id_card, orgId: r.org_id, orgName: r.org_name, note: '预备党员' }));
});

export async function classRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const db = pschoolDb(app.services.database.db);
  const students = () => runtime.records('pschool-student');

  async function classWithBatch(id: number) {
    const c = await db
      .selectFrom('m_pschool_class as c')
      .leftJoin('m_pschool_batch as b', 'b.id', 'c.batch_id')
      .select(['c.id', 'c.name', 'c.org_id', 'c.start_date', 'c.end_date', 'c.place', 'c.teachers', 'c.schedule', 'c.capacity', 'c.self_register', 'c.status', 'c.required_hours', 'c.course_ids', 'b.name as batchName', 'b.dx_pc', 'b.required_hours as batchHours'])
      .where('c.id', '=', id)
      .executeTakeFirst();
    if (!c) throw new HttpError(404, '培训班不存在');
    return c;
  }

  // ---- learners

  app.get('/api/pschool/home', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const rows = await db
      .selectFrom('m_pschool_student as s')
      .innerJoin('m_pschool_class as c', 'c.id', 's.class_id')
      .leftJoin('m_pschool_batch as b', 'b.id', 'c.batch_id')
      .leftJoin('pschool_certificates as cert', (j) => j.onRef('cert.student_id', '=', 's.id').on('cert.revoked_at', 'is', null))
      .select([
        's.id as studentId', 'c.id as classId', 'c.name as className', 'b.name as batchName', 'b.dx_pc as dxPc', 's.status', 'c.status as classStatus',
        sql<number>`coalesce(c.required_hours, b.required_hours, 0)::float8`.as('requiredHours'),
        's.hours_done as hoursDone', 's.online_hours as onlineHours', 's.offline_hours as offlineHours', 's.attendance_days as attendanceDays',
        's.exam_passed as examPassed', 's.completed', 's.completed_at as completedAt', 'cert.id as certificateId', 'cert.no as certificateNo',
        'c.start_date as startDate', 'c.end_date as endDate', 'c.place', 'c.teachers', 'c.schedule', 'c.course_ids as courseIds',
      ])
      .where('s.user_id', '=', user.id)
      .orderBy('c.start_date', 'desc')
      .execute();
    const examRequired = new Set(
      (await db.selectFrom('m_exam').select('class_id').where('published', '=', true).where('class_id', 'in', rows.length ? rows.map((r) => r.classId) : [0]).execute()).map((e) => e.class_id),
    );
    const classes = rows.map((r) => ({
      ...r,
      dxPcLabel: r.dxPc ? (DxPcTypeLabel as Record<string, string>)[r.dxPc] ?? '' : '',
      statusLabel: r.status === StudentStatus.ADMITTED ? '已录取' : r.status === StudentStatus.PENDING ? '待审核' : '未通过',
      hoursDone: Number(r.hoursDone ?? 0),
      examRequired: examRequired.has(r.classId),
      courseIds: jsonArray<number>(r.courseIds),
    }));
    const admitted = classes.filter((c) => c.status === StudentStatus.ADMITTED);
    return {
      name: (await personNameOf(app.services.database.db, user.id)) ?? user.username,
      classes,
      totals: {
        hoursDone: Math.round(admitted.reduce((s, c) => s + c.hoursDone, 0) * 100) / 100,
        requiredHours: Math.round(admitted.filter((c) => !c.completed).reduce((s, c) => s + Number(c.requiredHours), 0) * 100) / 100,
        completed: admitted.filter((c) => c.completed).length,
        certificates: classes.filter((c) => c.certificateId).length,
      },
    };
  });

  app.get('/api/pschool/classes/open', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const rows = await db
      .selectFrom('m_pschool_class as c')
      .leftJoin('m_pschool_batch as b', 'b.id', 'c.batch_id')
      .leftJoin('m_pschool_student as mine', (j) => j.onRef('mine.class_id', '=', 'c.id').on('mine.user_id', '=', user.id))
      .select([
        'c.id', 'c.name', 'b.name as batchName', 'b.dx_pc as dxPc', 'c.start_date as startDate', 'c.end_date as endDate', 'c.place', 'c.teachers', 'c.capacity', 'mine.status as myStatus',
        sql<number>`(SELECT count(*) FROM m_pschool_student s WHERE s.class_id = c.id AND s.status = ${StudentStatus.ADMITTED})::int`.as('admitted'),
      ])
      .where('c.self_register', '=', true)
      .where('c.status', '=', '报名中')
      .orderBy('c.start_date')
      .limit(100)
      .execute();
    return rows.map((r) => ({ ...r, dxPcLabel: r.dxPc ? (DxPcTypeLabel as Record<string, string>)[r.dxPc] ?? '' : '', full: r.capacity !== null && r.admitted >= r.capacity }));
  });

  app.post('/api/pschool/classes/:id/register', { config: perm(STUDY) }, async (req, reply) => {
    const user = currentUser(req);
    const c = await classWithBatch(idParam(param(req, 'id'), '培训班'));
    if (!c.self_register || c.status !== '报名中') throw new HttpError(400, '该培训班未开放报名');
    const body = (req.body ?? {}) as { name?: unknown; idCard?: unknown; phone?: unknown };
    const existing = await db.selectFrom('m_pschool_student').select('id').where('class_id', '=', c.id).where('user_id', '=', user.id).executeTakeFirst();
    if (existing) throw new HttpError(400, '您已报名该培训班');
    // The learner writes only their own registration; the runtime checks the fields as for any record.
    const record = await students().create(
      { classId: c.id, name: body.name ?? (await personNameOf(app.services.database.db, user.id)), idCard: body.idCard ?? null, phone: body.phone || null, userId: user.id, orgId: user.orgId ?? null, status: StudentStatus.PENDING, source: StudentSource.SELF },
      SYSTEM_ACTOR,
    );
    return reply.code(201).send({ id: record.id, status: record.status, statusLabel: '待审核' });
  });

  // ---- administrators

  app.get('/api/pschool/classes/:id/candidates', { config: perm('pschool-class:edit') }, async (req) => {
    const c = await classWithBatch(idParam(param(req, 'id'), '培训班'));
    const dxPc = Number(c.dx_pc);
    const source = candidateSources.get(dxPc);
    const stage = (DxPcTypeLabel as Record<number, string>)[dxPc] ?? '';
    if (!source) return { stage, available: false, content: [] };
    const { q } = req.query as { q?: string };
    const { scope } = await runtime.actorOf(currentUser(req));
    const people = await source(db, { q, limit: 200, scope });
    const enrolled = new Set((await db.selectFrom('m_pschool_student').select('id_card').where('class_id', '=', c.id).execute()).map((s) => s.id_card));
    return { stage, available: true, content: people.filter((p) => !p.idCard || !enrolled.has(p.idCard)) };
  });

  app.post('/api/pschool/classes/:id/enrol', { config: perm('pschool-class:edit') }, async (req) => {
    const c = await classWithBatch(idParam(param(req, 'id'), '培训班'));
    const people = (req.body as { people?: unknown } | null)?.people;
    if (!Array.isArray(people) || !people.length || people.length > 500) throw new HttpError(400, '请选择要加入的人员（每次最多500人）');
    const actor = await runtime.actorOf(currentUser(req));
    let added = 0;
    const errors: { row: number; message: string }[] = [];
    for (const [i, p] of (people as Candidate[]).entries()) {
      try {
        await students().create({ classId: c.id, name: p.name, idCard: p.idCard ?? null, orgId: p.orgId ?? null, userId: p.userId ?? null, status: StudentStatus.ADMITTED, source: StudentSource.PIPELINE }, actor);
        added++;
      } catch (error) {
        errors.push({ row: i + 1, message: `${p.name ?? ''}：${(error as Error).message}` });
      }
    }
    return { added, errors };
  });

  app.post('/api/pschool/students/review', { config: perm('pschool-class:edit') }, async (req) => {
    const body = (req.body ?? {}) as { ids?: unknown; approve?: unknown };
    if (!Array.isArray(body.ids) || !body.ids.length || typeof body.approve !== 'boolean') throw new HttpError(400, '请选择学员并给出审核结果');
    const actor = await runtime.actorOf(currentUser(req));
    const rows = await db.selectFrom('m_pschool_student').select(['id', 'version', 'status']).where('id', 'in', body.ids.map((id) => idParam(id, '学员'))).execute();
    let changed = 0;
    for (const r of rows) {
      if (r.status !== StudentStatus.PENDING) continue;
      await students().update({ id: r.id, version: r.version, status: body.approve ? StudentStatus.ADMITTED : StudentStatus.REJECTED }, actor);
      changed++;
    }
    return { changed };
  });

  /** Registrations waiting for an administrator, across the classes the caller may see. */
  app.get('/api/pschool/students/pending', { config: perm('pschool-class:list') }, async (req) => {
    return students().list({ filter: { status: StudentStatus.PENDING }, query: { size: 500, sort: 'classId,asc' }, allFields: true }, await runtime.actorOf(currentUser(req)));
  });
}

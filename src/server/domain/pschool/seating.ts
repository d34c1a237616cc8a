/**
 * 座位编排与分组: a seat plan in a room grid and discussion groups for an exam's candidates or a
 * class's students; arranged at random or by party branch (shared/pschool/seating.ts), saved, printable.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { arrangeSeats, makeGroups, SeatingError, type SeatPerson, type SeatingMode } from '../../../shared/pschool/seating.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { personName } from '../member/accounts.js';
import { StudentStatus, idParam } from './common.js';
import { pschoolDb } from './tables.js';

const KINDS = new Set(['exam', 'class']);
const MODES = new Set<SeatingMode>(['random', 'branch', 'spread']);

export async function seatingRoutes(app: FastifyInstance): Promise<void> {
  const db = pschoolDb(app.services.database.db);

  /** Who sits: a class's admitted students; an exam's class, or whoever sat it when it has no class. */
  async function peopleOf(kind: string, id: number): Promise<{ title: string; people: SeatPerson[] }> {
    let classId: number | null = id;
    let title = '';
    if (kind === 'exam') {
      const exam = await db.selectFrom('m_exam').select(['title', 'class_id']).where('id', '=', id).executeTakeFirst();
      if (!exam) throw new HttpError(404, '考试不存在');
      title = exam.title;
      classId = exam.class_id;
      if (classId === null) {
        const rows = await db
          .selectFrom('pschool_exam_sessions as s')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .leftJoin('m_org as o', 'o.id', 'u.org_id')
          .select(['u.id', personName('u').as('name'), 'u.org_id as orgId', 'o.name as orgName'])
          .distinct()
          .where('s.exam_id', '=', id)
          .execute();
        return { title, people: rows };
      }
    }
    const c = await db.selectFrom('m_pschool_class').select('name').where('id', '=', classId).executeTakeFirst();
    if (!c) throw new HttpError(404, '培训班不存在');
    title ||= c.name;
    const rows = await db
      .selectFrom('m_pschool_student as s')
      .leftJoin('m_org as o', 'o.id', 's.org_id')
      .select(['s.id', 's.name', 's.org_id as orgId', 'o.name as orgName'])
      .where('s.class_id', '=', classId)
      .where('s.status', '=', StudentStatus.ADMITTED)
      .orderBy('s.id')
      .execute();
    return { title, people: rows };
  }

  function target(req: { params: unknown }) {
    const { kind, id } = req.params as { kind: string; id: string };
    if (!KINDS.has(kind)) throw new HttpError(404, '编排对象不存在');
    return { kind: kind as 'exam' | 'class', id: idParam(id, '编排对象') };
  }

  app.get('/api/pschool/seating/:kind/:id', { config: perm('pschool-seating:list') }, async (req) => {
    const { kind, id } = target(req);
    const { title, people } = await peopleOf(kind, id);
    const plan = await db.selectFrom('pschool_seatings').selectAll().where('kind', '=', kind).where('target_id', '=', id).executeTakeFirst();
    return { title, people: people.length, plan: plan ? { room: plan.room, rows: plan.rows, cols: plan.cols, mode: plan.mode, seats: plan.seats, groups: plan.groups, updatedAt: plan.updated_at } : null };
  });

  app.put('/api/pschool/seating/:kind/:id', { config: perm('pschool-seating:edit') }, async (req) => {
    const { kind, id } = target(req);
    const body = (req.body ?? {}) as { room?: unknown; rows?: unknown; cols?: unknown; mode?: unknown; groupCount?: unknown; groupMode?: unknown };
    const mode = String(body.mode ?? 'random') as SeatingMode;
    if (!MODES.has(mode)) throw new HttpError(400, '编排方式不正确');
    const room = String(body.room ?? '').trim().slice(0, 100);
    const { title, people } = await peopleOf(kind, id);
    if (!people.length) throw new HttpError(400, '没有可编排的人员');
    let seats;
    let groups: SeatPerson[][] = [];
    try {
      const seed = crypto.randomInt(2 ** 31);
      seats = arrangeSeats(people, Number(body.rows), Number(body.cols), mode, seed);
      if (body.groupCount !== undefined && body.groupCount !== null && body.groupCount !== '') {
        groups = makeGroups(people, Number(body.groupCount), body.groupMode === 'branch' ? 'branch' : 'random', seed);
      }
    } catch (error) {
      if (error instanceof SeatingError) throw new HttpError(400, error.message);
      throw error;
    }
    const values = { room, rows: Number(body.rows), cols: Number(body.cols), mode, seats: JSON.stringify(seats), groups: JSON.stringify(groups), updated_by: currentUser(req).id, updated_at: new Date() };
    await db
      .insertInto('pschool_seatings')
      .values({ kind, target_id: id, ...values })
      .onConflict((oc) => oc.columns(['kind', 'target_id']).doUpdateSet(values))
      .execute();
    return { title, people: people.length, plan: { ...values, seats, groups } };
  });
}

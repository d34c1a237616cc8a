/**
 * The study centre's reading side: the courses on the shelf with the learner's progress, a course's
 * chapters and nodes, one node for the player, where to continue, and the node's media (streamed with
 * range requests by the file service).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ChapterType } from '../../../shared/constants.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { sendStoredFile } from '../../core/files/serve.js';
import { likeContains } from '../../core/paging.js';
import { fileStoreOf } from '../../core/files/upload.js';
import { HttpError } from '../../errors.js';
import { STUDY, StudentStatus, idParam, jsonArray, param, round2 } from './common.js';
import type { NodeCatalog } from './nodes.js';
import { pschoolDb } from './tables.js';
import { ownValue } from '../../../shared/own.js';

/** `/pschool/:navigation` values: a batch type's audience, the learner's own courses, or everything. */
const AUDIENCE: Record<string, string> = { apply: '1', active: '2', develop: '3', prepare: '4' };

export async function catalogRoutes(app: FastifyInstance, opts: { nodes: NodeCatalog }): Promise<void> {
  const db = pschoolDb(app.services.database.db);
  const store = fileStoreOf(app);
  const recordInterval = async () => Math.max(1, Math.min(600, await app.services.config.number('videoRecordTime', 30)));

  /** Course ids of the learner's admitted classes. */
  async function myCourseIds(userId: number): Promise<number[]> {
    const rows = await db
      .selectFrom('m_pschool_student as s')
      .innerJoin('m_pschool_class as c', 'c.id', 's.class_id')
      .select('c.course_ids')
      .where('s.user_id', '=', userId)
      .where('s.status', '=', StudentStatus.ADMITTED)
      .execute();
    return [...new Set(rows.flatMap((r) => jsonArray<number>(r.course_ids)))];
  }

  app.get('/api/pschool/courses', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const { nav, q } = req.query as { nav?: string; q?: string };
    let query = db.selectFrom('m_course as c').where('c.published', 'is not', false);
    const audience = ownValue(AUDIENCE, nav);
    if (audience) query = query.where(sql<boolean>`c.audience @> ${JSON.stringify([audience])}::jsonb`);
    if (nav === 'mine') {
      const mine = await myCourseIds(user.id);
      const studied = await db.selectFrom('pschool_progress as p').innerJoin('m_course_node as n', 'n.id', 'p.node_id').select('n.course_id').distinct().where('p.user_id', '=', user.id).execute();
      const ids = [...new Set([...mine, ...studied.map((s) => s.course_id)])];
      if (!ids.length) return [];
      query = query.where('c.id', 'in', ids);
    }
    if (q?.trim()) query = query.where('c.title', 'ilike', likeContains(q.trim()));
    const courses = await query.select(['c.id', 'c.title', 'c.teacher', 'c.audience', 'c.evaluation', 'c.description', 'c.sort']).orderBy('c.sort').orderBy('c.id').limit(200).execute();
    if (!courses.length) return [];
    const ids = courses.map((c) => c.id);
    const totals = await db
      .selectFrom('m_course_node as n')
      .leftJoin('pschool_progress as p', (j) => j.onRef('p.node_id', '=', 'n.id').on('p.user_id', '=', user.id))
      .select([
        'n.course_id',
        sql<number>`count(*) FILTER (WHERE n.kind IN ('video', 'doc'))::int`.as('nodes'),
        sql<number>`count(p.completed_at)::int`.as('done'),
        sql<number>`coalesce(sum(n.hours), 0)::float8`.as('hours'),
        sql<number>`coalesce(sum(n.hours) FILTER (WHERE p.completed_at IS NOT NULL), 0)::float8`.as('hoursDone'),
      ])
      .where('n.course_id', 'in', ids)
      .where('n.node_type', '=', String(ChapterType.NODE))
      .groupBy('n.course_id')
      .execute();
    const byCourse = new Map(totals.map((t) => [t.course_id, t]));
    return courses.map((c) => {
      const t = byCourse.get(c.id);
      const nodes = t?.nodes ?? 0;
      const done = t?.done ?? 0;
      return {
        id: c.id, title: c.title, teacher: c.teacher, audience: jsonArray<string>(c.audience), evaluation: c.evaluation, description: c.description,
        nodes, done, hours: round2(t?.hours ?? 0), hoursDone: round2(t?.hoursDone ?? 0), percent: nodes ? Math.round((done * 100) / nodes) : 0,
      };
    });
  });

  app.get('/api/pschool/courses/:id', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const id = idParam(param(req, 'id'), '课程');
    const course = await db.selectFrom('m_course').select(['id', 'title', 'teacher', 'audience', 'evaluation', 'description', 'published']).where('id', '=', id).executeTakeFirst();
    if (!course || course.published === false) throw new HttpError(404, '课程不存在或已下架');
    const rows = await db
      .selectFrom('m_course_node as n')
      .leftJoin('pschool_progress as p', (j) => j.onRef('p.node_id', '=', 'n.id').on('p.user_id', '=', user.id))
      .select(['n.id', 'n.node_type', 'n.chapter_id', 'n.title', 'n.kind', 'n.hours', 'n.duration', 'n.min_read_seconds', 'n.sort', 'p.position', 'p.furthest', 'p.completed_at'])
      .where('n.course_id', '=', id)
      .orderBy('n.sort')
      .orderBy('n.id')
      .execute();
    const nodeOf = (r: (typeof rows)[number]) => ({
      id: r.id, title: r.title, kind: r.kind, hours: Number(r.hours ?? 0),
      length: Number(r.kind === 'video' ? r.duration : r.kind === 'doc' ? r.min_read_seconds : 0) || 0,
      position: r.position ?? 0, furthest: r.furthest ?? 0, completed: !!r.completed_at,
    });
    const chapters = rows.filter((r) => r.node_type === String(ChapterType.CHAPTER)).map((c) => ({ id: c.id, title: c.title, nodes: rows.filter((r) => r.node_type === String(ChapterType.NODE) && r.chapter_id === c.id).map(nodeOf) }));
    const chapterIds = new Set(chapters.map((c) => c.id));
    const loose = rows.filter((r) => r.node_type === String(ChapterType.NODE) && (r.chapter_id === null || !chapterIds.has(r.chapter_id))).map(nodeOf);
    if (loose.length) chapters.push({ id: 0, title: chapters.length ? '其他' : '课程内容', nodes: loose });
    return { ...course, audience: jsonArray<string>(course.audience), chapters };
  });

  app.get('/api/pschool/nodes/:id', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const node = await opts.nodes.studyable(idParam(param(req, 'id'), '课程小节'));
    const p = await db.selectFrom('pschool_progress').select(['position', 'furthest', 'completed_at']).where('user_id', '=', user.id).where('node_id', '=', node.id).executeTakeFirst();
    // Neighbours in the course's reading order, for 上一节/下一节.
    const order = await db
      .selectFrom('m_course_node as n')
      .leftJoin('m_course_node as ch', 'ch.id', 'n.chapter_id')
      .select(['n.id', 'n.kind'])
      .where('n.course_id', '=', node.courseId)
      .where('n.node_type', '=', String(ChapterType.NODE))
      .where('n.kind', 'in', ['video', 'doc'])
      .orderBy(sql`coalesce(ch.sort, 0)`)
      .orderBy(sql`coalesce(ch.id, 0)`)
      .orderBy('n.sort')
      .orderBy('n.id')
      .execute();
    const at = order.findIndex((o) => o.id === node.id);
    return {
      id: node.id, title: node.title, kind: node.kind, length: node.length, hours: node.hours, courseId: node.courseId, courseTitle: node.courseTitle,
      position: p?.position ?? 0, furthest: p?.furthest ?? 0, completed: !!p?.completed_at,
      recordInterval: await recordInterval(),
      mediaUrl: node.fileId ? `/api/pschool/media/${node.id}` : null,
      prev: at > 0 ? order[at - 1] : null,
      next: at >= 0 && at < order.length - 1 ? order[at + 1] : null,
    };
  });

  app.get('/api/pschool/continue', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const row = await db
      .selectFrom('pschool_progress as p')
      .innerJoin('m_course_node as n', 'n.id', 'p.node_id')
      .innerJoin('m_course as c', 'c.id', 'n.course_id')
      .select(['n.id', 'n.title', 'n.kind', 'c.id as courseId', 'c.title as courseTitle', 'p.position', 'p.furthest', 'p.completed_at', 'p.updated_at'])
      .where('p.user_id', '=', user.id)
      .where('c.published', 'is not', false)
      .orderBy(sql`p.completed_at IS NULL`, 'desc')
      .orderBy('p.updated_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { nodeId: row.id, title: row.title, kind: row.kind, courseId: row.courseId, courseTitle: row.courseTitle, position: row.position, completed: !!row.completed_at } : null;
  });

  // The node's video or PDF through the file service (range requests for seeking). Learners may read the
  // media of any node on the shelf; the file's own access rule (its module's list permission) does not apply.
  app.get('/api/pschool/media/:nodeId', { config: perm(STUDY, 'course:list') }, async (req, reply) => {
    const node = await opts.nodes.studyable(idParam(param(req, 'nodeId'), '课程小节'));
    if (!node.fileId) throw new HttpError(404, '该小节没有学习资料');
    return sendStoredFile(req, reply, store, await store.get(node.fileId), 'view');
  });
}

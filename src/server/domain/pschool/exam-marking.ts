/**
 * Exam management (考务管理 → 考试管理): the marking queue for short answers, results with export,
 * per-question statistics, and re-marking after an answer key was corrected.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { QuestionType, QuestionTypeLabel } from '../../../shared/constants.js';
import { markSheet, totalOf } from '../../../shared/pschool/marking.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { likeContains } from '../../core/paging.js';
import { streamXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { personName } from '../member/accounts.js';
import { SessionStatus, idParam, param, round2 } from './common.js';
import { loadExam, questionsByIds, settleExpired, type SessionRow } from './exam-core.js';
import { refreshStudentsOf } from './standing.js';
import { pschoolDb, type PschoolDb } from './tables.js';

export const STATUS_TEXT: Record<number, string> = { 1: '答题中', 2: '待阅卷', 3: '已评分' };

/** Re-marks the objective questions of every closed sheet of an exam; marks given by hand stay. */
export async function remarkExam(db: PschoolDb, examId: number, batchSize = 1000): Promise<{ sheets: number; changed: number }> {
  const exam = await loadExam(db, examId);
  let lastId = 0;
  let sheets = 0;
  let changed = 0;
  const keysCache = new Map<number, Awaited<ReturnType<typeof questionsByIds>> extends Map<number, infer V> ? V : never>();
  for (;;) {
    const batch = (await db
      .selectFrom('pschool_exam_sessions')
      .select(['id', 'exam_id', 'user_id', 'attempt', 'deadline', 'paper', 'answers', 'marks', 'status', 'passed'])
      .where('exam_id', '=', examId)
      .where('status', '<>', SessionStatus.ANSWERING)
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(batchSize)
      .execute()) as (SessionRow & { status: number; passed: boolean | null })[];
    if (!batch.length) break;
    lastId = batch[batch.length - 1].id;
    const missing = [...new Set(batch.flatMap((s) => s.paper.map((p) => p.q)))].filter((q) => !keysCache.has(q));
    for (const [id, q] of await questionsByIds(db, missing)) keysCache.set(id, q);
    const updates = batch.map((s) => {
      const result = markSheet(s.paper, s.answers ?? {}, keysCache, { partialCredit: exam.partialCredit });
      // Short answers keep their marker's score.
      const marks = { ...result.marks };
      for (const q of result.pending) marks[String(q)] = s.marks?.[String(q)] ?? null;
      const pending = Object.values(marks).some((m) => m === null);
      const score = totalOf(marks);
      const status = pending ? SessionStatus.MARKING : SessionStatus.MARKED;
      const passed = pending ? null : score >= exam.passMark;
      if (passed !== s.passed || JSON.stringify(marks) !== JSON.stringify(s.marks)) changed++;
      return { id: s.id, marks: JSON.stringify(marks), score, status, passed };
    });
    // One statement per batch: the rows' new values arrive as arrays and are joined by id.
    await sql`
      UPDATE pschool_exam_sessions AS s
      SET marks = u.marks::jsonb, score = u.score, status = u.status, passed = u.passed
      FROM unnest(${updates.map((u) => u.id)}::int[], ${updates.map((u) => u.marks)}::text[], ${updates.map((u) => u.score)}::float8[],
                  ${updates.map((u) => u.status)}::int[], ${updates.map((u) => u.passed)}::boolean[]) AS u(id, marks, score, status, passed)
      WHERE s.id = u.id`.execute(db);
    sheets += batch.length;
  }
  return { sheets, changed };
}

export async function examMarkingRoutes(app: FastifyInstance): Promise<void> {
  const db = pschoolDb(app.services.database.db);

  // ---- the marking queue

  app.get('/api/pschool/marking', { config: perm('exam:mark') }, async (req) => {
    const { examId } = req.query as { examId?: string };
    await settleExpired(app, examId ? { examId: idParam(examId, '考试') } : {});
    let q = db
      .selectFrom('pschool_exam_sessions as s')
      .innerJoin('m_exam as e', 'e.id', 's.exam_id')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.exam_id as examId', 'e.title as examTitle', personName('u').as('name'), 'u.username', 's.attempt', 's.submitted_at as submittedAt', 's.score'])
      .select(sql<number>`(SELECT count(*) FROM jsonb_each(s.marks) m WHERE m.value = 'null'::jsonb)::int`.as('pending'))
      .where('s.status', '=', SessionStatus.MARKING);
    if (examId) q = q.where('s.exam_id', '=', idParam(examId, '考试'));
    return q.orderBy('s.submitted_at').limit(500).execute();
  });

  app.get('/api/pschool/marking/:sessionId', { config: perm('exam:mark') }, async (req) => {
    const id = idParam(param(req, 'sessionId'), '答卷');
    const s = await db
      .selectFrom('pschool_exam_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('m_exam as e', 'e.id', 's.exam_id')
      .select(['s.id', 's.exam_id', 's.status', 's.paper', 's.answers', 's.marks', 's.score', personName('u').as('name'), 'e.title as examTitle'])
      .where('s.id', '=', id)
      .executeTakeFirst();
    if (!s) throw new HttpError(404, '答卷不存在');
    const bank = await questionsByIds(db, s.paper.map((p) => p.q));
    const items = s.paper
      .filter((p) => p.type === QuestionType.SHORT_ANSWER)
      .map((p) => ({ questionId: p.q, stem: bank.get(p.q)?.stem ?? '（题目已删除）', reference: bank.get(p.q)?.answer ?? '', answer: s.answers?.[String(p.q)] ?? '', maxScore: p.score, score: s.marks?.[String(p.q)] ?? null }));
    return { sessionId: s.id, examId: s.exam_id, examTitle: s.examTitle, name: s.name, status: s.status, objectiveScore: round2(totalOf(Object.fromEntries(Object.entries(s.marks ?? {}).filter(([q]) => !items.some((i) => String(i.questionId) === q))))), items };
  });

  app.put('/api/pschool/marking/:sessionId', { config: perm('exam:mark') }, async (req) => {
    const id = idParam(param(req, 'sessionId'), '答卷');
    const given = (req.body as { marks?: unknown } | null)?.marks;
    if (!given || typeof given !== 'object' || Array.isArray(given)) throw new HttpError(400, '请给出每道题的得分');
    const marker = currentUser(req).id;
    const result = await db.transaction().execute(async (trx) => {
      const s = await trx.selectFrom('pschool_exam_sessions').select(['id', 'exam_id', 'user_id', 'status', 'paper', 'marks']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!s) throw new HttpError(404, '答卷不存在');
      if (s.status === SessionStatus.ANSWERING) throw new HttpError(400, '考生尚未交卷');
      const exam = await loadExam(trx, s.exam_id);
      const marks = { ...(s.marks ?? {}) };
      const errors: { field: string; message: string }[] = [];
      for (const [q, raw] of Object.entries(given as Record<string, unknown>)) {
        const item = s.paper.find((p) => String(p.q) === q);
        if (!item || item.type !== QuestionType.SHORT_ANSWER) {
          errors.push({ field: q, message: '只能给简答题评分' });
          continue;
        }
        const score = Number(raw);
        if (raw === null || raw === '' || !Number.isFinite(score) || score < 0 || score > item.score || Math.round(score * 2) !== score * 2) {
          errors.push({ field: q, message: `得分须在0到${item.score}分之间（可到0.5分）` });
          continue;
        }
        marks[q] = score;
      }
      if (errors.length) throw new HttpError(400, errors[0].message, { errors });
      const pending = Object.values(marks).some((m) => m === null);
      const score = totalOf(marks);
      const passed = pending ? null : score >= exam.passMark;
      await trx
        .updateTable('pschool_exam_sessions')
        .set({ marks: JSON.stringify(marks), score, passed, status: pending ? SessionStatus.MARKING : SessionStatus.MARKED, marked_by: marker, marked_at: new Date() })
        .where('id', '=', id)
        .execute();
      return { userId: s.user_id, score, passed, status: pending ? SessionStatus.MARKING : SessionStatus.MARKED };
    });
    if (result.passed) await refreshStudentsOf(app, result.userId);
    return { score: result.score, passed: result.passed, status: result.status };
  });

  // ---- results, export, statistics, re-marking

  function resultsQuery(examId: number) {
    return db
      .selectFrom('pschool_exam_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('m_org as o', 'o.id', 'u.org_id')
      .select(['s.id', 's.user_id as userId', personName('u').as('name'), 'u.username', 'o.name as orgName', 's.attempt', 's.started_at as startedAt', 's.submitted_at as submittedAt', 's.status', 's.score', 's.passed'])
      .where('s.exam_id', '=', examId);
  }

  app.get('/api/pschool/exams/:examId/results', { config: perm('exam:list') }, async (req) => {
    const exam = await loadExam(db, idParam(param(req, 'examId'), '考试'));
    await settleExpired(app, { examId: exam.id });
    const { page = '0', size = '20', name } = req.query as { page?: string; size?: string; name?: string };
    const limit = Math.min(500, Math.max(1, Number(size) || 20));
    const offset = Math.max(0, Number(page) || 0) * limit;
    let q = resultsQuery(exam.id);
    if (name?.trim()) q = q.where((eb) => eb.or([eb(personName('u'), 'ilike', likeContains(name.trim())), eb('u.username', 'ilike', likeContains(name.trim()))]));
    const [rows, count] = await Promise.all([
      q.orderBy('s.score', (o) => o.desc().nullsLast()).orderBy('s.id').limit(limit).offset(offset).execute(),
      q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { content: rows.map((r) => ({ ...r, statusLabel: STATUS_TEXT[r.status] })), totalElements: count.n };
  });

  app.get('/api/pschool/exams/:examId/results/export', { config: perm('exam:export') }, async (req, reply) => {
    const exam = await loadExam(db, idParam(param(req, 'examId'), '考试'));
    await settleExpired(app, { examId: exam.id });
    const rows = await resultsQuery(exam.id).orderBy('u.username').orderBy('s.attempt').execute();
    return streamXlsx(reply, `${exam.title}成绩.xlsx`, async (book, addRow) => {
      const sheet = book.addWorksheet('成绩');
      sheet.columns = [{ width: 14 }, { width: 16 }, { width: 28 }, { width: 8 }, { width: 20 }, { width: 20 }, { width: 10 }, { width: 10 }, { width: 10 }];
      await addRow(sheet, ['姓名', '账号', '所在党组织', '第几次', '开始时间', '交卷时间', '得分', '是否及格', '状态'], { bold: true });
      const time = (d: Date | null) => (d ? new Date(d).toLocaleString('zh-CN', { hour12: false, timeZone: 'Asia/Shanghai' }) : '');
      for (const r of rows) {
        await addRow(sheet, [r.name, r.username, r.orgName ?? '', r.attempt, time(r.startedAt), time(r.submittedAt), r.score ?? '', r.passed === null ? '' : r.passed ? '及格' : '不及格', STATUS_TEXT[r.status]]);
      }
    });
  });

  app.get('/api/pschool/exams/:examId/statistics', { config: perm('exam:list') }, async (req) => {
    const exam = await loadExam(db, idParam(param(req, 'examId'), '考试'));
    await settleExpired(app, { examId: exam.id });
    const summary = await db
      .selectFrom('pschool_exam_sessions')
      .select([
        sql<number>`count(*)::int`.as('sheets'),
        sql<number>`count(*) FILTER (WHERE status = 3)::int`.as('marked'),
        sql<number>`count(*) FILTER (WHERE status = 2)::int`.as('marking'),
        sql<number>`count(*) FILTER (WHERE passed)::int`.as('passed'),
        sql<number>`count(DISTINCT user_id)::int`.as('people'),
        sql<number | null>`round(avg(score) FILTER (WHERE status = 3)::numeric, 2)::float8`.as('average'),
        sql<number | null>`max(score) FILTER (WHERE status = 3)`.as('highest'),
        sql<number | null>`min(score) FILTER (WHERE status = 3)`.as('lowest'),
      ])
      .where('exam_id', '=', exam.id)
      .where('status', '<>', SessionStatus.ANSWERING)
      .executeTakeFirstOrThrow();
    // Per question: how often it was on a paper, answered, fully right, and its average score.
    const perQuestion = await sql<{ q: number; full: number; sheets: number; answered: number; correct: number; average: number }>`
      SELECT (i->>'q')::int AS q, max((i->>'score')::float8) AS full, count(*)::int AS sheets,
             count(*) FILTER (WHERE s.answers ? (i->>'q') AND s.answers->(i->>'q') NOT IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb))::int AS answered,
             count(*) FILTER (WHERE (s.marks->>(i->>'q'))::float8 >= (i->>'score')::float8)::int AS correct,
             round(avg((s.marks->>(i->>'q'))::float8)::numeric, 2)::float8 AS average
      FROM pschool_exam_sessions s, jsonb_array_elements(s.paper) i
      WHERE s.exam_id = ${exam.id} AND s.status <> ${SessionStatus.ANSWERING}
      GROUP BY 1 ORDER BY 1`.execute(db);
    const bank = await questionsByIds(db, perQuestion.rows.map((r) => r.q));
    return {
      ...summary,
      passRate: summary.sheets ? round2((summary.passed * 100) / summary.sheets) : 0,
      questions: perQuestion.rows.map((r) => {
        const q = bank.get(r.q);
        return { questionId: r.q, stem: q?.stem ?? '（题目已删除）', type: q?.type ?? null, typeLabel: q ? QuestionTypeLabel[q.type] : '', fullScore: r.full, sheets: r.sheets, answered: r.answered, correct: r.correct, correctRate: r.sheets ? round2((r.correct * 100) / r.sheets) : 0, average: r.average };
      }),
    };
  });

  app.post('/api/pschool/exams/:examId/remark', { config: perm('exam:edit') }, async (req) => {
    const examId = idParam(param(req, 'examId'), '考试');
    const result = await remarkExam(db, examId);
    const users = await db.selectFrom('pschool_exam_sessions').select('user_id').distinct().where('exam_id', '=', examId).where('passed', '=', true).execute();
    for (const u of users) await refreshStudentsOf(app, u.user_id);
    return result;
  });
}

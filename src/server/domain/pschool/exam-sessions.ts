/**
 * The learner's side of an exam (`/pschool/exam/center`): start (or resume) a timed session, save
 * answers as they go, submit. The deadline is the server's: min(start + duration, the exam's end);
 * answers after it are refused, and a sheet left open is closed and marked with what was saved in time.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { QuestionType } from '../../../shared/constants.js';
import { fillKey, type PaperItem } from '../../../shared/pschool/marking.js';
import { composeByHand, composeByRules, PaperRuleError, paperTotal } from '../../../shared/pschool/paper.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { Compose, STUDY, SessionStatus, idParam, param } from './common.js';
import { DEADLINE_GRACE_MS, assertMayTake, attemptsOf, classesOf, closeSheet, settleExpired, startExpirySweep, loadExam, questionsByIds, type Exam, type SessionRow } from './exam-core.js';
import { refreshStudentsOf } from './standing.js';
import { pschoolDb, type PschoolDb } from './tables.js';

const MAX_ANSWER_LENGTH = 5000;
const SESSION_COLUMNS = ['id', 'exam_id', 'user_id', 'attempt', 'deadline', 'paper', 'answers', 'marks'] as const;

/** The paper of a new attempt: the exam's own questions, or a random draw under its rules. */
async function paperFor(db: PschoolDb, exam: Exam): Promise<PaperItem[]> {
  if (exam.compose === Compose.RULE) {
    const rules = await db.selectFrom('m_exam_rule').select(['type', 'tag', 'count', 'score']).where('exam_id', '=', exam.id).orderBy('type').orderBy('id').execute();
    if (!rules.length) throw new HttpError(400, '本场考试尚未设置组卷规则');
    const types = [...new Set(rules.map((r) => r.type))];
    const bank = await db.selectFrom('m_question').select(['id', 'type', 'tags', 'score']).where('type', 'in', types).execute();
    try {
      return composeByRules(
        rules.map((r) => ({ type: Number(r.type) as PaperItem['type'], tag: r.tag, count: r.count, score: r.score })),
        bank.map((q) => ({ id: q.id, type: Number(q.type) as PaperItem['type'], tags: Array.isArray(q.tags) ? (q.tags as string[]) : [], score: Number(q.score ?? 2) })),
        crypto.randomInt(2 ** 31),
      );
    } catch (error) {
      if (error instanceof PaperRuleError) throw new HttpError(400, error.message);
      throw error;
    }
  }
  const bank = await questionsByIds(db, exam.questionIds);
  const paper = composeByHand(exam.questionIds, new Map([...bank].map(([id, q]) => [id, { id, type: q.type, tags: q.tags, score: q.score }])));
  if (!paper.length) throw new HttpError(400, '本场考试还没有试题');
  return paper;
}

/** The questions of a paper as the learner sees them: no answer keys. */
async function paperView(db: PschoolDb, paper: PaperItem[]) {
  const bank = await questionsByIds(db, paper.map((p) => p.q));
  return paper.flatMap((item) => {
    const q = bank.get(item.q);
    if (!q) return [];
    return [{ id: q.id, type: item.type, stem: q.stem, score: item.score, options: q.options, ...(item.type === QuestionType.FILL && { blanks: Math.max(1, fillKey(q.answer).length) }) }];
  });
}

/** Checks a learner's answers: only questions of the paper, text or lists of text of sane length. */
function readAnswers(raw: unknown, paper: PaperItem[]): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, '答案的格式不正确');
  const ids = new Set(paper.map((p) => String(p.q)));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!ids.has(key)) throw new HttpError(400, '答案中有不属于本试卷的题目');
    const ok = value === null || (typeof value === 'string' && value.length <= MAX_ANSWER_LENGTH) || (Array.isArray(value) && value.length <= 20 && value.every((v) => typeof v === 'string' && v.length <= 500));
    if (!ok) throw new HttpError(400, '答案的格式不正确');
    out[key] = value;
  }
  return out;
}

async function openSession(db: PschoolDb, examId: number, userId: number): Promise<SessionRow | undefined> {
  return (await db.selectFrom('pschool_exam_sessions').select([...SESSION_COLUMNS]).where('exam_id', '=', examId).where('user_id', '=', userId).where('status', '=', SessionStatus.ANSWERING).executeTakeFirst()) as SessionRow | undefined;
}

export async function examSessionRoutes(app: FastifyInstance): Promise<void> {
  const db = pschoolDb(app.services.database.db);
  startExpirySweep(app);

  async function sessionAnswer(s: SessionRow, exam: Exam) {
    return { sessionId: s.id, examId: exam.id, title: exam.title, attempt: s.attempt, deadline: s.deadline, serverTime: new Date(), totalScore: paperTotal(s.paper), passMark: exam.passMark, questions: await paperView(db, s.paper), answers: s.answers ?? {} };
  }

  app.get('/api/pschool/exams', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    await settleExpired(app, { userId: user.id });
    const classes = await classesOf(db, user.id);
    const exams = await db
      .selectFrom('m_exam')
      .select(['id', 'title', 'class_id', 'start_at', 'end_at', 'duration', 'pass_mark', 'max_attempts', 'total_score', 'description'])
      .where('published', '=', true)
      .where((eb) => eb.or([eb('class_id', 'is', null), ...(classes.length ? [eb('class_id', 'in', classes)] : [])]))
      .orderBy('start_at', 'desc')
      .limit(200)
      .execute();
    if (!exams.length) return [];
    const sessions = await db.selectFrom('pschool_exam_sessions').select(['exam_id', 'attempt', 'status', 'score', 'passed', 'deadline']).where('user_id', '=', user.id).where('exam_id', 'in', exams.map((e) => e.id)).execute();
    const now = Date.now();
    return exams.map((e) => {
      const mine = sessions.filter((s) => s.exam_id === e.id);
      const open = mine.find((s) => s.status === SessionStatus.ANSWERING);
      const scores = mine.filter((s) => s.score !== null).map((s) => Number(s.score));
      const passed = mine.some((s) => s.passed === true);
      const state = now < new Date(e.start_at).getTime() ? 'upcoming' : now > new Date(e.end_at).getTime() ? 'ended' : 'open';
      const maxAttempts = e.max_attempts ?? 1;
      return {
        id: e.id, title: e.title, startAt: e.start_at, endAt: e.end_at, duration: e.duration, passMark: e.pass_mark, totalScore: e.total_score, description: e.description, maxAttempts,
        attempts: mine.length, best: scores.length ? Math.max(...scores) : null, passed, marking: mine.some((s) => s.status === SessionStatus.MARKING),
        open: open ? { deadline: open.deadline } : null, state,
        canStart: state === 'open' && (!!open || (!passed && mine.length < maxAttempts)),
      };
    });
  });

  app.post('/api/pschool/exams/:examId/start', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const exam = await loadExam(db, idParam(param(req, 'examId'), '考试'));
    await assertMayTake(db, exam, user.id);
    await settleExpired(app, { examId: exam.id, userId: user.id });
    // A lost connection or a reload comes back to the same sheet, answers and deadline.
    const open = await openSession(db, exam.id, user.id);
    if (open) return sessionAnswer(open, exam);
    const now = new Date();
    if (now < exam.startAt) throw new HttpError(400, '考试尚未开始');
    if (now > exam.endAt) throw new HttpError(400, '考试已经结束');
    const attempts = await attemptsOf(db, exam.id, user.id);
    if (attempts.some((a) => a.passed === true)) throw new HttpError(400, '您已通过本场考试');
    if (attempts.length >= exam.maxAttempts) throw new HttpError(400, `本场考试最多可作答${exam.maxAttempts}次，您已用完`);
    const paper = await paperFor(db, exam);
    const deadline = new Date(Math.min(now.getTime() + exam.duration * 60_000, exam.endAt.getTime()));
    try {
      const s = (await db
        .insertInto('pschool_exam_sessions')
        .values({ exam_id: exam.id, user_id: user.id, attempt: attempts.length + 1, started_at: now, deadline, paper: JSON.stringify(paper) })
        .returning([...SESSION_COLUMNS])
        .executeTakeFirstOrThrow()) as SessionRow;
      return sessionAnswer(s, exam);
    } catch (error) {
      // Two tabs starting at once: the other one's sheet is the learner's sheet.
      if ((error as { code?: string }).code !== '23505') throw error;
      const raced = await openSession(db, exam.id, user.id);
      if (!raced) throw new HttpError(409, '请刷新后重试');
      return sessionAnswer(raced, exam);
    }
  });

  app.put('/api/pschool/exams/:examId/answers', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const examId = idParam(param(req, 'examId'), '考试');
    const open = await openSession(db, examId, user.id);
    if (!open) throw new HttpError(400, '没有进行中的考试，答案未保存');
    const answers = readAnswers((req.body as { answers?: unknown } | null)?.answers, open.paper);
    // Merged in SQL and only while the deadline holds: a late answer changes nothing.
    const saved = await db
      .updateTable('pschool_exam_sessions')
      .set({ answers: sql`answers || ${JSON.stringify(answers)}::jsonb` as never })
      .where('id', '=', open.id)
      .where('status', '=', SessionStatus.ANSWERING)
      .where('deadline', '>', new Date(Date.now() - DEADLINE_GRACE_MS))
      .returning('id')
      .executeTakeFirst();
    if (!saved) throw new HttpError(400, '考试时间已到，答案未保存');
    return { saved: Object.keys(answers).length, savedAt: new Date(), deadline: open.deadline };
  });

  app.post('/api/pschool/exams/:examId/submit', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const exam = await loadExam(db, idParam(param(req, 'examId'), '考试'));
    const raw = (req.body as { answers?: unknown } | null)?.answers;
    const outcome = await db.transaction().execute(async (trx) => {
      const s = (await trx
        .selectFrom('pschool_exam_sessions')
        .select([...SESSION_COLUMNS])
        .where('exam_id', '=', exam.id)
        .where('user_id', '=', user.id)
        .where('status', '=', SessionStatus.ANSWERING)
        .forUpdate()
        .executeTakeFirst()) as SessionRow | undefined;
      if (!s) return undefined;
      const now = Date.now();
      const inTime = now <= s.deadline.getTime() + DEADLINE_GRACE_MS;
      // Answers sent with the submission count only in time; those saved before always do.
      if (inTime) s.answers = { ...(s.answers ?? {}), ...readAnswers(raw, s.paper) };
      if (inTime) await trx.updateTable('pschool_exam_sessions').set({ answers: JSON.stringify(s.answers) }).where('id', '=', s.id).execute();
      const result = await closeSheet(trx, s, exam, inTime ? new Date(now) : s.deadline);
      return { ...result, attempt: s.attempt, late: !inTime };
    });
    if (!outcome) {
      const last = (await attemptsOf(db, exam.id, user.id))[0];
      if (!last) throw new HttpError(400, '没有进行中的考试');
      // Submitting twice (a retried request) answers the result of the sheet already closed.
      return { score: last.score, passed: last.passed, status: last.status, pending: last.status === SessionStatus.MARKING ? 1 : 0, attempt: last.attempt, late: false, totalScore: exam.totalScore, passMark: exam.passMark };
    }
    if (outcome.passed) await refreshStudentsOf(app, user.id);
    return { ...outcome, totalScore: exam.totalScore, passMark: exam.passMark };
  });

  app.get('/api/pschool/exams/:examId/mine', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const exam = await loadExam(db, idParam(param(req, 'examId'), '考试'));
    await assertMayTake(db, exam, user.id);
    await settleExpired(app, { examId: exam.id, userId: user.id });
    return { id: exam.id, title: exam.title, passMark: exam.passMark, totalScore: exam.totalScore, attempts: await attemptsOf(db, exam.id, user.id) };
  });
}

/**
 * What exam sessions share: the exam and its questions, who may sit it, and marking a sheet when it is
 * submitted or its time runs out. Objective questions are marked at once (shared/pschool/marking.ts);
 * a sheet with short answers waits in the marking queue.
 */
import { markSheet, type KeyedQuestion, type PaperItem, type QuestionTypeValue } from '../../../shared/pschool/marking.js';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../errors.js';
import { SessionStatus, StudentStatus, round2 } from './common.js';
import { refreshStudentsOf } from './standing.js';
import { pschoolDb, type PschoolDb, type AnyDb } from './tables.js';

/** Answers arriving this long after the deadline still count (network delay); later ones are refused. */
export const DEADLINE_GRACE_MS = 2000;

export interface Exam {
  id: number;
  title: string;
  classId: number | null;
  startAt: Date;
  endAt: Date;
  duration: number;
  passMark: number;
  compose: string;
  questionIds: number[];
  maxAttempts: number;
  partialCredit: boolean;
  published: boolean;
  totalScore: number;
}

export async function loadExam(db: AnyDb, id: number): Promise<Exam> {
  const e = await pschoolDb(db).selectFrom('m_exam').selectAll().where('id', '=', id).executeTakeFirst();
  if (!e) throw new HttpError(404, '考试不存在');
  return {
    id: e.id, title: e.title, classId: e.class_id, startAt: new Date(e.start_at), endAt: new Date(e.end_at), duration: e.duration, passMark: Number(e.pass_mark),
    compose: e.compose, questionIds: Array.isArray(e.question_ids) ? (e.question_ids as number[]) : [], maxAttempts: e.max_attempts ?? 1,
    partialCredit: !!e.partial_credit, published: !!e.published, totalScore: Number(e.total_score ?? 0),
  };
}

/** Class ids in which the user is an admitted student. */
export async function classesOf(db: AnyDb, userId: number): Promise<number[]> {
  const rows = await pschoolDb(db).selectFrom('m_pschool_student').select('class_id').where('user_id', '=', userId).where('status', '=', StudentStatus.ADMITTED).execute();
  return [...new Set(rows.map((r) => r.class_id))];
}

/** A published exam of the learner's class (or of nobody's class: open to every learner). */
export async function assertMayTake(db: AnyDb, exam: Exam, userId: number): Promise<void> {
  if (!exam.published) throw new HttpError(404, '考试不存在');
  if (exam.classId !== null && !(await classesOf(db, userId)).includes(exam.classId)) throw new HttpError(403, '您不是本场考试的考生');
}

export interface BankRow extends KeyedQuestion {
  id: number;
  stem: string;
  options: { key: string; text: string }[];
  analysis: string | null;
  tags: string[];
  score: number;
}

const OPTION_COLUMNS = ['option_a', 'option_b', 'option_c', 'option_d', 'option_e', 'option_f'] as const;

export async function questionsByIds(db: AnyDb, ids: number[]): Promise<Map<number, BankRow>> {
  if (!ids.length) return new Map();
  const rows = await pschoolDb(db).selectFrom('m_question').selectAll().where('id', 'in', ids).execute();
  return new Map(
    rows.map((q) => [
      q.id,
      {
        id: q.id, type: Number(q.type) as QuestionTypeValue, answer: q.answer, stem: q.stem, analysis: q.analysis,
        tags: Array.isArray(q.tags) ? (q.tags as string[]) : [], score: Number(q.score ?? 2),
        options: OPTION_COLUMNS.flatMap((c, i) => (q[c] ? [{ key: 'ABCDEF'[i], text: q[c]! }] : [])),
      },
    ]),
  );
}

export interface SessionRow {
  id: number;
  exam_id: number;
  user_id: number;
  attempt: number;
  deadline: Date;
  paper: PaperItem[];
  answers: Record<string, unknown>;
  marks: Record<string, number | null>;
}

export interface SheetOutcome {
  status: number;
  score: number;
  passed: boolean | null;
  pending: number;
}

/** Marks a sheet and closes it: marked (3) when nothing waits for a marker, else marking (2). */
export async function closeSheet(trx: PschoolDb, session: SessionRow, exam: Exam, submittedAt: Date, keys?: Map<number, BankRow>): Promise<SheetOutcome> {
  const bank = keys ?? (await questionsByIds(trx, session.paper.map((p) => p.q)));
  const result = markSheet(session.paper, session.answers ?? {}, bank, { partialCredit: exam.partialCredit });
  const done = result.pending.length === 0;
  const score = result.objective;
  const passed = done ? score >= exam.passMark : null;
  await trx
    .updateTable('pschool_exam_sessions')
    .set({ status: done ? SessionStatus.MARKED : SessionStatus.MARKING, submitted_at: submittedAt, marks: JSON.stringify(result.marks), score, passed, ...(done && { marked_at: new Date() }) })
    .where('id', '=', session.id)
    .where('status', '=', SessionStatus.ANSWERING)
    .execute();
  return { status: done ? SessionStatus.MARKED : SessionStatus.MARKING, score: round2(score), passed, pending: result.pending.length };
}

/**
 * Closes every open sheet whose time ran out (the learner never submitted): the answers saved before
 * the deadline are marked as if submitted then. Answers the users whose result changed.
 */
export async function closeExpired(db: AnyDb, filter: { examId?: number; userId?: number } = {}): Promise<number[]> {
  const p = pschoolDb(db);
  let q = p.selectFrom('pschool_exam_sessions').select(['id', 'exam_id', 'user_id', 'attempt', 'deadline', 'paper', 'answers', 'marks']).where('status', '=', SessionStatus.ANSWERING).where('deadline', '<', new Date(Date.now() - DEADLINE_GRACE_MS));
  if (filter.examId) q = q.where('exam_id', '=', filter.examId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  const expired = (await q.limit(2000).execute()) as unknown as SessionRow[];
  const users: number[] = [];
  const exams = new Map<number, Exam>();
  for (const s of expired) {
    const exam = exams.get(s.exam_id) ?? (await loadExam(db, s.exam_id).catch(() => null));
    if (!exam) continue;
    exams.set(s.exam_id, exam);
    // Another app server's sweep (or a late submission) may hold or have closed this sheet: skip it then.
    const closed = await p.transaction().execute(async (trx) => {
      const mine = await trx.selectFrom('pschool_exam_sessions').select('id').where('id', '=', s.id).where('status', '=', SessionStatus.ANSWERING).forUpdate().skipLocked().executeTakeFirst();
      if (!mine) return false;
      await closeSheet(trx, s, exam, s.deadline);
      return true;
    });
    if (closed) users.push(s.user_id);
  }
  return [...new Set(users)];
}

/** Sessions of a learner in an exam, newest first. */
export async function attemptsOf(db: AnyDb, examId: number, userId: number) {
  return pschoolDb(db)
    .selectFrom('pschool_exam_sessions')
    .select(['id', 'attempt', 'started_at', 'deadline', 'submitted_at', 'status', 'score', 'passed'])
    .where('exam_id', '=', examId)
    .where('user_id', '=', userId)
    .orderBy('attempt', 'desc')
    .execute();
}

/** closeExpired, then the standing of every learner whose sheet it closed. */
export async function settleExpired(app: FastifyInstance, filter: { examId?: number; userId?: number } = {}): Promise<void> {
  for (const userId of await closeExpired(app.services.database.db, filter)) await refreshStudentsOf(app, userId);
}

/** How often each app server closes the sheets whose time ran out (learners who never submitted). */
export const EXPIRY_SWEEP_MS = 10_000;

/**
 * Every sheet is marked soon after its deadline even when nobody opens the exam pages again (a learner
 * who closed the laptop): each app server sweeps the expired sheets from its start to its close.
 */
export function startExpirySweep(app: FastifyInstance, everyMs = EXPIRY_SWEEP_MS): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      await settleExpired(app);
    } catch (err) {
      app.log.error({ err }, 'closing expired exam sheets failed');
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void sweep(), everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

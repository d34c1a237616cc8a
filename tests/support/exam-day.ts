/**
 * The exam day (issue 44.3), shared by the bench suite `exam-day` (3,000 learners) and its `npm test`
 * version (300): two app servers on one PostgreSQL behind one port, every learner opens the same exam,
 * autosaves on its own clock, and submits in the last stretch before the bell; half way one server is
 * killed with SIGKILL. Learners follow the page's own retry rules (src/web/pages/pschool/exam-retry.ts)
 * and, after the kill, each reloads its sheet once (a learner pressing F5). Everything is then checked
 * against the database: one sheet per learner, every acknowledged answer there, the deadline never
 * moved, every sheet closed and marked once, the score each learner was shown the one stored.
 */
import { sql } from 'kysely';
import { untilAnswered } from '../../src/web/pages/pschool/exam-retry.js';
import { generateQuestions } from '../../src/server/seed/pschool/questions.js';
import { buildClusterServer, bulkSessions, percentile, prepareDatabase, startAppServer, startProxy, type AppServer } from './cluster.js';

export interface ExamDayOptions {
  learners: number;
  /** Autosave interval of each learner (the page saves what changed). */
  saveEveryMs: number;
  /** Autosaves of each learner before submitting; the server is killed once half of all of them are done. */
  rounds: number;
  /**
   * true: the bell rings at the deadline the sheets got at the start (rounds × interval after the first
   * start), learners submit in the window before it (late ones count what was saved in time): the bench.
   * false: no deadline pressure (a loaded test machine may be slow); learners submit after their rounds,
   * then the walked-away learners' time is run out in the database (standing for the bell) and the
   * servers' sweep must close their sheets: the test.
   */
  realBell: boolean;
  /** Learners submit at a random moment of this stretch before the bell. */
  submitWindowMs: number;
  /** Learners who close the page and never submit (the server's sweep must close their sheets). */
  walkAway: number;
}

export interface ExamDayReport {
  learners: number;
  saves: number[];
  saveRetries: number;
  submits: number[];
  submitRetries: number;
  late: number;
  /** From the bell until the last sheet was closed and marked. */
  allMarkedMs: number;
  problems: string[];
  killedAtMs: number;
  proxy: { cutOff: number; refused: number; forwarded: number };
}

interface Question { id: number; type: number }
interface Sheet { sessionId: number; deadline: string; questions: Question[]; answers: Record<string, unknown> }
interface SubmitAnswer { score: number; status: number; late: boolean }

class HttpFailure extends Error {
  constructor(readonly status: number | undefined, message: string) {
    super(message);
  }
}

const statusOf = (error: unknown) => (error instanceof HttpFailure ? error.status : undefined);

async function call<T>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new HttpFailure(undefined, (error as Error).message);
  }
  const text = await res.text();
  if (!res.ok) throw new HttpFailure(res.status, `${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** A plausible answer of a question of the paper (right or wrong does not matter here; stored = given does). */
function anAnswer(q: Question, n: number): unknown {
  const letter = 'ABCD'[n % 4];
  if (q.type === 1) return ['AB', 'AC', 'BCD', 'ABD'][n % 4];
  if (q.type === 2) return n % 2 ? '正确' : '错误';
  if (q.type === 3) return [`答${n}`];
  return letter;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function examDay(databaseUrl: string, dataDir: string, options: ExamDayOptions, log: (line: string) => void = () => {}): Promise<ExamDayReport> {
  const began = Date.now();
  const { tokens, userIds, examId } = await prepareDatabase(databaseUrl, dataDir, async (app, config) => {
    const db = app.services.database.db;
    const bank = generateQuestions(30).filter((q) => q.type !== '4').slice(0, 25);
    const questions = await db
      .insertInto('m_question' as never)
      .values(bank.map((g) => ({ school: config.school, type: g.type, stem: g.stem, answer: g.answer, tags: JSON.stringify(g.tags), score: g.score, ...Object.fromEntries(g.options.map((o, i) => [`option_${'abcdef'[i]}`, o])) })) as never)
      .returning('id' as never)
      .execute() as { id: number }[];
    const total = bank.reduce((s, q) => s + q.score, 0);
    // The bell is set once the servers are up (the exam is read on every request).
    const exam = (await db
      .insertInto('m_exam' as never)
      .values({ school: config.school, title: '入党积极分子结业考试', start_at: new Date(Date.now() - 60_000), end_at: new Date(Date.now() + 86_400_000), duration: 180, pass_mark: Math.round(total * 0.6), compose: '1', question_ids: JSON.stringify(questions.map((q) => q.id)), total_score: total, max_attempts: 1, published: true, partial_credit: true } as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow()) as { id: number };
    const role = await db.selectFrom('roles').select('id').where('code', '=', 'pschool_learner').executeTakeFirstOrThrow();
    const users = [];
    for (let i = 0; i < options.learners; i += 1000) {
      const slice = Array.from({ length: Math.min(1000, options.learners - i) }, (_, j) => ({ username: `exam${i + j}`, nick_name: `考生${i + j}`, password_hash: 'x', password_weak: false }));
      users.push(...(await db.insertInto('users').values(slice).returning('id').execute()));
    }
    for (let i = 0; i < users.length; i += 1000) await db.insertInto('user_roles').values(users.slice(i, i + 1000).map((u) => ({ user_id: u.id, role_id: role.id }))).execute();
    return { tokens: await bulkSessions(db, users.map((u) => u.id)), userIds: users.map((u) => u.id), examId: exam.id };
  });

  log(`prepared in ${Date.now() - began} ms`);
  await buildClusterServer();
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir };
  const servers: AppServer[] = await Promise.all([startAppServer(env), startAppServer(env)]);
  const proxy = await startProxy(servers.map((s) => s.port));
  log(`two servers up at ${Date.now() - began} ms`);
  const base = proxy.url;
  const problems: string[] = [];
  const saves: number[] = [];
  const submits: number[] = [];
  let saveRetries = 0;
  let submitRetries = 0;
  let late = 0;
  const t0 = Date.now();
  const answeringMs = options.rounds * options.saveEveryMs + options.submitWindowMs;
  const bell = options.realBell ? t0 + answeringMs : t0 + 86_400_000;
  const { default: pg } = await import('pg');
  const check = new pg.Client({ connectionString: databaseUrl });
  await check.connect();
  try {
    await check.query('UPDATE m_exam SET end_at = $1 WHERE id = $2', [new Date(bell), examId]);
    log(`exam day: ${options.learners} learners, ${options.rounds} autosaves each`);
    const half = Math.floor((options.learners - options.walkAway) * options.rounds / 2);
    let killed = false;
    let killAt = 0;
    let done = 0;
    let resolveKill = () => {};
    const killed$ = new Promise<void>((r) => (resolveKill = r));
    const saved = () => {
      if (++done !== half) return;
      killAt = Date.now();
      void servers[1].stop('SIGKILL').then(() => {
        killed = true;
        log(`killed one app server (SIGKILL) at ${Math.round((Date.now() - t0) / 1000)} s, after ${done} autosaves`);
        resolveKill();
      });
    };

    const shown = new Map<number, SubmitAnswer>();
    /** What each learner was told was saved (the answers acknowledged), and every answer given. */
    const acknowledged = new Map<number, Record<string, unknown>>();
    const given = new Map<number, Record<string, unknown>>();
    const deadlines = new Map<number, { sessionId: number; deadline: string }>();
    const walkers = new Set(Array.from({ length: options.walkAway }, (_, i) => Math.floor((i * options.learners) / Math.max(1, options.walkAway))));

    const learner = async (i: number) => {
      const token = tokens[i];
      const userId = userIds[i];
      // Arrivals spread over the first autosave interval, as a class enters the room.
      await sleep((i / options.learners) * options.saveEveryMs);
      const open = () => untilAnswered(() => call<Sheet>(base, token, 'POST', `/api/pschool/exams/${examId}/start`, {}), statusOf, { onRetry: () => saveRetries++ });
      const sheet = await open();
      deadlines.set(userId, { sessionId: sheet.sessionId, deadline: sheet.deadline });
      const mine: Record<string, unknown> = { ...sheet.answers };
      const ok: Record<string, unknown> = {};
      given.set(userId, mine);
      acknowledged.set(userId, ok);
      const walker = walkers.has(i);
      const rounds = walker ? Math.ceil(options.rounds * (0.3 + 0.4 * Math.random())) : options.rounds;
      let pending: Record<string, unknown> = {};
      let reloaded = false;
      for (let tick = 1; tick <= rounds; tick++) {
        const due = t0 + (i / options.learners) * options.saveEveryMs + tick * options.saveEveryMs;
        await sleep(due - Date.now());
        if (killed && !reloaded) {
          // F5 after the failure: the same sheet, the same deadline, the answers saved so far.
          reloaded = true;
          const again = await open();
          if (again.sessionId !== sheet.sessionId || again.deadline !== sheet.deadline) problems.push(`learner ${i}: reload gave sheet ${again.sessionId} until ${again.deadline}, was ${sheet.sessionId} until ${sheet.deadline}`);
          for (const [q, v] of Object.entries(ok)) if (!same(again.answers[q], v)) problems.push(`learner ${i}: saved answer ${q} missing after the reload`);
        }
        for (let k = 0; k < 2; k++) {
          const q = sheet.questions[(tick * 2 + k + i) % sheet.questions.length];
          mine[q.id] = pending[q.id] = anAnswer(q, tick + i);
        }
        const batch = pending;
        pending = {};
        const started = performance.now();
        try {
          await call(base, token, 'PUT', `/api/pschool/exams/${examId}/answers`, { answers: batch });
          saves.push(performance.now() - started);
          Object.assign(ok, batch);
          if (!walker) saved();
        } catch (error) {
          // As the page: keep the answers for the next save (a 4xx would be shown to the learner).
          if (statusOf(error) !== undefined && statusOf(error)! < 500) problems.push(`learner ${i}: ${(error as Error).message}`);
          saveRetries++;
          pending = { ...batch, ...pending };
        }
      }
      if (walker) return;
      await sleep(options.realBell ? bell - Math.random() * options.submitWindowMs - Date.now() : Math.random() * options.submitWindowMs);
      const started = performance.now();
      const result = await untilAnswered(() => call<SubmitAnswer>(base, token, 'POST', `/api/pschool/exams/${examId}/submit`, { answers: mine }), statusOf, { onRetry: () => submitRetries++ });
      submits.push(performance.now() - started);
      if (result.late) late++;
      shown.set(userId, result);
    };
    const outcomes = await Promise.allSettled(Array.from({ length: options.learners }, (_, i) => learner(i)));
    for (const o of outcomes) if (o.status === 'rejected') problems.push(`a learner failed: ${(o.reason as Error).message}`);
    if (done >= half) await killed$;
    else problems.push(`only ${done} of ${half * 2} autosaves went through: the server was not killed`);
    if (!options.realBell) await check.query('UPDATE pschool_exam_sessions SET deadline = now() - interval \'3 seconds\' WHERE exam_id = $1 AND status = 1', [examId]);
    const rang = options.realBell ? bell : Date.now();

    // Every sheet closed and marked: the submitted ones at once, the walked-away ones by a server's sweep.
    let allMarkedMs = -1;
    for (;;) {
      const { rows } = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM pschool_exam_sessions WHERE exam_id = $1 AND (status = 1 OR score IS NULL)', [examId]);
      if (rows[0].n === 0) {
        allMarkedMs = Math.max(0, Date.now() - rang);
        break;
      }
      if (Date.now() - rang > 120_000) {
        problems.push(`${rows[0].n} sheets still open or unmarked 120 s after the bell`);
        break;
      }
      await sleep(250);
    }

    const { rows } = await check.query<{ user_id: number; id: number; attempt: number; deadline: Date; status: number; score: number | null; answers: Record<string, unknown> }>(
      'SELECT user_id, id, attempt, deadline, status, score, answers FROM pschool_exam_sessions WHERE exam_id = $1', [examId]);
    const byUser = new Map<number, typeof rows>();
    for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
    for (const [i, userId] of userIds.entries()) {
      const sheets = byUser.get(userId) ?? [];
      if (sheets.length !== 1) {
        problems.push(`learner ${i}: ${sheets.length} sheets`);
        continue;
      }
      const [s] = sheets;
      const opened = deadlines.get(userId);
      const walkedAway = !shown.has(userId);
      if (opened && (s.id !== opened.sessionId || (!walkedAway || options.realBell) && s.deadline.toISOString() !== new Date(opened.deadline).toISOString())) problems.push(`learner ${i}: sheet or deadline changed`);
      const result = shown.get(userId);
      const expected = result && !result.late ? given.get(userId)! : acknowledged.get(userId) ?? {};
      for (const [q, v] of Object.entries(expected)) if (!same(s.answers[q], v)) problems.push(`learner ${i}: answer ${q} is ${JSON.stringify(s.answers[q])}, given ${JSON.stringify(v)}`);
      if (result && (Number(s.score) !== Number(result.score) || s.status !== result.status)) problems.push(`learner ${i}: shown ${result.score} (${result.status}), stored ${s.score} (${s.status})`);
    }
    return { learners: options.learners, saves, saveRetries, submits, submitRetries, late, allMarkedMs, problems, killedAtMs: killAt ? killAt - t0 : -1, proxy: { ...proxy.stats } };
  } finally {
    await check.end();
    await proxy.close();
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
  }
}

export function summary(r: ExamDayReport): string {
  const s = [...r.saves].sort((a, b) => a - b);
  const u = [...r.submits].sort((a, b) => a - b);
  return `${r.learners} learners: ${s.length} autosaves p50 ${percentile(s, 50).toFixed(1)} ms p99 ${percentile(s, 99).toFixed(1)} ms (${r.saveRetries} retried); ${u.length} submissions p99 ${percentile(u, 99).toFixed(1)} ms (${r.submitRetries} retried, ${r.late} late); all marked ${r.allMarkedMs} ms after the bell; proxy ${JSON.stringify(r.proxy)}; ${r.problems.length} problems`;
}

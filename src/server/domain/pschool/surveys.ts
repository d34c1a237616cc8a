/**
 * Questionnaires (问卷): learners answer through the list or a share link; one answer per person,
 * recorded under a keyed hash so that anonymous answers carry nothing that names them. Results per
 * question (counts for choices, the texts for free answers) and an export.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { currentUser, perm } from '../../core/auth/guard.js';
import { streamXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { personName } from '../member/accounts.js';
import type { WriteHookContext } from '../../runtime/hooks.js';
import { STUDY, idParam, param } from './common.js';
import { classesOf } from './exam-core.js';
import { pschoolDb, type PschoolDb } from './tables.js';

const OPTION_COLUMNS = ['option_a', 'option_b', 'option_c', 'option_d', 'option_e', 'option_f'] as const;
export const SurveyItemType = { SINGLE: '1', MULTIPLE: '2', TEXT: '3' } as const;
const MAX_TEXT = 2000;

type ItemRow = { id: number; sort: number | null; type: string; title: string; mandatory: boolean | null } & Record<(typeof OPTION_COLUMNS)[number], string | null>;

const itemView = (i: ItemRow) => ({
  id: i.id, type: i.type, title: i.title, mandatory: i.mandatory !== false,
  options: OPTION_COLUMNS.flatMap((c, n) => (i[c] ? [{ key: 'ABCDEF'[n], text: i[c]! }] : [])),
});

async function itemsOf(db: PschoolDb, questionnaireId: number): Promise<ItemRow[]> {
  return db.selectFrom('m_questionnaire_item').select(['id', 'sort', 'type', 'title', 'mandatory', ...OPTION_COLUMNS]).where('questionnaire_id', '=', questionnaireId).orderBy('sort').orderBy('id').execute();
}

/** Validates a set of answers against the items: mandatory ones present, choices among the options. */
export function readSurveyAnswers(items: ReturnType<typeof itemView>[], raw: unknown): Record<string, string | string[]> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, '请填写问卷');
  const given = raw as Record<string, unknown>;
  const out: Record<string, string | string[]> = {};
  const errors: { field: string; message: string }[] = [];
  for (const item of items) {
    const v = given[String(item.id)];
    const keys = item.options.map((o) => o.key);
    const blank = v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length);
    if (blank) {
      if (item.mandatory) errors.push({ field: String(item.id), message: `请回答：${item.title}` });
      continue;
    }
    if (item.type === SurveyItemType.SINGLE) {
      if (typeof v !== 'string' || !keys.includes(v)) errors.push({ field: String(item.id), message: `“${item.title}”的选项不正确` });
      else out[item.id] = v;
    } else if (item.type === SurveyItemType.MULTIPLE) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !keys.includes(x))) errors.push({ field: String(item.id), message: `“${item.title}”的选项不正确` });
      else out[item.id] = [...new Set(v as string[])].sort();
    } else if (typeof v !== 'string' || v.length > MAX_TEXT) errors.push({ field: String(item.id), message: `“${item.title}”的回答不能超过${MAX_TEXT}字` });
    else out[item.id] = v.trim();
  }
  if (errors.length) throw new HttpError(400, errors[0].message, { errors });
  return out;
}

/** A questionnaire is anonymous unless it says otherwise (the field's default). */
const isAnonymous = (value: unknown) => value !== false;
export const ANONYMITY_FIXED = '问卷已有答卷，不能再更改是否匿名';
export const ANONYMITY_CHANGED = '问卷的匿名设置已更改，请刷新页面后重新填写';

/**
 * Issue 25.8: once answers exist, a questionnaire's anonymity is fixed: its respondents answered under
 * it. The row is locked first, so an answer being stored (which reads the flag FOR SHARE) either comes
 * before and is counted here, or waits and then sees the new flag.
 */
export async function refuseAnonymityChange(ctx: WriteHookContext): Promise<void> {
  if (ctx.action !== 'update' || !ctx.previous || ctx.record.anonymous === undefined) return;
  if (isAnonymous(ctx.record.anonymous) === isAnonymous(ctx.previous.anonymous)) return;
  await sql`SELECT id FROM m_questionnaire WHERE id = ${ctx.id} FOR UPDATE`.execute(ctx.trx);
  const answered = await sql`SELECT 1 FROM pschool_survey_responses WHERE questionnaire_id = ${ctx.id} LIMIT 1`.execute(ctx.trx);
  if (answered.rows.length) throw new HttpError(400, ANONYMITY_FIXED, { errors: [{ field: 'anonymous', message: ANONYMITY_FIXED }] });
}

export async function surveyRoutes(app: FastifyInstance): Promise<void> {
  const db = pschoolDb(app.services.database.db);
  // One answer per person and questionnaire, without storing who for anonymous ones.
  const responderOf = (questionnaireId: number, userId: number) => crypto.createHmac('sha256', app.services.keys.privateKey).update(`survey:${questionnaireId}:${userId}`).digest('base64url');

  async function visible(userId: number) {
    const classes = await classesOf(db, userId);
    return db
      .selectFrom('m_questionnaire')
      .selectAll()
      .where('published', '=', true)
      .where((eb) => eb.or([eb('class_id', 'is', null), ...(classes.length ? [eb('class_id', 'in', classes)] : [])]));
  }

  async function surveyView(q: { id: number; title: string; description: string | null; anonymous: boolean | null; start_at: Date | null; end_at: Date | null }, userId: number) {
    const answered = await db.selectFrom('pschool_survey_responses').select('submitted_at').where('questionnaire_id', '=', q.id).where('responder', '=', responderOf(q.id, userId)).executeTakeFirst();
    const now = Date.now();
    const state = q.start_at && now < new Date(q.start_at).getTime() ? 'upcoming' : q.end_at && now > new Date(q.end_at).getTime() ? 'ended' : 'open';
    return { id: q.id, title: q.title, description: q.description, anonymous: q.anonymous !== false, startAt: q.start_at, endAt: q.end_at, state, answeredAt: answered?.submitted_at ?? null };
  }

  app.get('/api/pschool/surveys', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const rows = await (await visible(user.id)).orderBy('start_at', 'desc').limit(100).execute();
    return Promise.all(rows.map((q) => surveyView(q, user.id)));
  });

  /** One questionnaire with its questions: by id, or by the code of its share link (`?share=`). */
  app.get('/api/pschool/surveys/:id', { config: perm(STUDY) }, async (req) => {
    const user = currentUser(req);
    const key = param(req, 'id');
    let query = await visible(user.id);
    query = /^\d+$/.test(key) ? query.where('id', '=', Number(key)) : query.where('share_token', '=', key);
    const q = await query.executeTakeFirst();
    if (!q) throw new HttpError(404, '问卷不存在或未发布');
    return { ...(await surveyView(q, user.id)), items: (await itemsOf(db, q.id)).map(itemView) };
  });

  app.post('/api/pschool/surveys/:id/answers', { config: perm(STUDY) }, async (req, reply) => {
    const user = currentUser(req);
    const id = idParam(param(req, 'id'), '问卷');
    const q = await (await visible(user.id)).where('id', '=', id).executeTakeFirst();
    if (!q) throw new HttpError(404, '问卷不存在或未发布');
    const view = await surveyView(q, user.id);
    if (view.state === 'upcoming') throw new HttpError(400, '问卷尚未开始');
    if (view.state === 'ended') throw new HttpError(400, '问卷已经截止');
    const body = req.body as { answers?: unknown; anonymous?: unknown } | null;
    const answers = readSurveyAnswers((await itemsOf(db, id)).map(itemView), body?.answers);
    // The answer follows the anonymity the respondent was shown (the page sends it back): if it changed
    // meanwhile, the respondent decides again on the reloaded page.
    // The flag is required (issue 38.15): without it, an answer given under 匿名 was stored with the name
    // when the questionnaire had been made named meanwhile.
    if (typeof body?.anonymous !== 'boolean') throw new HttpError(409, ANONYMITY_CHANGED);
    const shown = body.anonymous;
    const inserted = await db.transaction().execute(async (trx) => {
      const now = await trx.selectFrom('m_questionnaire').select('anonymous').where('id', '=', id).forShare().executeTakeFirst();
      if (!now || isAnonymous(now.anonymous) !== shown) throw new HttpError(409, ANONYMITY_CHANGED);
      return trx
        .insertInto('pschool_survey_responses')
        .values({ questionnaire_id: id, responder: responderOf(id, user.id), user_id: shown ? null : user.id, answers: JSON.stringify(answers) })
        .onConflict((oc) => oc.columns(['questionnaire_id', 'responder']).doNothing())
        .returning('id')
        .executeTakeFirst();
    });
    if (!inserted) throw new HttpError(400, '您已经提交过这份问卷');
    return reply.code(201).send({ id: inserted.id, submittedAt: new Date() });
  });

  // ---- results (administrators)

  async function results(id: number) {
    const q = await db.selectFrom('m_questionnaire').selectAll().where('id', '=', id).executeTakeFirst();
    if (!q) throw new HttpError(404, '问卷不存在');
    const items = (await itemsOf(db, id)).map(itemView);
    const total = (await db.selectFrom('pschool_survey_responses').select(sql<number>`count(*)::int`.as('n')).where('questionnaire_id', '=', id).executeTakeFirstOrThrow()).n;
    // Choice counts in SQL: an answer is a letter or a list of letters.
    const counts = await sql<{ item: string; choice: string; n: number }>`
      SELECT a.key AS item, c.value AS choice, count(*)::int AS n
      FROM pschool_survey_responses r, jsonb_each(r.answers) a,
           jsonb_array_elements_text(CASE jsonb_typeof(a.value) WHEN 'array' THEN a.value ELSE jsonb_build_array(a.value) END) c
      WHERE r.questionnaire_id = ${id}
      GROUP BY 1, 2`.execute(db);
    const texts = await sql<{ item: string; text: string }>`
      SELECT a.key AS item, a.value #>> '{}' AS text
      FROM pschool_survey_responses r, jsonb_each(r.answers) a
      WHERE r.questionnaire_id = ${id} AND jsonb_typeof(a.value) = 'string'
      ORDER BY r.id DESC LIMIT 2000`.execute(db);
    return {
      questionnaire: { id: q.id, title: q.title, anonymous: q.anonymous !== false, shareToken: q.share_token, published: !!q.published },
      total,
      items: items.map((item) => ({
        ...item,
        options: item.options.map((o) => ({ ...o, count: counts.rows.find((c) => c.item === String(item.id) && c.choice === o.key)?.n ?? 0 })),
        texts: item.type === SurveyItemType.TEXT ? texts.rows.filter((t) => t.item === String(item.id)).slice(0, 200).map((t) => t.text) : [],
      })),
    };
  }

  app.get('/api/pschool/surveys/:id/results', { config: perm('questionnaire:list') }, async (req) => results(idParam(param(req, 'id'), '问卷')));

  app.get('/api/pschool/surveys/:id/export', { config: perm('questionnaire:export') }, async (req, reply) => {
    const id = idParam(param(req, 'id'), '问卷');
    const { questionnaire, items } = await results(id);
    const rows = await db
      .selectFrom('pschool_survey_responses as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.answers', 'r.submitted_at', personName('u').as('name')])
      .where('r.questionnaire_id', '=', id)
      .orderBy('r.id')
      .execute();
    const text = (item: (typeof items)[number], v: unknown) => {
      const keys = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      return item.type === SurveyItemType.TEXT ? String(v ?? '') : keys.map((k) => item.options.find((o) => o.key === k)?.text ?? String(k)).join('、');
    };
    return streamXlsx(reply, `${questionnaire.title}结果.xlsx`, async (book, addRow) => {
      const sheet = book.addWorksheet('答卷');
      const named = !questionnaire.anonymous;
      await addRow(sheet, ['序号', ...(named ? ['答卷人'] : []), '提交时间', ...items.map((i) => i.title)], { bold: true });
      let n = 0;
      for (const r of rows) {
        await addRow(sheet, [++n, ...(named ? [r.name ?? ''] : []), new Date(r.submitted_at).toLocaleString('zh-CN', { hour12: false, timeZone: 'Asia/Shanghai' }), ...items.map((i) => text(i, (r.answers as Record<string, unknown>)[String(i.id)]))]);
      }
      const summary = book.addWorksheet('统计');
      await addRow(summary, ['题目', '选项', '人数', '比例'], { bold: true });
      for (const item of items.filter((i) => i.type !== SurveyItemType.TEXT)) {
        for (const o of item.options) await addRow(summary, [item.title, `${o.key}. ${o.text}`, o.count, rows.length ? `${Math.round((o.count * 1000) / rows.length) / 10}%` : '0%']);
      }
    });
  });
}

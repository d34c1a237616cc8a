/**
 * Rules of the party-school modules that a schema cannot express, plugged in through x-hooks.
 * Each refuses with a message for users (field-level errors) and changes nothing when it refuses.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { QuestionType } from '../../../shared/constants.js';
import { fillKey, letters, normaliseJudge } from '../../../shared/pschool/marking.js';
import { HttpError } from '../../errors.js';
import { memberOfUser } from '../member/accounts.js';
import { registerHook, type WriteHookContext } from '../../runtime/index.js';
import { Compose, fileIdOf, jsonArray, round2 } from './common.js';
import { fileLookup } from '../../core/files/store.js';
import { standingFields, syncCertificate } from './standing.js';
import { pschoolDb, type AnyDb } from './tables.js';
import { refuseAnonymityChange } from './surveys.js';

const refuse = (field: string, message: string): never => {
  throw new HttpError(400, message, { errors: [{ field, message }] });
};
const empty = (v: unknown) => v === undefined || v === null || v === '';
const OPTION_FIELDS = ['optionA', 'optionB', 'optionC', 'optionD', 'optionE', 'optionF'] as const;
const filledOptions = (r: Record<string, unknown>) => OPTION_FIELDS.map((f, i) => (empty(r[f]) ? null : 'ABCDEF'[i])).filter((l): l is string => !!l);

function datesInOrder(r: Record<string, unknown>, from: string, to: string, toField: string, message: string) {
  if (!empty(r[from]) && !empty(r[to]) && new Date(String(r[to])) < new Date(String(r[from]))) refuse(toField, message);
}

registerHook('pschool.batch', (ctx) => {
  if (ctx.action === 'delete') return;
  datesInOrder(ctx.record, 'startDate', 'endDate', 'endDate', '结束日期不能早于开始日期');
});

// ---------------------------------------------------------------- courses

const VIDEO = /\.(mp4|webm)$/i;
const PDF = /\.pdf$/i;

registerHook('pschool.courseNode', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  if (r.nodeType === '1') {
    // A chapter only groups nodes: it has nothing to study and no hours of its own.
    Object.assign(r, { chapterId: null, kind: null, file: null, duration: null, minReadSeconds: null, hours: 0 });
    return;
  }
  if (empty(r.kind)) refuse('kind', '请选择学习方式');
  if (r.kind === 'offline') Object.assign(r, { file: null, duration: null, minReadSeconds: null });
  if (r.kind === 'video' || r.kind === 'doc') {
    if (fileIdOf(r.file as string) === null) refuse('file', r.kind === 'video' ? '请上传视频文件' : '请上传文档');
    const [column, value] = fileLookup(fileIdOf(r.file as string)!);
    const name = await ctx.trx.selectFrom('files').select('original_name').where(column, '=', value as never).executeTakeFirst();
    if (!name) refuse('file', '学习资料文件不存在，请重新上传');
    if (r.kind === 'video' && !VIDEO.test(name!.original_name)) refuse('file', '视频只支持 mp4、webm 格式');
    if (r.kind === 'doc' && !PDF.test(name!.original_name)) refuse('file', '文档只支持 pdf 格式');
  }
  if (r.kind === 'video') {
    if (empty(r.duration)) refuse('duration', '请填写视频时长（秒）');
    r.minReadSeconds = null;
  }
  if (r.kind === 'doc') {
    if (empty(r.minReadSeconds)) r.minReadSeconds = 60;
    r.duration = null;
  }
  if (!empty(r.chapterId)) {
    const chapter = await pschoolDb(ctx.trx).selectFrom('m_course_node').select(['course_id', 'node_type']).where('id', '=', Number(r.chapterId)).executeTakeFirst();
    if (!chapter || chapter.node_type !== '1' || chapter.course_id !== Number(r.courseId)) refuse('chapterId', '所属章须是本课程的一章');
  }
});

registerHook('pschool.courseNodeDelete', async (ctx) => {
  if (ctx.action !== 'delete') return;
  const deleting = new Set(ctx.records.map((r) => Number(r.id)));
  const chapters = ctx.records.filter((r) => r.nodeType === '1').map((r) => Number(r.id));
  if (!chapters.length) return;
  const nodes = await pschoolDb(ctx.trx).selectFrom('m_course_node').select('id').where('chapter_id', 'in', chapters).execute();
  if (nodes.some((n) => !deleting.has(n.id))) throw new HttpError(400, '该章下还有小节，请先删除或移走小节');
});

// ---------------------------------------------------------------- question bank

registerHook('pschool.question', (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const type = Number(r.type);
  const answer = String(r.answer ?? '').trim();
  if (type === QuestionType.SINGLE || type === QuestionType.MULTIPLE) {
    const options = filledOptions(r);
    if (options.length < 2) refuse('optionB', '选择题至少需要两个选项（选项A、选项B）');
    const key = letters(answer);
    if (key.some((l) => !options.includes(l))) refuse('answer', `答案只能是已填写的选项：${options.join('、')}`);
    if (type === QuestionType.SINGLE && key.length !== 1) refuse('answer', '单选题的答案须是一个选项字母，如 B');
    if (type === QuestionType.MULTIPLE && key.length < 2) refuse('answer', '多选题的答案须是两个或以上的选项字母，如 ACD');
    r.answer = key.join('');
  } else {
    for (const f of OPTION_FIELDS) r[f] = null;
    if (type === QuestionType.JUDGE) {
      const judged = normaliseJudge(answer);
      if (!judged) refuse('answer', '判断题的答案须是“正确”或“错误”');
      r.answer = judged;
    } else if (type === QuestionType.FILL) {
      if (!fillKey(answer).length) refuse('answer', '请填写每个空的答案，各空之间用 | 分隔');
      r.answer = answer;
    } else r.answer = answer;
  }
});

// ---------------------------------------------------------------- exams

async function ruleTotal(trx: AnyDb, examId: number, excluding: number[] = []): Promise<number> {
  let q = pschoolDb(trx).selectFrom('m_exam_rule').select(sql<number>`coalesce(sum(count * score), 0)::float8`.as('total')).where('exam_id', '=', examId);
  if (excluding.length) q = q.where('id', 'not in', excluding);
  return round2(Number((await q.executeTakeFirstOrThrow()).total));
}

registerHook('pschool.exam', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  datesInOrder(r, 'startAt', 'endAt', 'endAt', '截止时间须晚于开始时间');
  if (r.compose === Compose.HAND) {
    const ids = jsonArray<number>(r.questionIds);
    if (!ids.length) refuse('questionIds', '手工组卷请选择试题');
    const rows = await pschoolDb(ctx.trx).selectFrom('m_question').select(sql<number>`coalesce(sum(score), 0)::float8`.as('total')).where('id', 'in', ids).executeTakeFirstOrThrow();
    r.totalScore = round2(Number(rows.total));
  } else {
    r.totalScore = ctx.id ? await ruleTotal(ctx.trx, ctx.id) : 0;
  }
  if (Number(r.passMark) > Number(r.totalScore) && Number(r.totalScore) > 0) refuse('passMark', `及格分不能高于总分（${r.totalScore}分）`);
});

async function updateRuleExamTotal(trx: AnyDb, examId: number, excluding: number[] = []) {
  await pschoolDb(trx).updateTable('m_exam').set({ total_score: await ruleTotal(trx, examId, excluding) }).where('id', '=', examId).where('compose', '=', Compose.RULE).execute();
}

registerHook('pschool.examRuleTotal', async (ctx) => {
  if (ctx.action === 'delete') return;
  await updateRuleExamTotal(ctx.trx, Number(ctx.record.examId));
  if (ctx.previous && ctx.previous.examId !== ctx.record.examId) await updateRuleExamTotal(ctx.trx, Number(ctx.previous.examId));
});

registerHook('pschool.examRuleDelete', async (ctx) => {
  if (ctx.action !== 'delete') return;
  const ids = ctx.records.map((r) => Number(r.id));
  for (const examId of new Set(ctx.records.map((r) => Number(r.examId)))) await updateRuleExamTotal(ctx.trx, examId, ids);
});

// ---------------------------------------------------------------- questionnaires

registerHook('pschool.questionnaire', async (ctx) => {
  if (ctx.action === 'delete') return;
  datesInOrder(ctx.record, 'startAt', 'endAt', 'endAt', '截止时间须晚于开始时间');
  await refuseAnonymityChange(ctx);
  // The share link's code: unguessable, fixed for the questionnaire's life.
  if (ctx.action === 'create' || empty(ctx.previous?.shareToken)) ctx.record.shareToken = crypto.randomBytes(12).toString('base64url');
});

registerHook('pschool.questionnaireItem', (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  if (r.type === '1' || r.type === '2') {
    if (filledOptions(r).length < 2) refuse('optionB', '选择题至少需要两个选项（选项A、选项B）');
  } else for (const f of OPTION_FIELDS) r[f] = null;
});

// ---------------------------------------------------------------- students

registerHook('pschool.studentStanding', async (ctx) => {
  if (ctx.action === 'delete') return;
  // A student whose account belongs to a member is named as the member (issue 33.6).
  if (!empty(ctx.record.userId)) {
    const member = await memberOfUser(ctx.trx, Number(ctx.record.userId));
    if (member) ctx.record.name = member.name;
  }
  Object.assign(ctx.record, await standingFields(ctx.trx, ctx.record, (ctx as WriteHookContext).previous));
});

registerHook('pschool.studentCertificate', async (ctx) => {
  if (ctx.action === 'delete') return;
  await syncCertificate(ctx.trx, ctx.id!, ctx.record);
});

/**
 * 任免文件 (module `cadre-dispatch`, its lines `cadre-dispatch-line`, docs/cadres.md): the document that
 * appoints (任) and removes (免) cadres. 《党政领导干部选拔任用工作条例》(2019) chapter 任职: after the 任前公示 the 任职通知 is issued — the 任 lines are written by the appointment's 任职 steps with the post, in one
 * transaction (appointment.ts); a 免 line ends the post it names on its date, whether an appointment's
 * step writes it (the post being replaced, the probation post of a dismissal) or 组织部 enters it by hand
 * (a removal outside a selection). Importing this file registers the hooks.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook, type Actor, type Runtime } from '../../runtime/index.js';
import type { TrailSource } from '../../runtime/trail.js';

/** 任职状态 (GB_JBXX_RZZT): 在任 1, 试用期 2, 免职 3. */
export const TENURE = { serving: '1', probation: '2', removed: '3' } as const;

let runtime: Runtime | undefined;
/** The record services the line hooks write the posts through (set when the area starts). */
export function useRuntimeForDispatch(r: Runtime): void {
  runtime = r;
}
const records = (module: string) => {
  if (!runtime) throw new HttpError(500, '干部模块尚未启动');
  return runtime.records(module);
};

const refuse = (field: string, message: string): never => {
  throw new HttpError(400, message, { errors: [{ field, message }] });
};

interface WriteAs {
  actor: Actor;
  trx: Kysely<DB>;
  source?: TrailSource;
}

/**
 * The dispatch of this number, created (dated `date`) when there is none: the 任职 step's field names a
 * document already issued (several appointments in one notice) or a new one. Returns its id.
 */
export async function dispatchByNumber(w: WriteAs, docNo: string, date: string, title: string): Promise<number> {
  const found = (await sql<{ id: number }>`SELECT id FROM m_cadre_dispatch WHERE doc_no = ${docNo}`.execute(w.trx)).rows[0];
  if (found) return Number(found.id);
  const created = await records('cadre-dispatch').create({ docNo, issueDate: date, title }, w.actor, { trx: w.trx, source: w.source });
  return created.id as number;
}

/** Writes one line of a dispatch (its hooks fill the post's title, unit and rank and, for 免, end the post). */
export async function writeLine(w: WriteAs, line: { dispatchId: number; action: '任' | '免'; cadreId: number; postId: number; lineDate: string; appointmentId?: number }): Promise<void> {
  const { appointmentId, ...values } = line;
  await records('cadre-dispatch-line').create(values, w.actor, { trx: w.trx, source: w.source, ...(appointmentId && { set: { appointmentId } }) });
}

/** A line names a 职务 post of its own cadre; its title, unit and rank are the post's; a 免 line needs a current post. */
registerHook('cadre.dispatchLine', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  if (ctx.previous && (r.action !== ctx.previous.action || r.postId !== ctx.previous.postId || r.cadreId !== ctx.previous.cadreId)) {
    refuse('action', '任免事项已生效，不能修改任免类别、干部或职务；如有错误请删除后重新录入');
  }
  const dispatch = (await sql<{ issue_date: string }>`SELECT issue_date::text FROM m_cadre_dispatch WHERE id = ${r.dispatchId as number}`.execute(ctx.trx)).rows[0];
  if (!dispatch) refuse('dispatchId', '任免文件不存在');
  if (typeof r.postId !== 'number') {
    if (r.action === '免') refuse('postId', '免职须选择被免去的职务');
    return;
  }
  const post = (await sql<{ cadre_id: number; kind: string; unit_id: number | null; rank: string | null; post_title: string | null; end_date: string | null; start_date: string | null }>`
    SELECT cadre_id, kind, unit_id, rank, post_title, end_date::text, start_date::text FROM m_cadre_post WHERE id = ${r.postId}`.execute(ctx.trx)).rows[0];
  if (!post || post.cadre_id !== r.cadreId) refuse('postId', '所选职务不是该干部的任职记录');
  if (post!.kind !== '职务') refuse('postId', '职称不通过任免文件任免');
  if (!ctx.previous && r.action === '免' && post!.end_date) refuse('postId', `该职务已于${post!.end_date}免去`);
  const lineDate = typeof r.lineDate === 'string' ? r.lineDate : dispatch!.issue_date;
  if (r.action === '免' && post!.start_date && lineDate < post!.start_date) refuse('lineDate', `免职日期（${lineDate}）不能早于任职日期（${post!.start_date}）`);
  Object.assign(ctx.record, { lineDate, unitId: post!.unit_id, rank: post!.rank, postTitle: post!.post_title });
});

/**
 * A new 免 line ends its post on the line's date with the dispatch's number as 免职文号; a cadre left
 * without a current full-time post is 免职. The dispatch counts its lines.
 */
registerHook('cadre.dispatchLineApply', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  await countLines(ctx.trx, [r.dispatchId]);
  if (ctx.previous || r.action !== '免' || typeof r.postId !== 'number') return;
  const docNo = (await sql<{ doc_no: string }>`SELECT doc_no FROM m_cadre_dispatch WHERE id = ${r.dispatchId as number}`.execute(ctx.trx)).rows[0]?.doc_no;
  const posts = records('cadre-post');
  const post = await posts.readRow(r.postId, ctx.trx);
  if (!post) return;
  await posts.update({ id: post.id, version: post.version, endDate: r.lineDate, removeDocNo: docNo }, ctx.actor, { trx: ctx.trx });
  const current = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_cadre_post WHERE cadre_id = ${r.cadreId as number} AND kind = '职务'
      AND coalesce(full_time, true) AND (end_date IS NULL OR end_date > ${r.lineDate as string}::date)`.execute(ctx.trx)).rows[0].n;
  if (current) return;
  const cadres = records('cadre');
  const cadre = await cadres.readRow(r.cadreId as number, ctx.trx);
  if (cadre && cadre.tenureStatus !== TENURE.removed) await cadres.update({ id: cadre.id, version: cadre.version, tenureStatus: TENURE.removed }, ctx.actor, { trx: ctx.trx });
});

/**
 * A 任 line an appointment wrote stays (the post is the appointment's); deleting a 免 line puts back the
 * post it ended (its end date and 免职文号 cleared), so an error of entry can be undone.
 */
registerHook('cadre.dispatchLineDelete', async (ctx) => {
  if (ctx.action !== 'delete') return;
  for (const line of ctx.records) {
    if (line.action === '任' && typeof line.appointmentId === 'number') refuse('action', `“${String(line.postTitle ?? '')}”的任职由选拔任用写入，不能删除`);
    if (line.action !== '免' || typeof line.postId !== 'number') continue;
    const posts = records('cadre-post');
    const post = await posts.readRow(line.postId, ctx.trx);
    if (post && post.endDate === line.lineDate) await posts.update({ id: post.id, version: post.version, endDate: null, removeDocNo: null }, ctx.actor, { trx: ctx.trx });
  }
  await countLines(ctx.trx, ctx.records.map((l) => l.dispatchId), ctx.records.map((l) => l.id as number));
});

/** 任免人次 of these dispatches (the lines being deleted left out). */
async function countLines(db: Kysely<DB>, dispatchIds: unknown[], without: number[] = []): Promise<void> {
  const ids = [...new Set(dispatchIds.filter((d): d is number => typeof d === 'number'))];
  for (const id of ids) {
    await sql`UPDATE m_cadre_dispatch SET line_count = (SELECT count(*)::int FROM m_cadre_dispatch_line WHERE dispatch_id = ${id} AND id <> ALL(${without}::int[])) WHERE id = ${id}`.execute(db);
  }
}

/**
 * The post catalogue (职位目录, module `unit-post`, docs/cadres.md): a unit's leading posts, each with its
 * 正/副, rank and kind, opened and abolished. A cadre's post (`cadre-post.unitPostId`) and an appointment
 * (`appointment.unitPostId`) may name one: the unit follows it, the post's rank must fit it, and an
 * abolished post cannot be taken. The staffing rows count the open catalogue posts of their unit and rank.
 */
import { sql, type Kysely } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { dictLabelsIn } from '../../runtime/context.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';

/**
 * 《党政领导干部选拔任用工作条例》(2019), 纪律和监督: 不得超职数配备、超机构规格提拔领导干部. A rank above the
 * post's (超规格) is refused. A rank below it (低职高配) is refused too: the 条例 has no such form — a 副职 who
 * leads the unit is appointed to the catalogue's 副职 post (主持工作), so the rank always equals the post's.
 */
export const RULE_POST_RANK = '任职职级应与职位目录规定的职级相符，不得超机构规格配备（《党政领导干部选拔任用工作条例》）';

export interface CataloguePost {
  id: number;
  unitId: number;
  title: string;
  post: string | null;
  rank: string;
  openDate: string | null;
  abolishDate: string | null;
  /** 正职 or 副职, when the catalogue says. */
  head: string | null;
}

/** A dictionary value's label read in the caller's transaction (the runtime's dictLabelsIn). */
export const dictLabelIn = async (db: Kysely<DB>, code: string, value: string) => (await dictLabelsIn(db, code)).get(value);

const rankLabel = async (db: Kysely<DB>, rank: string) => (await dictLabelIn(db, 'GB_JBXX_XZJB', rank)) ?? rank;

export async function cataloguePost(db: Kysely<DB>, id: number): Promise<CataloguePost | undefined> {
  const row = (await sql<{ id: number; unit_id: number; title: string; post: string | null; rank: string; open_date: string | null; abolish_date: string | null; head: string | null }>`
    SELECT id, unit_id, title, post, rank, open_date::text, abolish_date::text, head FROM m_unit_post WHERE id = ${id}`.execute(db)).rows[0];
  return row && { id: Number(row.id), unitId: row.unit_id, title: row.title, post: row.post, rank: row.rank, openDate: row.open_date, abolishDate: row.abolish_date, head: row.head };
}

/**
 * What keeps a post of `rank` in `unitId` on `date` from taking the catalogue post: another unit's post, a
 * post not yet opened or abolished, a rank that does not fit (the message names both ranks). Pure but for
 * the labels of the ranks.
 */
export async function catalogueProblem(db: Kysely<DB>, p: CataloguePost, args: { unitId?: unknown; rank?: unknown; date: string }): Promise<{ field: string; message: string } | undefined> {
  if (typeof args.unitId === 'number' && args.unitId !== p.unitId) return { field: 'unitPostId', message: `职位“${p.title}”不属于所选单位` };
  if (p.openDate && args.date < p.openDate) return { field: 'unitPostId', message: `职位“${p.title}”于${p.openDate}设立，${args.date}尚未设立` };
  if (p.abolishDate && args.date >= p.abolishDate) return { field: 'unitPostId', message: `职位“${p.title}”已于${p.abolishDate}撤销` };
  if (typeof args.rank === 'string' && args.rank && args.rank !== p.rank) {
    const [want, got] = [await rankLabel(db, p.rank), await rankLabel(db, args.rank)];
    const how = args.rank < p.rank ? '高于职位规格' : '低于职位规格';
    return { field: 'rank', message: `职位“${p.title}”为${want}，拟任职级${got}${how}。${RULE_POST_RANK}` };
  }
}

/** A catalogue post: abolished after it was opened; the 正/副 of its rank when not given. */
registerHook('cadre.unitPost', (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  if (typeof r.abolishDate === 'string' && typeof r.openDate === 'string' && r.abolishDate <= r.openDate) {
    throw new HttpError(400, '撤销日期应晚于设立日期', { errors: [{ field: 'abolishDate', message: '撤销日期应晚于设立日期' }] });
  }
});

/** The staffing rows of the catalogue's unit and rank count its open posts (目录职位数), in the write's transaction. */
registerHook('cadre.unitPostCount', async (ctx) => {
  if (ctx.action === 'delete') return;
  await refreshCatalogued(ctx.trx, [ctx.previous ?? {}, { ...ctx.previous, ...ctx.record }]);
});

/** 目录职位数 of the staffing rows of these unit/rank pairs. */
export async function refreshCatalogued(db: Kysely<DB>, pairs: { unitId?: unknown; rank?: unknown }[], today = localToday()): Promise<void> {
  for (const p of pairs) {
    if (typeof p.unitId !== 'number' || typeof p.rank !== 'string') continue;
    await sql`UPDATE m_staffing SET catalogued = ${cataloguedSql(p.unitId, p.rank, today)} WHERE unit_id = ${p.unitId} AND rank = ${p.rank}`.execute(db);
  }
}

export const cataloguedSql = (unitId: number, rank: string, today: string) =>
  sql<number>`(SELECT count(*)::int FROM m_unit_post WHERE unit_id = ${unitId} AND rank = ${rank} AND (abolish_date IS NULL OR abolish_date > ${today}::date))`;

/**
 * A cadre's post naming a catalogue post: its unit is the catalogue's, its 职务 and 职务全称 follow it when
 * not given, and its rank must fit (refused naming both ranks). Checked on the post's start date.
 */
registerHook('cadre.postCatalogue', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  if (typeof r.unitPostId !== 'number' || r.kind === '职称') return;
  if (ctx.previous && ctx.previous.unitPostId === r.unitPostId && ctx.previous.rank === r.rank && ctx.previous.unitId === r.unitId) return;
  const p = await cataloguePost(ctx.trx, r.unitPostId);
  if (!p) throw new HttpError(400, '所选职位不存在', { errors: [{ field: 'unitPostId', message: '所选职位不存在' }] });
  if (typeof r.unitId !== 'number') ctx.record.unitId = p.unitId;
  if (!r.post && p.post) ctx.record.post = p.post;
  if (!r.postTitle) {
    const unit = (await sql<{ name: string }>`SELECT name FROM m_unit WHERE id = ${p.unitId}`.execute(ctx.trx)).rows[0]?.name ?? '';
    ctx.record.postTitle = `${unit}${p.title}`;
  }
  const problem = await catalogueProblem(ctx.trx, p, { unitId: ctx.record.unitId ?? r.unitId, rank: r.rank, date: typeof r.startDate === 'string' ? r.startDate : localToday() });
  if (problem) throw new HttpError(400, problem.message, { errors: [problem], rule: RULE_POST_RANK });
});

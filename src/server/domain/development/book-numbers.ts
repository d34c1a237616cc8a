/**
 * 入党志愿书 numbers: allocated in order from the ranges the organisation department configures per year
 * (module development-book-range), each number once: the range's `nextNo` moves on under a row lock,
 * and development_book_numbers keeps every number handed out (its primary key refuses a second use,
 * also when the application it went to ended without admission).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';

export function formatBookNumber(prefix: string | null, no: number, width: number | null): string {
  return `${prefix ?? ''}${String(no).padStart(width ?? 6, '0')}`;
}

export async function allocateBookNumber(trx: Kysely<DB>, recordId: number, year: number): Promise<string> {
  const taken = await sql<{ id: number; prefix: string | null; width: number | null; no: number }>`
    UPDATE m_development_book_range SET next_no = next_no + 1
    WHERE id = (SELECT id FROM m_development_book_range WHERE year = ${year} AND next_no <= end_no ORDER BY start_no, id LIMIT 1 FOR UPDATE)
    RETURNING id, prefix, width, next_no - 1 AS no`.execute(trx);
  const range = taken.rows[0];
  if (!range) throw new HttpError(400, `${year}年度的入党志愿书编号段尚未配置或已用完，请联系党委组织部在“入党志愿书编号段”中配置`);
  const number = formatBookNumber(range.prefix, range.no, range.width);
  const inserted = await sql`INSERT INTO development_book_numbers (number, range_id, record_id) VALUES (${number}, ${range.id}, ${recordId}) ON CONFLICT DO NOTHING RETURNING number`.execute(trx);
  if (!inserted.rows.length) throw new HttpError(400, `入党志愿书编号${number}已被使用过，编号段与其他编号段重叠，请联系党委组织部调整`);
  return number;
}

const overlaps = (a: { startNo: number; endNo: number }, b: { start_no: number; end_no: number }) => a.startNo <= b.end_no && b.start_no <= a.endNo;

/** A range: end after start, no overlap with another range of the same year and prefix, never shrunk below what it handed out. */
registerHook('development.bookRange', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record as { year: number; prefix: string | null; startNo: number; endNo: number; nextNo?: number | null };
  if (r.endNo < r.startNo) throw new HttpError(400, '终止号不能小于起始号', { errors: [{ field: 'endNo', message: '终止号不能小于起始号' }] });
  const previous = ctx.previous as { startNo: number; nextNo: number | null } | undefined;
  if (!previous) r.nextNo = r.startNo;
  else {
    const used = (previous.nextNo ?? previous.startNo) > previous.startNo;
    if (used && r.startNo !== previous.startNo) throw new HttpError(400, '编号段已分配过编号，起始号不能修改', { errors: [{ field: 'startNo', message: '编号段已分配过编号，起始号不能修改' }] });
    if (used && r.endNo < (previous.nextNo ?? r.startNo) - 1) throw new HttpError(400, `终止号不能小于已分配的最大编号${(previous.nextNo ?? 1) - 1}`, { errors: [{ field: 'endNo', message: '终止号不能小于已分配的编号' }] });
    r.nextNo = used ? previous.nextNo : r.startNo;
  }
  const others = await sql<{ id: number; start_no: number; end_no: number }>`
    SELECT id, start_no, end_no FROM m_development_book_range WHERE year = ${r.year} AND coalesce(prefix, '') = ${r.prefix ?? ''} AND id <> ${ctx.id ?? 0}`.execute(ctx.trx);
  const clash = others.rows.find((o) => overlaps(r, o));
  if (clash) {
    const message = `与${r.year}年度已有编号段${clash.start_no}–${clash.end_no}重叠`;
    throw new HttpError(400, message, { errors: [{ field: 'startNo', message }] });
  }
});

registerHook('development.bookRangeInUse', async (ctx) => {
  if (ctx.action !== 'delete') return;
  const used = ctx.records.find((r) => (r.nextNo as number) > (r.startNo as number));
  if (used) throw new HttpError(400, `${used.year}年度编号段${used.startNo}–${used.endNo}已分配过编号，不能删除`);
});

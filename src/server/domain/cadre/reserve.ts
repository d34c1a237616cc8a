/**
 * 后备干部库 (`cadre-reserve`, issue 39 §5): a reserve record carries the cadre's name and unit as they are
 * when it is written (the list's columns and its data scope read them), one record per cadre and kind is
 * 在库 at a time, and leaving the reserve (已使用 when appointed, 已出库 when adjusted out) is dated on or
 * after the day of entry. 《关于适应新时代要求大力发现培养选拔优秀年轻干部的意见》(2018): the reserve is
 * kept and adjusted (动态管理), those no longer suited are adjusted out.
 */
import { sql } from 'kysely';
import { isDate } from '../../../shared/calendar.js';
import { HttpError } from '../../errors.js';
import { registerHook } from '../../runtime/index.js';
import { cadreOf } from './abroad.js';

export const IN_RESERVE = '在库';

const invalid = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

registerHook('cadreReserve.write', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = ctx.record;
  const prev = ctx.previous ?? {};
  if (ctx.action === 'create' || (r.cadreId !== undefined && r.cadreId !== prev.cadreId)) {
    const cadre = await cadreOf(ctx.trx, r.cadreId ?? prev.cadreId);
    Object.assign(r, { name: cadre.name, unitId: cadre.unit_id });
  }
  const next = { ...prev, ...r };
  const state = next.state ?? IN_RESERVE;
  if (state === IN_RESERVE) {
    if (next.outDate || next.outReason) Object.assign(r, { outDate: null, outReason: null });
    const twin = (await sql<{ id: number }>`SELECT id FROM m_cadre_reserve WHERE cadre_id = ${next.cadreId as number} AND kind = ${next.kind as string}
      AND state = ${IN_RESERVE} AND id <> ${ctx.id ?? 0} LIMIT 1`.execute(ctx.trx)).rows[0];
    if (twin) throw invalid('kind', `${String(next.name ?? '该干部')}已在${String(next.kind)}库中，不能重复入库`);
    return;
  }
  if (!isDate(next.outDate)) throw invalid('outDate', `状态为“${String(state)}”时请填写出库日期`);
  if (isDate(next.since) && next.outDate < next.since) throw invalid('outDate', `出库日期（${next.outDate}）不能早于入库日期（${next.since}）`);
  if (!String(next.outReason ?? '').trim()) throw invalid('outReason', `状态为“${String(state)}”时请填写出库原因`);
});

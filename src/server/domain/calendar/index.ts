/**
 * The holiday calendar (module `holiday-calendar`, 系统管理 → 节假日安排): its period check, and the
 * published schedule written once per installation (migration 0170 leaves a marker; the first server
 * to start takes it and writes the periods through the module, so they carry a trail and an
 * administrator's later deletions stay deleted). Working days are counted by runtime/working-calendar.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ChangeRecordOrigin } from '../../../shared/constants.js';
import { isDate } from '../../../shared/calendar.js';
import { PUBLISHED_SCHEDULE } from '../../../shared/working-days.js';
import { HttpError } from '../../errors.js';
import { registerHook, SYSTEM_ACTOR } from '../../runtime/index.js';
import { HOLIDAY_MODULE } from '../../runtime/working-calendar.js';

/** app_meta key of migration 0170: the published schedule is still to be written. */
export const CALENDAR_SEED_KEY = 'holiday_calendar_seed';

const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

registerHook('calendar.period', (ctx) => {
  if (ctx.action === 'delete') return;
  const { year, startDate, endDate } = ctx.record as { year?: number; startDate?: string; endDate?: string };
  if (isDate(startDate) && isDate(endDate)) {
    if (endDate < startDate) throw fieldError('endDate', `结束日期（${endDate}）不能早于开始日期（${startDate}）`);
    if (typeof year === 'number' && Number(startDate.slice(0, 4)) !== year && Number(endDate.slice(0, 4)) !== year) throw fieldError('startDate', `日期不在${year}年度内`);
  }
});

export async function calendarArea(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module(HOLIDAY_MODULE)) return;
  const records = app.runtime.records(HOLIDAY_MODULE);
  await app.services.database.db.transaction().execute(async (trx) => {
    // Deleting the marker claims the seeding: of servers starting together one writes it.
    const claimed = await trx.deleteFrom('app_meta').where('key', '=', CALENDAR_SEED_KEY).returning('key').executeTakeFirst();
    if (!claimed) return;
    for (const p of PUBLISHED_SCHEDULE) await records.create({ ...p }, SYSTEM_ACTOR, { trx, origin: ChangeRecordOrigin.SYSTEM_IMPORT });
  });
}

/**
 * The cadre record (module `cadre`): filled from the person it is linked to (a party member or a staff
 * member), and `gb_base_refresh` (spec §9) pushed to the users who see the cadre base once a write to
 * it or its records commits, so open cadre pages reload.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { GB_BASE_REFRESH_EVENT } from '../../../shared/constants.js';
import { HttpError } from '../../errors.js';
import { statutoryRetireDate, type RetirementInput } from '../../../shared/cadre/retirement.js';
import { registerHook } from '../../runtime/index.js';

/** Fields a cadre takes from the linked member or staff member when left empty. */
const FROM_MEMBER = { ethnicity: 'ethnicity', idCard: 'id_card', nativePlace: 'native_place', joinPartyDate: 'join_date', workStartDate: 'work_start_date', phone: 'phone' } as const;
const FROM_TEACHER = { ethnicity: 'ethnicity', idCard: 'id_card', phone: 'phone', workStartDate: 'hired_on' } as const;

registerHook('cadre.person', async (ctx) => {
  if (ctx.action === 'delete') return;
  const r = { ...ctx.previous, ...ctx.record };
  const fill = async (table: string, id: unknown, columns: Record<string, string>, field: string, title: string) => {
    if (typeof id !== 'number' || (ctx.previous && ctx.previous[field] === id)) return;
    const row = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE id = ${id}`.execute(ctx.trx)).rows[0];
    if (!row) throw new HttpError(400, `${title}所选的记录不存在`, { errors: [{ field, message: `${title}所选的记录不存在` }] });
    if (row.name !== r.name) throw new HttpError(400, `${title}（${String(row.name)}）与干部姓名（${String(r.name)}）不一致`, { errors: [{ field, message: `${title}与干部姓名不一致` }] });
    for (const [f, col] of Object.entries(columns)) {
      const v = row[col];
      if ((r[f] === null || r[f] === undefined || r[f] === '') && v !== null && v !== undefined && v !== '') ctx.record[f] = v instanceof Date ? v.toISOString().slice(0, 10) : v;
    }
  };
  await fill('m_member', r.memberId, FROM_MEMBER, 'memberId', '关联党员');
  await fill('m_teacher', r.teacherId, FROM_TEACHER, 'teacherId', '关联教职工');
  if (r.memberId && !r.politicalStatus) ctx.record.politicalStatus = '01';
});

/**
 * `retireDate`: the day the statutory retirement age is reached, computed on every write (the 2025
 * decision's table by birth month; women at 处级 or with a senior title at 60 unless they chose the women's
 * age, 组通字〔2015〕14号). Read-only to clients.
 */
registerHook('cadre.retireDate', async (ctx) => {
  if (ctx.action === 'delete') return;
  ctx.record.retireDate = statutoryRetireDate({ ...ctx.previous, ...ctx.record } satisfies RetirementInput);
});

/** The cadre base's modules: the record and its children (the pages showing them reload on the event). */
export const CADRE_BASE_MODULES = new Set(['cadre', 'cadre-archive', 'cadre-post', 'cadre-education', 'cadre-family', 'cadre-training', 'cadre-basic-assessment', 'cadre-assessment', 'cadre-resume', 'cadre-secondment']);

/** After a committed write to the cadre base, `gb_base_refresh` goes to the online users who may list it. */
export function pushBaseRefresh(app: FastifyInstance): void {
  app.runtime.events.on('write', (e) => {
    if (!CADRE_BASE_MODULES.has(e.module)) return;
    void (async () => {
      const rows = await sql<{ id: number }>`SELECT DISTINCT ur.user_id AS id FROM user_roles ur JOIN roles r ON r.id = ur.role_id
          WHERE 'cadre-info:list' = ANY(r.permissions) OR 'admin' = ANY(r.permissions)`.execute(app.services.database.db);
      app.services.messages.push(rows.rows.map((r) => r.id), { type: GB_BASE_REFRESH_EVENT, module: e.module, action: e.action === 'create' ? 'created' : e.action === 'update' ? 'updated' : 'deleted', ids: e.ids });
    })().catch(() => undefined);
  });
}

import { sql } from 'kysely';
import { ChangeRecordOrigin } from '../../../shared/constants.js';
import { yearOf } from '../../../shared/calendar.js';
import { parseYuan } from '../../../shared/dues/money.js';
import { categoryOfMember, DuesCategoryLabel, isDuesCategory, needsBase } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerHook, type EffectContext, type HookContext, type Runtime } from '../../runtime/index.js';
import { duesSettings } from './settings.js';
import { sameBase, standardValues, STANDARD_SOURCE } from './standard-values.js';
import { writeStandards } from './standard-writer.js';
import { duesDb } from './tables.js';

const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

/**
 * `dues.standard` (beforeWrite of module dues-standard, i.e. writes by hand and the generic import):
 * the member's branch and name, and the rate, monthly amount and rule worked out from the category and
 * base by the rules of 中组发〔2008〕3号 with the school's bands. Clients never write these fields.
 * Bulk writers (payroll import, generation) compute the same values with standardValues() themselves.
 */
export function registerStandardHook(school: string, runtime: Runtime): void {
  arrivals = { school, runtime };
  registerHook('dues.standard', async (ctx: HookContext) => {
    if (ctx.action === 'delete') return;
    const r = ctx.record;
    const member = await duesDb(ctx.trx).selectFrom('m_member').select(['id', 'name', 'org_id']).where('id', '=', r.memberId as number).executeTakeFirst();
    if (!member) throw fieldError('memberId', '党员所选的记录不存在');
    if (member.org_id === null) throw fieldError('memberId', `党员“${member.name}”没有所在党支部，请先维护党员信息`);
    if (ctx.actor.scope !== 'all' && !ctx.actor.scope.includes(member.org_id)) throw fieldError('memberId', `党员“${member.name}”不在您的管理范围内`);
    const category = r.category;
    if (!isDuesCategory(category)) throw fieldError('category', '缴纳类别不正确');
    let baseCents: number | null = null;
    if (needsBase(category)) {
      if (r.base === null || r.base === undefined || r.base === '') throw fieldError('base', `${DuesCategoryLabel[category]}须填写党费基数`);
      baseCents = parseYuan(String(r.base)) ?? null;
      if (baseCents === null) throw fieldError('base', '党费基数须为金额（元），最多两位小数');
    }
    const { bands } = await duesSettings(ctx.trx, school);
    // The source stays what it was unless the category or the base changed.
    const previous = ctx.action === 'update' ? ctx.previous : undefined;
    const unchanged = previous && previous.category === category && sameBase(previous.base, needsBase(category) ? r.base : null);
    const imported = ctx.origin === ChangeRecordOrigin.SYSTEM_IMPORT || ctx.origin === ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE;
    const source = unchanged && previous.source ? (previous.source as string) : imported ? STANDARD_SOURCE.IMPORT : STANDARD_SOURCE.MANUAL;
    Object.assign(r, standardValues({ id: member.id, name: member.name, orgId: member.org_id }, category, baseCents, bands, source));
  });
}

/** Set while the dues area runs: the effect below writes standards through it. */
let arrivals: { school: string; runtime: Runtime } | undefined;

/**
 * `dues.newMemberStandard`: an effect of the steps that bring a member in (development's admission, a
 * transfer in; after the effect that sets `memberId`). Probationary members pay from admission
 * (中组发〔2008〕3号第八条), so the member gets the year's standard in the step's transaction: students and
 * members without income the flat rate; in-service and retired members from the base given with the step
 * (`duesBase`) or their last standard's. Without a base the member is left for the payroll import (as
 * 按规定生成 leaves them); a standard the year already has stays.
 */
registerEffect('dues.newMemberStandard', async (ctx: EffectContext) => {
  const memberId = ctx.next.memberId;
  if (!arrivals || typeof memberId !== 'number') return;
  const year = yearOf(ctx.today);
  const member = (await sql<{ id: number; name: string; orgId: number | null; category: string | null; hasStandard: boolean; lastBase: string | null; lastCategory: string | null }>`
    SELECT m.id, m.name, m.org_id AS "orgId", m.category,
      EXISTS (SELECT 1 FROM m_dues_standard s WHERE s.member_id = m.id AND s.year = ${year}) AS "hasStandard",
      l.base AS "lastBase", l.category AS "lastCategory"
    FROM m_member m
    LEFT JOIN LATERAL (SELECT base, category FROM m_dues_standard s WHERE s.member_id = m.id AND s.year < ${year} ORDER BY s.year DESC LIMIT 1) l ON true
    WHERE m.id = ${memberId}`.execute(ctx.trx)).rows[0];
  if (!member || member.orgId === null || member.hasStandard) return;
  const category = categoryOfMember(member.category);
  const given = typeof ctx.values.duesBase === 'string' && ctx.values.duesBase.trim() ? parseYuan(ctx.values.duesBase.trim()) : undefined;
  if (given === null) throw fieldError('duesBase', '党费基数须为金额（元），最多两位小数');
  const carried = member.lastBase && member.lastCategory === category ? parseYuan(member.lastBase) : undefined;
  const baseCents = needsBase(category) ? (given ?? carried ?? null) : null;
  if (needsBase(category) && baseCents === null) return;
  const { school, runtime } = arrivals;
  const { bands } = await duesSettings(ctx.trx, school);
  const labels = new Map(Object.entries(DuesCategoryLabel));
  await writeStandards(runtime, school, year, [{ member: { id: member.id, name: member.name, orgId: member.orgId }, category, baseCents, source: STANDARD_SOURCE.RULES }], bands, ctx.actor, {
    imported: false,
    categoryLabels: labels,
    trx: ctx.trx,
  });
});

/**
 * `dues.memberGone`: after an effect that may delete the member a step brought in (an admission undone
 * before the committee approved it), the standards of a member who no longer exists go with it.
 */
registerEffect('dues.memberGone', async (ctx: EffectContext) => {
  const memberId = ctx.record.memberId;
  if (!arrivals || typeof memberId !== 'number') return;
  const exists = await duesDb(ctx.trx).selectFrom('m_member').select('id').where('id', '=', memberId).executeTakeFirst();
  if (exists) return;
  const ids = (await duesDb(ctx.trx).selectFrom('m_dues_standard').select('id').where('member_id', '=', memberId).execute()).map((r) => r.id);
  if (ids.length) await ctx.records('dues-standard').remove(ids, { ...ctx.actor, scope: 'all' }, { trx: ctx.trx });
});

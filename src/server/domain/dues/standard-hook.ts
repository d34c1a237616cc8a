import { ChangeRecordOrigin } from '../../../shared/constants.js';
import { parseYuan } from '../../../shared/dues/money.js';
import { DuesCategoryLabel, isDuesCategory, needsBase } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { registerHook, type HookContext } from '../../runtime/index.js';
import { duesSettings } from './settings.js';
import { sameBase, standardValues, STANDARD_SOURCE } from './standard-values.js';
import { duesDb } from './tables.js';

const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

/**
 * `dues.standard` (beforeWrite of module dues-standard, i.e. writes by hand and the generic import):
 * the member's branch and name, and the rate, monthly amount and rule worked out from the category and
 * base by the rules of 中组发〔2008〕3号 with the school's bands. Clients never write these fields.
 * Bulk writers (payroll import, generation) compute the same values with standardValues() themselves.
 */
export function registerStandardHook(school: string): void {
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

/** 我的党费: what a member sees of their own dues — standard, what is due, what is paid, receipts. */
import { formatCents } from '../../../shared/dues/money.js';
import { DuesCategoryLabel, isDuesCategory } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { memberOfUser } from '../member/accounts.js';
import type { Dues } from './context.js';
import { memberItems } from './items.js';
import { onlinePayment } from './online.js';
import { receipts } from './payments.js';
import { duesSettings } from './settings.js';
import { duesStatusOf } from './status.js';
import type { MyDues } from '../../../shared/dues/api.js';

/** The signed-in user's member record; 404 with a clear message when the account is not a member's. */
export async function myMember(dues: Dues, userId: number) {
  const member = await memberOfUser(dues.services.database.db, userId);
  if (!member) throw new HttpError(404, '您的账号未关联党员信息，请联系党支部管理员');
  return member;
}

export async function myDues(dues: Dues, userId: number, year: number): Promise<MyDues> {
  const settings = await duesSettings(dues.services.database.db, dues.school);
  const base = { formulaText: settings.formulaText, rules: settings.rules, source: settings.source, online: await onlinePayment(dues) };
  const member = await memberOfUser(dues.services.database.db, userId);
  if (!member) return { member: null, standard: null, status: null, items: [], receipts: [], ...base };
  const orgName = member.orgId !== null ? await dues.levels.name(member.orgId) : '';
  const standard = await dues.db.selectFrom('m_dues_standard').selectAll().where('member_id', '=', member.id).where('year', '=', year).executeTakeFirst();
  const paymentIds = (await dues.db.selectFrom('dues_payment').select('id').where('member_id', '=', member.id).where('school', '=', dues.school).orderBy('id', 'desc').limit(50).execute()).map((p) => p.id);
  return {
    member: { id: member.id, name: member.name, orgName },
    standard: standard
      ? { year, category: standard.category, categoryLabel: isDuesCategory(standard.category) ? DuesCategoryLabel[standard.category] : standard.category, base: standard.base, rate: standard.rate ?? '', amount: standard.amount ?? formatCents(0), rule: standard.rule ?? '' }
      : null,
    status: await duesStatusOf(dues.services.database.db, member.id),
    items: await memberItems(dues, member.id),
    receipts: await receipts(dues, paymentIds),
    ...base,
  };
}

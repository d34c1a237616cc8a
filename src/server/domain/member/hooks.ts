import { sql } from 'kysely';
import { registerHook } from '../../runtime/hooks.js';
import { ACTIVE_MEMBER_STATUS } from '../../../shared/party-members.js';

/**
 * A member renamed (a correction of the record, 党员档案): the account linked to the member and the
 * party-school student records that copied the name take the new one in the same transaction, so the
 * person is named one way everywhere (issue 33.6; linkUserToMember sets them at linking).
 */
registerHook('member.rename', async (ctx) => {
  if (ctx.action !== 'update' || !ctx.id || !ctx.previous || ctx.previous.name === ctx.record.name) return;
  const name = String(ctx.record.name ?? '');
  if (!name) return;
  await sql`UPDATE users SET nick_name = ${name} WHERE member_id = ${ctx.id}`.execute(ctx.trx);
  await sql`UPDATE m_pschool_student s SET name = ${name} FROM users u WHERE u.member_id = ${ctx.id} AND s.user_id = u.id`.execute(ctx.trx);
});

/**
 * 党籍状态 is read-only in the generic form and API (issue 41): only the processes that decide it (出党,
 * 停止/恢复党籍, 转出, 转入, 取消预备党员资格) set it, through WriteOptions.set in their step's transaction.
 * A member record made by hand or by an import is 正常.
 */
registerHook('member.partyStatus', (ctx) => {
  if (ctx.action !== 'create') return;
  if (ctx.record.partyStatus === undefined || ctx.record.partyStatus === null || ctx.record.partyStatus === '') ctx.record.partyStatus = ACTIVE_MEMBER_STATUS;
});

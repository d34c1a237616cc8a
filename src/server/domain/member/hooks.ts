import { sql } from 'kysely';
import { registerHook } from '../../runtime/hooks.js';

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

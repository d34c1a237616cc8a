import { sql } from 'kysely';
import { localToday } from '../../shared/module-schema/computed.js';
import { seedWorkflowTodos } from './development.js';
import type { SeedContext } from './index.js';

/**
 * The mobile terminal's demo (issue 31), after the dues seeder linked `dy` and `zbsj` to members of their branch:
 * a 主题党日 of the branch today, so the secretary can show its check-in code and the member scan it, and a
 * change request of `dy` waiting for the branch (a to-do of `zbsj`, listed under 党员管理 › 信息修改申请).
 */
export async function seedDemoMobile({ database, config, log, app }: SeedContext): Promise<void> {
  const { db } = database;
  const dy = (await sql<{ userId: number; memberId: number; orgId: number; address: string | null }>`
    SELECT u.id AS "userId", m.id AS "memberId", m.org_id AS "orgId", m.address FROM users u JOIN m_member m ON m.id = u.member_id WHERE u.username = 'dy'`.execute(db)).rows[0];
  if (!dy) return;
  const today = localToday();
  await sql`INSERT INTO m_meeting (school, org_id, type, date, topic, place, invalid, state, attendee_ids, absent_ids)
    VALUES (${config.school}, ${dy.orgId}, '主题党日', ${today}, '主题党日：学习党的二十届四中全会精神', '党员活动室', false, -1, '[]'::jsonb, '[]'::jsonb)`.execute(db);
  await sql`INSERT INTO m_member_change_request (school, member_id, org_id, user_id, field, old_value, new_value, reason, apply_date, state)
    VALUES (${config.school}, ${dy.memberId}, ${dy.orgId}, ${dy.userId}, '家庭住址', ${dy.address}, '学院路 37 号教师公寓 3 栋', '搬家，更新家庭住址', ${today}, 0)`.execute(db);
  const todos = app ? await seedWorkflowTodos(app, 'member-change-request') : 0;
  log.info({ meetings: 1, changeRequests: 1, todos }, 'demo mobile seeded');
}

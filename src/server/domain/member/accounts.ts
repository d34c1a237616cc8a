import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * The party member an account belongs to (users.member_id, migration 0060), for the pages where members
 * see their own records (my dues, later the mobile terminal). Undefined when the account is not a member's.
 */
export async function memberOfUser(db: Kysely<DB>, userId: number): Promise<{ id: number; name: string; orgId: number | null } | undefined> {
  const rows = await sql<{ id: number; name: string; orgId: number | null }>`
    SELECT m.id, m.name, m.org_id AS "orgId" FROM users u JOIN m_member m ON m.id = u.member_id WHERE u.id = ${userId}`.execute(db);
  return rows.rows[0];
}

/** Links an account to a member record (one account per member). */
export async function linkUserToMember(db: Kysely<DB>, userId: number, memberId: number | null): Promise<void> {
  await sql`UPDATE users SET member_id = ${memberId} WHERE id = ${userId}`.execute(db);
}

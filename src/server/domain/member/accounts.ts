import { sql, type Kysely, type RawBuilder } from 'kysely';
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

/**
 * The name a person goes by, as an SQL expression over the users row aliased `alias`: the member's name
 * when the account is linked to a member record, else the account's nickname, else its username (issue 33.6:
 * one person, one name in every list that names accounts).
 */
export function personName(alias: string): RawBuilder<string> {
  const col = (c: string) => sql.ref(`${alias}.${c}`);
  return sql<string>`COALESCE((SELECT pm.name FROM m_member pm WHERE pm.id = ${col('member_id')}), NULLIF(${col('nick_name')}, ''), ${col('username')})`;
}

/** The name one account's person goes by (see personName). */
export async function personNameOf(db: Kysely<DB>, userId: number): Promise<string | undefined> {
  const rows = await sql<{ name: string }>`SELECT ${personName('u')} AS name FROM users u WHERE u.id = ${userId}`.execute(db);
  return rows.rows[0]?.name;
}

/**
 * Links an account to a member record (one account per member). The account and the records that copied its
 * name (party-school students) take the member's name, so the person is named one way everywhere.
 */
export async function linkUserToMember(db: Kysely<DB>, userId: number, memberId: number | null): Promise<void> {
  // The account goes by the member's name from then on (the top bar, messages); its owner may still change it in 个人中心.
  await sql`UPDATE users SET member_id = ${memberId}, nick_name = COALESCE((SELECT m.name FROM m_member m WHERE m.id = ${memberId}), nick_name) WHERE id = ${userId}`.execute(db);
  if (memberId !== null) await sql`UPDATE m_pschool_student s SET name = m.name FROM m_member m WHERE m.id = ${memberId} AND s.user_id = ${userId} AND s.name <> m.name`.execute(db);
}

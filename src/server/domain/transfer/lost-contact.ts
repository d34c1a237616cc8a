/**
 * Members out of touch (失去联系党员) and members away (外出6个月以上未登记流动), for the branch to act on.
 *
 * 《中国共产党党员教育管理工作条例》(2019): 对失去联系的党员, 党组织应当通过各种方式查找; 失去联系
 * 6个月以上、通过各种方式查找仍然没有取得联系的, 予以停止党籍. 党员外出学习或工作6个月以上、地点相对
 * 固定的, 一般应当转移组织关系; 不能转移的, 作为流动党员管理.
 *
 * A member's last contact is the latest of: their contact records (member-contact), the day they arrived by
 * a transfer in, the day they came back from floating; with no contact record, the day their record was made.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import { SIX_MONTHS } from '../../../shared/transfer/rules.js';
import { finalStates } from './facts.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { onRosterSql } from '../member/members.js';

export interface LostContact {
  memberId: number;
  name: string;
  orgId: number | null;
  orgName: string | null;
  partyStatus: string | null;
  /** 'YYYY-MM-DD'. */
  lastContact: string;
}

const scopeOf = (orgIds: number[] | 'all', column: string): RawBuilder<boolean> =>
  orgIds === 'all' ? sql<boolean>`true` : orgIds.length ? sql<boolean>`${sql.ref(column)} = ANY(${orgIds}::int[])` : sql<boolean>`false`;

/** `date + 6 months <= today`, in SQL: PostgreSQL clamps month ends as `addMonths` does (08-31 + 6 months = 02-28). */
const sixMonthsBefore = (date: RawBuilder<unknown>, today: string) => sql<boolean>`(${date} + make_interval(months => ${SIX_MONTHS}))::date <= ${today}::date`;

/**
 * The latest contact date of each member as a joinable set (`member_id`, `last_contact`): one aggregate per
 * source, joined once (a correlated subquery per member took seconds on the embedded engine).
 */
function lastContacts(modules: { transferIn?: RuntimeModule; floating?: RuntimeModule }, members: RawBuilder<boolean>): RawBuilder<unknown> {
  const arrived = modules.transferIn ? sql`SELECT member_id, max(arrive_date) AS d FROM m_transfer_in WHERE member_id IS NOT NULL GROUP BY member_id` : sql`SELECT NULL::int AS member_id, NULL::date AS d WHERE false`;
  const returned = modules.floating ? sql`SELECT member_id, max(return_date) AS d FROM m_floating WHERE member_id IS NOT NULL GROUP BY member_id` : sql`SELECT NULL::int AS member_id, NULL::date AS d WHERE false`;
  return sql`
    SELECT m.id AS member_id, greatest(coalesce(c.d, m.created_at::date), t.d, f.d) AS last_contact
    FROM m_member m
    LEFT JOIN (SELECT member_id, max(contact_date) AS d FROM m_member_contact GROUP BY member_id) c ON c.member_id = m.id
    LEFT JOIN (${arrived}) t ON t.member_id = m.id
    LEFT JOIN (${returned}) f ON f.member_id = m.id
    WHERE ${members}`;
}

/**
 * Members on the roster (正常 or 失联) whose last contact is six months or more before `today`, in the
 * organisations given ('all': everywhere), the longest out of touch first.
 */
export async function lostContacts(
  db: Kysely<DB>,
  orgIds: number[] | 'all',
  today: string,
  modules: { transferIn?: RuntimeModule; floating?: RuntimeModule } = {},
): Promise<LostContact[]> {
  const rows = await sql<LostContact>`
    SELECT m.id AS "memberId", m.name, m.org_id AS "orgId", o.name AS "orgName", m.party_status AS "partyStatus", l.last_contact::text AS "lastContact"
    FROM (${lastContacts(modules, sql<boolean>`m.party_status IN ('1', '2') AND ${scopeOf(orgIds, 'm.org_id')}`)}) l
    JOIN m_member m ON m.id = l.member_id LEFT JOIN m_org o ON o.id = m.org_id
    WHERE ${sixMonthsBefore(sql`l.last_contact`, today)}
    ORDER BY l.last_contact, m.name__py, m.name, m.id`.execute(db);
  return rows.rows;
}

/** One member's last contact date (null when the member does not exist). */
export async function lastContactOfMember(db: Kysely<DB>, memberId: number, modules: { transferIn?: RuntimeModule; floating?: RuntimeModule } = {}): Promise<string | null> {
  const rows = await sql<{ last: string }>`SELECT last_contact::text AS last FROM (${lastContacts(modules, sql<boolean>`m.id = ${memberId}`)}) l`.execute(db);
  return rows.rows[0]?.last ?? null;
}

export interface AwayMember {
  memberId: number;
  name: string;
  orgId: number | null;
  orgName: string | null;
  awaySince: string;
  place: string | null;
}

/**
 * Members whose latest contact record says they are away, since six months or more before `today`, with
 * no floating record under way: suggested for registration as floating members (外出流动).
 */
export async function awayWithoutFloating(db: Kysely<DB>, orgIds: number[] | 'all', today: string, floating: RuntimeModule): Promise<AwayMember[]> {
  const finals = finalStates(floating);
  const rows = await sql<AwayMember>`
    SELECT m.id AS "memberId", m.name, m.org_id AS "orgId", o.name AS "orgName", c.away_since::text AS "awaySince", c.place
    FROM m_member m
    JOIN LATERAL (SELECT away, away_since, place FROM m_member_contact c WHERE c.member_id = m.id ORDER BY contact_date DESC, id DESC LIMIT 1) c ON c.away
    LEFT JOIN m_org o ON o.id = m.org_id
    WHERE ${onRosterSql('m')} AND ${scopeOf(orgIds, 'm.org_id')} AND c.away_since IS NOT NULL
      AND ${sixMonthsBefore(sql`c.away_since`, today)}
      AND NOT EXISTS (SELECT 1 FROM m_floating f WHERE f.member_id = m.id AND f.type = 'out' AND coalesce(f.state, 0) <> ALL(${finals}::int[]))
    ORDER BY c.away_since, m.name`.execute(db);
  return rows.rows;
}

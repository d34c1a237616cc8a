/**
 * Who a meeting starts from (issue 43.7). A 支委会 is the 支部委员会's meeting: its members are the current term's
 * committee (org-term, the one source of who leads an organisation; its 纪委 is another body), so the committee
 * size comes from the term, not from what was typed (支委会到会须超过半数, src/shared/meetings/rules.ts). A 支部党员大会
 * starts from the branch's members on the roll; those with the right to vote (正式党员, 党章第七条) are the entitled.
 * The `meetings.attendance` fill gives the form these values as the user picks the type and organisation; the
 * `meetings.quorum` hook takes the committee size from the term again on save.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { registerFill } from '../../runtime/index.js';
import { onRosterSql } from '../member/members.js';

export const COMMITTEE_MEETING = '支委会';
export const MEMBERS_MEETING = '支部党员大会';

export interface Committee {
  /** The people named on the current term ("张三（书记）、李四（委员）"), in its order. */
  names: string[];
  /** Those of them found on the organisation's roll (one member of that name). */
  memberIds: number[];
}

/** The names of a term's committee text: "张三（书记）、李四（委员）" → 张三, 李四. */
export function committeeNames(text: string | null | undefined): string[] {
  return (text ?? '').split(/[、，,；;\s]+/).map((s) => s.replace(/[（(].*?[）)]/g, '').trim()).filter(Boolean);
}

/** The current committee of an organisation (not its 纪委), or null without a term that names one. */
export async function committeeOf(db: Kysely<DB>, orgId: number): Promise<Committee | null> {
  const term = (await sql<{ committee: string | null }>`
    SELECT committee FROM m_org_term WHERE org_id = ${orgId} AND current AND body IS DISTINCT FROM '纪委' ORDER BY id DESC LIMIT 1`.execute(db)).rows[0];
  const names = committeeNames(term?.committee);
  if (!names.length) return null;
  const rows = (await sql<{ id: number; name: string }>`
    SELECT m.id, m.name FROM m_member m WHERE m.org_id = ${orgId} AND m.name = ANY(${names}::text[]) AND ${onRosterSql('m')}`.execute(db)).rows;
  const ids = names.flatMap((n) => {
    const found = rows.filter((r) => r.name === n);
    return found.length === 1 ? [found[0]!.id] : [];
  });
  return { names, memberIds: ids };
}

registerFill('meetings.attendance', async ({ db, values }) => {
  const orgId = Number(values.orgId);
  if (!Number.isSafeInteger(orgId) || orgId <= 0) return {};
  if (values.type === COMMITTEE_MEETING) {
    const committee = await committeeOf(db, orgId);
    return committee ? { committeeSize: committee.names.length, attendeeIds: committee.memberIds } : {};
  }
  if (values.type === MEMBERS_MEETING) {
    const rows = (await sql<{ id: number; member_type: string | null }>`
      SELECT m.id, m.member_type FROM m_member m WHERE m.org_id = ${orgId} AND ${onRosterSql('m')} ORDER BY m.id`.execute(db)).rows;
    const full = rows.filter((r) => r.member_type === '1').length;
    return { attendeeIds: rows.map((r) => r.id), ...(full ? { entitled: full } : {}) };
  }
  return {};
});

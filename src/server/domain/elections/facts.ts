/** What the election rules read from the database: members with their type and organisation, organisations. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface MemberFact {
  id: number;
  name: string;
  /** DJ_DYJBXX_RYLX: 1 正式党员, 2 预备党员. */
  memberType: string | null;
  /** Whether the member belongs to the organisation asked about (it or one under it). */
  inside: boolean;
}

export const FULL_MEMBER = '1';

/** The members named, each with whether it belongs to `orgId`'s subtree (read in the caller's transaction). */
export async function membersOf(db: Kysely<DB>, ids: number[], orgId: number | null): Promise<Map<number, MemberFact>> {
  if (!ids.length) return new Map();
  const rows = await sql<{ id: number; name: string; member_type: string | null; inside: boolean }>`
    WITH RECURSIVE sub AS (SELECT id FROM m_org WHERE id = ${orgId ?? -1} UNION ALL SELECT o.id FROM m_org o JOIN sub ON o.parent_id = sub.id)
    SELECT m.id, m.name, m.member_type, (m.org_id IN (SELECT id FROM sub)) AS inside FROM m_member m WHERE m.id = ANY(${ids}::int[])`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, { id: r.id, name: r.name, memberType: r.member_type, inside: !!r.inside }]));
}

export interface OrgFact {
  id: number;
  name: string;
  type: string | null;
  termStart: string | null;
  termEnd: string | null;
}

export async function orgOf(db: Kysely<DB>, id: number | null | undefined): Promise<OrgFact | undefined> {
  if (typeof id !== 'number') return undefined;
  const rows = await sql<OrgFact>`SELECT id, name, type, term_start AS "termStart", term_end AS "termEnd" FROM m_org WHERE id = ${id}`.execute(db);
  return rows.rows[0];
}

export const idList = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isSafeInteger(x)) : []);

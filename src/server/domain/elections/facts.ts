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

/** `WITH RECURSIVE sub`: the organisation `orgId` and every one under it, for a query to read `sub` (null: none). */
export const withSubtree = (orgId: number | null) =>
  sql`WITH RECURSIVE sub AS (SELECT id FROM m_org WHERE id = ${orgId ?? -1} UNION ALL SELECT o.id FROM m_org o JOIN sub ON o.parent_id = sub.id)`;

/** The members named, each with whether it belongs to `orgId`'s subtree (read in the caller's transaction). */
export async function membersOf(db: Kysely<DB>, ids: number[], orgId: number | null): Promise<Map<number, MemberFact>> {
  if (!ids.length) return new Map();
  const rows = await sql<{ id: number; name: string; member_type: string | null; inside: boolean }>`
    ${withSubtree(orgId)}
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

/**
 * Those entitled to vote (应到会有选举权的人数): the roll less those excused by the assembly (因故不能到会,
 * `excusedIds`; 条例: 经党员大会同意，可以不计算在应到会人数之内). The base of the quorum and the majority.
 */
export const entitledOf = (record: Record<string, unknown>): number => {
  const excused = new Set(idList(record.excusedIds));
  return idList(record.voterIds).filter((id) => !excused.has(id)).length;
};

/** Members of `orgId`'s subtree by name (a name written in on a ballot): name → ids. */
export async function membersNamed(db: Kysely<DB>, names: string[], orgId: number | null): Promise<Map<string, number[]>> {
  if (!names.length || orgId === null) return new Map();
  const rows = await sql<{ id: number; name: string }>`
    ${withSubtree(orgId)}
    SELECT m.id, m.name FROM m_member m WHERE m.name = ANY(${names}::text[]) AND m.org_id IN (SELECT id FROM sub) ORDER BY m.id`.execute(db);
  const out = new Map<string, number[]>();
  for (const r of rows.rows) out.set(r.name, [...(out.get(r.name) ?? []), r.id]);
  return out;
}

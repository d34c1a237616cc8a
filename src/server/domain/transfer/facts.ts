/**
 * What the transfer rules read about members, organisations and other transfers. Every function takes
 * the database handle to read through: inside a write that is the write's transaction (on the embedded
 * database a read outside an open transaction would wait for it).
 */
import { sql, type Kysely } from 'kysely';
import { tryLockFor } from '../../db/one-at-a-time.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { finalStates } from '../../runtime/workflow/states.js';

export interface MemberFacts {
  id: number;
  name: string;
  orgId: number | null;
  memberType: string | null;
  partyStatus: string | null;
  joinDate: string | null;
  fullDate: string | null;
  idCard: string | null;
  gender: string | null;
  phone: string | null;
}

export async function memberFacts(db: Kysely<DB>, id: unknown): Promise<MemberFacts | undefined> {
  if (typeof id !== 'number') return undefined;
  const rows = await sql<MemberFacts>`
    SELECT id, name, org_id AS "orgId", member_type AS "memberType", party_status AS "partyStatus", join_date AS "joinDate",
           full_date AS "fullDate", id_card AS "idCard", gender, phone
    FROM m_member WHERE id = ${id}`.execute(db);
  return rows.rows[0];
}

export interface OrgFacts {
  id: number;
  name: string;
  type: string | null;
  parentId: number | null;
}

export async function orgFacts(db: Kysely<DB>, id: unknown): Promise<OrgFacts | undefined> {
  if (typeof id !== 'number') return undefined;
  const rows = await sql<OrgFacts>`SELECT id, name, type, parent_id AS "parentId" FROM m_org WHERE id = ${id}`.execute(db);
  return rows.rows[0];
}

/** DJ_DZZ_LB 3 党支部, 4 联合党支部, 5 临时党支部: the organisations members belong to. */
export const BRANCH_TYPES = new Set(['3', '4', '5']);

/** Party status (DJ_DY_DJZTXX) of a member on the roster in good standing. */
export const STATUS_NORMAL = '1';
/** Party status of a member whose relation left the university (kept for history). */
export const STATUS_TRANSFERRED_OUT = '6';

/** The state codes of a workflow module that end a record (done, rejected, withdrawn), from its schema. */
export { finalStates };

export interface OpenTransfer {
  module: string;
  title: string;
  id: number;
}

/**
 * The member's transfers still under way in these modules (any state that is not final), except the
 * record `except`. Takes a transaction-scoped lock on the member first, so two transfers of one member
 * started at once are checked one after the other; a second one racing the first answers 409 (never
 * waits: db/one-at-a-time.ts).
 */
export async function openTransfersOf(db: Kysely<DB>, modules: RuntimeModule[], memberId: number, except?: { module: string; id?: number }): Promise<OpenTransfer[]> {
  if (!(await tryLockFor(db, 'transfer:member', memberId))) {
    throw new HttpError(409, '该党员的另一项组织关系事项正在办理，请稍后再试', { errors: [{ field: 'memberId', message: '该党员的另一项组织关系事项正在办理' }] });
  }
  const open: OpenTransfer[] = [];
  for (const m of modules) {
    const finals = finalStates(m);
    const rows = await sql<{ id: number }>`
      SELECT id FROM ${sql.table(m.table)}
      WHERE member_id = ${memberId} AND coalesce(state, 0) <> ALL(${finals}::int[])
        AND NOT (${m.id === except?.module} AND id = ${except?.id ?? 0})
      ORDER BY id LIMIT 1`.execute(db);
    for (const r of rows.rows) open.push({ module: m.id, title: m.title, id: r.id });
  }
  return open;
}

/**
 * Issue 25.3: a transfer-in (接收入册) may bring back an existing member record only when the member left
 * the school (转出) or the receiving side may already see the record. Anyone else on the roster (失联,
 * 停止党籍 … in another college) is not taken over by a letter: the refusal names the status, and the
 * member's own organisation deals with them. Checked when the letter is registered and again when the
 * member is admitted (the status may have changed in between).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import { STATUS_NORMAL, STATUS_TRANSFERRED_OUT } from './facts.js';

export interface Readmitted {
  id: number;
  orgId: number | null;
}

const refuse = (message: string): never => {
  throw new HttpError(400, message, { errors: [{ field: 'idCard', message }] });
};
const sees = (actor: Actor, orgId: number | null) => actor.scope === 'all' || (orgId !== null && actor.scope.includes(orgId));

/** The member record a transfer-in with this ID number re-activates (undefined: a new record), or a 400 saying why not. */
export async function memberToReadmit(db: Kysely<DB>, idCard: string, actor: Actor): Promise<Readmitted | undefined> {
  const rows = await sql<{ id: number; orgId: number | null; status: string | null; label: string | null }>`
    SELECT m.id, m.org_id AS "orgId", m.party_status AS status, d.label
    FROM m_member m LEFT JOIN dict_details d ON d.dict_code = 'DJ_DY_DJZTXX' AND d.value = m.party_status
    WHERE m.id_card = ${idCard} ORDER BY m.id`.execute(db);
  const member = rows.rows[0];
  if (!member) return undefined;
  if (member.status === STATUS_NORMAL) refuse(`身份证号为${idCard}的党员已在本校党员名册中，无需办理转入`);
  if (member.status === STATUS_TRANSFERRED_OUT || sees(actor, member.orgId)) return { id: member.id, orgId: member.orgId };
  refuse(`身份证号为${idCard}的人员在本校党员名册中的党籍状态为“${member.label ?? member.status ?? '未知'}”，不能通过组织关系转入恢复，请由其所在党组织办理`);
}

/**
 * Who has lost the right to vote and to stand (表决权、选举权和被选举权) on a day, with the reason in Chinese:
 * the roll and the candidate lists of elections read this (src/server/domain/elections/roll.ts).
 *
 * - 党章第七条 / 条例第五条: 预备党员没有表决权、选举权和被选举权;
 * - 条例第五条: 受留党察看处分的党员在留党察看期间没有表决权、选举权和被选举权 — an active 留党察看 is a
 *   `member-discipline` record (the member lifecycle's) of kind '4' with decidedOn ≤ onDate ≤ probationEnd;
 * - a member whose 党籍 (partyStatus, DJ_DY_DJZTXX) is not 正常 ('1'): 失联, 停止党籍, 出党, 死亡, 转出.
 *
 * `member-discipline` is read only when that module is registered (the runtime creates a module's table when
 * it registers it, table-sync); without it the discipline check is skipped. Aggregate facts only: no row read
 * here is returned to a caller.
 */
import { sql, type Kysely } from 'kysely';
import { ownValue } from '../../../shared/own.js';
import type { DB } from '../../db/types.js';

/** What the check reads through: the caller's transaction (a hook's or guard's `trx`). */
export interface RightsContext {
  trx: Kysely<DB>;
}

const FULL_MEMBER = '1';
const NORMAL_STATUS = '1';
/** DJ_DY_DJZTXX labels, for the reason. */
const STATUS_TITLES: Record<string, string> = { '2': '失联', '3': '停止党籍', '4': '出党', '5': '死亡', '6': '转出' };
const PROBATION_KIND = '4';

async function disciplineRegistered(db: Kysely<DB>): Promise<boolean> {
  const r = await sql<{ t: string | null }>`SELECT to_regclass('m_member_discipline')::text AS t`.execute(db);
  return !!r.rows[0]?.t;
}

/** Member id → why the member has no right to vote nor to stand on `onDate` ('YYYY-MM-DD'); members with the rights are absent. */
export async function membersWithoutElectionRights(ctx: RightsContext, memberIds: number[], onDate: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const ids = [...new Set(memberIds.filter((id) => Number.isSafeInteger(id)))];
  if (!ids.length) return out;
  const rows = await sql<{ id: number; member_type: string | null; party_status: string | null }>`
    SELECT id, member_type, party_status FROM m_member WHERE id = ANY(${ids}::int[])`.execute(ctx.trx);
  for (const r of rows.rows) {
    if (r.party_status && r.party_status !== NORMAL_STATUS) out.set(r.id, `党籍状态为“${ownValue(STATUS_TITLES, r.party_status) ?? r.party_status}”`);
    else if (r.member_type !== FULL_MEMBER) out.set(r.id, '是预备党员（《中国共产党章程》第七条）');
  }
  if (await disciplineRegistered(ctx.trx)) {
    const probation = await sql<{ member_id: number; probation_end: string }>`
      SELECT member_id, to_char(max(probation_end), 'YYYY-MM-DD') AS probation_end FROM m_member_discipline
      WHERE member_id = ANY(${ids}::int[]) AND kind = ${PROBATION_KIND} AND decided_on <= ${onDate}::date AND probation_end >= ${onDate}::date
      GROUP BY member_id`.execute(ctx.trx);
    for (const p of probation.rows) if (!out.has(p.member_id)) out.set(p.member_id, `正在留党察看期间（至${p.probation_end}，《中国共产党基层组织选举工作条例》第五条）`);
  }
  return out;
}

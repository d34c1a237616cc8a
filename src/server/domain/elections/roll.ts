/**
 * The voter roll and the candidates: only full members of the organisation whose rights stand vote and stand
 * (党章第七条: 预备党员没有表决权、选举权和被选举权; 条例第五条: 留党察看期间没有表决权、选举权和被选举权;
 * a stopped, lost or left 党籍 neither: src/server/domain/member/rights.ts). One check for the generic writes
 * (hook) and the steps (guard); the day is the assembly's (today before it is set).
 */
import { sql, type Kysely } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import type { DB } from '../../db/types.js';
import { registerEligibility, registerFill } from '../../runtime/index.js';
import { onRosterSql } from '../member/members.js';
import { membersWithoutElectionRights } from '../member/rights.js';
import { FULL_MEMBER, idList, membersOf, withSubtree } from './facts.js';
import { probationaryRefusal } from './rules.js';

export interface RollProblem {
  field: 'voterIds' | 'candidateIds' | 'excusedIds';
  message: string;
}

const LIST_TITLES = { voterIds: '有选举权的党员名册', candidateIds: '候选人' } as const;

/** The refusal of one member without the right (`reason` from membersWithoutElectionRights). */
export const rightsRefusal = (name: string, reason: string, field: 'voterIds' | 'candidateIds') =>
  `“${name}”${reason}，没有表决权、选举权和被选举权，不能列入${LIST_TITLES[field]}`;

/** The assembly's day (today before it is set): rights are judged on it. */
const dayOf = (record: Record<string, unknown>): string => (typeof record.assemblyDate === 'string' && record.assemblyDate ? record.assemblyDate : localToday());
const orgOfRecord = (record: Record<string, unknown>): number | null => {
  const id = Number(record.orgId ?? NaN);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/**
 * Member id → why the member may not be on the list (`field`) of an election of `orgId` on `onDate`: the one
 * judgement of the save guard, the pickers (x-ref-eligible) and the roll the form fills in.
 */
export async function ineligibleFor(db: Kysely<DB>, field: 'voterIds' | 'candidateIds', ids: number[], orgId: number | null, onDate: string): Promise<Map<number, string>> {
  const facts = await membersOf(db, ids, orgId);
  const lost = await membersWithoutElectionRights({ trx: db }, ids, onDate);
  const right = field === 'voterIds' ? '选举权' : '被选举权';
  const out = new Map<number, string>();
  for (const id of ids) {
    const m = facts.get(id);
    if (!m) continue; // reference validation refuses it
    const reason = lost.get(id);
    if (m.memberType !== FULL_MEMBER) out.set(id, probationaryRefusal(m.name, right));
    else if (reason) out.set(id, rightsRefusal(m.name, reason, field));
    else if (!m.inside) out.set(id, `“${m.name}”不是本组织的党员，不能列入${LIST_TITLES[field]}`);
  }
  return out;
}

export async function rollProblems(db: Kysely<DB>, record: Record<string, unknown>): Promise<RollProblem[]> {
  const orgId = orgOfRecord(record);
  const problems: RollProblem[] = [];
  for (const field of ['voterIds', 'candidateIds'] as const) {
    const ids = idList(record[field]);
    if (new Set(ids).size !== ids.length) problems.push({ field, message: `${LIST_TITLES[field]}中有重复的人员` });
    for (const message of (await ineligibleFor(db, field, [...new Set(ids)], orgId, dayOf(record))).values()) problems.push({ field, message });
  }
  // 因故不能到会 (excused by the assembly) are named from the roll.
  const roll = new Set(idList(record.voterIds));
  if (idList(record.excusedIds).some((id) => !roll.has(id))) problems.push({ field: 'excusedIds', message: '因故不能到会的党员应是有选举权的党员名册中的人员' });
  return problems;
}

/** The pickers of the roll and the candidates grey out who may not be listed, with the reason. */
registerEligibility('elections.rights', async ({ db, field, values, ids }) =>
  ineligibleFor(db, field === 'voterIds' ? 'voterIds' : 'candidateIds', ids, orgOfRecord(values), dayOf(values)),
);

/**
 * The roll as the form fills it when the organisation is chosen (then adjusted by hand): the members on the roster
 * of the organisation and those under it, less those the one judgement refuses (预备党员, rights lost: 条例第五条).
 */
registerFill('elections.roll', async ({ db, values }) => {
  const orgId = orgOfRecord(values);
  if (orgId === null) return {};
  const rows = (await sql<{ id: number }>`
    ${withSubtree(orgId)}
    SELECT m.id FROM m_member m WHERE m.org_id IN (SELECT id FROM sub) AND ${onRosterSql('m')}
    ORDER BY m.name__py, m.id`.execute(db)).rows.map((r) => r.id);
  const out = await ineligibleFor(db, 'voterIds', rows, orgId, dayOf(values));
  return { voterIds: rows.filter((id) => !out.has(id)) };
});

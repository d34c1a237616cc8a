/**
 * The voter roll and the candidates: only full members of the organisation whose rights stand vote and stand
 * (党章第七条: 预备党员没有表决权、选举权和被选举权; 条例第五条: 留党察看期间没有表决权、选举权和被选举权;
 * a stopped, lost or left 党籍 neither: src/server/domain/member/rights.ts). One check for the generic writes
 * (hook) and the steps (guard); the day is the assembly's (today before it is set).
 */
import type { Kysely } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import type { DB } from '../../db/types.js';
import { membersWithoutElectionRights } from '../member/rights.js';
import { FULL_MEMBER, idList, membersOf } from './facts.js';
import { probationaryRefusal } from './rules.js';

export interface RollProblem {
  field: 'voterIds' | 'candidateIds' | 'excusedIds';
  message: string;
}

const LIST_TITLES = { voterIds: '有选举权的党员名册', candidateIds: '候选人' } as const;

/** The refusal of one member without the right (`reason` from membersWithoutElectionRights). */
export const rightsRefusal = (name: string, reason: string, field: 'voterIds' | 'candidateIds') =>
  `“${name}”${reason}，没有表决权、选举权和被选举权，不能列入${LIST_TITLES[field]}`;

export async function rollProblems(db: Kysely<DB>, record: Record<string, unknown>): Promise<RollProblem[]> {
  const orgId = typeof record.orgId === 'number' ? record.orgId : null;
  const lists = [
    ['voterIds', idList(record.voterIds), '选举权'],
    ['candidateIds', idList(record.candidateIds), '被选举权'],
  ] as const;
  const all = [...new Set(lists.flatMap(([, ids]) => ids))];
  const facts = await membersOf(db, all, orgId);
  const onDate = typeof record.assemblyDate === 'string' && record.assemblyDate ? record.assemblyDate : localToday();
  const lost = await membersWithoutElectionRights({ trx: db }, all, onDate);
  const problems: RollProblem[] = [];
  for (const [field, ids, right] of lists) {
    if (new Set(ids).size !== ids.length) problems.push({ field, message: `${LIST_TITLES[field]}中有重复的人员` });
    for (const id of ids) {
      const m = facts.get(id);
      if (!m) continue; // reference validation has refused it already
      const reason = lost.get(id);
      if (m.memberType !== FULL_MEMBER) problems.push({ field, message: probationaryRefusal(m.name, right) });
      else if (reason) problems.push({ field, message: rightsRefusal(m.name, reason, field) });
      else if (!m.inside) problems.push({ field, message: `“${m.name}”不是本组织的党员，不能列入${LIST_TITLES[field]}` });
    }
  }
  // 因故不能到会 (excused by the assembly) are named from the roll.
  const roll = new Set(idList(record.voterIds));
  if (idList(record.excusedIds).some((id) => !roll.has(id))) problems.push({ field: 'excusedIds', message: '因故不能到会的党员应是有选举权的党员名册中的人员' });
  return problems;
}

/**
 * The voter roll and the candidates: only full members of the organisation vote and stand (党章第七条:
 * 预备党员没有表决权、选举权和被选举权). One check for the generic writes (hook) and the steps (guard).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { FULL_MEMBER, idList, membersOf } from './facts.js';
import { probationaryRefusal } from './rules.js';

export interface RollProblem {
  field: 'voterIds' | 'candidateIds';
  message: string;
}

export async function rollProblems(db: Kysely<DB>, record: Record<string, unknown>): Promise<RollProblem[]> {
  const orgId = typeof record.orgId === 'number' ? record.orgId : null;
  const lists = [
    ['voterIds', idList(record.voterIds), '选举权'],
    ['candidateIds', idList(record.candidateIds), '被选举权'],
  ] as const;
  const facts = await membersOf(db, [...new Set(lists.flatMap(([, ids]) => ids))], orgId);
  const problems: RollProblem[] = [];
  for (const [field, ids, right] of lists) {
    if (new Set(ids).size !== ids.length) problems.push({ field, message: `${field === 'voterIds' ? '有选举权的党员名册' : '候选人'}中有重复的人员` });
    for (const id of ids) {
      const m = facts.get(id);
      if (!m) continue; // reference validation has refused it already
      if (m.memberType !== FULL_MEMBER) problems.push({ field, message: probationaryRefusal(m.name, right) });
      else if (!m.inside) problems.push({ field, message: `“${m.name}”不是本组织的党员，不能列入${field === 'voterIds' ? '有选举权的党员名册' : '候选人'}` });
    }
  }
  return problems;
}

/**
 * Whom a person may look up and write to privately: people they have a reason to reach. The whole
 * directory answered to any account let an outsider who registered list every username to try a password
 * on. Reach is the caller's organisation with its subtree and its superior organisations (where the
 * secretaries and administrators who serve it sit), the organisations of the caller's data scope, and
 * anyone who has written to the caller (so a message can be answered). A caller with the whole-school
 * scope or the right to send notices reaches everyone; an account with neither an organisation nor a
 * scope reaches only those who wrote to it.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../db/types.js';
import { scopeOrgIds, type OrgTree } from '../auth/org-scope.js';
import type { SessionUser } from '../auth/session-user.js';

export type Reach = 'all' | { orgIds: number[]; userId: number };

export async function reachOf(orgTree: OrgTree, user: SessionUser, sendsNotices: boolean): Promise<Reach> {
  if (sendsNotices || user.isSuper) return 'all';
  const scope = await scopeOrgIds(orgTree, user.dataScope);
  if (scope === 'all') return 'all';
  const orgIds = new Set(scope);
  if (user.orgId !== null) {
    for (const id of await orgTree.subtreeIds([user.orgId])) orgIds.add(id);
    for (const node of (await orgTree.pathOf?.(user.orgId)) ?? []) orgIds.add(node.id);
  }
  return { orgIds: [...orgIds], userId: user.id };
}

/** A condition on `users` (unaliased) true for the people within reach. */
export function withinReach(reach: Reach) {
  return (eb: ExpressionBuilder<DB, 'users'>): Expression<SqlBool> => {
    if (reach === 'all') return eb.val(true);
    const wroteToMe = eb('users.id', 'in', eb.selectFrom('msg_push_history').select(sql<number>`sender_id`.as('sender_id')).where('user_id', '=', reach.userId).where('sender_id', 'is not', null));
    return reach.orgIds.length ? eb.or([eb('users.org_id', 'in', reach.orgIds), wroteToMe]) : wroteToMe;
  };
}

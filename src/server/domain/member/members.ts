import type { FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { currentUser } from '../../core/auth/guard.js';
import { scopeOrgIds } from '../../core/auth/org-scope.js';
import { HttpError } from '../../errors.js';

import { ACTIVE_MEMBER_STATUS } from '../../../shared/party-members.js';

export { ACTIVE_MEMBER_STATUS, memberStatusOf } from '../../../shared/party-members.js';

/**
 * The members of an organisation (src/shared/party-members.ts) as a SQL condition on m_member: in these
 * organisations (`all`: any), with this party status (null: any).
 */
export function memberCondition(orgIds: number[] | 'all', status: string | null): RawBuilder<boolean> {
  const inOrgs = orgIds === 'all' ? sql`true` : orgIds.length ? sql`org_id IN (${sql.join(orgIds)})` : sql`false`;
  return status === null ? sql<boolean>`${inOrgs}` : sql<boolean>`${inOrgs} AND party_status = ${status}`;
}

/**
 * On the roster (issue 41): the one rule every area uses to pick an organisation's members — the roster,
 * the dues batches and standards, meetings' and elections' rolls, the statistics. A member who left the
 * party (出党), died (死亡), whose membership was stopped (停止党籍) or transferred out (转出) keeps their
 * record but is off all of them from the approval that decided it. `alias` is the m_member alias of the query.
 */
export function onRosterSql(alias = 'm'): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${alias}.party_status`)} = ${ACTIVE_MEMBER_STATUS}`;
}

/** The organisations a caller's request covers: the `orgId` subtree (or all), within the caller's data scope. */
export async function requestedOrgIds(req: FastifyRequest): Promise<number[] | 'all'> {
  const { orgTree } = req.server.services;
  const raw = (req.query as { orgId?: string }).orgId;
  const scope = await scopeOrgIds(orgTree, currentUser(req).dataScope);
  if (raw === undefined || raw === '') return scope;
  const orgId = Number(raw);
  if (!Number.isInteger(orgId) || orgId <= 0) throw new HttpError(400, '所选党组织不正确');
  const sub = await orgTree.subtreeIds([orgId]);
  return scope === 'all' ? sub : sub.filter((id) => scope.includes(id));
}

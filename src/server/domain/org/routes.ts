import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { orgWarnings } from '../../../shared/org-rules.js';
import type { OrgTreeNode } from '../../../shared/org-tree.js';
import { LOGIN, currentUser, perm } from '../../core/auth/guard.js';
import { scopeOrgIds } from '../../core/auth/org-scope.js';
import { ACTIVE_MEMBER_STATUS, memberCondition } from '../member/members.js';
import { orgTreeOf } from './index.js';
import type { OrgRow, OrgTreeService } from './org-tree.js';

interface Counts {
  total: number;
  full: number;
}

/** Own-organisation member counts (the members of an organisation: domain/member/members.ts), one grouped query. */
async function ownCounts(app: FastifyInstance): Promise<Map<number, Counts>> {
  const rows = await sql<{ orgId: number; total: number; full: number }>`
    SELECT org_id AS "orgId", count(*)::int AS total, count(*) FILTER (WHERE member_type = '1')::int AS full
    FROM m_member WHERE ${memberCondition('all', ACTIVE_MEMBER_STATUS)} GROUP BY org_id`.execute(app.services.database.db);
  return new Map(rows.rows.map((r) => [r.orgId, { total: r.total, full: r.full }]));
}

/** Builds the tree under `roots` with subtree counts and rule warnings. */
export async function buildOrgTree(app: FastifyInstance, tree: OrgTreeService, roots: OrgRow[], withCounts = true): Promise<OrgTreeNode[]> {
  const counts = withCounts ? await ownCounts(app) : new Map<number, Counts>();
  const labels = await app.services.dicts.labels('DJ_DZZ_LB');
  const today = localToday();
  const build = (row: OrgRow, depth: number): OrgTreeNode => {
    const children = depth < 30 ? tree.childrenOf(row.id).map((c) => build(c, depth + 1)) : [];
    const own = counts.get(row.id) ?? { total: 0, full: 0 };
    const memberCount = own.total + children.reduce((s, c) => s + c.memberCount, 0);
    const fullMemberCount = own.full + children.reduce((s, c) => s + c.fullMemberCount, 0);
    return {
      id: row.id,
      name: row.name,
      shortName: row.shortName,
      type: row.type,
      typeLabel: row.type ? (labels.get(row.type) ?? null) : null,
      parentId: row.parentId,
      unitId: row.unitId,
      secretary: row.secretary,
      memberCount,
      fullMemberCount,
      warnings: withCounts ? orgWarnings({ type: row.type, memberCount, fullMemberCount, committee: row.committee, termEnd: row.termEnd }, today) : [],
      ...(children.length ? { children } : {}),
    };
  };
  return roots.map((r) => build(r, 0));
}

/** The roots a caller sees: the whole tree, or the top-most organisations of their data scope. */
async function visibleRoots(req: FastifyRequest, tree: OrgTreeService): Promise<OrgRow[]> {
  const { services } = req.server;
  const scope = await scopeOrgIds(services.orgTree, currentUser(req).dataScope);
  await tree.load();
  if (scope === 'all') return tree.childrenOf(null);
  const inScope = new Set(scope);
  const rows = await tree.all();
  return rows.filter((r) => inScope.has(r.id) && (r.parentId === null || !inScope.has(r.parentId)));
}

function flatten(nodes: OrgTreeNode[], out: OrgTreeNode[] = []): OrgTreeNode[] {
  for (const n of nodes) {
    out.push(n);
    if (n.children) flatten(n.children, out);
  }
  return out;
}

export async function orgRoutes(app: FastifyInstance): Promise<void> {
  const found = orgTreeOf(app.services);
  if (!found) return; // a deployment without the org module
  const tree = found;
  {
    // The organisation tree with member counts per node (spec §7; the client allows it 600 s).
    app.get('/api/dzzxx/buildtree', { config: LOGIN }, async (req) => {
      const q = req.query as { rootId?: string; withCount?: string; type?: string };
      let roots = await visibleRoots(req, tree);
      if (q.rootId) {
        const rootId = Number(q.rootId);
        const allowed = new Set(flatten(await buildOrgTree(app, tree, roots, false)).map((n) => n.id));
        const root = await tree.get(rootId);
        roots = root && allowed.has(rootId) ? [root] : [];
      }
      const nodes = await buildOrgTree(app, tree, roots, q.withCount !== 'false');
      return q.type ? flatten(nodes).filter((n) => n.type === q.type) : nodes;
    });

    // Every organisation the caller sees that breaks a rule: the check list of the organisation library.
    app.get('/api/dzzxx/checks', { config: perm('org:list') }, async (req) => {
      const nodes = flatten(await buildOrgTree(app, tree, await visibleRoots(req, tree)));
      const content = nodes
        .filter((n) => n.warnings.length)
        .map(({ children: _children, ...n }) => n);
      return { content, totalElements: content.length };
    });

    // Units as a department tree (spec `GET api/dept`).
    app.get('/api/dept', { config: LOGIN }, async (req) => {
      const q = req.query as { name?: string };
      const rows = await sql<{ id: number; name: string; pid: number | null; type: string | null; sort: number | null }>`
        SELECT id, name, parent_id AS pid, type, sort FROM m_unit ORDER BY sort NULLS LAST, id`.execute(app.services.database.db);
      const list = q.name ? rows.rows.filter((r) => r.name.includes(q.name!)) : rows.rows;
      if (q.name) return { content: list, totalElements: list.length };
      const byParent = new Map<number | null, typeof list>();
      for (const r of list) byParent.set(r.pid, [...(byParent.get(r.pid) ?? []), r]);
      const build = (pid: number | null): unknown[] => (byParent.get(pid) ?? []).map((r) => ({ ...r, label: r.name, children: build(r.id) }));
      const content = build(null);
      return { content, totalElements: list.length };
    });
  }
}

import { sql, type RawBuilder } from 'kysely';
import { formatCents } from '../../../shared/dues/money.js';
import { coveredOrgs, scopeSql, type Caller, type DuesCore } from './context.js';
import type { ProgressNode } from '../../../shared/dues/api.js';

/** Figures of one organisation (its own members only, before rolling up). */
export interface Figures {
  members: number;
  paidMembers: number;
  deferred: number;
  due: number;
  paid: number;
}

const zero = (): Figures => ({ members: 0, paidMembers: 0, deferred: 0, due: 0, paid: 0 });
const add = (a: Figures, b: Figures) => {
  a.members += b.members;
  a.paidMembers += b.paidMembers;
  a.deferred += b.deferred;
  a.due += b.due;
  a.paid += b.paid;
};

/**
 * Rolls per-organisation figures up the organisation tree: a node holds its own members and everything
 * under it. Answers the subtrees under `roots` that have members, ordered as the tree is.
 */
export async function rollUp(dues: DuesCore, own: Map<number, Figures>, roots: number[], reports = new Map<number, ProgressNode['report']>()): Promise<ProgressNode[]> {
  const all = await dues.levels.all();
  const byId = new Map(all.map((o) => [o.id, o]));
  const build = async (id: number, depth: number): Promise<{ node: ProgressNode; figures: Figures } | undefined> => {
    const org = byId.get(id);
    if (!org || depth > 30) return undefined;
    const figures = zero();
    const mine = own.get(id);
    if (mine) add(figures, mine);
    const children: ProgressNode[] = [];
    for (const child of dues.levels.childrenOf(id)) {
      const built = await build(child.id, depth + 1);
      if (built) {
        children.push(built.node);
        add(figures, built.figures);
      }
    }
    if (!figures.members) return undefined;
    const committee = await dues.levels.committeeOf(id);
    const level: ProgressNode['level'] = org.parentId === null ? 'school' : committee === id ? 'committee' : dues.levels.isBranch(org) ? 'branch' : 'other';
    return {
      figures,
      node: {
        orgId: id,
        name: org.name,
        level,
        members: figures.members,
        paidMembers: figures.paidMembers,
        unpaidMembers: figures.members - figures.paidMembers,
        deferred: figures.deferred,
        due: formatCents(figures.due),
        paid: formatCents(figures.paid),
        rate: figures.members ? Math.round((figures.paidMembers / figures.members) * 10_000) / 10_000 : 0,
        ...(reports.size ? { report: reports.get(id) ?? null } : {}),
        ...(children.length ? { children } : {}),
      },
    };
  };
  const out: ProgressNode[] = [];
  for (const root of roots) {
    const built = await build(root, 0);
    if (built) out.push(built.node);
  }
  return out;
}

/** The top-most organisations of a set (those whose parent is not in it): where a scoped tree starts. */
export async function topOf(dues: DuesCore, ids: number[] | 'all'): Promise<number[]> {
  const all = await dues.levels.all(); // loads the tree
  if (ids === 'all') return dues.levels.childrenOf(null).map((o) => o.id);
  const set = new Set(ids);
  return all.filter((o) => set.has(o.id) && (o.parentId === null || !set.has(o.parentId))).map((o) => o.id);
}

/** Own figures per organisation of the items matching `where` (one grouped query). */
export async function figuresByOrg(dues: DuesCore, where: RawBuilder<unknown>): Promise<Map<number, Figures>> {
  const rows = await sql<Figures & { orgId: number }>`
    SELECT i.org_id AS "orgId", count(*)::int AS members, count(i.payment_id)::int AS "paidMembers", count(d.item_id)::int AS deferred,
           coalesce(sum(i.due_cents), 0)::bigint AS due, coalesce(sum(i.paid_cents), 0)::bigint AS paid
    FROM dues_item i LEFT JOIN dues_deferral d ON d.item_id = i.id AND i.payment_id IS NULL
    WHERE ${where} GROUP BY i.org_id`.execute(dues.db);
  return new Map(rows.rows.map((r) => [r.orgId, r]));
}

/**
 * A batch's progress as a tree (school → committees → branches) under the caller's scope or a chosen
 * organisation, with each branch's and committee's report.
 */
export async function batchProgress(dues: DuesCore, caller: Caller, batchId: number, orgId?: number): Promise<ProgressNode[]> {
  const covered = await coveredOrgs(dues, caller, orgId);
  const own = await figuresByOrg(dues, sql`i.batch_id = ${batchId} AND ${scopeSql(covered, 'i.org_id')}`);
  const reports = new Map<number, ProgressNode['report']>();
  const rows = await dues.db.selectFrom('dues_report').selectAll().where('batch_id', '=', batchId).execute();
  for (const r of rows) {
    reports.set(r.org_id, { level: r.level, reportedAt: new Date(r.reported_at).toISOString(), reportedBy: r.reported_by_name, paid: formatCents(r.paid_cents), paidMembers: r.paid_members });
  }
  // An empty map would drop the report key: keep it present for every node.
  if (!reports.size) reports.set(-1, null);
  return rollUp(dues, own, orgId !== undefined ? [orgId] : await topOf(dues, covered), reports);
}


import type { DataScope } from './session-user.js';

/**
 * Expands organisation ids to the ids of their whole subtrees. The organisation module registers the
 * real tree; until then an organisation is its own subtree.
 */
export interface OrgTree {
  subtreeIds(rootIds: number[]): Promise<number[]>;
  /** The chain from the root down to this organisation (inclusive); empty when unknown. Absent on the flat tree. */
  pathOf?(id: number): Promise<OrgNode[]>;
  /** The tops of the tree. Absent on the flat tree. */
  roots?(): Promise<number[]>;
}

/** What workflows read of an organisation: its place in the tree and its type (DJ_DZZ_LB). */
export interface OrgNode {
  id: number;
  parentId: number | null;
  type: string | null;
  name?: string;
}

export const flatOrgTree: OrgTree = {
  subtreeIds: async (rootIds) => [...new Set(rootIds)],
};

/** The organisation ids a scope covers, or 'all'. An empty list means the caller sees no organisation. */
export async function scopeOrgIds(tree: OrgTree, scope: DataScope): Promise<number[] | 'all'> {
  if (scope.kind === 'all') return 'all';
  return scope.orgIds.length ? tree.subtreeIds(scope.orgIds) : [];
}

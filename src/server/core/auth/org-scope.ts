import type { DataScope } from './session-user.js';

/**
 * Expands organisation ids to the ids of their whole subtrees. The organisation module registers the
 * real tree; until then an organisation is its own subtree.
 */
export interface OrgTree {
  subtreeIds(rootIds: number[]): Promise<number[]>;
}

export const flatOrgTree: OrgTree = {
  subtreeIds: async (rootIds) => [...new Set(rootIds)],
};

/** The organisation ids a scope covers, or 'all'. An empty list means the caller sees no organisation. */
export async function scopeOrgIds(tree: OrgTree, scope: DataScope): Promise<number[] | 'all'> {
  if (scope.kind === 'all') return 'all';
  return scope.orgIds.length ? tree.subtreeIds(scope.orgIds) : [];
}

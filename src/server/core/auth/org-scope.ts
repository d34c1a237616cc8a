import type { DataScope } from './session-user.js';

/**
 * What core needs to know of the party organisations: the ids of whole subtrees (data scope) and ids by
 * organisation code (imports). The organisation module (domain/org) installs the real tree; until then an
 * organisation is its own subtree and no code is known.
 */
export interface OrgTree {
  subtreeIds(rootIds: number[]): Promise<number[]>;
  /** Organisation ids by their code (组织编码); unknown codes are left out. */
  idsByCode(codes: string[]): Promise<Map<string, number>>;
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
  idsByCode: async () => new Map(),
};

/** The organisation ids a scope covers, or 'all'. An empty list means the caller sees no organisation. */
export async function scopeOrgIds(tree: OrgTree, scope: DataScope): Promise<number[] | 'all'> {
  if (scope.kind === 'all') return 'all';
  return scope.orgIds.length ? tree.subtreeIds(scope.orgIds) : [];
}

import type { OrgWarning } from './org-rules.js';

/** A node of `GET /api/dzzxx/buildtree`: a party organisation with its subtree; counts are 0 with `withCount=false`. */
export interface OrgTreeNode {
  id: number;
  name: string;
  shortName: string | null;
  type: string | null;
  typeLabel: string | null;
  parentId: number | null;
  unitId: number | null;
  secretary: string | null;
  /** Party members (status 正常) in this organisation and everything under it. */
  memberCount: number;
  fullMemberCount: number;
  warnings: OrgWarning[];
  children?: OrgTreeNode[];
}

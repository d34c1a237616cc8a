/**
 * Who may act at which level of a workflow (docs/schema.md, "Levels").
 *
 * A user's own level comes from the organisation tree and their data scope:
 * - 组织部 (`orgdept`): the data scope covers every organisation, or the user belongs to a top organisation (the 校党委);
 * - 二级党委/党总支 (`committee`): the user's organisation is a 党委 or 党总支 (DJ_DZZ_LB 1, 2) below the top;
 * - 党支部 (`branch`): the user's organisation is a branch (DJ_DZZ_LB 3, 4, 5).
 * The permission of the step decides whether they may take it at all. Each step names the level that acts,
 * and the organisation acting at that level for a record is:
 * - branch: the record's organisation (its x-scope field);
 * - committee: the nearest 党委/党总支 above (or at) the record's organisation, below the top; when there is
 *   none, the top organisation, and the organisation department acts as the committee;
 * - orgdept: the top organisation; self: nobody (the record's `selfField` user); other: the organisation in
 *   the record's `otherField` (a branch or committee user of it acts; both sides read the record, see
 *   runtime/scope.ts); otherBranch and otherCommittee: that organisation as a branch, and its committee
 *   (found as for `committee`): the receiving branch and committee of a transfer.
 * A user acts at a level when their own level is that level and the acting organisation is in their data
 * scope. Superusers act at every level.
 */
import type { OrgNode, OrgTree } from '../../core/auth/org-scope.js';
import { LEVEL_TITLES, type WorkflowLevel } from '../../../shared/module-schema/workflow.js';

export type OrgLevel = 'orgdept' | 'committee' | 'branch';

/** DJ_DZZ_LB: 1 党委, 2 党总支 act as committees; 3 党支部, 4 联合党支部, 5 临时党支部 as branches. */
const COMMITTEE_TYPES = new Set(['1', '2']);
const BRANCH_TYPES = new Set(['3', '4', '5']);

/** A user as workflows see them: permissions, their organisation's level, and the organisations they see. */
export interface Participant {
  userId: number;
  name: string;
  roles: string[];
  isSuper: boolean;
  orgId: number | null;
  level: OrgLevel | null;
  /** Organisation ids of the data scope, subtrees expanded, or 'all'. */
  scope: number[] | 'all';
}

export interface Acting {
  level: WorkflowLevel;
  /** The organisation acting (null for self). */
  orgId: number | null;
}

export class OrgLevels {
  constructor(private readonly treeOf: () => OrgTree) {}

  private get tree(): OrgTree {
    return this.treeOf();
  }

  async path(orgId: number | null | undefined): Promise<OrgNode[]> {
    if (typeof orgId !== 'number') return [];
    return this.tree.pathOf ? this.tree.pathOf(orgId) : [];
  }

  /** The level of a user's own organisation (see the file comment). */
  async userLevel(orgId: number | null, scope: number[] | 'all'): Promise<OrgLevel | null> {
    if (scope === 'all') return 'orgdept';
    const path = await this.path(orgId);
    const org = path[path.length - 1];
    if (!org) return orgId === null ? null : 'branch';
    if (org.parentId === null) return 'orgdept';
    if (COMMITTEE_TYPES.has(org.type ?? '')) return 'committee';
    if (BRANCH_TYPES.has(org.type ?? '')) return 'branch';
    return null;
  }

  /** The committee of an organisation: the nearest 党委/党总支 at or above it below the top; else the top. */
  async committeeOf(orgId: number | null | undefined): Promise<number | null> {
    return committeeOnPath(await this.path(orgId));
  }

  async isTop(orgId: number | null): Promise<boolean> {
    const path = await this.path(orgId);
    return path.length === 1;
  }

  /** The organisation acting at a level for a record whose organisation is `orgId`. */
  async actingOrg(level: WorkflowLevel, orgId: number | null, otherOrgId: number | null): Promise<number | null> {
    switch (level) {
      case 'self':
        return null;
      case 'branch':
        return orgId;
      case 'committee':
        return this.committeeOf(orgId);
      case 'orgdept':
        return (await this.path(orgId))[0]?.id ?? null;
      case 'other':
      case 'otherBranch':
        return otherOrgId;
      case 'otherCommittee':
        return this.committeeOf(otherOrgId);
    }
  }

  /** Whether the participant acts at this level for that acting organisation (and self user). */
  async canAct(p: Participant, level: WorkflowLevel, actingOrgId: number | null, selfUserId: unknown): Promise<boolean> {
    if (p.isSuper) return true;
    switch (level) {
      case 'self':
        return selfUserId === p.userId;
      case 'branch':
      case 'otherBranch':
        return p.level === 'branch' && inScope(p, actingOrgId);
      case 'committee':
      case 'otherCommittee':
        return (p.level === 'committee' && inScope(p, actingOrgId)) || (p.level === 'orgdept' && (await this.isTop(actingOrgId)));
      case 'orgdept':
        return p.level === 'orgdept';
      case 'other':
        return (p.level === 'branch' || p.level === 'committee') && inScope(p, actingOrgId);
    }
  }

  /** The organisations whose acting committee lies in the scope (what a committee user approves for). */
  async committeeOrgs(scope: number[]): Promise<number[]> {
    const inScope = new Set(scope);
    const out: number[] = [];
    for (const id of scope) if (inScope.has(committeeOnPath(await this.path(id)) ?? -1)) out.push(id);
    return out;
  }

  /**
   * Every organisation whose acting committee is the top one (the organisation department acts for them).
   * One path per organisation: the "waiting for me" list of the organisation department asks on every call.
   */
  async orgsUnderTopCommittee(): Promise<number[]> {
    const roots = this.tree.roots ? await this.tree.roots() : [];
    const all = await this.tree.subtreeIds(roots);
    const out: number[] = [];
    for (const id of all) {
      const path = await this.path(id);
      // The committee is the top itself when no 党委/党总支 lies between (committeeOnPath's fallback).
      if (path.length && committeeOnPath(path) === path[0].id) out.push(id);
    }
    return out;
  }
}

/** The committee on a root-to-organisation path: the nearest 党委/党总支 below the top, else the top. */
function committeeOnPath(path: OrgNode[]): number | null {
  for (let i = path.length - 1; i >= 1; i--) if (COMMITTEE_TYPES.has(path[i].type ?? '')) return path[i].id;
  return path[0]?.id ?? null;
}

export function inScope(p: Pick<Participant, 'scope'>, orgId: number | null): boolean {
  if (orgId === null) return false;
  return p.scope === 'all' || p.scope.includes(orgId);
}

/** "该步骤须由党支部或二级党委（党总支）办理". */
export function levelsText(levels: WorkflowLevel[]): string {
  return levels.map((l) => LEVEL_TITLES[l]).join('或');
}

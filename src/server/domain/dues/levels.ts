import type { CoreServices } from '../../core/services.js';
import { HttpError } from '../../errors.js';
import { orgTreeOf } from '../org/index.js';
import type { OrgRow, OrgTreeService } from '../org/org-tree.js';

/** DJ_DZZ_LB: 3 党支部, 4 联合党支部 collect dues; the others are committees (党委, 党总支). */
const BRANCH_TYPES = new Set(['3', '4']);

export const ReportLevel = { BRANCH: 1, COMMITTEE: 2 } as const;

/**
 * The reporting levels of the dues area: a branch (党支部) reports to its committee, the organisation
 * directly under the school committee (二级党委/党总支, or a 直属党支部 which is its own committee), and
 * the committees report to the school, which closes the batch.
 */
export class DuesLevels {
  constructor(private readonly tree: OrgTreeService) {}

  static of(services: CoreServices): DuesLevels {
    const tree = orgTreeOf(services);
    if (!tree) throw new HttpError(500, '党组织模块不可用');
    return new DuesLevels(tree);
  }

  async org(id: number): Promise<OrgRow> {
    const row = await this.tree.get(id);
    if (!row) throw new HttpError(404, '党组织不存在');
    return row;
  }

  /** The committee an organisation reports through: its ancestor directly under a root (itself at that level or above). */
  async committeeOf(orgId: number): Promise<number> {
    const path = await this.tree.pathOf(orgId);
    if (!path.length) return orgId;
    return (path[1] ?? path[0]).id;
  }

  /** Committee of every organisation id given (one pass over the in-memory tree). */
  async committees(orgIds: Iterable<number>): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of orgIds) out.set(id, await this.committeeOf(id));
    return out;
  }

  /** The level at which an organisation reports: a branch, or a committee (directly under a root). */
  async levelOf(orgId: number): Promise<(typeof ReportLevel)[keyof typeof ReportLevel] | undefined> {
    const org = await this.org(orgId);
    const committee = await this.committeeOf(orgId);
    if (committee === orgId && org.parentId !== null) return ReportLevel.COMMITTEE;
    if (BRANCH_TYPES.has(org.type ?? '')) return ReportLevel.BRANCH;
    return undefined;
  }

  isBranch(org: OrgRow): boolean {
    return BRANCH_TYPES.has(org.type ?? '');
  }

  subtree(ids: number[]): Promise<number[]> {
    return this.tree.subtreeIds(ids);
  }

  async name(id: number): Promise<string> {
    return (await this.tree.get(id))?.name ?? `组织${id}`;
  }

  async all(): Promise<OrgRow[]> {
    return this.tree.all();
  }

  /** The children of an organisation; the tree must be loaded (after `all()` or any other call). */
  childrenOf(id: number | null): OrgRow[] {
    return this.tree.childrenOf(id);
  }
}

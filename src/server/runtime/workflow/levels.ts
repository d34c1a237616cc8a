/**
 * Who may act at which level of a workflow (docs/schema.md, "Levels"): a registry of named resolvers,
 * as guards and effects are named hooks. A level says which organisation (or unit) acts for a record,
 * whether a participant acts there, and which records wait for a participant at it.
 *
 * A user's own level comes from the organisation tree and their data scope:
 * - 组织部 (`orgdept`): the data scope covers every organisation, or the user belongs to a top organisation (the 校党委);
 * - 二级党委/党总支 (`committee`): the user's organisation is a 党委 or 党总支 (DJ_DZZ_LB 1, 2) below the top;
 * - 党支部 (`branch`): the user's organisation is a branch (DJ_DZZ_LB 3, 4, 5).
 * The permission of the step decides whether they may take it at all. The registered levels:
 * - self: the record's `selfField` user;
 * - own: the record's organisation itself, whatever its type, by a user of that very organisation (it in
 *   their data scope; not an all-scope user of another): the organisation holding an election takes its own
 *   steps, and the committee above it only approves (`above`);
 * - branch: the record's organisation, by a branch user;
 * - committee: the nearest 党委/党总支 above (or at) the record's organisation, below the top; when there is
 *   none, the top organisation, and the organisation department acts as the committee;
 * - above: the organisation above the record's: the nearest 党委/党总支 strictly above it, else the top
 *   (the organisation department) — a 党总支's own request is approved by its parent, never by itself;
 * - orgdept: the top organisation of the record's, by an organisation-department user whose scope holds it;
 * - other: the organisation in `otherField` (a branch or committee user of it acts); otherBranch and
 *   otherCommittee: that organisation as a branch, and its committee (the receiving side of a transfer);
 * - unitDept: the managing department of the record's unit: users whose unit scope (roles' `unit_scope`,
 *   `scope_unit_ids`) holds the unit; the step's permission says which department (干部科, 人事处, ...).
 * A user acts at an organisation level when their own level fits and the acting organisation is in their
 * data scope. Superusers act at every level.
 */
import type { OrgNode, OrgTree } from '../../core/auth/org-scope.js';
import type { FieldInfo, RuntimeModule } from '../module.js';
import { LEVEL_TITLES, type WorkflowLevel } from '../../../shared/module-schema/workflow.js';

export type OrgLevel = 'orgdept' | 'committee' | 'branch';

/** DJ_DZZ_LB: 1 党委, 2 党总支 act as committees; 3 党支部, 4 联合党支部, 5 临时党支部 as branches. */
const COMMITTEE_TYPES = new Set(['1', '2']);
export const BRANCH_TYPES = new Set(['3', '4', '5']);

/** A user as workflows see them: permissions, their organisation's level, and the organisations and units they see. */
export interface Participant {
  userId: number;
  name: string;
  roles: string[];
  isSuper: boolean;
  orgId: number | null;
  level: OrgLevel | null;
  /** Organisation ids of the data scope, subtrees expanded, or 'all'. */
  scope: number[] | 'all';
  /** Unit ids of the unit scope, or 'all'. */
  units: number[] | 'all';
}

export interface Acting {
  level: WorkflowLevel;
  /** The organisation (or, for unitDept, the unit) acting; null for self. */
  orgId: number | null;
}

/** What levels read of a record. */
export interface LevelRecord {
  orgId: number | null;
  otherOrgId: number | null;
  unitId: number | null;
  selfUserId: unknown;
}

/** Which records wait for a participant at a level: all, none, or those whose field (`on`) holds one of `ids`. */
export type LevelRecords = boolean | { on: 'org' | 'other' | 'unit' | 'self'; ids: number[] | 'all' };

export interface LevelResolver {
  title: string;
  /** The organisation (or unit) acting at this level for the record; null when a person acts. */
  acting(r: LevelRecord, o: OrgLevels): Promise<number | null>;
  /** Whether the participant acts at this level for that acting organisation (superusers aside). */
  canAct(p: Participant, acting: number | null, r: LevelRecord, o: OrgLevels): Promise<boolean>;
  /** The "waiting for me" condition of the level for a (non-super) participant. */
  records(p: Participant, o: OrgLevels): Promise<LevelRecords>;
}

const resolvers = new Map<string, LevelResolver>();

export function registerLevel(name: WorkflowLevel, resolver: Omit<LevelResolver, 'title'> & { title?: string }): void {
  resolvers.set(name, { title: LEVEL_TITLES[name] ?? name, ...resolver });
}

export function levelNamed(name: string): LevelResolver {
  const found = resolvers.get(name);
  if (!found) throw new Error(`workflow level "${name}" is not registered`);
  return found;
}

/**
 * The fields levels read on a module's records: the organisation (`x-workflow.orgField`, else the x-scope
 * field unless it refers to `unit`), the unit (`unitField`, else an x-scope field referring to `unit`), the
 * other side and the self user.
 */
export function levelFields(m: RuntimeModule): Record<'org' | 'unit' | 'other' | 'self', FieldInfo | undefined> {
  const wf = m.workflow;
  const scope = m.scopeField;
  const named = (name: string | undefined) => (name ? m.field(name) : undefined);
  return {
    org: named(wf?.schema.orgField) ?? (scope && scope.ref !== 'unit' ? scope : undefined),
    unit: named(wf?.schema.unitField) ?? (scope?.ref === 'unit' ? scope : undefined),
    other: wf?.otherField,
    self: wf?.selfField,
  };
}

export function levelRecord(m: RuntimeModule, record: Record<string, unknown>): LevelRecord {
  const f = levelFields(m);
  const id = (field: FieldInfo | undefined) => (field ? ((record[field.name] as number | null | undefined) ?? null) : null);
  return { orgId: id(f.org), unitId: id(f.unit), otherOrgId: id(f.other), selfUserId: f.self ? record[f.self.name] : undefined };
}

export class OrgLevels {
  constructor(private readonly treeOf: () => OrgTree) {}

  get tree(): OrgTree {
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

  /** The organisation above: the nearest 党委/党总支 strictly above it below the top; else the top (itself at the top). */
  async aboveOf(orgId: number | null | undefined): Promise<number | null> {
    const path = await this.path(orgId);
    return path.length > 1 ? committeeOnPath(path.slice(0, -1)) : (path[0]?.id ?? null);
  }

  async isTop(orgId: number | null): Promise<boolean> {
    const path = await this.path(orgId);
    return path.length === 1;
  }

  /**
   * The organisation acting at a level for a record (`levelRecord`); the older form (record organisation,
   * other side) still works for callers that know only those.
   */
  actingOrg(level: WorkflowLevel, r: LevelRecord | number | null, otherOrgId: number | null = null): Promise<number | null> {
    const record = typeof r === 'object' && r !== null ? r : { orgId: r, otherOrgId, unitId: null, selfUserId: undefined };
    return levelNamed(level).acting(record, this);
  }

  /** Whether the participant acts at this level for that acting organisation (and record, or its self user). */
  async canAct(p: Participant, level: WorkflowLevel, actingOrgId: number | null, r: LevelRecord | unknown): Promise<boolean> {
    const record = typeof r === 'object' && r !== null ? (r as LevelRecord) : { orgId: null, otherOrgId: null, unitId: actingOrgId, selfUserId: r };
    return p.isSuper || levelNamed(level).canAct(p, actingOrgId, record, this);
  }

  /** Committee and organisation-department users acting for a committee-like organisation (committee, above). */
  async actsAsCommittee(p: Participant, acting: number | null): Promise<boolean> {
    if (p.level === 'committee') return inScope(p, acting);
    return p.level === 'orgdept' && inScope(p, acting) && (await this.isTop(acting));
  }

  /** Every organisation under the tops the participant's scope holds. */
  async underOwnTops(p: Participant): Promise<number[]> {
    const roots = this.tree.roots ? await this.tree.roots() : [];
    const tops = p.scope === 'all' ? roots : roots.filter((id) => (p.scope as number[]).includes(id));
    return this.tree.subtreeIds(tops);
  }

  /** The organisations whose acting organisation (`of`) a committee-like participant acts for. */
  async actedFor(p: Participant, of: (orgId: number) => Promise<number | null>): Promise<number[] | false> {
    if (p.level !== 'committee' && p.level !== 'orgdept') return false;
    const candidates = p.level === 'committee' ? (p.scope === 'all' ? await this.underOwnTops(p) : p.scope) : await this.underOwnTops(p);
    const out: number[] = [];
    for (const id of candidates) if (await this.actsAsCommittee(p, await of(id))) out.push(id);
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

export function inUnits(p: Pick<Participant, 'units'>, unitId: number | null): boolean {
  if (unitId === null) return false;
  return p.units === 'all' || p.units.includes(unitId);
}

/** "该步骤须由党支部或二级党委（党总支）办理". */
export function levelsText(levels: WorkflowLevel[]): string {
  return levels.map((l) => levelNamed(l).title).join('或');
}

// ------------------------------------------------------------------ the built-in levels

registerLevel('self', {
  acting: async () => null,
  canAct: async (p, _acting, r) => r.selfUserId === p.userId,
  records: async (p) => ({ on: 'self', ids: [p.userId] }),
});

// 《中国共产党基层组织选举工作条例》: the organisation holding the election (its committee in office) asks the
// level above, convenes the assembly and reports the result itself; the level above approves, it does not
// take those steps for it. So no subtree: the actor belongs to the record's organisation.
registerLevel('own', {
  acting: async (r) => r.orgId,
  // Not even an all-scope 组织部 user acts for another organisation (nor gets its to-dos); a superuser may, as everywhere.
  canAct: async (p, acting) => acting !== null && p.orgId === acting && inScope(p, acting),
  records: async (p) => (p.orgId !== null && inScope(p, p.orgId) ? { on: 'org', ids: [p.orgId] } : false),
});

for (const [name, read] of [['branch', 'orgId'], ['otherBranch', 'otherOrgId']] as const) {
  registerLevel(name, {
    acting: async (r) => r[read],
    canAct: async (p, acting) => p.level === 'branch' && inScope(p, acting),
    records: async (p) => (p.level === 'branch' ? { on: read === 'orgId' ? 'org' : 'other', ids: p.scope } : false),
  });
}

for (const [name, read] of [['committee', 'orgId'], ['otherCommittee', 'otherOrgId']] as const) {
  registerLevel(name, {
    acting: (r, o) => o.committeeOf(r[read]),
    canAct: (p, acting, _r, o) => o.actsAsCommittee(p, acting),
    records: async (p, o) => {
      const ids = await o.actedFor(p, (id) => o.committeeOf(id));
      return ids && { on: read === 'orgId' ? 'org' : 'other', ids };
    },
  });
}

registerLevel('above', {
  acting: (r, o) => o.aboveOf(r.orgId),
  canAct: (p, acting, _r, o) => o.actsAsCommittee(p, acting),
  records: async (p, o) => {
    const ids = await o.actedFor(p, (id) => o.aboveOf(id));
    return ids && { on: 'org', ids };
  },
});

registerLevel('orgdept', {
  acting: async (r, o) => (await o.path(r.orgId))[0]?.id ?? null,
  // Issue 24 §3.3: only an organisation department whose scope holds the record's top organisation.
  canAct: async (p, acting) => p.level === 'orgdept' && (p.scope === 'all' || inScope(p, acting)),
  records: async (p, o) => (p.level !== 'orgdept' ? false : p.scope === 'all' ? true : { on: 'org', ids: await o.underOwnTops(p) }),
});

registerLevel('other', {
  acting: async (r) => r.otherOrgId,
  canAct: async (p, acting) => (p.level === 'branch' || p.level === 'committee') && inScope(p, acting),
  records: async (p) => (p.level === 'branch' || p.level === 'committee' ? { on: 'other', ids: p.scope } : false),
});

registerLevel('unitDept', {
  acting: async (r) => r.unitId,
  canAct: async (p, acting) => inUnits(p, acting),
  records: async (p) => ({ on: 'unit', ids: p.units }),
});

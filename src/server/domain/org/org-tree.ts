import { sql } from 'kysely';
import type { OrgTree } from '../../core/auth/org-scope.js';
import type { Database } from '../../db/database.js';

export interface OrgRow {
  id: number;
  parentId: number | null;
  name: string;
  code: string | null;
  shortName: string | null;
  type: string | null;
  unitId: number | null;
  secretary: string | null;
  committee: string | null;
  termStart: string | null;
  termEnd: string | null;
  sort: number | null;
}

/**
 * The party organisation tree held in memory (a few thousand rows): subtree expansion for data scope and
 * the tree endpoint. Reloaded lazily after any write to the `org` module.
 */
export class OrgTreeService implements OrgTree {
  private rows: OrgRow[] | undefined;
  private children = new Map<number | null, OrgRow[]>();
  private byId = new Map<number, OrgRow>();
  private loading: Promise<void> | undefined;

  constructor(private readonly database: Database) {}

  invalidate(): void {
    this.rows = undefined;
    this.loading = undefined;
  }

  async load(): Promise<void> {
    if (this.rows) return;
    this.loading ??= (async () => {
      const result = await sql<OrgRow>`
        SELECT id, parent_id AS "parentId", name, code, short_name AS "shortName", type, unit_id AS "unitId", secretary, committee,
               term_start AS "termStart", term_end AS "termEnd", sort
        FROM m_org ORDER BY sort NULLS LAST, id`.execute(this.database.db);
      const children = new Map<number | null, OrgRow[]>();
      const byId = new Map<number, OrgRow>();
      for (const row of result.rows) byId.set(row.id, row);
      for (const row of result.rows) {
        // An organisation whose parent is missing is shown as a root rather than lost.
        const parent = row.parentId !== null && byId.has(row.parentId) ? row.parentId : null;
        children.set(parent, [...(children.get(parent) ?? []), row]);
      }
      this.children = children;
      this.byId = byId;
      this.rows = result.rows;
    })();
    await this.loading;
  }

  async all(): Promise<OrgRow[]> {
    await this.load();
    return this.rows!;
  }

  async get(id: number): Promise<OrgRow | undefined> {
    await this.load();
    return this.byId.get(id);
  }

  /** Organisations without a (known) parent: the tops of the tree. */
  async roots(): Promise<number[]> {
    await this.load();
    return this.childrenOf(null).map((r) => r.id);
  }

  childrenOf(id: number | null): OrgRow[] {
    return this.children.get(id) ?? [];
  }

  async subtreeIds(rootIds: number[]): Promise<number[]> {
    await this.load();
    const out = new Set<number>();
    const stack = [...rootIds];
    while (stack.length) {
      const id = stack.pop()!;
      if (out.has(id)) continue;
      out.add(id);
      for (const child of this.childrenOf(id)) stack.push(child.id);
    }
    return [...out];
  }

  async idsByCode(codes: string[]): Promise<Map<string, number>> {
    await this.load();
    const wanted = new Set(codes);
    return new Map(this.rows!.filter((r) => r.code !== null && wanted.has(r.code)).map((r) => [r.code!, r.id]));
  }

  /** The chain from the root down to this organisation (inclusive). */
  async pathOf(id: number): Promise<OrgRow[]> {
    await this.load();
    const path: OrgRow[] = [];
    for (let row = this.byId.get(id); row; row = row.parentId !== null ? this.byId.get(row.parentId) : undefined) {
      path.unshift(row);
      if (path.length > 50) break; // a cycle in bad data must not hang the server
    }
    return path;
  }
}

/**
 * Where a to-do about a workflow record leads: `x-workflow.link` (with `{id}`), else the module's
 * hand-written page (`x-page`), else the menu page showing `module:<id>`, with `?id={id}` (the renderer
 * opens that record's detail). A job about a module (an import, an export) leads to the same page, with
 * `?job={id}`.
 */
import { joinPath } from '../../../shared/menus.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { RuntimeContext } from '../context.js';
import type { RuntimeModule } from '../module.js';

const TTL_MS = 60_000;
const cache = new Map<string, { link: string | null; at: number }>();

/** `db`: the transaction the caller runs in, if any (on the embedded database a query outside it would wait). */
export async function todoLink(ctx: RuntimeContext, m: RuntimeModule, db: Kysely<DB> = ctx.db): Promise<string | null> {
  const own = m.workflow?.schema.link;
  if (own) return own.includes('{id}') ? own : `${own}${own.includes('?') ? '&' : '?'}id={id}`;
  const hand = m.schema['x-page'];
  if (hand) return `${hand}?id={id}`;
  const page = await modulePageLink(ctx, m, db);
  return page === null ? null : `${page}?id={id}`;
}

/** The path of the menu page showing `module:<id>` (null: no menu shows it). */
export function modulePageLink(ctx: RuntimeContext, m: RuntimeModule, db: Kysely<DB> = ctx.db): Promise<string | null> {
  return menuPagePath(`module:${m.id}`, db);
}

/** The path of the menu page showing `component` (`module:member`, `core:forms`); null: no menu shows it. */
export function menuPageLink(ctx: RuntimeContext, component: string, db: Kysely<DB> = ctx.db): Promise<string | null> {
  return menuPagePath(component, db);
}

/** The path (inside the web app, without `/web`) of the menu page showing this component, or null. */
export async function menuPagePath(component: string, db: Kysely<DB>): Promise<string | null> {
  const hit = cache.get(component);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.link;
  const rows = await db.selectFrom('menus').select(['id', 'parent_id', 'path', 'component']).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const page = rows.find((r) => r.component === component);
  let link: string | null = null;
  if (page) {
    const chain = [];
    for (let r: typeof page | undefined = page; r; r = r.parent_id === null ? undefined : byId.get(r.parent_id)) chain.unshift(r);
    link = chain.reduce((path, r) => joinPath(path, r.path ?? undefined), '');
  }
  cache.set(component, { link, at: Date.now() });
  return link;
}

/** The module whose detail shows `m`'s records (x-children), and the field of `m` naming the parent record. */
function parentOf(ctx: RuntimeContext, m: RuntimeModule): { parent: RuntimeModule; foreignKey: string } | undefined {
  for (const parent of ctx.registry.list()) {
    const child = parent.schema['x-children']?.find((c) => c.module === m.id);
    if (child) return { parent, foreignKey: child.foreignKey };
  }
  return undefined;
}

/**
 * Where each of some records leads: its module's page at the record, or, for a child module without a page
 * of its own (a cadre's posts, résumé, assessments), its parent's page at the parent record. `records`
 * carry their id and, for a child module, their foreign key (read here for those lacking it).
 */
export async function recordLinks(
  ctx: RuntimeContext,
  m: RuntimeModule,
  records: ({ id: number } & Record<string, unknown>)[],
  db: Kysely<DB> = ctx.db,
): Promise<Map<number, string | null>> {
  const links = new Map<number, string | null>();
  const own = await todoLink(ctx, m, db);
  const up = own ? undefined : parentOf(ctx, m);
  const parentLink = up ? await todoLink(ctx, up.parent, db) : null;
  if (!up || !parentLink) {
    for (const r of records) links.set(r.id, own?.replaceAll('{id}', String(r.id)) ?? null);
    return links;
  }
  const fk = m.field(up.foreignKey)?.column;
  const missing = records.filter((r) => r.id && r[up.foreignKey] === undefined).map((r) => r.id);
  const parents = new Map<number, unknown>(records.map((r) => [r.id, r[up.foreignKey]]));
  if (fk && missing.length) {
    const rows = await (db as Kysely<any>).selectFrom(m.table).select(['id', `${fk} as parent`]).where('id', 'in', missing).execute();
    for (const row of rows as { id: number; parent: unknown }[]) parents.set(row.id, row.parent);
  }
  for (const r of records) {
    const parent = parents.get(r.id);
    links.set(r.id, parent === null || parent === undefined ? null : parentLink.replaceAll('{id}', String(parent)));
  }
  return links;
}

/**
 * Where a to-do about a workflow record leads: `x-workflow.link` (with `{id}`), else the menu page
 * showing `module:<id>`, with `?id={id}` (the renderer opens that record's detail).
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
  const hit = cache.get(m.id);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.link;
  const rows = await db.selectFrom('menus').select(['id', 'parent_id', 'path', 'component']).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const page = rows.find((r) => r.component === `module:${m.id}`);
  let link: string | null = null;
  if (page) {
    const chain = [];
    for (let r: typeof page | undefined = page; r; r = r.parent_id === null ? undefined : byId.get(r.parent_id)) chain.unshift(r);
    link = `${chain.reduce((path, r) => joinPath(path, r.path ?? undefined), '')}?id={id}`;
  }
  cache.set(m.id, { link, at: Date.now() });
  return link;
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/types.js';
import type { MenuNode } from '../../../shared/menus.js';
import type { MenusTable } from './tables.js';

export const MENUS_FILE = 'menus.json';
const SYNC_KEY = 'menu_file_applied';
/** Serialises the sync when several app servers start at once against one PostgreSQL server. */
const SYNC_LOCK_KEY = 727_072_006;
/** Gap between sibling sort values, so an administrator can slot a node between two shipped ones. */
export const SORT_STEP = 10;

interface Applied {
  /** Hash of the whole file: an unchanged file costs one read at start. */
  file?: string;
  /** Node key → hash of the node content last applied. */
  nodes: Record<string, string>;
}

type MenuValues = Omit<MenusTable, 'id' | 'created_at' | 'updated_at' | 'edited_at' | 'sort'> & { sort: number };

/**
 * The tree of `<schemasDir>/menus.json`. The generators check the file in depth at build time
 * (`npm run schemas:check`); the server only refuses a file it cannot use.
 */
export function readMenuFile(schemasDir: string): MenuNode[] {
  const file = path.join(schemasDir, MENUS_FILE);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { menus?: unknown };
  if (!Array.isArray(doc.menus)) throw new Error(`${file}: "menus" must be an array`);
  const check = (node: MenuNode) => {
    if (!node || typeof node.id !== 'string' || typeof node.title !== 'string' || !['directory', 'page', 'button'].includes(node.type)) {
      throw new Error(`${file}: every node needs an id, a title and a type (${JSON.stringify(node).slice(0, 80)})`);
    }
    node.children?.forEach(check);
  };
  (doc.menus as MenuNode[]).forEach(check);
  return doc.menus as MenuNode[];
}

/** The column values of a file node (its children and parent aside). */
export function menuValues(node: MenuNode, parentId: number | null, sort: number): MenuValues {
  return {
    key: node.id,
    parent_id: parentId,
    type: node.type,
    title: node.title,
    path: node.path ?? null,
    icon: node.icon ?? null,
    component: node.component ?? null,
    permission: node.permission ?? null,
    sort,
    hidden: node.hidden ?? null,
    no_cache: node.noCache ?? null,
    affix: node.affix ?? null,
    always_show: node.alwaysShow ?? null,
    breadcrumb: node.breadcrumb ?? null,
    redirect: node.redirect ?? null,
    feature: node.feature ?? null,
  };
}

interface FileEntry {
  node: MenuNode;
  parentKey: string | null;
  sort: number;
  depth: number;
  hash: string;
}

function fileEntries(tree: MenuNode[]): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (nodes: MenuNode[], parentKey: string | null, depth: number) =>
    nodes.forEach((node, i) => {
      const sort = (i + 1) * SORT_STEP;
      const { parent_id: _id, ...content } = menuValues(node, null, sort);
      const hash = crypto.createHash('sha256').update(JSON.stringify({ ...content, parent: parentKey })).digest('hex');
      out.push({ node, parentKey, sort, depth, hash });
      walk(node.children ?? [], node.id, depth + 1);
    });
  walk(tree, null, 0);
  return out;
}

/**
 * Brings the `menus` table in line with schemas/menus.json, in the spirit of the dictionary sync:
 * - a node the file adds is inserted (once: a shipped node an administrator deleted stays deleted);
 * - a node whose file content (fields, parent, position) changed since the last applied version is
 *   updated and re-parented, unless an administrator edited it (`edited_at`): their edit wins;
 * - a shipped node the file no longer has is removed, unless it was edited or still has children;
 * - nodes administrators created are never touched.
 * Returns how many nodes were inserted, updated and removed.
 */
export async function syncMenusFromFile(database: Database, schemasDir: string): Promise<{ inserted: number; updated: number; removed: number }> {
  const tree = readMenuFile(schemasDir);
  const fileHash = crypto.createHash('sha256').update(JSON.stringify(tree)).digest('hex');
  const counts = { inserted: 0, updated: 0, removed: 0 };
  const before = await readApplied(database.db);
  if (before.file === fileHash) return counts;

  await database.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${SYNC_LOCK_KEY})`.execute(trx);
    const applied = await readApplied(trx);
    if (applied.file === fileHash) return;
    const rows = await trx.selectFrom('menus').select(['id', 'key', 'edited_at']).where('key', 'is not', null).execute();
    const byKey = new Map(rows.map((r) => [r.key!, r]));
    const nodes: Record<string, string> = {};
    const entries = fileEntries(tree);

    // Inserts go level by level (one statement each) so every parent has its id before its children.
    const maxDepth = Math.max(0, ...entries.map((e) => e.depth));
    for (let depth = 0; depth <= maxDepth; depth++) {
      const inserts: MenuValues[] = [];
      for (const e of entries.filter((x) => x.depth === depth)) {
        const key = e.node.id;
        const row = byKey.get(key);
        const parentId = e.parentKey === null ? null : (byKey.get(e.parentKey)?.id ?? undefined);
        if (!row) {
          nodes[key] = e.hash;
          // Applied before and now missing: an administrator deleted it. A missing parent: likewise.
          if (applied.nodes[key] !== undefined || parentId === undefined) continue;
          inserts.push(menuValues(e.node, parentId, e.sort));
          continue;
        }
        if (applied.nodes[key] === e.hash || row.edited_at) {
          nodes[key] = e.hash;
          continue;
        }
        if (parentId === undefined) {
          // Its new parent was deleted by an administrator: leave it where it is (and do not count it as dropped).
          nodes[key] = applied.nodes[key] ?? '';
          continue;
        }
        await trx.updateTable('menus').set({ ...menuValues(e.node, parentId, e.sort), updated_at: new Date() }).where('id', '=', row.id).execute();
        nodes[key] = e.hash;
        counts.updated++;
      }
      if (inserts.length) {
        const added = await trx.insertInto('menus').values(inserts).onConflict((oc) => oc.column('key').doNothing()).returning(['id', 'key']).execute();
        for (const a of added) byKey.set(a.key!, { id: a.id, key: a.key, edited_at: null });
        counts.inserted += added.length;
      }
    }

    // Shipped nodes the file dropped: deepest first, so a dropped subtree goes leaf by leaf.
    const dropped = Object.keys(applied.nodes).filter((key) => !(key in nodes));
    while (dropped.length) {
      const result = await trx
        .deleteFrom('menus')
        .where('key', 'in', dropped)
        .where('edited_at', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('menus as c').select('c.id').whereRef('c.parent_id', '=', 'menus.id'))))
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      counts.removed += n;
      if (n === 0) break;
    }

    const value = JSON.stringify({ file: fileHash, nodes } satisfies Applied);
    await trx
      .insertInto('app_meta')
      .values({ key: SYNC_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
      .execute();
  });
  return counts;
}

async function readApplied(db: Kysely<DB> | Transaction<DB>): Promise<Applied> {
  const meta = await db.selectFrom('app_meta').select('value').where('key', '=', SYNC_KEY).executeTakeFirst();
  const value = (meta?.value ?? {}) as Partial<Applied>;
  return { file: value.file, nodes: value.nodes ?? {} };
}

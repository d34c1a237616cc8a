import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../db/database.js';
import type { Dict, DictEntry } from '../../../shared/dicts.js';

const SYNC_KEY = 'dict_files_applied';

export interface DictItem extends DictEntry {
  id: number;
}

/** The dictionary files shipped under schemas/dicts. */
export function readDictFiles(schemasDir: string): Dict[] {
  const dir = path.join(schemasDir, 'dicts');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Dict);
}

/**
 * Dictionaries for server code (validation of x-dict fields, labels in exports): read from the
 * database, cached per dictionary until `invalidate()` (called by every dictionary write).
 */
export class DictService {
  private cache = new Map<string, DictItem[]>();
  constructor(private readonly database: Database) {}

  /**
   * Adds dictionaries and entries that the files have and the database lacks; never overwrites edits.
   * A file is applied again only when its content changed, so an entry an administrator deleted stays deleted.
   */
  async syncFromFiles(schemasDir: string): Promise<void> {
    const { db } = this.database;
    const meta = await db.selectFrom('app_meta').select('value').where('key', '=', SYNC_KEY).executeTakeFirst();
    const applied = (meta?.value ?? {}) as Record<string, string>;
    const now: Record<string, string> = { ...applied };
    for (const dict of readDictFiles(schemasDir)) {
      const hash = crypto.createHash('sha256').update(JSON.stringify(dict)).digest('hex');
      now[dict.code] = hash;
      if (applied[dict.code] === hash) continue;
      await db.insertInto('dicts').values({ code: dict.code, name: dict.name, description: dict.description ?? '' }).onConflict((oc) => oc.column('code').doNothing()).execute();
      if (dict.entries.length) {
        await db
          .insertInto('dict_details')
          .values(dict.entries.map((e) => ({ dict_code: dict.code, value: e.value, label: e.label, sort: e.sort, parent: e.parent ?? null, disabled: e.disabled ?? false })))
          .onConflict((oc) => oc.columns(['dict_code', 'value']).doNothing())
          .execute();
      }
    }
    await db
      .insertInto('app_meta')
      .values({ key: SYNC_KEY, value: JSON.stringify(now) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(now), updated_at: new Date() }))
      .execute();
    this.invalidate();
  }

  async exists(code: string): Promise<boolean> {
    if (this.cache.has(code)) return true;
    return !!(await this.database.db.selectFrom('dicts').select('id').where('code', '=', code).executeTakeFirst());
  }

  /** Entries in display order; an unknown dictionary gives an empty list. */
  async entries(code: string): Promise<DictItem[]> {
    const hit = this.cache.get(code);
    if (hit) return hit;
    const rows = await this.database.db
      .selectFrom('dict_details')
      .select(['id', 'value', 'label', 'sort', 'parent', 'disabled'])
      .where('dict_code', '=', code)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const items = rows.map((r) => ({ id: r.id, value: r.value, label: r.label, sort: r.sort, parent: r.parent ?? undefined, disabled: r.disabled }));
    // An unknown code is not cached: `exists()` reads the cache as proof that the dictionary exists.
    if (items.length || (await this.exists(code))) this.cache.set(code, items);
    return items;
  }

  /** value → label, for showing stored values. */
  async labels(code: string): Promise<Map<string, string>> {
    return new Map((await this.entries(code)).map((e) => [e.value, e.label]));
  }

  /** The values a field bound to this dictionary may take (disabled entries excluded). */
  async values(code: string): Promise<Set<string>> {
    return new Set((await this.entries(code)).filter((e) => !e.disabled).map((e) => e.value));
  }

  invalidate(code?: string): void {
    if (code) this.cache.delete(code);
    else this.cache.clear();
  }
}

/**
 * Modules at run time (issue 29, docs/schema.md "Stored modules"): a module schema stored in the
 * database, every saved version kept (`stored_modules`, migration 0260), the newest one served. A schema
 * is accepted only when the checks of `npm run schemas:check` pass (the same functions), its table is
 * created or altered by the same table sync, and it is served by the generic routes (runtime/routes.ts
 * looks a stored module up per request). Every app server on the same PostgreSQL learns of a change through
 * the cache invalidation bus (LISTEN/NOTIFY); a server that has not heard of a module yet reads it on first use.
 * A file module (schemas/modules/) is never replaced from here.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { checkModuleSchema, checkReferenceTypes } from '../../shared/module-schema/check.js';
import { createRecordAjv } from '../../shared/module-schema/formats.js';
import type { ModuleSchema } from '../../shared/module-schema/types.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/types.js';
import { HttpError } from '../errors.js';
import { hookNamed } from './hooks.js';
import { RuntimeModule } from './module.js';
import { CORE_REFS, type ModuleRegistry } from './registry.js';
import { syncTables } from './table-sync.js';

/** The invalidation topic of stored modules: its key is the module id. */
export const STORED_MODULES_TOPIC = 'stored-module';

/**
 * Keywords a stored module may not use: they need code or files a schema stored at run time does not
 * bring, or (`x-table`) they would point the module at a table that is not its own: a designed form with
 * `x-table: "sys_config"` served and altered that table (issue 38.1). A stored module always gets `m_<id>`.
 */
const FILE_ONLY_KEYWORDS = ['x-children', 'x-workflow', 'x-links', 'x-related', 'x-scope-self', 'x-table', 'x-page'] as const;

/**
 * What a schema designed in the browser may say (the form designer, src/web/pages/forms/designer.ts): its
 * envelope, fields, required, description, list and form layout. Everything else a module file may say
 * (hooks, scope, permissions, owner, trail, reminders, the table...) is the code's: the area that stores the
 * designed schema adds its own, and a designed schema naming one is refused, naming the key (issue 38.1).
 */
export const DESIGNER_KEYWORDS: ReadonlySet<string> = new Set(['$schema', 'x-id', 'title', 'description', 'type', 'additionalProperties', 'properties', 'required', 'x-list', 'x-form']);
/** The modules a designed field may refer to (the designer's 党组织 and 人员 kinds). */
export const DESIGNER_REFS: ReadonlySet<string> = new Set(['org', 'member']);

/** The keys of a designed schema outside the designer's vocabulary (`x-table`, `properties.f.x-ref`), in order. */
export function undesignedKeys(designed: Record<string, unknown>): string[] {
  const keys = Object.keys(designed).filter((k) => !DESIGNER_KEYWORDS.has(k));
  const properties = designed.properties;
  if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, f] of Object.entries(properties as Record<string, unknown>)) {
      const ref = f && typeof f === 'object' ? (f as Record<string, unknown>)['x-ref'] : undefined;
      if (ref !== undefined && !(typeof ref === 'string' && DESIGNER_REFS.has(ref))) keys.push(`properties.${name}.x-ref`);
    }
  }
  return keys;
}

export interface StoredVersion {
  module: string;
  version: number;
  schema: ModuleSchema;
  createdAt: Date;
  createdBy: number | null;
}

export interface StoredModulesOptions {
  database: Database;
  registry: () => ModuleRegistry;
  /** Whether a dictionary of this code exists (a field naming none would refuse every save). */
  dictExists: (code: string) => Promise<boolean>;
  /** Called after a module was added or replaced here (the runtime forgets its record service). */
  changed: (id: string) => void;
  log: FastifyBaseLogger;
}

export class StoredModules {
  private readonly ajv = createRecordAjv();
  /** Tells other servers of a change; set once the invalidation bus runs (runtime/routes.ts). */
  announce: (id: string) => Promise<void> = async () => {};

  constructor(private readonly options: StoredModulesOptions) {}

  private get db(): Kysely<DB> {
    return this.options.database.db;
  }

  /**
   * Every problem of a schema offered for storage, one line each, worded as `schemas:check` words them:
   * the meta-schema and cross-field checks, then what a stored module cannot do.
   */
  async problems(schema: unknown): Promise<string[]> {
    const found = checkModuleSchema(schema);
    if (found.length) return found;
    const module = schema as ModuleSchema;
    found.push(...checkReferenceTypes(module));
    const registry = this.options.registry();
    const id = module['x-id'];
    if (registry.isFileModule(id)) found.push(`x-id "${id}" is a module of schemas/modules/; a stored module cannot replace it`);
    for (const keyword of FILE_ONLY_KEYWORDS) if (module[keyword] !== undefined) found.push(`${keyword} is not available to a module stored at run time (add the module under schemas/modules/)`);
    const hooks = module['x-hooks'] ?? {};
    for (const name of [...(hooks.beforeWrite ?? []), ...(hooks.afterWrite ?? []), ...(hooks.beforeDelete ?? [])]) {
      try {
        hookNamed(name);
      } catch {
        found.push(`x-hooks names hook "${name}", which no service registered`);
      }
    }
    for (const [name, f] of Object.entries(module.properties)) {
      const ref = f['x-ref'];
      if (ref && !CORE_REFS.has(ref) && !registry.get(ref)) found.push(`${name}.x-ref names unknown module "${ref}"`);
      const dict = f['x-dict'];
      if (dict && !(await this.options.dictExists(dict))) found.push(`${name}.x-dict names dictionary ${dict}, which does not exist`);
    }
    return found;
  }

  /**
   * Stores a new version of a module (or its first), syncs its table and serves it here at once and on
   * the other servers after their notification. An unchanged schema stores nothing. A refused schema
   * answers 400 with the check's lines as field messages.
   */
  async save(schema: unknown, userId: number | null): Promise<StoredVersion> {
    const problems = await this.problems(schema);
    if (problems.length) throw new HttpError(400, `模块定义不正确：${problems[0]}`, { errors: problems.map((message) => ({ field: 'schema', message })) });
    const module = schema as ModuleSchema;
    const id = module['x-id'];
    const latest = await this.latest(id);
    if (latest && JSON.stringify(latest.schema) === JSON.stringify(module)) return latest;
    const runtimeModule = new RuntimeModule(module, this.ajv);
    // The table first: a schema whose table cannot follow (a type change that loses data) is refused.
    try {
      // Its own table only: created by its first version, never a table that exists for anything else.
      await syncTables(this.options.database, [runtimeModule], this.options.log, { ownTablesOnly: true });
    } catch (error) {
      throw new HttpError(400, `模块定义不能应用：${(error as Error).message}`, { errors: [{ field: 'schema', message: (error as Error).message }] });
    }
    const version = (latest?.version ?? 0) + 1;
    const row = await this.db
      .insertInto('stored_modules')
      .values({ module: id, version, schema: JSON.stringify(module), created_by: userId })
      .returning(['created_at'])
      .executeTakeFirstOrThrow();
    this.install(runtimeModule);
    await this.announce(id);
    return { module: id, version, schema: module, createdAt: row.created_at, createdBy: userId };
  }

  /** Loads the newest version of every stored module (at start; their tables are synced like the files'). */
  async loadAll(): Promise<RuntimeModule[]> {
    const rows = await sql<{ module: string; schema: string }>`
      SELECT DISTINCT ON (module) module, schema FROM stored_modules ORDER BY module, version DESC`.execute(this.db);
    const modules: RuntimeModule[] = [];
    for (const row of rows.rows) {
      if (this.options.registry().isFileModule(row.module)) {
        this.options.log.warn({ module: row.module }, 'a stored module has the id of a file module: the file module is served');
        continue;
      }
      const schema = JSON.parse(row.schema) as ModuleSchema;
      const refused = FILE_ONLY_KEYWORDS.filter((k) => schema[k] !== undefined);
      if (refused.length) {
        // Stored before these keywords were refused (issue 38.1): not served, its table left alone.
        this.options.log.warn({ module: row.module, keywords: refused }, 'a stored module uses keywords a stored module may not: it is not served');
        continue;
      }
      modules.push(new RuntimeModule(schema, this.ajv));
    }
    if (modules.length) await syncTables(this.options.database, modules, this.options.log);
    for (const m of modules) this.install(m);
    return modules;
  }

  /**
   * Reads a stored module's newest version again (another server changed it, or it is asked for before
   * the notification arrived); answers whether it exists.
   */
  async reload(id: string): Promise<boolean> {
    if (this.options.registry().isFileModule(id)) return false;
    const latest = await this.latest(id);
    if (!latest) return false;
    const current = this.options.registry().get(id);
    if (current && JSON.stringify(current.merged) === JSON.stringify(latest.schema)) return true;
    this.install(new RuntimeModule(latest.schema, this.ajv));
    return true;
  }

  async latest(id: string): Promise<StoredVersion | undefined> {
    const row = await this.db.selectFrom('stored_modules').selectAll().where('module', '=', id).orderBy('version', 'desc').limit(1).executeTakeFirst();
    return row && toVersion(row);
  }

  async version(id: string, version: number): Promise<StoredVersion | undefined> {
    const row = await this.db.selectFrom('stored_modules').selectAll().where('module', '=', id).where('version', '=', version).executeTakeFirst();
    return row && toVersion(row);
  }

  /** Every version of a stored module, oldest first (without their schemas). */
  async versions(id: string): Promise<Omit<StoredVersion, 'schema'>[]> {
    const rows = await this.db.selectFrom('stored_modules').select(['module', 'version', 'created_at', 'created_by']).where('module', '=', id).orderBy('version').execute();
    return rows.map((r) => ({ module: r.module, version: r.version, createdAt: r.created_at, createdBy: r.created_by }));
  }

  /**
   * The file an implementer commits as `schemas/modules/<id>.json` to make a stored module part of the
   * product: the schema as stored, formatted as the repository's files are. Once that file ships, the
   * file module is served and the stored rows stay unused.
   */
  static fileText(schema: ModuleSchema): string {
    return `${JSON.stringify(schema, null, 2)}\n`;
  }

  private install(m: RuntimeModule): void {
    this.options.registry().putStored(m);
    this.options.changed(m.id);
  }
}

function toVersion(row: { module: string; version: number; schema: string; created_at: Date; created_by: number | null }): StoredVersion {
  return { module: row.module, version: row.version, schema: JSON.parse(row.schema) as ModuleSchema, createdAt: row.created_at, createdBy: row.created_by };
}

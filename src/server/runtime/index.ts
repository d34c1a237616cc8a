import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { ModuleId, ModuleRecords } from '../../shared/generated/modules.js';
import { scopeOrgIds, type OrgTree } from '../core/auth/org-scope.js';
import type { SessionUser } from '../core/auth/session-user.js';
import type { DictService } from '../core/dicts/service.js';
import type { MessageService } from '../core/messages/service.js';
import type { Database } from '../db/database.js';
import { RuntimeContext } from './context.js';
import type { Actor } from './hooks.js';
import { ImportJobs } from './import.js';
import { JobRunner } from './jobs.js';
import type { RuntimeModule } from './module.js';
import { RecordService, type WriteEvent } from './records.js';
import { ModuleRegistry, SchemaLoadError } from './registry.js';
import { syncTables, type SyncReport } from './table-sync.js';
import { StoredModules } from './stored-modules.js';
import { WorkflowEngine } from './workflow/engine.js';
import { Reminders } from './reminders/service.js';
import { RuleParams } from './params/registry.js';
import { addDays } from '../../shared/calendar.js';
import { EXPORT_INLINE_MAX } from '../../shared/jobs.js';
import { workingCalendar } from './working-calendar.js';

export { registerEligibility, registerFill, registerHook, registerRestoreHook, type Eligibility, type EligibilityContext, type Fill, type FillContext, type Actor, type DeleteHookContext, type Hook, type HookContext, type RestoreHookContext, type WriteHookContext } from './hooks.js';
export type { ApiRecord, ListInput, ListPage, WriteEvent, WriteOptions } from './records.js';
export { registerEffect, registerGuard, type Effect, type EffectContext, type Guard, type GuardContext, type GuardResult } from './workflow/hooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The schema runtime: module registry and a typed record API per module (`app.runtime.records('regulation')`). */
    runtime: Runtime;
  }
}

/** Domain services writing on their own behalf: every organisation, no user. */
export const SYSTEM_ACTOR: Actor = { id: null, username: 'system', scope: 'all', orgId: null };

export interface RuntimeOptions {
  database: Database;
  schemasDir: string;
  school: string;
  /** Read on use: core services may be replaced after start (the organisation tree). */
  dicts: () => DictService;
  orgTree: () => OrgTree;
  log: FastifyBaseLogger;
  /** To-dos of workflow steps (read on use). */
  messages?: () => MessageService;
  /** Background jobs: heartbeat limit (seconds) and how many rows an export writes in the request. */
  jobs?: { abandonedAfterS: number; exportInlineMax: number };
}

/**
 * The schema runtime of one app: the module registry (school overrides applied), the module tables,
 * a record service per module, import jobs, and write events (`runtime.events.on('write', ...)`).
 * `start()` loads the schemas and syncs the tables; it must run before the routes are registered.
 */
export class Runtime {
  readonly events = new EventEmitter<{ write: [WriteEvent] }>();
  private context?: RuntimeContext;
  private readonly services = new Map<string, RecordService>();
  private importJobs?: ImportJobs;
  private jobRunner?: JobRunner;
  private engine?: WorkflowEngine;
  private reminderService?: Reminders;
  private storedModules?: StoredModules;
  private ruleParams?: RuleParams;

  constructor(private readonly options: RuntimeOptions) {}

  async start(): Promise<SyncReport> {
    const { database, schemasDir, school, log } = this.options;
    const registry = ModuleRegistry.load(schemasDir, school);
    // A field naming a dictionary nobody has would refuse every save of its module: stop here instead.
    const dicts = this.options.dicts();
    const known = new Set<string>();
    for (const code of registry.dictCodes) if (await dicts.exists(code)) known.add(code);
    const unknownDicts = registry.unknownDictionaries(known);
    if (unknownDicts.length) throw new SchemaLoadError(unknownDicts.join('; '));
    const report = await syncTables(database, registry.list(), log);
    if (report.created.length || report.changed.length) log.info(report, 'module tables synced');
    this.context = new RuntimeContext(database.db, registry, this.options.dicts(), this.options.orgTree, school, log);
    // Modules stored in the database (issue 29) join the registry after the file modules.
    this.storedModules = new StoredModules({
      database,
      registry: () => this.registry,
      dictExists: (code) => this.options.dicts().exists(code),
      changed: (id) => this.services.delete(id),
      log,
    });
    await this.storedModules.loadAll();
    this.ruleParams = new RuleParams(database.db, () => this.registry);
    // Loaded before any transaction can ask: on the embedded database a load from inside one would wait
    // for the one connection that transaction holds.
    await this.ruleParams.snapshot();
    this.jobRunner = new JobRunner(database.db, () => this.options.messages?.(), log, {
      abandonedAfterS: this.options.jobs?.abandonedAfterS,
      singleServer: database.kind === 'pglite',
    });
    this.importJobs = new ImportJobs(this.context, (id) => this.records(id), this.jobRunner, log);
    this.engine = new WorkflowEngine({
      ctx: this.context,
      records: (id) => this.records(id),
      actorOf: (user) => this.actorOf(user),
      emit: (e) => this.events.emit('write', e),
      messages: () => this.options.messages?.(),
      orgTree: this.options.orgTree,
      params: () => this.params,
    });
    const engine = this.engine;
    this.reminderService = new Reminders({
      ctx: this.context,
      actorsOf: (m, step, record, directory, db) => engine.actorsOf(m, step, record, directory, db),
      // A year and more either side: the dates reminders count from lie around today.
      workingDays: (db, from) => workingCalendar(db, addDays(from, -800), addDays(from, 800)),
      messages: () => this.options.messages?.(),
      log,
    });
    await this.fillSortKeys();
    return report;
  }

  /** Fills the sort keys rows written around the runtime lack (at start, and after seeding demo data). */
  async fillSortKeys(): Promise<void> {
    for (const m of this.registry.list()) {
      const filled = await this.records(m.id).fillPinyinKeys();
      if (filled) this.options.log.info({ module: m.id, filled }, 'pinyin sort keys filled');
    }
  }

  get ctx(): RuntimeContext {
    if (!this.context) throw new Error('the schema runtime has not started');
    return this.context;
  }

  get registry(): ModuleRegistry {
    return this.ctx.registry;
  }

  get imports(): ImportJobs {
    return this.importJobs!;
  }

  /** Background jobs of every area (runtime/jobs.ts). */
  get jobs(): JobRunner {
    if (!this.jobRunner) throw new Error('the schema runtime has not started');
    return this.jobRunner;
  }

  /** Rows an export writes in the request; more run as a job (setting `exportInlineMax`). */
  get exportInlineMax(): number {
    return this.options.jobs?.exportInlineMax ?? EXPORT_INLINE_MAX;
  }

  /** Modules stored in the database: added, changed and read while the server runs. */
  get stored(): StoredModules {
    if (!this.storedModules) throw new Error('the schema runtime has not started');
    return this.storedModules;
  }

  /** The rule parameters of every module, with the values in force on any day (runtime/params/). */
  get params(): RuleParams {
    if (!this.ruleParams) throw new Error('the schema runtime has not started');
    return this.ruleParams;
  }

  /** Steps, approval log and "waiting for me" of modules with x-workflow. */
  get workflows(): WorkflowEngine {
    if (!this.engine) throw new Error('the schema runtime has not started');
    return this.engine;
  }

  /** Reminders of modules with x-reminders: the table, its recomputation and delivery. */
  get reminders(): Reminders {
    if (!this.reminderService) throw new Error('the schema runtime has not started');
    return this.reminderService;
  }

  module(id: string): RuntimeModule | undefined {
    return this.ctx.registry.get(id);
  }

  /** The record API of a module, typed by the generated record types for the repository's modules. */
  records<K extends ModuleId>(id: K): RecordService<ModuleRecords[K]>;
  records(id: string): RecordService;
  records(id: string): RecordService {
    let service = this.services.get(id);
    if (!service) {
      const m = this.module(id);
      if (!m) throw new Error(`unknown module "${id}"`);
      service = new RecordService(this.ctx, m, (e) => this.events.emit('write', e), (child) => this.records(child));
      this.services.set(id, service);
    }
    return service;
  }

  /** The actor of a signed-in user: the organisations their data scope covers. */
  async actorOf(user: SessionUser): Promise<Actor> {
    const units = user.dataScope.kind === 'all' ? 'all' : (user.dataScope.units ?? []);
    return { id: user.id, username: user.username, scope: await scopeOrgIds(this.ctx.orgTree, user.dataScope), orgId: user.orgId, units, permissions: user.isSuper ? 'all' : user.roles };
  }
}

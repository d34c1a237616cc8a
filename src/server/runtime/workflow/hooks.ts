/**
 * Guards and effects of workflow steps: domain functions named in `x-workflow` and registered by the
 * domain services (`registerGuard('development.age', ...)`). A name nobody registered stops the start.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Actor } from '../hooks.js';
import type { RuntimeModule } from '../module.js';
import type { RecordService } from '../records.js';
import type { TrailSource } from '../trail.js';
import type { TransitionInfo, WorkflowLevel } from '../../../shared/module-schema/workflow.js';

export interface StepContext {
  module: RuntimeModule;
  transition: TransitionInfo;
  /** The stored record before the step (field names, system fields, id). */
  record: Record<string, unknown>;
  /** The step's values as given (its module fields and its own fields; empty ones left out). */
  values: Record<string, unknown>;
  /** The actor's comment (opinion) on the step; empty when previewing. */
  comment: string;
  /** The record as the step leaves it: `record` with the step's module fields applied. */
  next: Record<string, unknown>;
  actor: Actor;
  level: WorkflowLevel;
  /** The organisation acting (the branch, the committee, ...), null for self. */
  actingOrgId: number | null;
  /** Read and write through this: the step's transaction (or the database when previewing). */
  trx: Kysely<DB>;
  /**
   * The module's rule parameters in force on the step's date (today): schema default, school override,
   * administrator's value (runtime/params/). A refusal names them through `paramRule` (runtime/params/refusal.ts).
   */
  params: Record<string, unknown>;
  /** The same values in force on another day ('YYYY-MM-DD'): the appraisal's year, the day the 公示 started. */
  paramsOn(date: string): Record<string, unknown>;
  /** The local calendar date, 'YYYY-MM-DD'. */
  today: string;
  /** The record service of any module (effects write other modules through it). */
  records(module: string): RecordService;
  /** Pass as `source` to writes of other modules: their trail then names this record as the change's origin. */
  source: TrailSource;
}

export interface GuardContext extends StepContext {
  /** True when listing the steps open now (GET transitions): no values yet, nothing will be written. */
  preview: boolean;
}

export interface GuardProblem {
  /** The field the problem is about, when there is one. */
  field?: string;
  /** The rule's own words. */
  message: string;
}

/**
 * A refusal (problems) or a pass with warnings; nothing means pass. `notes` say what the step finds or will do
 * (a count's result, the candidates of a round by their ballot numbers): not warnings, shown in the step's
 * dialog before it is taken (preview) and as its result afterwards, and logged as the step's 结果.
 */
export type GuardResult = void | { problems?: GuardProblem[]; warnings?: string[]; notes?: string[] };
export type Guard = (ctx: GuardContext) => GuardResult | Promise<GuardResult>;

export interface EffectContext extends StepContext {
  /** The state the record moved to (the same as before for a step without `to`). */
  to: number;
  from: number;
  id: number;
}

/** Values to set on the record (derived dates, ids of records created); nothing to set nothing. */
export type Effect = (ctx: EffectContext) => void | Record<string, unknown> | Promise<void | Record<string, unknown>>;

const guards = new Map<string, Guard>();
const effects = new Map<string, Effect>();

export function registerGuard(name: string, fn: Guard): void {
  guards.set(name, fn);
}

export function registerEffect(name: string, fn: Effect): void {
  effects.set(name, fn);
}

export function guardNamed(name: string): Guard {
  const fn = guards.get(name);
  if (!fn) throw new Error(`workflow guard "${name}" is not registered`);
  return fn;
}

export function effectNamed(name: string): Effect {
  const fn = effects.get(name);
  if (!fn) throw new Error(`workflow effect "${name}" is not registered`);
  return fn;
}

/** "module: guard name" of every guard and effect the workflows name that nobody registered. */
export function missingWorkflowHooks(modules: RuntimeModule[]): string[] {
  const missing: string[] = [];
  for (const m of modules) {
    const wf = m.workflow;
    if (!wf) continue;
    for (const name of wf.effects) if (!effects.has(name)) missing.push(`${m.id}: effect ${name}`);
    for (const t of wf.transitions.values()) {
      for (const name of t.guards) if (!guards.has(name)) missing.push(`${m.id}.${t.id}: guard ${name}`);
      for (const name of t.effects) if (!effects.has(name)) missing.push(`${m.id}.${t.id}: effect ${name}`);
    }
  }
  return missing;
}

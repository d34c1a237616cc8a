/**
 * The rule parameter registry (issue 42, docs/schema.md "Rule parameters"): every module's parameters
 * (x-workflow.params, x-params) under `<module>.<name>`, each with its value from the schema default, the
 * school override file, or an administrator (rule_param_changes, migration 0420), in that order. A change
 * takes effect from a chosen day; `valueOn(key, date)` answers the value in force on any day, so a record
 * decided last year is read with last year's value. The changes are cached per app server and forgotten
 * through the invalidation bus (topic `rule-params`) on every server when one of them writes.
 */
import { sql, type Kysely } from 'kysely';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { ModuleRegistry } from '../registry.js';
import type { RuntimeModule } from '../module.js';
import { paramValueProblem, rangeText, sameValue, type RuleParamInfo } from '../../../shared/module-schema/params.js';
import { localToday } from '../../../shared/module-schema/computed.js';

declare module '../../db/types.js' {
  interface DB {
    rule_param_changes: {
      id: Generated<number>;
      param_key: string;
      old_value: unknown;
      new_value: unknown;
      reason: string;
      changed_by: number | null;
      changed_by_name: ColumnType<string, string | undefined, string>;
      changed_at: ColumnType<Date, Date | undefined, Date>;
      effective_from: string;
    };
  }
}

export const RULE_PARAMS_TOPIC = 'rule-params';

export type ParamSource = 'default' | 'override' | 'admin';

export interface RuleParam extends RuleParamInfo {
  /** The module's title: the page groups by it, refusals name it (发展党员·公示工作日). */
  area: string;
  /** The school override file's value, when it changes the default. */
  override?: { value: unknown };
}

export interface ParamChange {
  id: number;
  key: string;
  oldValue: unknown;
  newValue: unknown;
  reason: string;
  changedBy: number | null;
  changedByName: string;
  changedAt: string;
  effectiveFrom: string;
}

export interface ParamValue {
  value: unknown;
  source: ParamSource;
  /** The administrator's change in force, when the source is `admin`. */
  change?: ParamChange;
}

/** The changes of every parameter loaded at once: values of any day are then read without a query. */
export class ParamSnapshot {
  constructor(
    private readonly params: (key: string) => RuleParam | undefined,
    /** Per key, oldest effective first (then by id). */
    private readonly changes: Map<string, ParamChange[]>,
  ) {}

  /** The value in force on `date` ('YYYY-MM-DD'): the newest change effective by then, else override, else default. */
  valueOn(key: string, date: string): ParamValue {
    const p = this.params(key);
    if (!p) throw new Error(`unknown rule parameter "${key}"`);
    const list = this.changes.get(key) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i].effectiveFrom <= date) return { value: list[i].newValue, source: 'admin', change: list[i] };
    return p.override ? { value: p.override.value, source: 'override' } : { value: p.default, source: 'default' };
  }

  /** Every parameter value of a module in force on `date`, by name (what guards read as `ctx.params`). */
  moduleValues(m: RuntimeModule, date: string): Record<string, unknown> {
    return Object.fromEntries(m.ruleParams.map(({ info }) => [info.name, this.valueOn(info.key, date).value]));
  }

  /** A change set to take effect after `date`, the nearest first. */
  pending(key: string, date: string): ParamChange | undefined {
    return (this.changes.get(key) ?? []).filter((c) => c.effectiveFrom > date).sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom) || b.id - a.id)[0];
  }
}

const changeOf = (r: Selectable<DB['rule_param_changes']>): ParamChange => ({
  id: r.id,
  key: r.param_key,
  oldValue: r.old_value ?? null,
  newValue: r.new_value,
  reason: r.reason,
  changedBy: r.changed_by ?? null,
  changedByName: r.changed_by_name,
  changedAt: new Date(r.changed_at).toISOString(),
  effectiveFrom: r.effective_from,
});

/** The registry of the app last started in this process: domain code that has only a database handle reads it. */
let current: RuleParams | undefined;

export class RuleParams {
  private loaded?: Promise<ParamSnapshot>;
  /** Set by the routes: tells every app server (this one included) to forget the cached changes. */
  announce: () => Promise<void> = async () => this.invalidate();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly registry: () => ModuleRegistry,
  ) {
    current = this;
  }

  /** Every parameter, in module then declaration order. */
  list(): RuleParam[] {
    return this.registry().list().flatMap((m) => m.ruleParams.map(({ info, override }) => ({ ...info, area: m.title, ...(override ? { override } : {}) })));
  }

  get(key: string): RuleParam | undefined {
    const dot = key.indexOf('.');
    const m = dot > 0 ? this.registry().get(key.slice(0, dot)) : undefined;
    const hit = m?.ruleParams.find((p) => p.info.key === key);
    return hit && m ? { ...hit.info, area: m.title, ...(hit.override ? { override: hit.override } : {}) } : undefined;
  }

  /** The changes, loaded once until the next invalidation. */
  snapshot(): Promise<ParamSnapshot> {
    if (!this.loaded) {
      const loading = this.db.selectFrom('rule_param_changes').selectAll().orderBy('effective_from').orderBy('id').execute().then((rows) => {
        const byKey = new Map<string, ParamChange[]>();
        for (const r of rows) {
          const c = changeOf(r);
          byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
        }
        return new ParamSnapshot((k) => this.get(k), byKey);
      });
      this.loaded = loading;
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = undefined;
      });
    }
    return this.loaded;
  }

  /**
   * Forgets the cached changes and loads them again at once, so that a guard inside a transaction finds
   * them loaded (on the embedded database a load from inside a transaction would wait for its connection).
   */
  invalidate(): void {
    this.loaded = undefined;
    this.snapshot().catch(() => undefined);
  }

  async valueOn(key: string, date = localToday()): Promise<ParamValue> {
    return (await this.snapshot()).valueOn(key, date);
  }

  /** Every change of a parameter, newest first. */
  async history(key: string): Promise<ParamChange[]> {
    const rows = await this.db.selectFrom('rule_param_changes').selectAll().where('param_key', '=', key).orderBy('changed_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(changeOf);
  }

  /**
   * An administrator's value, in force from `effectiveFrom` (today or later; default today). Refused with
   * 400 (nothing saved): an unknown key, a parameter no school may change, a value out of its range or
   * below a raise-only minimum, no reason.
   */
  async set(key: string, input: { value?: unknown; reason?: unknown; effectiveFrom?: unknown }, actor: { id: number | null; name: string }): Promise<ParamChange> {
    const p = this.get(key);
    if (!p) throw new HttpError(400, `规则参数“${key}”不存在`);
    if (p.editable === false) throw new HttpError(400, `规则参数“${p.title}”由${p.article || '上级规定'}确定，学校不能修改`);
    // A structured value (a list of rules) is checked by its area's code at start: the override file's to change.
    if (p.type === 'json') throw new HttpError(400, `规则参数“${p.title}”须在学校配置文件中修改`);
    const problem = paramValueProblem(p, input.value);
    if (problem) throw new HttpError(400, problem, { errors: [{ field: 'value', message: problem }] });
    const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
    if (!reason) throw new HttpError(400, '请填写修改原因', { errors: [{ field: 'reason', message: '请填写修改原因' }] });
    if (reason.length > 500) throw new HttpError(400, '修改原因不能超过500个字', { errors: [{ field: 'reason', message: '修改原因不能超过500个字' }] });
    const today = localToday();
    const from = input.effectiveFrom === undefined || input.effectiveFrom === null || input.effectiveFrom === '' ? today : input.effectiveFrom;
    if (typeof from !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(from) || Number.isNaN(Date.parse(`${from}T00:00:00Z`))) {
      throw new HttpError(400, '生效日期格式不正确（YYYY-MM-DD）', { errors: [{ field: 'effectiveFrom', message: '生效日期格式不正确' }] });
    }
    if (from < today) throw new HttpError(400, '生效日期不能早于今天', { errors: [{ field: 'effectiveFrom', message: '生效日期不能早于今天' }] });
    this.invalidate();
    const before = (await this.snapshot()).valueOn(key, from).value;
    if (sameValue(before, input.value)) throw new HttpError(400, `规则参数“${p.title}”在${from}的值已是${String(input.value)}${p.unit}`);
    const row = await this.db
      .insertInto('rule_param_changes')
      .values({ param_key: key, old_value: sql`${JSON.stringify(before ?? null)}::jsonb`, new_value: sql`${JSON.stringify(input.value)}::jsonb`, reason, changed_by: actor.id, changed_by_name: actor.name, effective_from: from })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.announce();
    return changeOf(row);
  }

  /** The API's answer for one parameter (GET /api/rule-params). */
  async describe(p: RuleParam, snapshot: ParamSnapshot, today = localToday()) {
    const now = snapshot.valueOn(p.key, today);
    const pending = snapshot.pending(p.key, today);
    return {
      key: p.key,
      title: p.title,
      value: now.value,
      default: p.default,
      min: p.editable === 'raise' && typeof p.default === 'number' ? Math.max(p.default, p.min ?? -Infinity) : p.min,
      max: p.max,
      source: now.source,
      area: p.area,
      module: p.module,
      name: p.name,
      type: p.type,
      unit: p.unit,
      article: p.article,
      editable: p.editable,
      description: p.description,
      declared: p.declared,
      range: rangeText(p),
      override: p.override?.value ?? null,
      ...(now.change ? { changedAt: now.change.changedAt, changedByName: now.change.changedByName } : {}),
      ...(pending ? { pending: { value: pending.newValue, effectiveFrom: pending.effectiveFrom } } : {}),
    };
  }
}

/** A parameter of this process's registry, by key. */
export const ruleParamInfo = (key: string): RuleParam | undefined => current?.get(key);

/** The value in force on `date` in this process's registry (for domain code with only a database handle). */
export async function ruleParamOn(key: string, date = localToday()): Promise<unknown> {
  if (!current) throw new Error('the rule parameter registry has not started');
  return (await current.valueOn(key, date)).value;
}

/** A number parameter in force on `date`, or `fallback` when the registry has none by that key. */
export async function numberParamOn(key: string, fallback: number, date = localToday()): Promise<number> {
  if (!current?.get(key)) return fallback;
  const v = await ruleParamOn(key, date);
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

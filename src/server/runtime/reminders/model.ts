/**
 * Reading a module's `x-reminders` against its records: whether a record needs a reminder of a type, the
 * date it counts from, the period added to it. Pure but for the named date hooks and rule parameter reads.
 */
import { numberParamOn } from '../params/registry.js';
import type { Kysely } from 'kysely';
import { PERIOD_UNITS, dateOrNull, type ReminderCondition, type ReminderDeclaration, type ReminderPeriod, type ResolvedPeriod } from '../../../shared/module-schema/reminders.js';
import type { DB } from '../../db/types.js';
import type { RuntimeModule } from '../module.js';
import { isBlank } from '../../../shared/module-schema/fields.js';

export type DateHook = (record: Record<string, unknown>, db: Kysely<DB>) => string | null | Promise<string | null>;
const dateHooks = new Map<string, DateHook>();

/** A computed date the vocabulary cannot say (`"date": { "hook": name }`), registered by a domain service. */
export function registerReminderDate(name: string, fn: DateHook): void {
  dateHooks.set(name, fn);
}

export function reminderDateHook(name: string): DateHook {
  const fn = dateHooks.get(name);
  if (!fn) throw new Error(`reminder date hook "${name}" is not registered (x-reminders names it)`);
  return fn;
}

export function remindersOf(m: RuntimeModule): ReminderDeclaration[] {
  return m.schema['x-reminders'] ?? [];
}

/**
 * A publication that expects a record from each of some organisations (or people) by a deadline: a form
 * published to branches. `missing` are the expected ones that have no record in the required state.
 */
export interface ExpectedPublication {
  /** The publication's id (the reminder's `recordId`). */
  id: number;
  /** What `{name}` says and 智能提醒 shows. */
  name: string;
  /** The deadline the reminder counts from (the declaration's offset is added). */
  date: string;
  /** Where the reminder leads; `{org}` becomes the expected organisation. */
  link?: string | null;
  missing: ExpectedEntry[];
}

/**
 * One expected organisation (or person) without its record. A module scoped by units expects people of units
 * instead (the cadres of a yearly report): `unitId` is the reminder's unit, `key` tells the expected ones
 * apart (the cadre's id) and `name` names the reminder (the cadre) instead of the publication.
 */
export type ExpectedEntry = ({ orgId: number; unitId?: undefined } | { unitId: number | null; orgId?: undefined }) & { userId?: number; key?: number; name?: string };

/**
 * An expected-record source (`"date": { "expected": name }`): the module's open publications on `today`
 * (the day the reminders are computed for).
 */
export type ExpectedSource = (m: RuntimeModule, db: Kysely<DB>, today: string) => Promise<ExpectedPublication[]>;
const expectedSources = new Map<string, ExpectedSource>();

/** Registered by the domain service that knows what a publication expects and what fulfils it. */
export function registerExpectedSource(name: string, fn: ExpectedSource): void {
  expectedSources.set(name, fn);
}

export function expectedSource(name: string): ExpectedSource {
  const fn = expectedSources.get(name);
  if (!fn) throw new Error(`expected-record source "${name}" is not registered (x-reminders names it)`);
  return fn;
}


/** Whether a condition's parts hold: all of them (`when`), or any of them (`until`). */
export function conditionHolds(c: ReminderCondition | undefined, record: Record<string, unknown>, m: RuntimeModule, mode: 'all' | 'any'): boolean {
  if (!c) return mode === 'all';
  const wf = m.workflow;
  const state = wf ? (record[wf.stateField.name] as number) : undefined;
  const parts: boolean[] = [];
  if (c.states) parts.push(state !== undefined && c.states.includes(state));
  if (c.final) parts.push(state !== undefined && !!wf?.schema.states[String(state)]?.final);
  for (const f of c.filled ?? []) parts.push(!isBlank(record[f]));
  for (const [f, v] of Object.entries(c.equals ?? {})) parts.push(record[f] === v);
  return mode === 'all' ? parts.every(Boolean) : parts.some(Boolean);
}

/** The period of a declaration with its amounts read. */
export async function periodOf(decl: ReminderDeclaration): Promise<ResolvedPeriod> {
  return amountsOf(decl.offset);
}

/** A period's amounts read (a declaration's offset, an escalation's `after`). */
export async function amountsOf(period: ReminderPeriod | undefined): Promise<ResolvedPeriod> {
  const out: ResolvedPeriod = {};
  for (const unit of PERIOD_UNITS) {
    const amount = period?.[unit];
    if (amount === undefined) continue;
    if (typeof amount === 'number') out[unit] = amount;
    else {
      // A rule parameter (runtime/params/): the value in force today.
      const v = await numberParamOn(amount.param, amount.default ?? 0);
      out[unit] = Number.isInteger(v) ? v : (amount.default ?? 0);
    }
  }
  return out;
}

/** Reminder amounts naming a rule parameter no module declares (`module·type: key`): the app refuses to start. */
export function unknownReminderParams(modules: RuntimeModule[]): string[] {
  const keys = new Set(modules.flatMap((m) => m.ruleParams.map((p) => p.info.key)));
  return modules.flatMap((m) => remindersOf(m).flatMap((d) =>
    [d.offset, d.escalate?.after].flatMap((period) => Object.values(period ?? {}))
      .flatMap((a) => (typeof a === 'object' && a && !keys.has(a.param) ? [`${m.id}·${d.type}: ${a.param}`] : []))));
}

/** The field and child module a child date reads, with the foreign key of the child. */
export function childDateOf(m: RuntimeModule, decl: ReminderDeclaration): { child: string; field: string; foreignKey: string; pick: 'min' | 'max' } | undefined {
  if (!('field' in decl.date) || !decl.date.child) return undefined;
  const { child, field, pick } = decl.date;
  const link = m.schema['x-children']?.find((c) => c.module === child);
  return link ? { child, field, foreignKey: link.foreignKey, pick: pick ?? 'min' } : undefined;
}

/** The date a reminder counts from, when the record's own fields or a hook give it (child dates are read in bulk). */
export async function ownDateOf(decl: ReminderDeclaration, record: Record<string, unknown>, db: Kysely<DB>): Promise<string | null> {
  if ('hook' in decl.date) return dateOrNull(await reminderDateHook(decl.date.hook)(record, db));
  if (!('field' in decl.date) || decl.date.child) return null;
  return dateOrNull(record[decl.date.field]);
}

/**
 * `x-reminders`: dates on a module's records that call for attention (a talk due, a probation ending, a
 * term expiring), declared on the module (docs/schema.md, "x-reminders"). The declarations, their checks
 * and the pure date arithmetic live here; the server's reminders table and delivery in
 * src/server/runtime/reminders.
 */
import { addDays, addMonths, daysBetween, isDate } from '../calendar.js';
import { CadreRemindState } from '../constants.js';
import { WEEKDAYS_ONLY, addWorkingDays, type WorkingCalendar } from '../working-days.js';
import type { ModuleSchema } from './types.js';

/** Spec §4 cadre-reminder state (NO_START 1, START 2, FINISH 3). */
export const REMINDER_STATE = CadreRemindState;
export type ReminderState = (typeof REMINDER_STATE)[keyof typeof REMINDER_STATE];

/** A number, or a rule parameter's value in force today (`<module>.<name>`, declared in a module's params). */
export type ReminderAmount = number | { param: string; default?: number };

/** One of days, months, years or working days (Monday to Friday less holidays, plus make-up days). */
export interface ReminderPeriod {
  days?: ReminderAmount;
  months?: ReminderAmount;
  years?: ReminderAmount;
  workingDays?: ReminderAmount;
}
export const PERIOD_UNITS = ['days', 'months', 'years', 'workingDays'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/**
 * The date a reminder counts from: a date field of the record; or of its child records (`child`: a module
 * of x-children), the earliest (`pick: "min"`, default) or the latest; or a named domain hook; or
 * (`expected`) the deadline of each publication of a named expected-record source, one reminder per
 * expected organisation (or person) that has no record in the required state.
 */
export type ReminderDate = { field: string; child?: string; pick?: 'min' | 'max' } | { hook: string } | { expected: string };

/** Whether a declaration counts from an expected-record source (a publication's deadline) rather than a record. */
export function isExpected(decl: ReminderDeclaration): decl is ReminderDeclaration & { date: { expected: string } } {
  return 'expected' in decl.date;
}

/**
 * Who receives the reminder: the actors of a workflow step (its permission at its level), the acting
 * organisation at a workflow level (holders of `permission`, default the module's edit permission),
 * the user in a field of the record (the record's person), or the holders of a permission whose data scope
 * holds the record's organisation.
 */
export type ReminderReceiver = { step: string } | { level: string; permission?: string } | { field: string } | { permission: string };

export interface ReminderCondition {
  /** Workflow states (the state field's codes). */
  states?: number[];
  /** Fields with a value. */
  filled?: string[];
  /** Fields equal to these values. */
  equals?: Record<string, unknown>;
  /** (until only) the record reached a state the workflow marks `final`. */
  final?: boolean;
}

export interface ReminderMessage {
  /** `{name}` the record's name, `{dueDate}` the due date (2026-05-01), `{dueDateCn}` (2026年5月1日), `{title}` the type's title. */
  title: string;
  content?: string;
}

export interface ReminderDeclaration {
  /** The type code (unique in the module): the switches and the API name it. */
  type: string;
  /** A numeric code the spec gives the type (the cadre reminders' RemindType 1-6): `GET /api/reminders?type=` accepts it. */
  code?: number;
  /** The type's title (智能提醒 lists and switches). */
  title: string;
  date: ReminderDate;
  /** Added to the date to give the due date (default: the date itself). */
  offset?: ReminderPeriod;
  /** Days before the due date the announcement starts (negative: after it); a setting per type, this is its default. */
  ahead: number;
  /** Whether the reminder stays on once the due date has passed (default true); false: it ends then. */
  overdue?: boolean;
  /** The record needs one while this holds (all parts); otherwise it has none, or its reminder ends. */
  when?: ReminderCondition;
  /** It ends once any part holds (a field filled, a state reached, a final state). A deleted record ends it too. */
  until?: ReminderCondition;
  receivers: ReminderReceiver[];
  message: ReminderMessage;
  /** Whether a receiver may close it by hand (智能提醒 → 关闭). */
  closable?: boolean;
  /**
   * A second round on the same reminder (督办): from the due date + `after`, while it is still on, these
   * receivers join it and get the escalation message once per due date (default: the message, titled 【督办】).
   */
  escalate?: ReminderEscalation;
}

export interface ReminderEscalation {
  /** Counted from the due date (one unit). */
  after: Omit<ReminderPeriod, 'years'>;
  receivers: ReminderReceiver[];
  message?: ReminderMessage;
}

/** The escalation message of a declaration: its own, else the reminder's titled 【督办】. */
export function escalationMessage(decl: ReminderDeclaration): ReminderMessage {
  return decl.escalate?.message ?? { title: `【督办】${decl.message.title}`, content: decl.message.content };
}

// ------------------------------------------------------------------ dates

/** A period with its amounts resolved to numbers. */
export type ResolvedPeriod = Partial<Record<PeriodUnit, number>>;

/** The due date: `date` plus the period (months at month ends keep the last day: 08-31 + 6 months = 02-28). */
export function dueDateOf(date: string, period: ResolvedPeriod = {}, calendar: WorkingCalendar = WEEKDAYS_ONLY): string {
  let due = date;
  if (period.years) due = addMonths(due, period.years * 12);
  if (period.months) due = addMonths(due, period.months);
  if (period.days) due = addDays(due, period.days);
  if (period.workingDays !== undefined) due = addWorkingDays(due, period.workingDays, calendar);
  return due;
}

/** The first day a reminder due on `due` is announced, `ahead` days before it. */
export function announceFrom(due: string, ahead: number): string {
  return addDays(due, -ahead);
}

/**
 * The state of a reminder due on `due` as of `today`: NO_START before its announcement, START from then on
 * (also when overdue, unless `overdue` is false: then it ends the day after its due date).
 */
export function reminderStateOn(due: string, today: string, ahead: number, overdue = true): ReminderState {
  if (!overdue && daysBetween(due, today) > 0) return REMINDER_STATE.FINISH;
  return today >= announceFrom(due, ahead) ? REMINDER_STATE.START : REMINDER_STATE.NO_START;
}

/** Fills `{name}`-style placeholders (unknown ones stay as written). */
export function fillTemplate(text: string, values: Record<string, unknown>): string {
  return text.replace(/\{(\w+)\}/g, (all, key: string) => (values[key] == null ? all : String(values[key])));
}

// ------------------------------------------------------------------ checks

/** What the meta-schema cannot say about x-reminders: the fields, children and states it names exist. */
export function checkReminders(module: ModuleSchema): string[] {
  const list = module['x-reminders'];
  if (!list) return [];
  const problems: string[] = [];
  const fields = module.properties;
  const wf = module['x-workflow'];
  const types = new Set<string>();
  list.forEach((r, i) => {
    const where = `x-reminders[${i}] (${r.type})`;
    if (types.has(r.type)) problems.push(`${where}: type "${r.type}" is declared twice`);
    types.add(r.type);
    const field = (name: string, what: string) => {
      if (!fields[name]) problems.push(`${where}.${what} names unknown field "${name}"`);
    };
    const date = r.date;
    if ('expected' in date) {
      // No record to read: the publication names its deadline and its expected organisations (or people).
      if (r.when || r.until) problems.push(`${where}: when and until do not apply to an expected-record source`);
      if (!module['x-scope']) problems.push(`${where}.date.expected needs x-scope (the expected organisation)`);
      for (const to of r.receivers) if ('step' in to || 'field' in to) problems.push(`${where}.receivers: an expected-record source has no record: name a level or a permission`);
    }
    if ('field' in date) {
      if (date.child) {
        if (!module['x-children']?.some((c) => c.module === date.child)) problems.push(`${where}.date.child: "${date.child}" is not one of x-children`);
      } else if (!fields[date.field]) field(date.field, 'date.field');
      else if (fields[date.field].format !== 'date') problems.push(`${where}.date.field: "${date.field}" is not a date field`);
    }
    const units = Object.keys(r.offset ?? {});
    if (units.length > 1) problems.push(`${where}.offset: give one of days, months, years, workingDays`);
    for (const c of [r.when, r.until]) {
      for (const name of [...(c?.filled ?? []), ...Object.keys(c?.equals ?? {})]) field(name, 'when/until');
      if ((c?.states || c?.final) && !wf) problems.push(`${where}: states and final need x-workflow`);
      for (const s of c?.states ?? []) if (wf && !(String(s) in wf.states)) problems.push(`${where}: undeclared state ${s}`);
    }
    if (r.escalate && 'expected' in date) problems.push(`${where}.escalate does not apply to an expected-record source`);
    for (const to of [...r.receivers, ...(r.escalate?.receivers ?? [])]) {
      if ('step' in to && wf && !Object.entries(wf.transitions).some(([key, t]) => key === to.step || t?.id === to.step)) problems.push(`${where}.receivers: unknown step "${to.step}"`);
      if ('step' in to && !wf) problems.push(`${where}.receivers: a step needs x-workflow`);
      if ('field' in to) {
        field(to.field, 'receivers');
        if (fields[to.field] && fields[to.field]['x-ref'] !== 'user') problems.push(`${where}.receivers: "${to.field}" must reference a user (x-ref "user")`);
      }
      if ('level' in to && !module['x-scope']) problems.push(`${where}.receivers: a level needs x-scope (the record's organisation)`);
    }
  });
  return problems;
}

/** A date value as reminders read it (a date string, else null). */
export function dateOrNull(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return isDate(value) ? value : null;
}

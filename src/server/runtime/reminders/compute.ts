/**
 * Recomputes the reminders of records (x-reminders): for each declared type, whether the record needs one,
 * its due date and state as of a day, and who receives it; writes what changed to `reminders` and, when a
 * reminder starts (or starts again for a new due date) and its type is on, the announcement to
 * `reminder_outbox`, all through the caller's handle: inside a write, in the write's transaction.
 */
import { sql, type Kysely } from 'kysely';
import { chineseDate } from '../../../shared/calendar.js';
import { REMINDER_STATE, dueDateOf, escalationMessage, fillTemplate, isExpected, reminderStateOn, type ReminderDeclaration, type ReminderReceiver } from '../../../shared/module-schema/reminders.js';
import type { DB } from '../../db/types.js';
import type { RuntimeContext } from '../context.js';
import { selection } from '../decorate.js';
import { ALL_SYSTEM_SELECT } from '../list.js';
import type { RuntimeModule } from '../module.js';
import { idIn } from '../query.js';
import { recordLinks } from '../workflow/links.js';
import { Directory } from '../workflow/directory.js';
import { OrgLevels, inScope, inUnits, levelRecord } from '../workflow/levels.js';
import type { WorkflowLevel } from '../../../shared/module-schema/workflow.js';
import type { WorkingCalendar } from '../../../shared/working-days.js';
import { amountsOf, childDateOf, conditionHolds, expectedSource, ownDateOf, periodOf, remindersOf } from './model.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */

export interface ComputeDeps {
  ctx: RuntimeContext;
  /** The actors of a workflow step on a record (the engine's). */
  actorsOf(m: RuntimeModule, step: string, record: Record<string, unknown>, directory: Directory, db: Kysely<DB>): Promise<number[]>;
  /** The working-day calendar around `from` (the holiday calendar an administrator keeps). */
  workingDays(db: Kysely<DB>, from: string): Promise<WorkingCalendar>;
}

/** Per module and type: how many reminders are not finished after a computation. */
export type Counts = Record<string, Record<string, number>>;

interface Setting {
  enabled: boolean;
  ahead: number;
}

interface Stored {
  id: number;
  record_id: number;
  type: string;
  due_date: string;
  state: number;
  receivers: number[];
  org_id: number | null;
  unit_id: number | null;
  title: string;
  announced_due: string | null;
  closed_due: string | null;
  escalated_due?: string | null;
}

const PAGE = 500;

export class ReminderComputer {
  private readonly levels: OrgLevels;

  constructor(private readonly deps: ComputeDeps) {
    this.levels = new OrgLevels(() => deps.ctx.orgTree);
  }

  /** `<field>Name` of each reference the record holds and `<field>Label` of each dictionary value, for a message to name the person, the unit, the post (`{cadreIdName}`, `{postLabel}`). */
  private async namesOf(db: Kysely<DB>, m: RuntimeModule, record: Record<string, unknown>): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const f of m.fields.values()) {
      const v = record[f.name];
      if (f.ref && typeof v === 'number') out[`${f.name}Name`] = (await this.deps.ctx.refNames(f.ref, [v], db)).get(v) ?? '';
      if (f.dict && typeof v === 'string' && v) out[`${f.name}Label`] = (await this.deps.ctx.dictLabels(f.dict, db)).get(v) ?? v;
    }
    return out;
  }

  /** The switch and window of every type of a module (the schema's defaults where nobody set one). */
  async settings(db: Kysely<DB>, m: RuntimeModule): Promise<Map<string, Setting>> {
    const rows = await db.selectFrom('reminder_settings').select(['type', 'enabled', 'ahead_days']).where('module', '=', m.id).execute();
    const byType = new Map(rows.map((r) => [r.type, r]));
    return new Map(remindersOf(m).map((d) => [d.type, { enabled: (byType.get(d.type)?.enabled ?? 1) === 1, ahead: byType.get(d.type)?.ahead_days ?? d.ahead }]));
  }

  /** Recomputes the reminders of these records (all of the module's with `ids` null) as of `today`. */
  async recompute(db: Kysely<DB>, m: RuntimeModule, ids: number[] | null, today: string, types?: string[]): Promise<void> {
    const decls = remindersOf(m).filter((d) => !isExpected(d) && (!types || types.includes(d.type)));
    if (!decls.length) return;
    const settings = await this.settings(db, m);
    const directory = new Directory(db, this.levels, () => this.deps.ctx.orgTree);
    const working = decls.some((d) => d.offset?.workingDays !== undefined || d.escalate?.after.workingDays !== undefined) ? await this.deps.workingDays(db, today) : undefined;
    for (let after = 0; ; ) {
      let q = (db as Kysely<any>).selectFrom(m.table).select(selection(m.storedFields.filter((f) => f.column), ALL_SYSTEM_SELECT)).orderBy('id').limit(PAGE);
      q = ids ? q.where(idIn(ids.filter((id) => id > after))) : q.where('id', '>', after);
      const rows = (await q.execute()) as Record<string, unknown>[];
      if (!rows.length) break;
      after = rows[rows.length - 1].id as number;
      const links = await recordLinks(this.deps.ctx, m, rows as ({ id: number } & Record<string, unknown>)[], db);
      await this.recomputeRows(db, m, rows, decls, settings, { today, directory, links, working });
      if (rows.length < PAGE) break;
    }
    if (!ids) await this.finishGone(db, m);
  }

  /** Records gone (deleted around the runtime): their open reminders end. */
  async finishGone(db: Kysely<DB>, m: RuntimeModule): Promise<void> {
    await sql`UPDATE reminders r SET state = ${REMINDER_STATE.FINISH}, updated_at = now() WHERE r.module = ${m.id} AND r.state <> ${REMINDER_STATE.FINISH} AND r.expected_key = 0
      AND NOT EXISTS (SELECT 1 FROM ${sql.table(m.table)} t WHERE t.id = r.record_id)`.execute(db);
  }

  /** The reminders of deleted records end. */
  async finishRecords(db: Kysely<DB>, m: RuntimeModule, ids: number[]): Promise<void> {
    if (!ids.length || !remindersOf(m).length) return;
    await db.updateTable('reminders').set({ state: REMINDER_STATE.FINISH, updated_at: new Date() }).where('module', '=', m.id).where('record_id', 'in', ids).where('expected_key', '=', 0).where('state', '<>', REMINDER_STATE.FINISH).execute();
  }

  private async recomputeRows(
    db: Kysely<DB>,
    m: RuntimeModule,
    rows: Record<string, unknown>[],
    decls: ReminderDeclaration[],
    settings: Map<string, Setting>,
    run: { today: string; directory: Directory; links: Map<number, string | null>; working?: WorkingCalendar },
  ): Promise<void> {
    const ids = rows.map((r) => r.id as number);
    const stored = await db
      .selectFrom('reminders')
      .select(['id', 'record_id', 'type', 'due_date', 'state', 'receivers', 'org_id', 'unit_id', 'title', 'announced_due', 'closed_due', 'escalated_due'])
      .where('module', '=', m.id)
      .where('record_id', 'in', ids)
      .where('expected_key', '=', 0)
      .execute();
    const existing = new Map(stored.map((s) => [`${s.record_id}:${s.type}`, s as Stored]));
    const owners = await this.ownersOf(db, m, rows);
    for (const decl of decls) {
      const childDates = await this.childDates(db, m, decl, ids);
      const setting = settings.get(decl.type)!;
      for (const record of rows) {
        const id = record.id as number;
        const old = existing.get(`${id}:${decl.type}`);
        const base = childDates ? (childDates.get(id) ?? null) : await ownDateOf(decl, record, db);
        const applies = base !== null && conditionHolds(decl.when, record, m, 'all') && !conditionHolds(decl.until, record, m, 'any');
        if (!applies) {
          if (old && old.state !== REMINDER_STATE.FINISH) await db.updateTable('reminders').set({ state: REMINDER_STATE.FINISH, updated_at: new Date() }).where('id', '=', old.id).execute();
          continue;
        }
        const due = dueDateOf(base, await periodOf(decl), run.working);
        let state: number = reminderStateOn(due, run.today, setting.ahead, decl.overdue ?? true);
        if (old?.closed_due === due) state = REMINDER_STATE.FINISH;
        const owner = owners.get(id) ?? NO_OWNER;
        // Escalation (x-reminders `escalate`): still on at due + after, the escalation's receivers join the same reminder.
        const escalated = !!decl.escalate && state === REMINDER_STATE.START && run.today >= dueDateOf(due, await amountsOf(decl.escalate.after), run.working);
        const escalation = escalated ? await this.receiversOf(db, m, decl.escalate!.receivers, record, run.directory, owner) : [];
        const receivers = state === REMINDER_STATE.FINISH && old ? old.receivers : union(await this.receiversOf(db, m, decl.receivers, record, run.directory, owner), escalation);
        const values = { title: decl.title, due_date: due, state, receivers, org_id: owner.orgId, unit_id: owner.unitId };
        const announce = state === REMINDER_STATE.START && setting.enabled && old?.announced_due !== due;
        // escalated_due: the due date the escalation is in force for (null while it is not); its message goes out once.
        const escalatedDue = escalated && setting.enabled ? due : null;
        const escalate = escalatedDue !== null && old?.escalated_due !== due;
        const marks = { ...(announce && { announced_due: due }), ...(decl.escalate && { escalated_due: escalatedDue }) };
        let reminderId = old?.id;
        if (!old) {
          reminderId = (await db.insertInto('reminders').values({ module: m.id, record_id: id, type: decl.type, ...values, ...marks }).returning('id').executeTakeFirstOrThrow()).id;
        } else if (announce || (decl.escalate && (old.escalated_due ?? null) !== escalatedDue) || changed(old, values)) {
          await db.updateTable('reminders').set({ ...values, ...marks, updated_at: new Date() }).where('id', '=', old.id).execute();
        }
        // The words of a message, read only when one is sent (names of references cost a query each).
        let words: Record<string, unknown> | undefined;
        const send = async (to: number[], message: { title: string; content?: string }) => {
          if (!to.length) return;
          words ??= { ...record, ...(await this.namesOf(db, m, record)), name: m.nameField ? String(record[m.nameField.name] ?? '') : String(id), dueDate: due, dueDateCn: chineseDate(due), title: decl.title };
          await db
            .insertInto('reminder_outbox')
            .values({ reminder_id: reminderId!, module: m.id, user_ids: to, title: fillTemplate(message.title, words), content: fillTemplate(message.content ?? '', words), link: run.links.get(id) ?? null })
            .execute();
        };
        if (announce) await send(receivers, decl.message);
        if (escalate) await send(escalation, escalationMessage(decl));
      }
    }
  }

  /**
   * Recomputes the reminders of a module's expected-record sources as of `today`: one per publication and
   * expected organisation (or person) that has no record in the required state; the others end.
   */
  async recomputeExpected(db: Kysely<DB>, m: RuntimeModule, today: string, types?: string[]): Promise<void> {
    const decls = remindersOf(m).filter((d) => isExpected(d) && (!types || types.includes(d.type)));
    if (!decls.length) return;
    const settings = await this.settings(db, m);
    const directory = new Directory(db, this.levels, () => this.deps.ctx.orgTree);
    const working = decls.some((d) => d.offset?.workingDays !== undefined) ? await this.deps.workingDays(db, today) : undefined;
    for (const decl of decls) {
      if (!isExpected(decl)) continue;
      const setting = settings.get(decl.type)!;
      const publications = await expectedSource(decl.date.expected)(m, db, today);
      const stored = await db
        .selectFrom('reminders')
        .select(['id', 'record_id', 'type', 'expected_key', 'due_date', 'state', 'receivers', 'org_id', 'unit_id', 'title', 'announced_due', 'closed_due', 'record_name', 'link'])
        .where('module', '=', m.id)
        .where('type', '=', decl.type)
        .where('expected_key', '<>', 0)
        .execute();
      const existing = new Map(stored.map((s) => [`${s.record_id}:${s.expected_key}`, s]));
      const seen = new Set<number>();
      const receiversByOwner = new Map<string, Promise<number[]>>();
      const orgNames = await this.deps.ctx.refNames('org', [...new Set(publications.flatMap((p) => p.missing.flatMap((e) => (e.orgId === undefined ? [] : [e.orgId]))))], db);
      const inserts: { values: Record<string, unknown>; announce: { title: string; content: string; link: string | null } | null }[] = [];
      for (const pub of publications) {
        const due = dueDateOf(pub.date, await periodOf(decl), working);
        for (const entry of pub.missing) {
          // An organisation expected, or (a unit-scoped module) a person of a unit: the reminder's owner.
          const owner: Owner = entry.orgId !== undefined ? { orgId: entry.orgId, unitId: null } : { orgId: null, unitId: entry.unitId ?? null };
          const key = entry.key ?? entry.userId ?? entry.orgId ?? 0;
          const old = existing.get(`${pub.id}:${key}`);
          if (old) seen.add(old.id);
          let state: number = reminderStateOn(due, today, setting.ahead, decl.overdue ?? true);
          if (old?.closed_due === due) state = REMINDER_STATE.FINISH;
          let receivers = old?.receivers ?? [];
          if (state !== REMINDER_STATE.FINISH || !old) {
            // The receivers of an expected organisation (or unit), as a record of it would have them (one lookup per owner).
            const ownerKey = `${owner.orgId ?? ''}:${owner.unitId ?? ''}`;
            let found = receiversByOwner.get(ownerKey);
            if (!found) receiversByOwner.set(ownerKey, (found = this.receiversOf(db, m, decl.receivers, { [m.scopeField!.name]: owner.orgId ?? owner.unitId }, directory, owner)));
            receivers = union(await found, entry.userId ? [entry.userId] : []);
          }
          const link = pub.link?.replaceAll('{org}', String(entry.orgId ?? '')) ?? null;
          const name = entry.name ?? pub.name;
          const values = { title: decl.title, due_date: due, state, receivers, org_id: owner.orgId, unit_id: owner.unitId, record_name: name, link };
          const shouldAnnounce = state === REMINDER_STATE.START && setting.enabled && old?.announced_due !== due && receivers.length > 0;
          const words = { name, dueDate: due, dueDateCn: chineseDate(due), title: decl.title, orgName: owner.orgId === null ? '' : (orgNames.get(owner.orgId) ?? '') };
          const announce = shouldAnnounce ? { title: fillTemplate(decl.message.title, words), content: fillTemplate(decl.message.content ?? '', words), link } : null;
          if (!old) {
            inserts.push({ values: { module: m.id, record_id: pub.id, type: decl.type, expected_key: key, ...values, ...(announce && { announced_due: due }) }, announce });
            continue;
          }
          if (announce || changed(old, values) || old.record_name !== name || old.link !== link) {
            await db.updateTable('reminders').set({ ...values, ...(announce && { announced_due: due }), updated_at: new Date() }).where('id', '=', old.id).execute();
          }
          if (announce) await db.insertInto('reminder_outbox').values({ reminder_id: old.id, module: m.id, user_ids: receivers, ...announce }).execute();
        }
      }
      // New ones in bulk (a form published to thousands of branches), their announcements after them.
      for (let i = 0; i < inserts.length; i += PAGE) {
        const chunk = inserts.slice(i, i + PAGE);
        const ids = await db.insertInto('reminders').values(chunk.map((c) => c.values) as never).returning(['id', 'record_id', 'expected_key']).execute();
        const idOf = new Map(ids.map((r) => [`${r.record_id}:${r.expected_key}`, r.id]));
        const outbox = chunk
          .filter((c) => c.announce)
          .map((c) => ({ reminder_id: idOf.get(`${c.values.record_id as number}:${c.values.expected_key as number}`)!, module: m.id, user_ids: c.values.receivers as number[], ...c.announce! }));
        if (outbox.length) await db.insertInto('reminder_outbox').values(outbox).execute();
      }
      // Fulfilled, no longer expected, or the publication ended: their reminders end.
      const ended = stored.filter((s) => !seen.has(s.id) && s.state !== REMINDER_STATE.FINISH).map((s) => s.id);
      for (let i = 0; i < ended.length; i += PAGE) {
        await db.updateTable('reminders').set({ state: REMINDER_STATE.FINISH, updated_at: new Date() }).where('id', 'in', ended.slice(i, i + PAGE)).execute();
      }
    }
  }

  /** The earliest (or latest) child date per parent record, when the declaration reads one. */
  private async childDates(db: Kysely<DB>, m: RuntimeModule, decl: ReminderDeclaration, ids: number[]): Promise<Map<number, string> | undefined> {
    const spec = childDateOf(m, decl);
    if (!spec) return undefined;
    const child = this.deps.ctx.registry.get(spec.child);
    const fk = child?.field(spec.foreignKey)?.column;
    const col = child?.field(spec.field)?.column;
    if (!child || !fk || !col) return new Map();
    const agg = spec.pick === 'max' ? sql`max(${sql.ref(col)})` : sql`min(${sql.ref(col)})`;
    const rows = await sql<{ parent: number; d: string | null }>`SELECT ${sql.ref(fk)} AS parent, ${agg}::text AS d FROM ${sql.table(child.table)}
      WHERE ${sql.ref(fk)} = ANY(${ids}::int[]) GROUP BY ${sql.ref(fk)}`.execute(db);
    return new Map(rows.rows.filter((r) => r.d).map((r) => [r.parent, r.d!]));
  }

  /** Who receives a reminder of this record (see ReminderReceiver). */
  private async receiversOf(db: Kysely<DB>, m: RuntimeModule, list: ReminderReceiver[], record: Record<string, unknown>, directory: Directory, owner: Owner): Promise<number[]> {
    const out = new Set<number>();
    for (const to of list) {
      if ('step' in to) for (const u of await this.deps.actorsOf(m, to.step, record, directory, db)) out.add(u);
      else if ('field' in to) {
        const u = record[to.field];
        if (typeof u === 'number') out.add(u);
      } else if ('level' in to) {
        // As workflow levels resolve: the registry's resolver reads the record's organisation, unit, other side.
        const level = to.level as WorkflowLevel;
        const r = levelRecord(m, record);
        const acting = await this.levels.actingOrg(level, r);
        for (const h of await directory.holders(to.permission ?? m.permissions.edit, db)) if (await this.levels.canAct(h, level, acting, r)) out.add(h.userId);
      } else {
        for (const h of await directory.holders(to.permission, db)) if (inScope(h, owner.orgId) || inUnits(h, owner.unitId)) out.add(h.userId);
      }
    }
    return [...out].sort((a, b) => a - b);
  }

  /**
   * The organisation or unit each record belongs to for the data scope: its x-scope field (a unit field
   * gives the unit), or for a child module scoped through its parent, the parent record's.
   */
  private async ownersOf(db: Kysely<DB>, m: RuntimeModule, rows: Record<string, unknown>[]): Promise<Map<number, Owner>> {
    const out = new Map<number, Owner>();
    const ownerOf = (mod: RuntimeModule, r: Record<string, unknown>): Owner => {
      const v = (r[mod.scopeField!.name] as number | null | undefined) ?? null;
      return mod.scopeField!.ref === 'unit' ? { orgId: null, unitId: v } : { orgId: v, unitId: null };
    };
    if (m.scopeField) for (const r of rows) out.set(r.id as number, ownerOf(m, r));
    else if (m.scopeVia?.parent.scopeField) {
      const { foreignKey, parent } = m.scopeVia;
      const parentIds = [...new Set(rows.map((r) => r[foreignKey.name]).filter((v): v is number => typeof v === 'number'))];
      const parents = parentIds.length
        ? ((await (db as Kysely<any>).selectFrom(parent.table).select(['id', `${parent.scopeField!.column} as ${parent.scopeField!.name}`]).where(idIn(parentIds)).execute()) as Record<string, unknown>[])
        : [];
      const byId = new Map(parents.map((p) => [p.id as number, ownerOf(parent, p)]));
      for (const r of rows) out.set(r.id as number, byId.get(r[foreignKey.name] as number) ?? NO_OWNER);
    }
    return out;
  }

  /** Which of these modules' records reference these child rows (a child date changed). */
  parentsOf(m: RuntimeModule, rows: Record<string, unknown>[]): { parent: RuntimeModule; ids: number[] }[] {
    const out: { parent: RuntimeModule; ids: number[] }[] = [];
    for (const parent of this.deps.ctx.registry.list()) {
      for (const decl of remindersOf(parent)) {
        const spec = childDateOf(parent, decl);
        if (spec?.child !== m.id) continue;
        const ids = [...new Set(rows.map((r) => r[spec.foreignKey]).filter((v): v is number => typeof v === 'number'))];
        if (ids.length) out.push({ parent, ids });
      }
    }
    return out;
  }
}

/** The organisation or unit a reminder belongs to (the data scope filters on it). */
interface Owner {
  orgId: number | null;
  unitId: number | null;
}
const NO_OWNER: Owner = { orgId: null, unitId: null };

/** Two receiver lists as one, sorted (the stored order). */
const union = (a: number[], b: number[]): number[] => [...new Set([...a, ...b])].sort((x, y) => x - y);

function changed(old: Stored, next: { title: string; due_date: string; state: number; receivers: number[]; org_id: number | null; unit_id: number | null }): boolean {
  return old.title !== next.title || old.due_date !== next.due_date || old.state !== next.state || old.org_id !== next.org_id || old.unit_id !== next.unit_id || old.receivers.join(',') !== next.receivers.join(',');
}


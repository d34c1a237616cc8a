/**
 * The workflow engine (docs/schema.md, "x-workflow"): which steps a caller may take on a record, taking
 * one (or a batch), the approval log, and the "waiting for me" list condition.
 *
 * A step is one transaction: the guards (refuse → 400, nothing written), the state change
 * `UPDATE ... WHERE id = ? AND state = <from> AND version = <read>` (another approver first → 409), the
 * step's values, the effects (other modules, derived values), the trail record, the log entry and the
 * to-dos; pushes and the write event follow the commit.
 */
import type { RuleParams } from '../params/registry.js';
import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin, ChangeRecordType } from '../../../shared/constants.js';
import { localToday } from '../../../shared/module-schema/computed.js';
import { LEVEL_READS, LEVEL_TITLES, isWaitingStep, type WorkflowLevel } from '../../../shared/module-schema/workflow.js';
import type { OrgTree } from '../../core/auth/org-scope.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import type { MessageService, NewTodo, TodoTransaction } from '../../core/messages/service.js';
import type { DB } from '../../db/types.js';
import { HttpError, STATUS_MESSAGES } from '../../errors.js';
import type { FieldError } from '../../../shared/validation-messages.js';
import type { RuntimeContext } from '../context.js';
import type { Actor } from '../hooks.js';
import type { RuntimeModule } from '../module.js';
import type { Condition } from '../query.js';
import type { ApiRecord, RecordService, WriteEvent } from '../records.js';
import { changesOf, dictSnapshot, recordChanges } from '../trail.js';
import { remindersAfterWrite } from '../reminders/service.js';
import { Directory, participantOf } from './directory.js';
import { effectNamed, guardNamed, type GuardContext, type GuardProblem, type StepContext } from './hooks.js';
import { OrgLevels, levelFields, levelRecord, levelsText, type Acting, type Participant } from './levels.js';
import { previousState, readLog, valueTexts, writeLog, type ApprovalDto } from './log.js';
import { todoLink } from './links.js';
import { isBlank } from '../../../shared/module-schema/fields.js';
import { BATCH_MAX, COMMENT_MAX, forOrgValue, readInput, type StepInput } from './input.js';
import { waitingCondition } from './waiting.js';
import type { Step } from './model.js';
import { unreadableRefMessage, unreadableRefs } from '../read-policy.js';
import { approvalsFor, assertStepValuesInScope, isOwnRecord, ownRecordRefusal, ownersOf } from './safety.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */

export interface EngineDeps {
  ctx: RuntimeContext;
  records(module: string): RecordService;
  actorOf(user: SessionUser): Promise<Actor>;
  emit(event: WriteEvent): void;
  messages(): MessageService | undefined;
  orgTree(): OrgTree;
  /** The rule parameter registry: guards read the values in force. */
  params(): RuleParams;
}

/** A step open to the caller, as `GET /api/m/{id}/{recordId}/transitions` answers it. */
export interface OpenStep {
  id: string;
  title: string;
  /** The state the record moves to (the current one for a step that records something). */
  to: number;
  toTitle: string;
  result: string;
  level: WorkflowLevel;
  levelTitle: string;
  fields: { name: string; title: string; required: boolean }[];
  comment: 'required' | 'optional' | 'none';
  /** Warnings the guards give now (they go into the log when the step is taken). */
  warnings: string[];
  /** What the guards say about the step now (GuardResult.notes): shown in its dialog, not as warnings. */
  notes: string[];
  /** What the guards would refuse if the step were taken now with the record as it is. */
  blocked: string[];
}

export interface BatchResult {
  id: number;
  status: 'done' | 'failed';
  code: number;
  message: string;
  warnings?: string[];
  notes?: string[];
}

/** The log's value text holding a step's notes (GuardResult.notes): not a field of the module. */
const RESULT_TEXT_FIELD = '@result';

export class WorkflowEngine {
  readonly levels: OrgLevels;

  constructor(private readonly deps: EngineDeps) {
    this.levels = new OrgLevels(deps.orgTree);
  }

  private get ctx(): RuntimeContext {
    return this.deps.ctx;
  }

  private directory(): Directory {
    return new Directory(this.ctx.db, this.levels, this.deps.orgTree);
  }

  private async who(user: SessionUser): Promise<{ actor: Actor; p: Participant }> {
    const actor = await this.deps.actorOf(user);
    return { actor, p: await participantOf(user, actor, this.levels) };
  }

  /** A record the actor sees (in their data scope, or their own as its `selfField` user), else 404 as for reading it. */
  private async visibleRow(m: RuntimeModule, id: number, actor: Actor): Promise<Record<string, unknown>> {
    const service = this.deps.records(m.id);
    const row = Number.isSafeInteger(id) && id > 0 ? await service.readRow(id) : undefined;
    if (!row || !(this.isSelf(m, row, actor) || (await service.inScope([row], actor, this.ctx.db, 'read')))) throw new HttpError(404, `${m.title}记录不存在`);
    return row;
  }

  private isSelf(m: RuntimeModule, row: Record<string, unknown>, actor: Actor): boolean {
    const field = m.workflow!.selfField;
    return !!field && actor.id !== null && row[field.name] === actor.id;
  }

  /**
   * The level and organisation the participant takes the step at, or why not. A step taken for an
   * organisation (`forOrg`) reads that organisation instead of the record's, at its own level only.
   */
  private async acting(m: RuntimeModule, t: Step, record: Record<string, unknown>, p: Participant, forOrg?: number): Promise<Acting | string> {
    const wf = m.workflow!;
    let levels = wf.levelsOf(t, record[wf.stateField.name] as number);
    const r = levelRecord(m, record);
    if (t.forOrg) {
      r.orgId = forOrg ?? null;
      const own = await this.levels.userLevel(r.orgId, []);
      levels = levels.filter((level) => level === own);
      if (!levels.length) return `“${t.title}”须由${levelsText(wf.levelsOf(t, record[wf.stateField.name] as number))}办理，所选党组织不在其列`;
    }
    let ownLevel = false;
    for (const level of levels) {
      const actingOrg = await this.levels.actingOrg(level, r);
      if (await this.levels.canAct(p, level, actingOrg, r)) return { level, orgId: actingOrg };
      if (level !== 'self' && p.level === level) ownLevel = true;
    }
    if (!levels.length) return `当前状态下没有人可以办理“${t.title}”`;
    return ownLevel ? `该记录不在您的管理范围内，不能办理“${t.title}”` : `“${t.title}”须由${levelsText(levels)}办理`;
  }

  private async stepContext(m: RuntimeModule, t: Step, record: Record<string, unknown>, values: Record<string, unknown>, actor: Actor, acting: Acting, trx: Kysely<DB>, comment = ''): Promise<StepContext> {
    const today = localToday();
    const params = await this.deps.params().snapshot();
    const moduleValues = Object.fromEntries(t.fields.filter((f) => f in values).map((f) => [f, values[f]]));
    return {
      module: m,
      transition: t,
      record,
      values,
      comment,
      next: { ...record, ...moduleValues },
      actor,
      level: acting.level,
      actingOrgId: acting.orgId,
      trx,
      params: params.moduleValues(m, today),
      paramsOn: (date) => params.moduleValues(m, date),
      today,
      records: (id) => this.deps.records(id),
      source: { module: m.id, recordId: record.id as number },
    };
  }

  private async runGuards(t: Step, ctx: GuardContext): Promise<{ problems: (GuardProblem & { rule: string })[]; warnings: string[]; notes: string[] }> {
    const problems: (GuardProblem & { rule: string })[] = [];
    const warnings: string[] = [];
    const notes: string[] = [];
    for (const name of t.guards) {
      const result = await guardNamed(name)(ctx);
      if (!result) continue;
      for (const p of result.problems ?? []) problems.push({ ...p, rule: name });
      warnings.push(...(result.warnings ?? []));
      notes.push(...(result.notes ?? []));
    }
    return { problems, warnings, notes };
  }

  /**
   * The step's values: only the fields it takes; what the record already holds for its module fields
   * counts as given (a step taken again after a return); checked like a write (types, formats, required,
   * dictionary values, references).
   */
  private async stepValues(m: RuntimeModule, t: Step, given: Record<string, unknown>, record: Record<string, unknown>, actor: Actor): Promise<Record<string, unknown>> {
    const wf = m.workflow!;
    const errors: FieldError[] = [];
    const names = new Set(t.inputs.map((f) => f.name));
    const values: Record<string, unknown> = {};
    for (const f of t.fields) if (!isBlank(record[f])) values[f] = record[f];
    for (const [key, value] of Object.entries(given)) {
      if (!names.has(key)) errors.push({ field: key, message: `不允许的字段：${key}` });
      else if (isBlank(value)) delete values[key];
      else values[key] = typeof value === 'string' ? value.trim() : value;
    }
    if (!errors.length) errors.push(...wf.validate(t, values));
    const failed = new Set(errors.map((e) => e.field));
    for (const f of t.inputs) {
      const v = values[f.name];
      if (isBlank(v) || failed.has(f.name)) continue;
      const list = Array.isArray(v) ? v : [v];
      if (f.dict) {
        const allowed = await this.ctx.dictValues(f.dict);
        const bad = list.find((x) => !allowed.has(String(x)));
        if (bad !== undefined) errors.push({ field: f.name, message: `${f.title}“${String(bad)}”不是有效的选项` });
      }
      if (f.ref) {
        const existing = await this.ctx.existingRefs(f.ref, list as number[]);
        if (existing && list.some((x) => !existing.has(x as number))) errors.push({ field: f.name, message: `${f.title}所选的记录不存在` });
        // A step names only records its actor may read, as any write (read-policy.ts); what the record holds stays.
        else if (f.ref !== 'org' && f.ref !== 'unit') {
          const held = Array.isArray(record[f.name]) ? (record[f.name] as unknown[]) : [record[f.name]];
          const unreadable = await unreadableRefs(this.ctx, f.ref, list.filter((x) => !held.includes(x)) as number[], actor);
          if (unreadable.size) errors.push({ field: f.name, message: unreadableRefMessage(f.title) });
        }
      }
    }
    if (errors.length) throw new HttpError(400, errors[0].message, { errors });
    return values;
  }

  // ------------------------------------------------------------------ reading

  /** The steps the caller may take on a record now. */
  async open(m: RuntimeModule, id: number, user: SessionUser): Promise<OpenStep[]> {
    const wf = m.workflow!;
    const { actor, p } = await this.who(user);
    const record = await this.visibleRow(m, id, actor);
    const state = record[wf.stateField.name] as number;
    const out: OpenStep[] = [];
    for (const t of wf.transitions.values()) {
      if (!wf.isOpen(t, record) || !hasAnyPermission(user, [t.permission])) continue;
      // A step taken for an organisation is offered for the caller's own.
      const forOrg = t.forOrg ? (p.orgId ?? undefined) : undefined;
      const acting = await this.acting(m, t, record, p, forOrg);
      if (typeof acting === 'string') continue;
      if (acting.level !== 'self' && (await isOwnRecord(m, record, actor.id, this.ctx.db))) continue;
      const values: Record<string, unknown> = Object.fromEntries(t.fields.filter((f) => !isBlank(record[f])).map((f) => [f, record[f]]));
      if (t.forOrg) values[t.forOrg] = forOrg;
      const preview = await this.runGuards(t, { ...(await this.stepContext(m, t, record, values, actor, acting, this.ctx.db)), preview: true });
      const to = t.to === 'previous' ? await previousState(this.ctx.db, m, id, state) : (t.to ?? state);
      out.push({
        id: t.id,
        title: t.title,
        to,
        toTitle: wf.stateTitle(to),
        result: t.result,
        level: acting.level,
        levelTitle: LEVEL_TITLES[acting.level],
        fields: t.inputs.map((f) => ({ name: f.name, title: f.title, required: t.required.includes(f.name) })),
        comment: t.comment,
        warnings: preview.warnings,
        notes: preview.notes,
        blocked: preview.problems.map((x) => x.message),
      });
    }
    return out;
  }

  /**
   * The organisations among `orgIds` the caller may take the step `stepId` for now: a step taken for an
   * organisation (`forOrg`, the 上报 of each branch) is offered per organisation in a page's table.
   */
  async actableFor(m: RuntimeModule, id: number, stepId: string, orgIds: number[], user: SessionUser): Promise<Set<number>> {
    const wf = m.workflow!;
    const t = wf.transitions.get(stepId);
    const out = new Set<number>();
    if (!t?.forOrg || !hasAnyPermission(user, [t.permission])) return out;
    const { actor, p } = await this.who(user);
    const record = await this.visibleRow(m, id, actor);
    if (!wf.isOpen(t, record)) return out;
    for (const orgId of orgIds) if (typeof (await this.acting(m, t, record, p, orgId)) !== 'string') out.add(orgId);
    return out;
  }

  async approvals(m: RuntimeModule, id: number, user: SessionUser): Promise<ApprovalDto[]> {
    const { actor } = await this.who(user);
    await this.visibleRow(m, id, actor);
    const log = await readLog(this.ctx, m, id);
    // A school-wide record (no organisation: a fee batch) gathers entries of many organisations (each
    // branch's report): a reader sees those of the organisations in their scope and the ones of none.
    const own = levelFields(m).org || actor.scope === 'all' ? log : log.filter((e) => e.actingOrgId === null || LEVEL_READS[e.level as WorkflowLevel] !== 'org' || (actor.scope as number[]).includes(e.actingOrgId));
    return approvalsFor(user, own);
  }

  // ------------------------------------------------------------------ taking steps

  /** The transitions of a step id (one per level when several share it), which the caller may take. */
  private stepOf(m: RuntimeModule, transitionId: string, user: SessionUser): Step[] {
    const named = m.workflow!.stepsNamed(transitionId);
    if (!named.length) throw new HttpError(404, `${m.title}没有“${transitionId}”这一办理步骤`);
    const allowed = named.filter((t) => hasAnyPermission(user, [t.permission]));
    if (!allowed.length) throw new HttpError(403, `没有办理“${named[0].title}”的权限`);
    return allowed;
  }

  /** One step on one record; answers the record as it is now, with the guards' warnings. */
  async take(m: RuntimeModule, id: number, transitionId: string, body: unknown, user: SessionUser, ip: string | null): Promise<ApiRecord & { warnings: string[]; notes: string[] }> {
    const t = this.stepOf(m, transitionId, user);
    const { actor, p } = await this.who(user);
    const { warnings, notes, to, version } = await this.takeAs(m, t, id, readInput(body, true), actor, p, ip, this.directory());
    const service = this.deps.records(m.id);
    // Read once: the applicant sees their own application outside their data scope, others as `get` would.
    const row = await service.readRow(id);
    if (!row || !(this.isSelf(m, row, actor) || (await service.inScope([row], actor, this.ctx.db, 'read')))) {
      // The step committed, though the record has left the caller's sight (moved to another organisation): its result, not a 404.
      const state = m.workflow!.stateField.name;
      return { id, version, [state]: to, [`${state}Label`]: m.workflow!.stateTitle(to), visible: false, warnings, notes };
    }
    return { ...((await service.decorateOne(row)) as ApiRecord), warnings, notes };
  }

  /** The same step on many records, each in its own transaction: answers per record. */
  async batch(m: RuntimeModule, transitionId: string, body: unknown, user: SessionUser, ip: string | null): Promise<{ results: BatchResult[]; done: number; failed: number }> {
    const t = this.stepOf(m, transitionId, user);
    const b = (body ?? {}) as { ids?: unknown };
    const ids = Array.isArray(b.ids) ? [...new Set(b.ids as unknown[])] : [];
    if (!ids.length || ids.some((x) => !Number.isSafeInteger(x) || (x as number) <= 0)) throw new HttpError(400, '请选择要办理的记录', { errors: [{ field: 'ids', message: '请选择要办理的记录' }] });
    if (ids.length > BATCH_MAX) throw new HttpError(400, `一次最多办理${BATCH_MAX}条记录`, { errors: [{ field: 'ids', message: `一次最多办理${BATCH_MAX}条记录` }] });
    const input = readInput(body, false);
    const { actor, p } = await this.who(user);
    const directory = this.directory();
    const results: BatchResult[] = [];
    for (const id of ids as number[]) {
      try {
        const { warnings, notes } = await this.takeAs(m, t, id, input, actor, p, ip, directory);
        results.push({ id, status: 'done', code: 200, message: '办理成功', ...(warnings.length && { warnings }), ...(notes.length && { notes }) });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        results.push({ id, status: 'failed', code: error.statusCode, message: error.message });
      }
    }
    const done = results.filter((r) => r.status === 'done').length;
    return { results, done, failed: results.length - done };
  }

  private async conflict(m: RuntimeModule, id: number, db: Kysely<DB>): Promise<never> {
    const service = this.deps.records(m.id);
    const row = await service.readRow(id, db);
    if (!row) throw new HttpError(404, `${m.title}记录不存在`);
    throw new HttpError(409, STATUS_MESSAGES[409], { current: await service.decorateOne(row, db) });
  }

  private async takeAs(m: RuntimeModule, named: Step[], id: number, input: StepInput, actor: Actor, p: Participant, ip: string | null, directory: Directory): Promise<{ warnings: string[]; notes: string[]; to: number; version: number }> {
    const wf = m.workflow!;
    const service = this.deps.records(m.id);
    const record = await this.visibleRow(m, id, actor);
    if (input.version !== undefined && record.version !== input.version) await this.conflict(m, id, this.ctx.db);
    const from = record[wf.stateField.name] as number;
    // The step at this record's level: the transition of the id open from its state.
    const t = named.find((x) => x.from.includes(from)) ?? named[0];
    if (!t.from.includes(from)) throw new HttpError(400, `当前状态为“${wf.stateTitle(from)}”，不能办理“${t.title}”`);
    if (t.doneField && !isBlank(record[t.doneField])) throw new HttpError(400, `“${t.title}”已办理`);
    const acting = await this.acting(m, t, record, p, t.forOrg ? forOrgValue(t, input.values) : undefined);
    if (typeof acting === 'string') throw new HttpError(403, acting);
    // Nobody acts at a level on their own record (the applicant, the person it is about).
    if (acting.level !== 'self' && (await isOwnRecord(m, record, actor.id, this.ctx.db))) throw ownRecordRefusal(m, t);
    if (t.comment === 'required' && !input.comment) throw new HttpError(400, `请填写${t.title}意见`, { errors: [{ field: 'comment', message: `请填写${t.title}意见` }] });
    if (input.comment.length > COMMENT_MAX) throw new HttpError(400, `意见不能超过${COMMENT_MAX}个字符`, { errors: [{ field: 'comment', message: `意见不能超过${COMMENT_MAX}个字符` }] });
    // Organisations the step would write are checked first: whatever else is wrong, a value outside the scope is the refusal.
    assertStepValuesInScope(t, input.values, record, actor);
    const values = await this.stepValues(m, t, input.values, record, actor);
    const moduleValues = Object.fromEntries(t.fields.filter((f) => f in values).map((f) => [f, values[f]]));
    const dicts = await dictSnapshot(this.ctx, m);
    const link = await todoLink(this.ctx, m);
    const messages = this.deps.messages();

    let todos: TodoTransaction | undefined;
    // Write events of the step's effects go out after the commit, with the step's own below.
    const outcome = await this.ctx.transaction(async (trx) => {
      const ctx = await this.stepContext(m, t, record, values, actor, acting, trx, input.comment);
      const { problems, warnings, notes } = await this.runGuards(t, { ...ctx, preview: false });
      if (problems.length) throw new HttpError(400, problems[0].message, { rule: problems[0].rule, errors: problems.map((x) => ({ field: x.field ?? '', message: x.message, rule: x.rule })) });
      const to = t.to === 'previous' ? await previousState(trx, m, id, from) : (t.to ?? from);

      // The claim: only the version read, in the state read, moves. The loser of a race changes nothing.
      const claimed = await (trx as Kysely<any>)
        .updateTable(m.table)
        .set({ ...service.toColumns(moduleValues), [wf.stateField.column!]: to, version: sql`version + 1`, updated_at: new Date(), updated_by: actor.id })
        .where('id', '=', id)
        .where(wf.stateField.column!, '=', from)
        .where('version', '=', record.version as number)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) await this.conflict(m, id, trx);

      const final: Record<string, unknown> = { ...record, ...moduleValues, [wf.stateField.name]: to };
      const derived: Record<string, unknown> = {};
      for (const name of [...t.effects, ...wf.effects]) {
        const out = await effectNamed(name)({ ...ctx, next: { ...final }, to, from, id });
        if (out) Object.assign(derived, out), Object.assign(final, out);
      }
      if (Object.keys(derived).length) await (trx as Kysely<any>).updateTable(m.table).set(service.toColumns(derived)).where('id', '=', id).execute();

      await writeLog(trx, {
        module: m.id,
        recordId: id,
        transition: t.id,
        transitionTitle: t.title,
        from,
        to,
        result: t.result,
        level: acting.level,
        actingOrgId: acting.orgId,
        actorId: actor.id,
        actorName: p.name,
        comment: input.comment,
        values,
        valueTexts: [...(await valueTexts(this.ctx, trx, t.inputs, values)), ...(notes.length ? [{ field: RESULT_TEXT_FIELD, title: '结果', text: notes.join('\n') }] : [])],
        warnings,
        ip,
      });
      const followed = await this.followOn(m, t, id, final, acting, actor, p, trx, ip);
      if (followed) warnings.push(...followed.warnings);

      const changes = await changesOf(this.ctx, trx, m, record, final, dicts);
      await recordChanges(trx, m, [{ recordId: id, type: ChangeRecordType.UPDATE, origin: ChangeRecordOrigin.USER_UPDATE, changes }], actor);
      await remindersAfterWrite(this.ctx, trx, m, [id]);
      if (messages) {
        todos = messages.inTransaction(trx);
        await this.updateTodos(todos, m, t, id, from, final, actor, directory, link);
      }
      return { warnings, notes, to: final[wf.stateField.name] as number, version: (record.version as number) + 1 };
    });
    await todos?.flush();
    this.deps.emit({ module: m.id, action: 'update', ids: [id], origin: ChangeRecordOrigin.USER_UPDATE });
    return outcome;
  }

  /**
   * Consecutive steps by the same acting organisation are taken once (issue 33.9): when the step just
   * taken leads to the same step id (permission) at the next level and the organisation acting there is
   * the one that acted (a transfer between two branches of one committee: 转出党委审批, then 转入党委审批),
   * the next step follows in the same transaction with its own guards, effects and log entry, marked as
   * taken with the first. `x-workflow.repeatSameActor` keeps both. `record` is updated in place.
   */
  private async followOn(m: RuntimeModule, t: Step, id: number, record: Record<string, unknown>, acting: Acting, actor: Actor, p: Participant, trx: Kysely<DB>, ip: string | null): Promise<{ warnings: string[] } | undefined> {
    const wf = m.workflow!;
    const state = record[wf.stateField.name] as number;
    if (wf.schema.repeatSameActor || t.result !== 'pass' || acting.level === 'self' || acting.orgId === null) return;
    const next = wf.waitingSteps().find(
      (n) => n.key !== t.key && n.permission === t.permission && n.from.includes(state) && typeof n.to === 'number' && n.to !== state && !n.required.length && n.comment !== 'required' && !n.doneField,
    );
    if (!next) return;
    const r = levelRecord(m, record);
    let level: WorkflowLevel | undefined;
    for (const l of wf.levelsOf(next, state)) {
      if (l === 'self' || (await this.levels.actingOrg(l, r)) !== acting.orgId) continue;
      if (await this.levels.canAct(p, l, acting.orgId, r)) level = l;
      if (level) break;
    }
    if (!level) return;
    const nextActing: Acting = { level, orgId: acting.orgId };
    const ctx = await this.stepContext(m, next, record, {}, actor, nextActing, trx);
    const { problems, warnings } = await this.runGuards(next, { ...ctx, preview: false });
    // Refused now: the step waits for its actors as usual.
    if (problems.length) return;
    const to = next.to as number;
    await (trx as Kysely<any>).updateTable(m.table).set({ [wf.stateField.column!]: to }).where('id', '=', id).where(wf.stateField.column!, '=', state).execute();
    record[wf.stateField.name] = to;
    const derived: Record<string, unknown> = {};
    for (const name of [...next.effects, ...wf.effects]) {
      const out = await effectNamed(name)({ ...ctx, next: { ...record }, to, from: state, id });
      if (out) Object.assign(derived, out), Object.assign(record, out);
    }
    if (Object.keys(derived).length) await (trx as Kysely<any>).updateTable(m.table).set(this.deps.records(m.id).toColumns(derived)).where('id', '=', id).execute();
    await writeLog(trx, {
      module: m.id,
      recordId: id,
      transition: next.id,
      transitionTitle: next.title,
      from: state,
      to,
      result: next.result,
      level,
      actingOrgId: acting.orgId,
      actorId: actor.id,
      actorName: p.name,
      comment: `与“${t.title}”一并办理：同一党组织依次办理的步骤只办理一次`,
      values: {},
      valueTexts: [],
      warnings,
      ip,
    });
    return { warnings };
  }

  /**
   * The record's to-dos after a step: the step's own are done (all of the record's when its state
   * changed, else those ticked off by hand open again), and the actors of the next steps get new ones (`todos`, or by default every step then
   * waiting on the record). A to-do's ref id is `<record id>:<step id>`.
   */
  private async updateTodos(todos: TodoTransaction, m: RuntimeModule, t: Step, id: number, from: number, record: Record<string, unknown>, actor: Actor, directory: Directory, link: string | null): Promise<void> {
    const wf = m.workflow!;
    const to = record[wf.stateField.name] as number;
    const moved = to !== from;
    if (moved) await todos.complete({ module: m.id, refIdPrefix: `${id}:` });
    else {
      await todos.complete({ module: m.id, refIds: [`${id}:${t.id}`] });
      // The record still waits: a to-do its recipient ticked off by hand comes back with this change.
      await todos.reopenDismissed({ module: m.id, refIdPrefix: `${id}:` });
    }
    const wanted = t.todos ?? (moved ? wf.waitingSteps().map((w) => ({ step: w.key, title: undefined })) : []);
    await todos.add(await this.waitingTodos(m, id, record, wanted, directory, todos.trx, { link, createdBy: actor.id }));
  }

  /**
   * The to-dos of a record waiting on these steps (`wanted`: step ids or keys, each with an optional title
   * pattern): one per record and actor, the steps a person may take on it together, named with the record's
   * organisation (issue 43.4: five branches' reports of one title are five to-dos that say whose). A to-do's
   * ref id is `<record id>:<step id>[+<step id>…]`. Used after a step and by the demo's seeders alike.
   */
  async waitingTodos(m: RuntimeModule, id: number, record: Record<string, unknown>, wanted: { step: string; title?: string }[], directory: Directory, db: Kysely<DB>, options: { link: string | null; createdBy: number | null }): Promise<NewTodo[]> {
    const wf = m.workflow!;
    const to = record[wf.stateField.name] as number;
    const name = m.nameField ? String(record[m.nameField.name] ?? '') : String(id);
    const stepsOf = new Map<number, { step: Step; title?: string }[]>();
    for (const want of wanted) {
      const next = wf.stepFor(want.step, to) ?? wf.transitions.get(want.step);
      if (!next || !isWaitingStep(next) || !wf.isOpen(next, record)) continue;
      for (const user of await this.actorsOf(m, next.key, record, directory, db)) {
        const list = stepsOf.get(user) ?? [];
        if (!list.some((x) => x.step.id === next.id)) list.push({ step: next, title: want.title });
        stepsOf.set(user, list);
      }
    }
    if (!stepsOf.size) return [];
    const { orgId } = levelRecord(m, record);
    const orgName = orgId ? (await this.ctx.refNames('org', [orgId], db)).get(orgId) : undefined;
    const whose = orgName && orgName !== name ? `（${orgName}）` : '';
    const groups = new Map<string, { steps: { step: Step; title?: string }[]; users: number[] }>();
    for (const [user, steps] of stepsOf) {
      const key = steps.map((x) => x.step.id).join('+');
      const group = groups.get(key) ?? { steps, users: [] };
      group.users.push(user);
      groups.set(key, group);
    }
    const link = options.link?.replaceAll('{id}', String(id)) ?? null;
    const add: NewTodo[] = [];
    for (const [key, { steps, users }] of groups) {
      const titles = steps.map((x) => x.step.title).join('、');
      const pattern = steps.length === 1 ? (steps[0].title ?? '{step}：{name}') : '{step}：{name}';
      const title = `${pattern.replaceAll('{name}', name).replaceAll('{module}', m.title).replaceAll('{step}', titles)}${whose}`;
      // The ref id keeps the `<record id>:` prefix the completion of a moved record looks for.
      add.push({ toUserIds: users, title, content: `${m.title}：${name}${whose}，当前状态“${wf.stateTitle(to)}”，待办理“${titles}”。`, link, module: m.id, refId: `${id}:${key}`, createdBy: options.createdBy });
    }
    return add;
  }

  /**
   * Who would take a step on a record now: holders of its permission acting at its level for the
   * record's organisations (superusers excluded). Reminders and to-dos go to them. `stepId`: a step id
   * (the transition of that id open from the record's state) or a transition key.
   */
  async actorsOf(m: RuntimeModule, stepId: string, record: Record<string, unknown>, directory: Directory = this.directory(), db: Kysely<DB> = this.ctx.db): Promise<number[]> {
    const wf = m.workflow!;
    const step = wf.stepFor(stepId, record[wf.stateField.name] as number) ?? wf.transitions.get(stepId);
    if (!step) return [];
    const r = levelRecord(m, record);
    const holders = await directory.holders(step.permission, db);
    const out = new Set<number>();
    const atLevel = new Set<number>();
    for (const level of wf.levelsOf(step, record[wf.stateField.name] as number)) {
      const actingOrg = await this.levels.actingOrg(level, r);
      for (const h of holders) if (await this.levels.canAct(h, level, actingOrg, r)) (level === 'self' ? out : atLevel).add(h.userId);
    }
    // Nobody acts at a level on their own record: no to-do for it either.
    const owners = atLevel.size ? await ownersOf(m, record, db) : new Set<number>();
    for (const id of atLevel) if (!owners.has(id)) out.add(id);
    return [...out];
  }

  /** A directory of permission holders to share across several look-ups (a batch, a reminder run). */
  newDirectory(): Directory {
    return this.directory();
  }

  // ------------------------------------------------------------------ lists

  /** The list condition of "waiting for me" (waiting.ts). */
  async waitingCondition(m: RuntimeModule, user: SessionUser, when: 'now' | 'later' = 'now'): Promise<Condition> {
    const { p } = await this.who(user);
    return waitingCondition(m, user, p, this.levels, when);
  }
}

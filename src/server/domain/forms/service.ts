/**
 * Fill-in forms (填报管理, docs/forms.md): design, publication to organisations, each organisation's
 * filling, the collector's decisions and the end of a collection. The form's fields are a stored module
 * (schema.ts); its records are the organisations' answers; the collection is `form_fills`, one row per
 * organisation with the states of spec §4.
 */
import { sql, type Kysely } from 'kysely';
import { CollectStatus, JoinType, ShareState, ShareType } from '../../../shared/constants.js';
import { fillStateLabel } from '../../../shared/form-fill.js';
import { isDate } from '../../../shared/calendar.js';
import type { ModuleSchema } from '../../../shared/module-schema/types.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import type { MessageService } from '../../core/messages/service.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import type { Runtime } from '../../runtime/index.js';
import { BRANCH_TYPES } from '../../runtime/workflow/levels.js';
import type { ExpectedSource } from '../../runtime/reminders/model.js';
import { menuPagePath } from '../../runtime/workflow/links.js';

/** 填报管理's menu component (its page opens a filling from `?form=&org=`). */
const FORMS_PAGE = 'core:forms';
import { dateOrNull } from '../../../shared/module-schema/reminders.js';
import './tables.js';
import { FORM_ID_PREFIX, FORM_ORG_FIELD, FORM_PERMISSIONS, formModuleSchema, isFormId } from './schema.js';

type State = (typeof CollectStatus)[keyof typeof CollectStatus];
const { NO_START, STASHED_END, COLLECT_END, IMPORT_END } = CollectStatus;

/**
 * The collection's steps: the states each may start from and the state it leads to (spec §4: NO_START 0 →
 * draft STASHED_END 1 → submitted COLLECT_END 2 → accepted IMPORT_END 3; a return goes back to 1).
 */
export const FILL_STEPS = {
  stash: { title: '暂存', from: [NO_START, STASHED_END], to: STASHED_END },
  submit: { title: '提交', from: [NO_START, STASHED_END], to: COLLECT_END },
  import: { title: '代为导入', from: [NO_START, STASHED_END], to: COLLECT_END },
  return: { title: '退回', from: [COLLECT_END], to: STASHED_END },
  accept: { title: '接收', from: [COLLECT_END], to: IMPORT_END },
} as const satisfies Record<string, { title: string; from: State[]; to: State }>;
export type FillStep = keyof typeof FILL_STEPS;

export interface FormRow {
  id: number;
  module: string;
  title: string;
  share_type: number | null;
  share_state: number | null;
  org_ids: number[];
  role_ids: number[];
  deadline: string | null;
  published_version: number | null;
  published_at: Date | null;
  created_at: Date;
  created_by: number | null;
}

export interface FillRow {
  form_id: number;
  org_id: number;
  state: number;
  join_type: number | null;
  record_id: number | null;
  schema_version: number | null;
  comment: string | null;
  draft: Record<string, unknown> | null;
  updated_at: Date;
}

const badRequest = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });

/** What a write must not do to a form in this state (the generic API's guard and the service's). */
export function closedReason(form: Pick<FormRow, 'share_state'>): string | undefined {
  if (form.share_state === ShareState.STOPPED) return '该表单已停止填报，不能再修改';
  if (form.share_state !== ShareState.SHARING) return '该表单尚未发布，不能填报';
  return undefined;
}

/**
 * The expected-record source of every form's reminder `late` (schema.ts): a form in collection expects a
 * submission from each of its organisations by its deadline; those below COLLECT_END are missing. A
 * stopped form expects nothing any more.
 */
export const lateOrganisations: ExpectedSource = async (m, db) => {
  const form = await db.selectFrom('forms').select(['id', 'title', 'deadline']).where('module', '=', m.id).where('share_state', '=', ShareState.SHARING).executeTakeFirst();
  const deadline = dateOrNull(form?.deadline);
  if (!form || !deadline) return [];
  const late = await db.selectFrom('form_fills').select('org_id').where('form_id', '=', form.id).where('state', '<', COLLECT_END).orderBy('org_id').execute();
  return [{ id: form.id, name: form.title, date: deadline, link: await fillLink(db, m.id, '{org}'), missing: late.map((r) => ({ orgId: r.org_id })) }];
};

/** Where an organisation fills a form (its to-dos and reminders lead there): 填报管理's page with the form open. */
async function fillLink(db: Kysely<DB>, module: string, org: number | string): Promise<string> {
  return `${(await menuPagePath(FORMS_PAGE, db)) ?? ''}?form=${module}&org=${org}`;
}

export class FormService {
  constructor(
    private readonly runtime: Runtime,
    private readonly messages: () => MessageService,
  ) {}

  private get db(): Kysely<DB> {
    return this.runtime.ctx.db;
  }

  /** Who is late changed (publication, a submission, a return, the stop): the reminders of the form follow. */
  private async lateChanged(id: string): Promise<void> {
    const m = this.runtime.module(id);
    if (m) await this.runtime.reminders.expectedChanged(m);
  }

  /** The form of a module id (`form-…`), or 404. */
  async form(id: string, db: Kysely<DB> = this.db): Promise<FormRow> {
    const row = isFormId(id) ? await db.selectFrom('forms').selectAll().where('module', '=', id).executeTakeFirst() : undefined;
    if (!row) throw new HttpError(404, '填报表单不存在');
    return row as FormRow;
  }

  /**
   * Who may change a form's fields, publish, stop and remind (issue 38.7): its owner, or a collector whose
   * scope covers every organisation it is published to (a draft: whose scope is all). A collector limited
   * to one college changed and stopped the forms of 党委组织部 before.
   */
  private async assertSteward(form: FormRow, user: SessionUser, db: Kysely<DB> = this.db): Promise<void> {
    if (user.isSuper || form.created_by === user.id) return;
    const actor = await this.runtime.actorOf(user);
    if (actor.scope === 'all') return;
    const scope = actor.scope;
    const outside = await db.selectFrom('form_fills').select('org_id').where('form_id', '=', form.id).where('org_id', 'not in', scope.length ? scope : [0]).limit(1).executeTakeFirst();
    const published = await db.selectFrom('form_fills').select('org_id').where('form_id', '=', form.id).limit(1).executeTakeFirst();
    if (!published || outside) throw new HttpError(403, '只有表单的创建者或数据范围覆盖全部填报组织的管理员才能修改、发布、停止或催办该表单');
  }

  /** Creates a draft form: its module is stored (checked as `schemas:check` checks) and served at once. */
  async create(body: unknown, user: SessionUser): Promise<{ id: string; version: number }> {
    const { schema, title } = (body ?? {}) as { schema?: unknown; title?: unknown };
    const name = typeof title === 'string' ? title.trim() : '';
    if (!name || name.length > 100) throw badRequest('title', '请填写表单名称（不超过100个字）');
    const given = schema && typeof schema === 'object' ? (schema as Record<string, unknown>)['x-id'] : undefined;
    let id: string;
    if (given !== undefined) {
      if (!isFormId(given)) throw badRequest('schema', `表单的标识必须以 ${FORM_ID_PREFIX} 开头（小写字母、数字和连字符）`);
      if (await this.db.selectFrom('forms').select('id').where('module', '=', given).executeTakeFirst()) throw new HttpError(409, `表单 ${given} 已存在`);
      id = given;
    } else {
      const { rows } = await sql<{ n: string }>`SELECT nextval(pg_get_serial_sequence('forms', 'id')) AS n`.execute(this.db);
      id = `${FORM_ID_PREFIX}${rows[0].n}`;
    }
    const stored = await this.runtime.stored.save(formModuleSchema(schema, id, name), user.id);
    await this.db.insertInto('forms').values({ module: id, title: name, created_by: user.id }).execute();
    return { id, version: stored.version };
  }

  /**
   * A new version of the form's fields. Records keep the version they were filled against
   * (form_fills.schema_version); a stopped collection changes no more.
   */
  async changeSchema(id: string, body: unknown, user: SessionUser): Promise<{ id: string; version: number }> {
    const form = await this.form(id);
    await this.assertSteward(form, user);
    if (form.share_state === ShareState.STOPPED) throw new HttpError(409, '该表单已停止填报，不能再修改');
    const { schema, title } = (body ?? {}) as { schema?: unknown; title?: unknown };
    const name = typeof title === 'string' && title.trim() ? title.trim() : form.title;
    const stored = await this.runtime.stored.save(formModuleSchema(schema, id, name), user.id);
    if (name !== form.title) await this.db.updateTable('forms').set({ title: name }).where('id', '=', form.id).execute();
    return { id, version: stored.version };
  }

  /**
   * Publishes a draft to organisations: a custom list (1), the organisations of the holders of some roles
   * (2), or every party branch (3, DJ_DZZ_LB 党支部/联合党支部/临时党支部), with a deadline. Each
   * organisation gets its filling, NO_START.
   */
  async publish(id: string, body: unknown, user: SessionUser): Promise<{ organisations: number }> {
    const form = await this.form(id);
    await this.assertSteward(form, user);
    if (form.share_state !== null) throw new HttpError(409, form.share_state === ShareState.STOPPED ? '该表单已停止填报' : '该表单已发布');
    const input = (body ?? {}) as { shareType?: unknown; orgIds?: unknown; roleIds?: unknown; deadline?: unknown };
    const shareType = input.shareType;
    if (shareType !== ShareType.CUSTOM && shareType !== ShareType.ROLE && shareType !== ShareType.PARTY_BRANCH) {
      throw badRequest('shareType', '共享方式只能是 1（自定义）、2（按角色）或 3（按党支部）');
    }
    if (typeof input.deadline !== 'string' || !isDate(input.deadline)) throw badRequest('deadline', '请填写截止日期（YYYY-MM-DD）');
    const ids = (value: unknown, field: string, what: string) => {
      if (!Array.isArray(value) || value.length === 0 || !value.every((v) => Number.isSafeInteger(v) && v > 0)) throw badRequest(field, `请选择${what}`);
      return [...new Set(value as number[])];
    };
    const orgIds = shareType === ShareType.CUSTOM ? ids(input.orgIds, 'orgIds', '填报的组织') : [];
    const roleIds = shareType === ShareType.ROLE ? ids(input.roleIds, 'roleIds', '填报的角色') : [];
    const targets = await this.withinScope(await this.targets(shareType, orgIds, roleIds), shareType, user);
    if (targets.length === 0) throw badRequest(shareType === ShareType.ROLE ? 'roleIds' : 'orgIds', '没有可以填报的组织');
    const latest = await this.runtime.stored.latest(id);
    await this.runtime.ctx.transaction(async (trx) => {
      const published = await trx
        .updateTable('forms')
        .set({
          share_type: shareType, share_state: ShareState.SHARING, org_ids: JSON.stringify(orgIds), role_ids: JSON.stringify(roleIds),
          deadline: input.deadline as string, published_version: latest?.version ?? null, published_at: new Date(), published_by: user.id,
        })
        .where('id', '=', form.id)
        .where('share_state', 'is', null)
        .executeTakeFirst();
      if (Number(published.numUpdatedRows) !== 1) throw new HttpError(409, '该表单已发布');
      // One statement for every organisation: 5,000 branches in one round trip.
      await sql`INSERT INTO form_fills (form_id, org_id) SELECT ${form.id}, unnest(${sql.val(targets)}::integer[])`.execute(trx);
    });
    await this.lateChanged(id);
    return { organisations: targets.length };
  }

  /**
   * A collector publishes only inside its scope (issue 38.7): organisations named one by one outside it are
   * refused, naming them; the holders of roles and every party branch are taken within the scope.
   */
  private async withinScope(targets: number[], shareType: number, user: SessionUser): Promise<number[]> {
    const actor = await this.runtime.actorOf(user);
    if (actor.scope === 'all') return targets;
    const scope = new Set(actor.scope);
    const outside = targets.filter((o) => !scope.has(o));
    if (outside.length && shareType === ShareType.CUSTOM) {
      throw new HttpError(403, `不能向数据范围以外的组织发布：${outside.join('、')}`, { errors: [{ field: 'orgIds', message: `不在数据范围内：${outside.join('、')}` }] });
    }
    return targets.filter((o) => scope.has(o));
  }

  private async targets(shareType: number, orgIds: number[], roleIds: number[]): Promise<number[]> {
    if (shareType === ShareType.CUSTOM) {
      const found = await this.db.selectFrom('m_org' as never).select('id' as never).where('id' as never, 'in', orgIds as never).execute();
      const known = new Set(found.map((r) => (r as { id: number }).id));
      const unknown = orgIds.filter((o) => !known.has(o));
      if (unknown.length) throw badRequest('orgIds', `组织不存在：${unknown.join('、')}`);
      return orgIds;
    }
    if (shareType === ShareType.ROLE) {
      const rows = await this.db
        .selectFrom('user_roles')
        .innerJoin('users', 'users.id', 'user_roles.user_id')
        .select('users.org_id')
        .distinct()
        .where('user_roles.role_id', 'in', roleIds)
        .where('users.org_id', 'is not', null)
        .execute();
      return rows.map((r) => r.org_id as number);
    }
    const { rows } = await sql<{ id: number }>`SELECT id FROM m_org WHERE type IN (${sql.join([...BRANCH_TYPES])}) ORDER BY id`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** The forms the caller collects (all, with 填报管理's manage permission) or fills (published to their organisations). */
  async list(user: SessionUser): Promise<unknown[]> {
    const actor = await this.runtime.actorOf(user);
    const manage = hasAnyPermission(user, [FORM_PERMISSIONS.manage]);
    let query = this.db
      .selectFrom('forms')
      .leftJoin('form_fills', 'form_fills.form_id', 'forms.id')
      .select(['forms.module', 'forms.title', 'forms.share_type', 'forms.share_state', 'forms.deadline', 'forms.published_at', 'forms.created_at'])
      .select((eb) => [
        eb.fn.count<string>('form_fills.org_id').as('organisations'),
        sql<string>`count(*) FILTER (WHERE form_fills.state >= ${COLLECT_END})`.as('submitted'),
        sql<string>`count(*) FILTER (WHERE form_fills.state = ${IMPORT_END})`.as('accepted'),
      ])
      .groupBy('forms.id')
      .orderBy('forms.id', 'desc');
    if (!manage) {
      const orgs = actor.scope === 'all' ? undefined : actor.scope;
      query = query.where('forms.share_state', 'is not', null);
      if (orgs) query = query.where('form_fills.org_id', 'in', orgs.length ? orgs : [0]);
    }
    const rows = await query.execute();
    return rows.map((r) => ({
      id: r.module, title: r.title, shareType: r.share_type, shareState: r.share_state, deadline: r.deadline,
      publishedAt: r.published_at, createdAt: r.created_at,
      organisations: Number(r.organisations), submitted: Number(r.submitted), accepted: Number(r.accepted),
    }));
  }

  /** The form, its current version and every earlier one (numbers), for the designer and the filler. */
  async detail(id: string): Promise<unknown> {
    const form = await this.form(id);
    const versions = await this.runtime.stored.versions(id);
    return {
      id, title: form.title, shareType: form.share_type, shareState: form.share_state, orgIds: form.org_ids, roleIds: form.role_ids,
      deadline: form.deadline, publishedVersion: form.published_version, publishedAt: form.published_at,
      version: versions.at(-1)?.version ?? null, versions: versions.map((v) => ({ version: v.version, createdAt: v.createdAt })),
    };
  }

  /** `[{ orgId, state, ... }]`: each organisation's collection state (the collector's progress). */
  async progress(id: string, user: SessionUser): Promise<unknown[]> {
    const form = await this.form(id);
    const actor = await this.runtime.actorOf(user);
    const scope = actor.scope === 'all' ? sql`` : sql`AND f.org_id = ANY(${sql.val(actor.scope)}::integer[])`;
    const { rows } = await sql<{ org_id: number; org_name: string | null; state: number; join_type: number | null; record_id: number | null; schema_version: number | null; comment: string | null; updated_at: Date }>`
      SELECT f.org_id, o.name AS org_name, f.state, f.join_type, f.record_id, f.schema_version, f.comment, f.updated_at
      FROM form_fills f LEFT JOIN m_org o ON o.id = f.org_id
      WHERE f.form_id = ${form.id} ${scope}
      ORDER BY f.org_id`.execute(this.db);
    return rows.map((r) => ({
      orgId: r.org_id, orgName: r.org_name, state: r.state, stateLabel: fillStateLabel(r.state, r.comment), joinType: r.join_type,
      recordId: r.record_id, schemaVersion: r.schema_version, comment: r.comment, updatedAt: r.updated_at,
    }));
  }

  /** The filling of one organisation within the caller's scope (404 outside it or the form's organisations). */
  async fillOf(form: FormRow, orgId: number, actor: Actor, db: Kysely<DB> = this.db): Promise<FillRow> {
    const inScope = actor.scope === 'all' || actor.scope.includes(orgId);
    const row = inScope ? await db.selectFrom('form_fills').selectAll().where('form_id', '=', form.id).where('org_id', '=', orgId).executeTakeFirst() : undefined;
    if (!row) throw new HttpError(404, '该组织不在本表单的填报范围内');
    return row as FillRow;
  }

  /** The organisation a filler acts for: the one named, else their own. */
  private orgOf(body: { orgId?: unknown }, actor: Actor): number {
    const orgId = body.orgId ?? actor.orgId;
    if (!Number.isSafeInteger(orgId) || (orgId as number) <= 0) throw badRequest('orgId', '请选择填报的组织');
    return orgId as number;
  }

  /** What one organisation has filled in: the draft, else the submitted record; with the state and the comment of a return. */
  async answer(id: string, query: { orgId?: unknown }, user: SessionUser): Promise<unknown> {
    const form = await this.form(id);
    const actor = await this.runtime.actorOf(user);
    const orgId = this.orgOf({ orgId: query.orgId === undefined ? undefined : Number(query.orgId) }, actor);
    const fill = await this.fillOf(form, orgId, actor);
    const record = fill.record_id ? await this.runtime.records(id).get(fill.record_id, actor) : null;
    return {
      formId: id, orgId, state: fill.state, stateLabel: fillStateLabel(fill.state, fill.comment), joinType: fill.join_type, comment: fill.comment,
      schemaVersion: fill.schema_version, deadline: form.deadline, shareState: form.share_state,
      values: fill.draft ?? record ?? {}, record,
    };
  }

  /**
   * The organisation saves (`submit` false: a draft, STASHED_END, not validated beyond its shape) or
   * submits (COLLECT_END: validated in full and written as the record, with the form's version).
   */
  async fill(id: string, body: unknown, user: SessionUser): Promise<unknown> {
    const input = (body ?? {}) as { orgId?: unknown; values?: unknown; submit?: unknown };
    if (!input.values || typeof input.values !== 'object' || Array.isArray(input.values)) throw badRequest('values', '请填写表单内容');
    const values = { ...(input.values as Record<string, unknown>) };
    const actor = await this.runtime.actorOf(user);
    const orgId = this.orgOf(input, actor);
    const step: FillStep = input.submit === true ? 'submit' : 'stash';
    await this.write(id, orgId, step, values, actor, JoinType.SYSTEM_IMPORT);
    return this.answer(id, { orgId }, user);
  }

  /** The collector fills for an organisation (an xlsx it sent by other means): submitted, join type user import 2. */
  async importFor(id: string, orgId: number, values: Record<string, unknown>, user: SessionUser): Promise<void> {
    await this.write(id, orgId, 'import', values, await this.runtime.actorOf(user), JoinType.USER_IMPORT);
  }

  private async write(id: string, orgId: number, step: 'stash' | 'submit' | 'import', values: Record<string, unknown>, actor: Actor, joinType: number): Promise<void> {
    const form = await this.form(id);
    const closed = closedReason(form);
    if (closed) throw new HttpError(409, closed);
    const fill = await this.fillOf(form, orgId, actor);
    assertStep(step, fill.state);
    const version = (await this.runtime.stored.latest(id))?.version ?? null;
    const records = this.runtime.records(id);
    const draft = step === 'stash' ? draftOf(records.module.schema, values) : null;
    await this.runtime.ctx.transaction(async (trx) => {
      let recordId = fill.record_id;
      if (step === 'stash') {
        delete values[FORM_ORG_FIELD];
      } else {
        const record = { ...values, [FORM_ORG_FIELD]: orgId };
        if (recordId) {
          const current = await trx.selectFrom(records.module.table as never).select('version' as never).where('id' as never, '=', recordId as never).executeTakeFirst();
          await records.update({ ...record, id: recordId, version: (current as { version?: number } | undefined)?.version }, actor, { trx });
        } else {
          recordId = (await records.create(record, actor, { trx })).id as number;
        }
      }
      await this.move(trx, form, orgId, step, {
        draft,
        record_id: recordId,
        ...(step !== 'stash' && { schema_version: version, join_type: joinType, comment: null }),
        updated_by: actor.id,
      });
    });
    if (step !== 'stash') {
      await this.messages().completeTodos({ module: id, refId: orgId });
      await this.lateChanged(id);
    }
  }

  /** The collector returns a submission with a comment (back to STASHED_END), or accepts it (IMPORT_END). */
  async decide(id: string, step: 'return' | 'accept', body: unknown, user: SessionUser): Promise<unknown> {
    const input = (body ?? {}) as { orgId?: unknown; comment?: unknown };
    const comment = typeof input.comment === 'string' ? input.comment.trim() : '';
    if (step === 'return' && !comment) throw badRequest('comment', '请填写退回意见');
    if (comment.length > 500) throw badRequest('comment', '意见不能超过500个字');
    const form = await this.form(id);
    const closed = closedReason(form);
    if (closed) throw new HttpError(409, closed);
    const actor = await this.runtime.actorOf(user);
    if (!Number.isSafeInteger(input.orgId)) throw badRequest('orgId', '请选择组织');
    const fill = await this.fillOf(form, input.orgId as number, actor);
    assertStep(step, fill.state);
    await this.move(this.db, form, fill.org_id, step, { comment: comment || null, updated_by: actor.id });
    if (step === 'return') {
      await this.lateChanged(id);
      await this.tellReturned(form, fill.org_id, comment, user);
    }
    return { orgId: fill.org_id, state: FILL_STEPS[step].to };
  }

  /** Moves one filling by a step, only from the states the step starts from (two racing: one wins, 409). */
  private async move(db: Kysely<DB>, form: FormRow, orgId: number, step: FillStep, set: Record<string, unknown>): Promise<void> {
    const { from, to } = FILL_STEPS[step];
    const result = await db
      .updateTable('form_fills')
      .set({ ...set, state: to, updated_at: new Date() } as never)
      .where('form_id', '=', form.id)
      .where('org_id', '=', orgId)
      .where('state', 'in', [...from])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new HttpError(409, `填报状态已变化，不能${FILL_STEPS[step].title}，请刷新后重试`);
  }

  /** Stops the collection (share state 2): nothing of it changes any more. */
  async stop(id: string, user: SessionUser): Promise<void> {
    const form = await this.form(id);
    await this.assertSteward(form, user);
    if (form.share_state !== ShareState.SHARING) throw new HttpError(409, closedReason(form) ?? '该表单未在填报中');
    await this.db.updateTable('forms').set({ share_state: ShareState.STOPPED }).where('id', '=', form.id).where('share_state', '=', ShareState.SHARING).execute();
    await this.lateChanged(id);
  }

  /** The accounts of these organisations who may fill forms, by organisation. */
  private async fillersOf(orgIds: number[]): Promise<Map<number, Set<number>>> {
    const byOrg = new Map<number, Set<number>>();
    if (!orgIds.length) return byOrg;
    const rows = await this.db
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['users.id', 'users.org_id', 'roles.permissions'])
      .where('users.org_id', 'in', orgIds)
      .execute();
    for (const r of rows) {
      if (!(r.permissions as string[]).some((p) => p === FORM_PERMISSIONS.fill || p === 'admin')) continue;
      const set = byOrg.get(r.org_id as number) ?? new Set<number>();
      set.add(r.id);
      byOrg.set(r.org_id as number, set);
    }
    return byOrg;
  }

  /** A returned filling: the branch's fillers get a message with the comment and a to-do to fill it again (issue 43.8). */
  private async tellReturned(form: FormRow, orgId: number, comment: string, user: SessionUser): Promise<void> {
    const ids = [...((await this.fillersOf([orgId])).get(orgId) ?? [])];
    if (!ids.length) return;
    const link = await fillLink(this.db, form.module, orgId);
    await this.messages().sendMessage({ toUserIds: ids, type: 'remind', title: `填报被退回：${form.title}`, content: `退回意见：${comment}`, link });
    await this.messages().addTodo({ toUserIds: ids, title: `修改后重新提交：${form.title}`, content: `退回意见：${comment}`, link, module: form.module, refId: orgId, createdBy: user.id });
  }

  /** To-dos for the organisations that have not submitted yet, to the accounts of those organisations who may fill. */
  async remind(id: string, user: SessionUser): Promise<{ organisations: number; users: number }> {
    const form = await this.form(id);
    await this.assertSteward(form, user);
    const closed = closedReason(form);
    if (closed) throw new HttpError(409, closed);
    const late = await this.db.selectFrom('form_fills').select('org_id').where('form_id', '=', form.id).where('state', '<', COLLECT_END).execute();
    const orgIds = late.map((r) => r.org_id);
    if (orgIds.length === 0) return { organisations: 0, users: 0 };
    const byOrg = await this.fillersOf(orgIds);
    let users = 0;
    for (const [orgId, ids] of byOrg) {
      users += ids.size;
      await this.messages().addTodo({
        toUserIds: [...ids], title: `请填报：${form.title}`, content: `请在 ${form.deadline ?? ''} 前完成填报并提交。`,
        link: await fillLink(this.db, id, orgId), module: id, refId: orgId, createdBy: user.id,
      });
    }
    return { organisations: byOrg.size, users };
  }

  /** The schema of the version a record was filled against (records keep theirs). */
  async schemaVersion(id: string, version: number): Promise<ModuleSchema> {
    await this.form(id);
    const found = await this.runtime.stored.version(id, version);
    if (!found) throw new HttpError(404, '该版本不存在');
    return found.schema;
  }
}

/** The largest draft kept (its JSON): a draft is not validated, so it is bounded here. */
export const MAX_DRAFT_BYTES = 256 * 1024;

/**
 * A draft keeps only the form's fields (issue 38.17: any key up to the body limit was stored before),
 * within MAX_DRAFT_BYTES. Its values are checked at submission, as the record.
 */
function draftOf(schema: ModuleSchema, values: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(values).filter(([name]) => name !== FORM_ORG_FIELD && Object.prototype.hasOwnProperty.call(schema.properties, name)));
  const json = JSON.stringify(kept);
  if (Buffer.byteLength(json) > MAX_DRAFT_BYTES) throw badRequest('values', `暂存内容过大（最多${MAX_DRAFT_BYTES / 1024}KB），请精简后重试`);
  return json;
}

function assertStep(step: FillStep, state: number): void {
  if (!(FILL_STEPS[step].from as readonly number[]).includes(state)) {
    throw new HttpError(409, `当前状态为“${fillStateLabel(state)}”，不能${FILL_STEPS[step].title}`);
  }
}

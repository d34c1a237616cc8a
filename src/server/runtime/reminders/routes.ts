/**
 * The reminders API (智能提醒):
 * - `GET  /api/reminders?module=&type=&state=&orgId=&page=&size=`  the caller's reminders → `{ content, totalElements }`
 * - `GET  /api/reminders/types`                       every declared type with its switch and window
 * - `PUT  /api/reminders/types`                       `{ module, type, enabled: 0|1, ahead? }` (administrators)
 * - `POST /api/reminders/refresh`                     recompute everything now → `{ counts: { module: { type: n } } }`
 * - `POST /api/reminders/{id}/close`                  close by hand where the type allows
 * A caller sees the reminders they receive, and those of organisations (or, for unit-scoped modules,
 * units) in their data scope in modules they may list; superusers see all. `module` names a module with
 * its child modules (x-children: `module=cadre` lists the reminders of a cadre's posts too); `type` is a
 * type code, or the numeric `code` a declaration gives its type (`type=1`: every type declared with code 1).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import { REMINDER_STATE } from '../../../shared/module-schema/reminders.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { parsePaging } from '../../core/paging.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import type { RuntimeContext } from '../context.js';
import type { Runtime } from '../index.js';
import type { RuntimeModule } from '../module.js';
import { recordLinks } from '../workflow/links.js';
import { remindersOf } from './model.js';
import { REMINDER_LIST, type ReminderDto } from '../../../shared/reminders.js';

export { REMINDER_LIST };
export const REMINDER_MANAGE = 'msg-remind:manage';


const intOf = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

export async function reminderRoutes(app: FastifyInstance): Promise<void> {
  const runtime: Runtime = app.runtime;
  const reminders = runtime.reminders;
  const { messages } = app.services;
  messages.setRemindSource((userIds) => reminders.startedFor(userIds));
  const stop = reminders.schedule();
  // Reminders are computed inside write transactions, where (on the embedded database) a reload of the
  // organisation tree through the pool would wait for the transaction: reload it as soon as it changes.
  runtime.events.on('write', (e) => {
    if (e.module === 'org') void runtime.ctx.orgTree.subtreeIds([]).catch(() => undefined);
  });
  app.addHook('onClose', async () => stop());
  const db = runtime.ctx.db;

  const declOf = (module: string, type: string) => {
    const m = runtime.module(module);
    const decl = m && remindersOf(m).find((d) => d.type === type);
    return m && decl ? { m, decl } : undefined;
  };

  /** What the caller may see, as a condition on `reminders r`. */
  async function visible(user: SessionUser): Promise<Expression<SqlBool>> {
    if (user.isSuper) return sql<SqlBool>`true`;
    const mine = sql<SqlBool>`r.receivers @> ARRAY[${user.id}]::int[]`;
    const listed = reminders.modules().filter((m) => hasAnyPermission(user, [m.permissions.list])).map((m) => m.id);
    if (!listed.length) return mine;
    const actor = await runtime.actorOf(user);
    const units = actor.units ?? (actor.scope === 'all' ? 'all' : []);
    const inScope =
      actor.scope === 'all' || units === 'all'
        ? sql`${actor.scope === 'all' ? sql`r.unit_id IS NULL` : sql`r.org_id = ANY(${actor.scope}::int[])`} OR ${units === 'all' ? sql`r.unit_id IS NOT NULL` : sql`r.unit_id = ANY(${units}::int[])`}`
        : sql`r.org_id = ANY(${actor.scope}::int[]) OR r.unit_id = ANY(${units}::int[])`;
    return sql<SqlBool>`(${mine} OR (r.module = ANY(${listed}::text[]) AND (${inScope})))`;
  }

  /**
   * A module, its child modules (x-children) and the modules about its records (x-related by a reference to
   * it, no `key`): their reminders are listed under the module (a cadre's posts, passports and trips).
   */
  const familyOf = (module: string) => {
    const m = runtime.module(module);
    const related = (m?.schema['x-related'] ?? []).filter((r) => !r.key).map((r) => r.module);
    return [module, ...(m?.children.map((c) => c.module) ?? []), ...related];
  };

  /** `type` as given: a type code, or a declaration's numeric code (every module and type declared with it). */
  function typeCondition(type: string): Expression<SqlBool> {
    if (!/^\d+$/.test(type)) return sql<SqlBool>`r.type = ${type}`;
    const pairs = reminders.modules().flatMap((m) => remindersOf(m).filter((d) => d.code === Number(type)).map((d) => sql`(${m.id}::text, ${d.type}::text)`));
    return pairs.length ? sql<SqlBool>`(r.module, r.type) IN (${sql.join(pairs)})` : sql<SqlBool>`false`;
  }

  app.get('/api/reminders', { config: perm(REMINDER_LIST) }, async (req) => {
    const user = currentUser(req);
    const q = req.query as Record<string, string | undefined>;
    const { page, size } = parsePaging(q, {});
    const state = intOf(q.state);
    const orgId = intOf(q.orgId);
    if (state !== undefined && ![1, 2, 3].includes(state)) throw new HttpError(400, '提醒状态不正确');
    const where = [await visible(user)];
    if (q.module) where.push(sql<SqlBool>`r.module = ANY(${familyOf(q.module)}::text[])`);
    if (q.type) where.push(typeCondition(q.type));
    if (state !== undefined) where.push(sql<SqlBool>`r.state = ${state}`);
    if (orgId !== undefined) {
      if (!Number.isSafeInteger(orgId)) throw new HttpError(400, '组织不正确');
      where.push(sql<SqlBool>`r.org_id = ANY(${await runtime.ctx.orgTree.subtreeIds([orgId])}::int[])`);
    }
    const cond = sql.join(where, sql` AND `);
    const rows = await sql<{ id: number; module: string; record_id: number; type: string; title: string; due_date: string; state: number; enabled: number; org_id: number | null; expected_key: number; record_name: string | null; link: string | null; escalated: boolean; total: number }>`
      SELECT r.id, r.module, r.record_id, r.type, r.title, r.due_date::text AS due_date, r.state, coalesce(s.enabled, 1)::int AS enabled, r.org_id,
        r.expected_key, r.record_name, r.link, (r.escalated_due IS NOT NULL AND r.escalated_due = r.due_date) AS escalated,
        count(*) OVER ()::int AS total
      FROM reminders r LEFT JOIN reminder_settings s ON s.module = r.module AND s.type = r.type
      WHERE ${cond}
      ORDER BY r.state = ${REMINDER_STATE.START} DESC, r.state, r.due_date, r.id
      LIMIT ${size} OFFSET ${page * size}`.execute(db);
    const orgNames = await runtime.ctx.refNames('org', [...new Set(rows.rows.map((r) => r.org_id).filter((v): v is number => v !== null))]);
    const names = new Map<string, Map<number, string>>();
    const links = new Map<string, Map<number, string | null>>();
    for (const module of new Set(rows.rows.map((r) => r.module))) {
      const m = runtime.module(module);
      if (!m) continue;
      names.set(module, await recordNames(runtime.ctx, m, rows.rows.filter((r) => r.module === module && !r.expected_key).map((r) => r.record_id)));
      links.set(module, await recordLinks(runtime.ctx, m, rows.rows.filter((r) => r.module === module && !r.expected_key).map((r) => ({ id: r.record_id }))));
    }
    let total = rows.rows[0]?.total;
    if (total === undefined) total = page === 0 ? 0 : ((await sql<{ n: number }>`SELECT count(*)::int AS n FROM reminders r WHERE ${cond}`.execute(db)).rows[0]?.n ?? 0);
    const content: ReminderDto[] = rows.rows.map((r) => ({
      id: r.id,
      module: r.module,
      recordId: r.record_id,
      type: r.type,
      code: declOf(r.module, r.type)?.decl.code ?? null,
      title: r.title,
      dueDate: r.due_date,
      state: r.state as ReminderDto['state'],
      enabled: r.enabled as ReminderDto['enabled'],
      moduleTitle: runtime.module(r.module)?.title ?? r.module,
      // A reminder from an expected-record source names its publication and leads where its source said.
      recordName: r.expected_key ? (r.record_name ?? '') : (names.get(r.module)?.get(r.record_id) ?? ''),
      orgId: r.org_id,
      orgName: r.org_id === null ? '' : (orgNames.get(r.org_id) ?? ''),
      link: r.expected_key ? r.link : (links.get(r.module)?.get(r.record_id) ?? null),
      closable: !!declOf(r.module, r.type)?.decl.closable,
      escalated: !!r.escalated,
    }));
    return { content, totalElements: total };
  });

  app.get('/api/reminders/types', { config: perm(REMINDER_LIST) }, async () => {
    const settings = await db.selectFrom('reminder_settings').select(['module', 'type', 'enabled', 'ahead_days']).execute();
    const byKey = new Map(settings.map((s) => [`${s.module}:${s.type}`, s]));
    return reminders.modules().flatMap((m) =>
      remindersOf(m).map((d) => {
        const s = byKey.get(`${m.id}:${d.type}`);
        return { module: m.id, moduleTitle: m.title, type: d.type, code: d.code ?? null, title: d.title, enabled: s?.enabled ?? 1, ahead: s?.ahead_days ?? d.ahead, defaultAhead: d.ahead, closable: !!d.closable };
      }),
    );
  });

  app.put('/api/reminders/types', { config: perm(REMINDER_MANAGE) }, async (req) => {
    const body = (req.body ?? {}) as { module?: unknown; type?: unknown; enabled?: unknown; ahead?: unknown };
    const found = typeof body.module === 'string' && typeof body.type === 'string' ? declOf(body.module, body.type) : undefined;
    if (!found) throw new HttpError(404, '提醒类型不存在');
    if (body.enabled !== 0 && body.enabled !== 1) throw new HttpError(400, '启用状态应为 0（关闭）或 1（开启）', { errors: [{ field: 'enabled', message: '应为 0 或 1' }] });
    if (body.ahead !== undefined && body.ahead !== null && !(Number.isInteger(body.ahead) && (body.ahead as number) >= -366 && (body.ahead as number) <= 3660)) {
      throw new HttpError(400, '提前提醒天数应为 -366 到 3660 之间的整数', { errors: [{ field: 'ahead', message: '应为整数天数' }] });
    }
    const ahead = body.ahead === undefined ? undefined : (body.ahead as number | null);
    const user = currentUser(req);
    await db
      .insertInto('reminder_settings')
      .values({ module: found.m.id, type: found.decl.type, enabled: body.enabled, ahead_days: ahead ?? null, updated_by: user.id })
      .onConflict((oc) => oc.columns(['module', 'type']).doUpdateSet({ enabled: body.enabled as number, ...(ahead !== undefined && { ahead_days: ahead }), updated_by: user.id, updated_at: new Date() }))
      .execute();
    await reminders.refresh({ modules: [found.m.id], types: [found.decl.type] });
    await reminders.deliver({ modules: [found.m.id] });
    // The receivers' remind counters changed (spec §4 counts the enabled types only).
    const receivers = await sql<{ u: number }>`SELECT DISTINCT unnest(receivers) AS u FROM reminders WHERE module = ${found.m.id} AND type = ${found.decl.type} AND state = ${REMINDER_STATE.START}`.execute(db);
    await messages.notifyCounters(receivers.rows.map((r) => r.u));
    const s = await db.selectFrom('reminder_settings').select(['enabled', 'ahead_days']).where('module', '=', found.m.id).where('type', '=', found.decl.type).executeTakeFirstOrThrow();
    return { module: found.m.id, type: found.decl.type, enabled: s.enabled, ahead: s.ahead_days ?? found.decl.ahead };
  });

  app.post('/api/reminders/refresh', { config: perm(REMINDER_MANAGE) }, async () => {
    const counts = await reminders.refresh();
    await reminders.deliver();
    return { counts };
  });

  app.post('/api/reminders/:id/close', { config: perm(REMINDER_LIST) }, async (req) => {
    const user = currentUser(req);
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, '提醒不存在');
    const row = (await sql<{ id: number; module: string; type: string; state: number; due_date: string; receivers: number[]; org_id: number | null }>`
      SELECT r.id, r.module, r.type, r.state, r.due_date::text AS due_date, r.receivers, r.org_id FROM reminders r WHERE r.id = ${id} AND ${await visible(user)}`.execute(db)).rows[0];
    if (!row) throw new HttpError(404, '提醒不存在');
    const found = declOf(row.module, row.type);
    if (!found?.decl.closable) throw new HttpError(400, '该类提醒不能手动关闭，办结相关事项后自动结束');
    const { scope } = await runtime.actorOf(user);
    const mayClose = user.isSuper || row.receivers.includes(user.id) || (hasAnyPermission(user, [found.m.permissions.edit]) && (scope === 'all' || (row.org_id !== null && scope.includes(row.org_id))));
    if (!mayClose) throw new HttpError(403, '只有提醒的接收人或有权办理该记录的人员可以关闭提醒');
    if (row.state === REMINDER_STATE.FINISH) throw new HttpError(400, '该提醒已结束');
    await db.updateTable('reminders').set({ state: REMINDER_STATE.FINISH, closed_due: row.due_date, closed_by: user.id, updated_at: new Date() }).where('id', '=', id).execute();
    await messages.notifyCounters(row.receivers);
    return { id, state: REMINDER_STATE.FINISH };
  });
}

/**
 * The names of reminded records; a child record (a cadre's post, a family member) is named with its parent
 * (张三：党委书记), since its own name alone does not say whose it is.
 */
async function recordNames(ctx: RuntimeContext, m: RuntimeModule, ids: number[]): Promise<Map<number, string>> {
  const own = await ctx.refNames(m.id, ids);
  const link = m.parents[0];
  const fk = link && m.field(link.foreignKey)?.column;
  if (!ids.length || !fk) return own;
  const rows = await ctx.db.selectFrom(m.table as never).select(['id', `${fk} as parent`] as never).where('id' as never, 'in', ids as never).execute() as { id: number; parent: number | null }[];
  const parents = await ctx.refNames(link.module, [...new Set(rows.map((r) => r.parent).filter((p): p is number => p !== null))]);
  const out = new Map<number, string>();
  for (const r of rows) {
    const parent = r.parent === null ? undefined : parents.get(r.parent);
    const name = own.get(r.id) ?? '';
    out.set(r.id, parent ? (name ? `${parent}：${name}` : parent) : name);
  }
  return out;
}

import { ruleParamRoutes } from './params/routes.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { isBlank } from '../../shared/module-schema/fields.js';
import { MODULE_ACTIONS, type ModuleAction } from '../../shared/module-schema/types.js';
import { LOGIN, currentUser, perm } from '../core/auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../core/auth/session-user.js';
import { idsOf } from '../core/ids.js';
import { parsePaging } from '../core/paging.js';
import { HttpError, STATUS_MESSAGES } from '../errors.js';
import { streamExport } from './export.js';
import { eligibilityNamed, fillNamed, missingHooks, type Actor } from './hooks.js';
import { readImportUpload, registerImportMultipart } from './import.js';
import type { Runtime } from './index.js';
import type { RuntimeModule } from './module.js';
import { containsText } from '../db/text-search.js';
import { SPREAD_MAX } from '../../shared/module-schema/workflow.js';
import { groupConditions, progressGroups } from './progress.js';
import { serveRecords } from './read-policy.js';
import { outOfScope } from './scope.js';
import { sendTemplate } from './template.js';
import { trailOf } from './trail.js';
import { listDeleted } from './deleted.js';
import { missingWorkflowHooks } from './workflow/hooks.js';
import { unknownReminderParams } from './reminders/model.js';
import { listWaiting, waitingRoutes, workflowRoutes } from './workflow/routes.js';
import { STORED_MODULES_TOPIC } from './stored-modules.js';
import { modulePageLink } from './workflow/links.js';

/** The actions of a module this user may perform. */
export function allowedActions(user: Pick<SessionUser, 'roles' | 'isSuper'>, m: RuntimeModule): string[] {
  return MODULE_ACTIONS.filter((a) => hasAnyPermission(user, [m.permissions[a]]));
}

function idParam(raw: unknown, m: RuntimeModule): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, `${m.title}记录不存在`);
  return id;
}

/**
 * The generic module API, `/api/m/{module}/...` for every module of the registry (see docs/schema.md,
 * "Runtime API"). One table of routes (`MODULE_ROUTES`) serves every module: the modules of
 * `schemas/modules/` get it registered under their own path at boot (so the API index and the route matrix
 * name each module's permission), and one parameterised set `/api/m/:module/...` serves the modules stored
 * in the database, looking the module up per request and checking the same permission per request.
 * Data scope applies inside.
 */
export async function runtimeRoutes(app: FastifyInstance): Promise<void> {
  const runtime = app.runtime;
  await registerImportMultipart(app);

  app.get('/api/m', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    return runtime.registry
      .list()
      .filter((m) => hasAnyPermission(user, [m.permissions.list]))
      .map((m) => ({ id: m.id, title: m.title, actions: allowedActions(user, m) }));
  });

  for (const m of runtime.registry.list()) {
    if (runtime.registry.isStored(m.id)) continue;
    for (const route of MODULE_ROUTES) {
      if (route.when && !route.when(m)) continue;
      app.route({
        method: route.method,
        url: `/api/m/${m.id}${route.path}`,
        config: perm(...route.permissions(m, runtime)),
        handler: (req, reply) => route.handler(runtime, m, req, reply),
      });
    }
    workflowRoutes(app, runtime, m);
  }
  storedModuleRoutes(app, runtime);
  ruleParamRoutes(app, runtime);
  roleOptions(app, runtime);
  waitingRoutes(app, runtime);

  // Other servers on the same PostgreSQL stored or changed a module: read it again.
  app.services.invalidations.on(STORED_MODULES_TOPIC, (key) => {
    if (typeof key === 'string') runtime.stored.reload(key).catch((err) => app.log.error({ err, module: key }, 'a stored module could not be read again'));
  });
  runtime.stored.announce = (id) => app.services.invalidations.invalidate(STORED_MODULES_TOPIC, id);

  app.addHook('onReady', async () => {
    const missing = missingHooks(runtime.registry.list());
    if (missing.length) throw new Error(`x-hooks name hooks no service registered (${missing.join(', ')}): register them with registerHook before the app is ready`);
    const steps = missingWorkflowHooks(runtime.registry.list());
    if (steps.length) throw new Error(`x-workflow names guards or effects no service registered (${steps.join(', ')}): register them with registerGuard / registerEffect before the app is ready`);
    const params = unknownReminderParams(runtime.registry.list());
    if (params.length) throw new Error(`x-reminders name rule parameters no module declares (${params.join(', ')}): declare them in the module's params`);
  });
  // Jobs a stopped server left running fail (their owners are told); jobs in flight finish before the database closes.
  app.addHook('onReady', async () => void (await runtime.jobs.failAbandoned(true)));
  app.addHook('preClose', async () => runtime.jobs.drain());
}

/**
 * Options for a picker of `x-ref: role` fields (a document published to roles): role names by id, as a
 * module's `/options` answers, for who may list roles or users and who may fill in such a field. Only the
 * id and name: a role's permissions and scope stay with 角色管理.
 */
function roleOptions(app: FastifyInstance, runtime: Runtime): void {
  const permissions = new Set(['role:list', 'user:list']);
  for (const m of runtime.registry.list()) {
    if ([...m.fields.values()].some((f) => f.ref === 'role')) [m.permissions.add, m.permissions.edit].forEach((x) => permissions.add(x));
  }
  app.get('/api/m/role/options', { config: perm(...permissions) }, async (req) => {
    const q = req.query as { q?: string; ids?: string; size?: string };
    const size = Math.min(Math.max(Number(q.size) || 20, 1), 100);
    let query = runtime.ctx.db.selectFrom('roles').select(['id', 'name']);
    if (q.ids) {
      const ids = q.ids.split(',').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
      query = query.where('id', 'in', ids.length ? ids : [0]);
    } else if (q.q?.trim()) {
      query = query.where(containsText('name', q.q.trim()));
    }
    return query.orderBy('level').orderBy('id').limit(size).execute();
  });
}

/** The module a parameterised route resolved for this request. */
const resolved = new WeakMap<FastifyRequest, RuntimeModule>();

/**
 * `/api/m/:module/...` for modules stored in the database. A file module's own (static) routes win over
 * these, so only stored modules arrive here. Order of answers as for a file module: 401 without a session,
 * 404 for a module that does not exist, 403 without the route's permission.
 */
function storedModuleRoutes(app: FastifyInstance, runtime: Runtime): void {
  for (const route of MODULE_ROUTES) {
    app.route({
      method: route.method,
      url: `/api/m/:module${route.path}`,
      config: LOGIN,
      onRequest: async (req) => {
        const id = String((req.params as { module: string }).module);
        let m = runtime.registry.isStored(id) ? runtime.module(id) : undefined;
        // Stored on another server a moment ago (its notification is on its way): read it now.
        if (!m && !runtime.registry.isFileModule(id) && (await runtime.stored.reload(id))) m = runtime.module(id);
        if (!m || (route.when && !route.when(m))) throw new HttpError(404, '模块不存在');
        if (!hasAnyPermission(currentUser(req), route.permissions(m, runtime))) throw new HttpError(403, STATUS_MESSAGES[403]);
        resolved.set(req, m);
      },
      handler: (req, reply) => route.handler(runtime, resolved.get(req)!, req, reply),
    });
  }
}

interface ModuleRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** After `/api/m/{module}`. */
  path: string;
  /** The caller needs one of these. */
  permissions: (m: RuntimeModule, runtime: Runtime) => string[];
  /** Only modules this is true of have the route. */
  when?: (m: RuntimeModule) => boolean;
  handler: (runtime: Runtime, m: RuntimeModule, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/**
 * Where the message about a job (an export, an import) leads: the page it was asked from (`?from=`, an
 * internal path: pages embedding a module's list are many), else the menu page showing the module.
 */
async function jobPage(runtime: Runtime, m: RuntimeModule, req: FastifyRequest): Promise<string | null> {
  const hint = (req.query as { from?: unknown }).from;
  if (typeof hint === 'string' && /^\/[A-Za-z0-9/_-]{0,200}$/.test(hint) && !hint.startsWith('//')) return hint;
  return modulePageLink(runtime.ctx, m);
}

const may = (action: ModuleAction) => (m: RuntimeModule) => [m.permissions[action]];
const actor = (runtime: Runtime, req: FastifyRequest) => runtime.actorOf(currentUser(req));

/**
 * The form's values of the `on` fields a fill or an eligibility check reads. An empty organisation (x-scope) is the
 * caller's own, as a write takes it; undefined for one the caller may not write in (the runtime's write-scope check).
 */
async function formValuesOn(runtime: Runtime, m: RuntimeModule, a: Actor, on: string[], sent: unknown): Promise<Record<string, unknown> | undefined> {
  const given = sent && typeof sent === 'object' ? (sent as Record<string, unknown>) : {};
  const values = Object.fromEntries(on.map((n) => [n, given[n]]));
  const scopeField = m.schema['x-scope'];
  if (!scopeField || !on.includes(scopeField)) return values;
  if (isBlank(values[scopeField])) values[scopeField] = a.orgId;
  const [outside] = await outOfScope(runtime.ctx, m, [values], a);
  return outside ? undefined : values;
}

/**
 * Options for reference pickers are for anyone who may list the module or fill in a field of another
 * module that references it.
 */
function pickerPermissions(m: RuntimeModule, runtime: Runtime): string[] {
  const pickers = new Set([m.permissions.list, m.permissions.view]);
  for (const other of runtime.registry.list()) {
    if ([...other.fields.values()].some((f) => f.ref === m.id)) [other.permissions.add, other.permissions.edit].forEach((x) => pickers.add(x));
  }
  return [...pickers];
}

/**
 * Deleted records (who deleted what, when, with its last values) and their restore: for administrators
 * who may delete here and see all organisations (the kept rows are not filtered by scope).
 */
async function deletionsActor(runtime: Runtime, req: FastifyRequest) {
  const a = await actor(runtime, req);
  if (a.scope !== 'all') throw new HttpError(403, '仅数据范围为全部的管理员可查看和恢复已删除的记录');
  return a;
}

const MODULE_ROUTES: ModuleRoute[] = [
  {
    method: 'GET', path: '/schema', permissions: may('list'),
    handler: async (_runtime, m, req) => {
      const user = currentUser(req);
      const actions: string[] = allowedActions(user, m);
      // 'deleted': the page offers the module's deleted records (see the deletions routes below).
      if (actions.includes('delete') && user.dataScope.kind === 'all') actions.push('deleted');
      return { schema: m.schema, actions, dicts: m.dictCodes };
    },
  },
  {
    method: 'POST', path: '/list', permissions: may('list'),
    handler: async (runtime, m, req) => {
      const query = req.query as Record<string, unknown>;
      // Every field of every record is what the detail shows: it needs the view permission too.
      if (query.fields === 'all' && !hasAnyPermission(currentUser(req), [m.permissions.view])) throw new HttpError(403, STATUS_MESSAGES[403]);
      const { filter, conditions } = await listWaiting(runtime, m, req.body, currentUser(req));
      const a = await actor(runtime, req);
      const page = await runtime.records(m.id).list({ filter, conditions, query, allFields: query.fields === 'all' }, a);
      await serveRecords(runtime.ctx, m, a, page.content, { mode: 'list', address: req.ip });
      return page;
    },
  },
  {
    // x-progress: body { filter, group? }; without group the groups with their counts, with it that group's records (the list).
    method: 'POST', path: '/progress', permissions: may('list'), when: (m) => !!m.schema['x-progress'],
    handler: async (runtime, m, req) => {
      const body = (req.body ?? {}) as { filter?: unknown; group?: unknown };
      const a = await actor(runtime, req);
      if (body.group === undefined) return progressGroups(runtime.ctx, m, body.filter, req.query, a);
      const page = await runtime.records(m.id).list({ filter: body.filter, conditions: groupConditions(m, body.group), query: req.query }, a);
      await serveRecords(runtime.ctx, m, a, page.content, { mode: 'list', address: req.ip });
      return page;
    },
  },
  {
    // Records lacking a required field added after they were stored (x-required-from).
    method: 'GET', path: '/incomplete', permissions: may('list'),
    handler: async (runtime, m, req) => {
      const a = await actor(runtime, req);
      const page = await runtime.records(m.id).incomplete(req.query, a);
      await serveRecords(runtime.ctx, m, a, page.content, { mode: 'list', address: req.ip });
      return page;
    },
  },
  {
    method: 'GET', path: '/export', permissions: may('export'),
    handler: async (runtime, m, req, reply) => {
      const query = req.query as { filter?: string };
      let filter: unknown;
      try {
        filter = query.filter ? JSON.parse(query.filter) : undefined;
      } catch {
        throw new HttpError(400, '筛选条件的格式不正确', { errors: [{ field: 'filter', message: '筛选条件必须是 JSON 对象' }] });
      }
      return streamExport(req.server, reply, runtime.records(m.id), { filter, query: req.query }, await actor(runtime, req), await jobPage(runtime, m, req));
    },
  },
  {
    // x-fill: values a form takes as the user types (a meeting's attendance from its organisation and type).
    method: 'POST', path: '/fill/:name', permissions: (m) => [m.permissions.add, m.permissions.edit], when: (m) => !!m.schema['x-fill']?.length,
    handler: async (runtime, m, req) => {
      const spec = m.schema['x-fill']!.find((f) => f.name === (req.params as { name: string }).name);
      const fill = spec && fillNamed(spec.name);
      if (!spec || !fill) throw new HttpError(404, '没有这项自动填写');
      const a = await actor(runtime, req);
      const values = await formValuesOn(runtime, m, a, spec.on, (req.body as { values?: unknown } | undefined)?.values);
      if (!values) return { values: {} };
      const answer = await fill({ module: m, actor: a, db: runtime.ctx.db, values });
      return { values: Object.fromEntries(spec.sets.filter((n) => answer[n] !== undefined).map((n) => [n, answer[n]])) };
    },
  },
  {
    // x-ref-eligible: who of the named records may be chosen for a reference field now (an election's candidates).
    // Only records the caller may pick are judged: a reason never tells about a record outside the picker's scope.
    method: 'POST', path: '/eligible/:field', permissions: (m) => [m.permissions.add, m.permissions.edit],
    when: (m) => Object.values(m.schema.properties).some((f) => !!f['x-ref-eligible']),
    handler: async (runtime, m, req) => {
      const field = m.fields.get((req.params as { field: string }).field);
      const spec = field?.schema['x-ref-eligible'];
      const judge = spec && eligibilityNamed(spec.name);
      if (!field?.ref || !spec || !judge) throw new HttpError(404, '该字段没有可选条件');
      const body = (req.body ?? {}) as { values?: unknown; ids?: unknown };
      const asked = Array.isArray(body.ids) ? [...new Set(body.ids.filter((n): n is number => Number.isSafeInteger(n) && (n as number) > 0))] : [];
      if (asked.length > 1000) throw new HttpError(400, '一次最多判断1000人');
      const a = await actor(runtime, req);
      const values = await formValuesOn(runtime, m, a, spec.on, body.values);
      // Judged: only records of a module the caller may pick (a core entity's records are never judged).
      const ref = runtime.registry.get(field.ref);
      if (!values || !ref || !asked.length) return { ineligible: {} };
      const scope = runtime.records(ref.id).pickerScopeCondition(a);
      let q = runtime.ctx.anyDb.selectFrom(ref.table).select('id').where('id', 'in', asked);
      if (scope) q = q.where(scope);
      const ids = new Set((await q.execute()).map((r) => r.id as number));
      if (!ids.size) return { ineligible: {} };
      const ineligible = await judge({ module: m, actor: a, db: runtime.ctx.db, field: field.name, values, ids: [...ids] });
      return { ineligible: Object.fromEntries([...ineligible].filter(([id]) => ids.has(id))) };
    },
  },
  { method: 'GET', path: '/template', permissions: may('import'), handler: async (runtime, m, _req, reply) => sendTemplate(reply, runtime.ctx, m) },
  {
    method: 'POST', path: '/import', permissions: may('import'),
    handler: async (runtime, m, req, reply) => {
      const upload = await readImportUpload(req);
      const jobId = await runtime.imports.start(m, upload, await actor(runtime, req), await jobPage(runtime, m, req));
      return reply.code(202).send({ jobId });
    },
  },
  {
    method: 'GET', path: '/import/:jobId', permissions: may('import'),
    handler: async (runtime, m, req) => runtime.imports.status(m, Number((req.params as { jobId: string }).jobId), currentUser(req)),
  },
  {
    method: 'GET', path: '/import/:jobId/report', permissions: may('import'),
    handler: async (runtime, m, req, reply) => runtime.imports.sendReport(reply, m, Number((req.params as { jobId: string }).jobId), currentUser(req)),
  },
  {
    // Options for reference pickers: records of this module by name.
    method: 'GET', path: '/options', permissions: pickerPermissions, when: (m) => !!m.nameField,
    handler: async (runtime, m, req) => {
      const nameColumn = m.nameField!.column!;
      const q = req.query as { q?: string; ids?: string; size?: string };
      const size = Math.min(Math.max(Number(q.size) || 20, 1), 100);
      const scope = runtime.records(m.id).pickerScopeCondition(await actor(runtime, req));
      let query = runtime.ctx.anyDb.selectFrom(m.table).select(['id', `${nameColumn} as name`]);
      if (scope) query = query.where(scope);
      if (q.ids) {
        const ids = q.ids.split(',').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
        query = query.where('id', 'in', ids.length ? ids : [0]);
      } else if (q.q?.trim()) {
        query = query.where(containsText(nameColumn, q.q.trim()));
      }
      return query.orderBy(sql.ref(m.pinyinColumn ?? nameColumn)).orderBy('id').limit(size).execute();
    },
  },
  {
    method: 'GET', path: '/deleted', permissions: may('delete'),
    handler: async (runtime, m, req) => {
      await deletionsActor(runtime, req);
      return listDeleted(runtime.ctx, m, parsePaging(req.query, {}));
    },
  },
  {
    method: 'POST', path: '/deleted/:deletionId/restore', permissions: may('delete'),
    handler: async (runtime, m, req) => {
      const deletionId = Number((req.params as { deletionId: string }).deletionId);
      if (!Number.isSafeInteger(deletionId) || deletionId <= 0) throw new HttpError(404, '删除记录不存在');
      const restored = await runtime.records(m.id).restoreDeleted(deletionId, await deletionsActor(runtime, req));
      return { status: 200, message: '已恢复', id: restored.recordId };
    },
  },
  {
    // The identity-card number whole only for who may edit the record, and that read is logged (read-policy.ts).
    method: 'GET', path: '/:id', permissions: may('view'),
    handler: async (runtime, m, req) => {
      const a = await actor(runtime, req);
      const record = await runtime.records(m.id).get(idParam((req.params as { id: string }).id, m), a);
      return (await serveRecords(runtime.ctx, m, a, [record], { address: req.ip }))[0];
    },
  },
  {
    method: 'GET', path: '/:id/trail', permissions: may('view'),
    handler: async (runtime, m, req) => {
      const id = idParam((req.params as { id: string }).id, m);
      await runtime.records(m.id).get(id, await actor(runtime, req)); // 404 outside the caller's scope
      return trailOf(runtime.ctx, m, id, parsePaging(req.query, {}));
    },
  },
  {
    method: 'POST', path: '/:id/restore/:changeId', permissions: may('edit'),
    handler: async (runtime, m, req) => {
      const params = req.params as { id: string; changeId: string };
      const body = (req.body ?? {}) as { version?: unknown };
      const version = Number.isSafeInteger(body.version) ? (body.version as number) : undefined;
      return runtime.records(m.id).restore(idParam(params.id, m), Number(params.changeId), await actor(runtime, req), version);
    },
  },
  { method: 'POST', path: '', permissions: may('add'), handler: async (runtime, m, req, reply) => reply.code(201).send(await runtime.records(m.id).create(req.body, await actor(runtime, req))) },
  {
    // x-form.spread: one form, a record per value of the spread field (a task given to many organisations), all or none.
    method: 'POST', path: '/many', permissions: may('add'), when: (m) => !!m.schema['x-form']?.spread,
    handler: async (runtime, m, req, reply) => {
      const rows = (req.body as { rows?: unknown } | null)?.rows;
      if (!Array.isArray(rows) || !rows.length) throw new HttpError(400, '没有要新增的记录');
      if (rows.length > SPREAD_MAX) throw new HttpError(400, `一次最多新增${SPREAD_MAX}条记录`);
      // createMany validates every row first (a refusal names it: 第N条) and writes them in one transaction.
      const ids = await runtime.records(m.id).createMany(rows.map((body) => ({ body })), await actor(runtime, req));
      return reply.code(201).send({ ids, message: `已新增${ids.length}条` });
    },
  },
  { method: 'PUT', path: '', permissions: may('edit'), handler: async (runtime, m, req) => runtime.records(m.id).update(req.body, await actor(runtime, req)) },
  {
    // x-children grid: the rows of one grid saved together, all or none (body { rows: [{ id, version, ...fields }] }).
    method: 'PUT', path: '/batch', permissions: may('edit'), when: (m) => m.parents.some((p) => p.grid),
    handler: async (runtime, m, req) => ({ content: await runtime.records(m.id).updateMany((req.body as { rows?: unknown } | null)?.rows, await actor(runtime, req)) }),
  },
  {
    method: 'DELETE', path: '', permissions: may('delete'),
    handler: async (runtime, m, req) => {
      const deleted = await runtime.records(m.id).remove(idsOf(req.body), await actor(runtime, req));
      return { status: 200, message: '删除成功', deleted };
    },
  },
];

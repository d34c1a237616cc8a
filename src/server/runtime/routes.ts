import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { MODULE_ACTIONS } from '../../shared/module-schema/types.js';
import { LOGIN, currentUser, perm } from '../core/auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../core/auth/session-user.js';
import { idsOf } from '../core/ids.js';
import { parsePaging } from '../core/paging.js';
import { HttpError, STATUS_MESSAGES } from '../errors.js';
import { streamExport } from './export.js';
import { missingHooks } from './hooks.js';
import { readImportUpload, registerImportMultipart } from './import.js';
import type { Runtime } from './index.js';
import type { RuntimeModule } from './module.js';
import { containsText } from '../db/text-search.js';
import { logSensitiveRead, maskRecords } from './sensitive.js';
import { sendTemplate } from './template.js';
import { trailOf } from './trail.js';
import { listDeleted } from './deleted.js';
import { missingWorkflowHooks } from './workflow/hooks.js';
import { listWaiting, workflowRoutes } from './workflow/routes.js';

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
 * "Runtime API"). Each route declares the module's permission for its action; data scope applies inside.
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

  for (const m of runtime.registry.list()) moduleRoutes(app, runtime, m);

  app.addHook('onReady', async () => {
    const missing = missingHooks(runtime.registry.list());
    if (missing.length) throw new Error(`x-hooks name hooks no service registered (${missing.join(', ')}): register them with registerHook before the app is ready`);
    const steps = missingWorkflowHooks(runtime.registry.list());
    if (steps.length) throw new Error(`x-workflow names guards or effects no service registered (${steps.join(', ')}): register them with registerGuard / registerEffect before the app is ready`);
  });
  // Imports in flight finish before the database closes.
  app.addHook('preClose', async () => runtime.imports.drain());
}

function moduleRoutes(app: FastifyInstance, runtime: Runtime, m: RuntimeModule): void {
  const base = `/api/m/${m.id}`;
  const p = m.permissions;
  const records = () => runtime.records(m.id);
  const actor = (req: FastifyRequest) => runtime.actorOf(currentUser(req));

  app.get(`${base}/schema`, { config: perm(p.list) }, async (req) => {
    const user = currentUser(req);
    const actions: string[] = allowedActions(user, m);
    // 'deleted': the page offers the module's deleted records (see the deletions routes below).
    if (actions.includes('delete') && user.dataScope.kind === 'all') actions.push('deleted');
    return { schema: m.schema, actions, dicts: m.dictCodes };
  });

  app.post(`${base}/list`, { config: perm(p.list) }, async (req) => {
    const query = req.query as Record<string, unknown>;
    // Every field of every record is what the detail shows: it needs the view permission too.
    if (query.fields === 'all' && !hasAnyPermission(currentUser(req), [p.view])) throw new HttpError(403, STATUS_MESSAGES[403]);
    const { filter, conditions } = await listWaiting(runtime, m, req.body, currentUser(req));
    const page = await records().list({ filter, conditions, query, allFields: query.fields === 'all' }, await actor(req));
    maskRecords(m, page.content);
    return page;
  });

  // Records lacking a required field added after they were stored (x-required-from).
  app.get(`${base}/incomplete`, { config: perm(p.list) }, async (req) => {
    const page = await records().incomplete(req.query, await actor(req));
    maskRecords(m, page.content);
    return page;
  });

  app.get(`${base}/export`, { config: perm(p.export) }, async (req, reply) => {
    const query = req.query as { filter?: string };
    let filter: unknown;
    try {
      filter = query.filter ? JSON.parse(query.filter) : undefined;
    } catch {
      throw new HttpError(400, '筛选条件的格式不正确', { errors: [{ field: 'filter', message: '筛选条件必须是 JSON 对象' }] });
    }
    return streamExport(reply, records(), { filter, query: req.query }, await actor(req));
  });

  app.get(`${base}/template`, { config: perm(p.import) }, async (_req, reply) => sendTemplate(reply, runtime.ctx, m));

  app.post(`${base}/import`, { config: perm(p.import) }, async (req, reply) => {
    const upload = await readImportUpload(req);
    const jobId = await runtime.imports.start(m, upload, await actor(req));
    return reply.code(202).send({ jobId });
  });

  app.get(`${base}/import/:jobId`, { config: perm(p.import) }, async (req) => {
    const job = await runtime.imports.status(m, Number((req.params as { jobId: string }).jobId), currentUser(req));
    return job;
  });

  app.get(`${base}/import/:jobId/report`, { config: perm(p.import) }, async (req, reply) =>
    runtime.imports.sendReport(reply, m, Number((req.params as { jobId: string }).jobId), currentUser(req)),
  );

  // Options for reference pickers: records of this module by name, for anyone who may list it or
  // fill in a field that references it.
  if (m.nameField) {
    const nameColumn = m.nameField.column!;
    const pickers = new Set([p.list, p.view]);
    for (const other of runtime.registry.list()) {
      if ([...other.fields.values()].some((f) => f.ref === m.id)) [other.permissions.add, other.permissions.edit].forEach((x) => pickers.add(x));
    }
    app.get(`${base}/options`, { config: perm(...pickers) }, async (req) => {
      const q = req.query as { q?: string; ids?: string; size?: string };
      const size = Math.min(Math.max(Number(q.size) || 20, 1), 100);
      const scope = records().pickerScopeCondition(await actor(req));
      let query = runtime.ctx.anyDb.selectFrom(m.table).select(['id', `${nameColumn} as name`]);
      if (scope) query = query.where(scope);
      if (q.ids) {
        const ids = q.ids.split(',').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
        query = query.where('id', 'in', ids.length ? ids : [0]);
      } else if (q.q?.trim()) {
        query = query.where(containsText(nameColumn, q.q.trim()));
      }
      return query.orderBy(sql.ref(m.pinyinColumn ?? nameColumn)).orderBy('id').limit(size).execute();
    });
  }

  workflowRoutes(app, runtime, m);

  // Deleted records (who deleted what, when, with its last values) and their restore: for administrators
  // who may delete here and see all organisations (the kept rows are not filtered by scope).
  const deletionsActor = async (req: FastifyRequest) => {
    const a = await actor(req);
    if (a.scope !== 'all') throw new HttpError(403, '仅数据范围为全部的管理员可查看和恢复已删除的记录');
    return a;
  };
  app.get(`${base}/deleted`, { config: perm(p.delete) }, async (req) => {
    await deletionsActor(req);
    return listDeleted(runtime.ctx, m, parsePaging(req.query, {}));
  });
  app.post(`${base}/deleted/:deletionId/restore`, { config: perm(p.delete) }, async (req) => {
    const deletionId = Number((req.params as { deletionId: string }).deletionId);
    if (!Number.isSafeInteger(deletionId) || deletionId <= 0) throw new HttpError(404, '删除记录不存在');
    const restored = await records().restoreDeleted(deletionId, await deletionsActor(req));
    return { status: 200, message: '已恢复', id: restored.recordId };
  });

  // The identity-card number whole only for who may edit the record, and that read is logged (sensitive.ts).
  app.get(`${base}/:id`, { config: perm(p.view) }, async (req) => {
    const a = await actor(req);
    const record = await records().get(idParam((req.params as { id: string }).id, m), a);
    if (!hasAnyPermission(currentUser(req), [p.edit])) return maskRecords(m, [record])[0];
    await logSensitiveRead(runtime.ctx.db, m, record, a, req.ip);
    return record;
  });

  app.get(`${base}/:id/trail`, { config: perm(p.view) }, async (req) => {
    const id = idParam((req.params as { id: string }).id, m);
    await records().get(id, await actor(req)); // 404 outside the caller's scope
    return trailOf(runtime.ctx, m, id, parsePaging(req.query, {}));
  });

  app.post(`${base}/:id/restore/:changeId`, { config: perm(p.edit) }, async (req) => {
    const params = req.params as { id: string; changeId: string };
    const body = (req.body ?? {}) as { version?: unknown };
    const version = Number.isSafeInteger(body.version) ? (body.version as number) : undefined;
    return records().restore(idParam(params.id, m), Number(params.changeId), await actor(req), version);
  });

  app.post(base, { config: perm(p.add) }, async (req, reply) => reply.code(201).send(await records().create(req.body, await actor(req))));

  app.put(base, { config: perm(p.edit) }, async (req) => records().update(req.body, await actor(req)));

  app.delete(base, { config: perm(p.delete) }, async (req) => {
    const deleted = await records().remove(idsOf(req.body), await actor(req));
    return { status: 200, message: '删除成功', deleted };
  });
}

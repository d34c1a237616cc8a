/**
 * Statistics (docs/statistics.md): 综合查询 (`/api/query/*`), 统计报表 (`/api/reports/*`), 数据快照
 * (`/api/snapshots/*`), the data sources and the big-data view's figures (`/api/bigdata`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, perm } from '../../core/auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { HttpError, STATUS_MESSAGES } from '../../errors.js';
import { jobsOf } from '../../runtime/jobs.js';
import { ExportState } from '../../../shared/statistics.js';
import { DESIGN, deleteReport, listReports, previewDefinition, reportFor, saveReport } from './designs.js';
import { exportQuery, exportReport, exportSnapshot } from './exports.js';
import { bigDataOverview, studyHours } from './bigdata.js';
import { compileQuery, queryModule, runQuery } from './query.js';
import { runReport } from './reports.js';
import { deleteSaved, listSaved, saveQuery } from './saved-queries.js';
import { checkModules, diffSnapshots, listSnapshots, newSnapshot, snapshotInfo, snapshotRecords, takeSnapshot, type DiffKind } from './snapshots.js';
import { dataSources, mayUse } from './sources.js';
import { addSchedule, listSchedules, removeSchedule, startScheduleTimer } from './schedules.js';
import { compileWhere } from './where.js';

const QUERY = 'service-query:list';
const REPORT = 'stat-report:list';
const SNAPSHOT = 'stat-snapshot:list';
const SNAPSHOT_ADD = 'stat-snapshot:add';
const BIGDATA = 'stat-bigdata:list';

function idParam(req: FastifyRequest, name: string, what: string): number {
  const id = Number((req.params as Record<string, string>)[name]);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, `${what}不存在`);
  return id;
}

function paging(raw: Record<string, unknown>, max = 200): { page: number; size: number } {
  const page = raw.page === undefined ? 0 : Number(raw.page);
  const size = raw.size === undefined ? 20 : Number(raw.size);
  if (!Number.isInteger(page) || page < 0 || !Number.isInteger(size) || size < 1 || size > max) throw new HttpError(400, `分页参数不正确（每页1到${max}条）`);
  return { page, size };
}

export async function statisticsArea(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const { db } = app.services.database;
  const jobs = jobsOf(app);
  const user = (req: FastifyRequest): SessionUser => currentUser(req);

  // ---- 综合查询
  app.get('/api/query/modules', { config: perm(QUERY) }, async (req) => {
    const u = user(req);
    return runtime.registry
      .list()
      .filter((m) => hasAnyPermission(u, [m.permissions.list]) && !m.governedBy)
      .map((m) => ({
        id: m.id,
        title: m.title,
        listFields: m.listFields,
        detail: hasAnyPermission(u, [m.permissions.view]),
        // 导出结果 is shown only to who may export the module (issue 43.1: the export below answers 403 otherwise).
        export: hasAnyPermission(u, [m.permissions.export]),
        // Computed fields (age) are columns only: conditions and sorting need a stored one.
        fields: [...m.fields.values()].map((f) => ({
          name: f.name, title: f.title, kind: f.kind, stored: !!f.column, dict: f.dict ?? null, ref: f.ref && runtime.module(f.ref) ? f.ref : null, format: f.schema.format ?? null, enum: f.schema.enum ?? null,
        })),
      }));
  });

  app.post('/api/query/run', { config: perm(QUERY) }, async (req) => runQuery(runtime, user(req), await compileQuery(runtime, user(req), req.body), req.ip));

  app.post('/api/query/export', { config: perm(QUERY) }, async (req, reply) => {
    const body = (req.body ?? {}) as { title?: unknown };
    const q = await compileQuery(runtime, user(req), req.body);
    if (!hasAnyPermission(user(req), [q.module.permissions.export])) throw new HttpError(403, STATUS_MESSAGES[403]);
    const title = typeof body.title === 'string' && body.title.trim() ? body.title.trim().slice(0, 60) : `综合查询-${q.module.title}`;
    return exportQuery(app, reply, user(req), q, title, req.ip);
  });

  app.get('/api/query/saved', { config: perm(QUERY) }, async (req) => listSaved(db, runtime, user(req)));
  app.post('/api/query/saved', { config: perm(QUERY) }, async (req) => saveQuery(db, runtime, user(req), req.body as object));
  app.put('/api/query/saved/:id', { config: perm(QUERY) }, async (req) => saveQuery(db, runtime, user(req), req.body as object, idParam(req, 'id', '查询')));
  app.delete('/api/query/saved/:id', { config: perm(QUERY) }, async (req) => {
    await deleteSaved(db, user(req), idParam(req, 'id', '查询'));
    return { ok: true };
  });

  // ---- 统计报表 and 数据源
  app.get('/api/reports', { config: perm(REPORT) }, async (req) => listReports(db, runtime, user(req)));
  // `{ params: { year } }`, or the year alone at the top (`{ "year": 2026 }`, the member-change contract of issue 41).
  const reportParams = (req: FastifyRequest) => {
    const body = req.body as { params?: unknown; year?: unknown } | undefined;
    return body?.params ?? (body?.year !== undefined ? { year: body.year } : undefined);
  };
  const reportId = (req: FastifyRequest) => (req.params as { id: string }).id;
  app.post('/api/reports/:id/run', { config: perm(REPORT) }, async (req) => runReport(runtime, user(req), (await reportFor(db, user(req), reportId(req))).run, reportParams(req)));
  app.post('/api/reports/:id/export', { config: perm(REPORT) }, async (req, reply) =>
    exportReport(reply, await runReport(runtime, user(req), (await reportFor(db, user(req), reportId(req))).run, reportParams(req))),
  );
  // The report designer: a definition is read, checked, previewed, saved, changed and deleted (designs.ts).
  app.get('/api/reports/:id/definition', { config: perm(REPORT) }, async (req) => {
    const { run: _run, ...answer } = await reportFor(db, user(req), reportId(req));
    return answer;
  });
  app.post('/api/reports/preview', { config: perm(DESIGN) }, async (req) =>
    runReport(runtime, user(req), await previewDefinition(runtime, user(req), (req.body as { definition?: unknown } | undefined)?.definition), reportParams(req)),
  );
  app.post('/api/reports', { config: perm(DESIGN) }, async (req) => saveReport(db, runtime, user(req), req.body));
  app.put('/api/reports/:id', { config: perm(DESIGN) }, async (req) => saveReport(db, runtime, user(req), req.body, reportId(req)));
  app.delete('/api/reports/:id', { config: perm(DESIGN) }, async (req) => {
    await deleteReport(db, user(req), reportId(req));
    return { ok: true };
  });
  app.get('/api/stat/sources', { config: perm(REPORT, BIGDATA, 'stat-datasource:list') }, async (req) =>
    (await dataSources(runtime)).filter((s) => mayUse(runtime, user(req), s)).map((s) => ({ code: s.code, title: s.title, module: s.module, fields: s.fields })),
  );

  // ---- 数据快照
  app.get('/api/snapshots', { config: perm(SNAPSHOT, REPORT, QUERY) }, async () => listSnapshots(db));
  app.post('/api/snapshots', { config: perm(SNAPSHOT_ADD) }, async (req, reply) => {
    const body = (req.body ?? {}) as { modules?: unknown; title?: unknown };
    const modules = checkModules(runtime, body.modules);
    const title = typeof body.title === 'string' ? body.title.trim() : '';
    if (!title || title.length > 60) throw new HttpError(400, '请填写快照名称（不超过60个字）', { errors: [{ field: 'title', message: '请填写快照名称（不超过60个字）' }] });
    const u = user(req);
    const id = await newSnapshot(db, title, modules, { id: u.id, name: u.nickName || u.username });
    const jobId = await jobs.start({ kind: 'snapshot', title: `数据快照“${title}”`, ownerId: u.id, run: (job) => takeSnapshot(runtime, id, job), link: () => '/statistics/data/snapshot' });
    await db.updateTable('stat_snapshot' as never).set({ job_id: jobId } as never).where('id' as never, '=', id as never).execute();
    return reply.code(202).send({ jobId, snapshotId: id, state: ExportState.START });
  });
  app.get('/api/snapshots/schedules', { config: perm(SNAPSHOT) }, async () => listSchedules(app));
  app.post('/api/snapshots/schedules', { config: perm(SNAPSHOT_ADD) }, async (req) => addSchedule(app, user(req), req.body));
  app.delete('/api/snapshots/schedules/:id', { config: perm(SNAPSHOT_ADD) }, async (req) => {
    await removeSchedule(app, idParam(req, 'id', '快照计划'));
    return { ok: true };
  });
  startScheduleTimer(app);
  app.get('/api/snapshots/:a/diff/:b', { config: perm(SNAPSHOT) }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const kind = (q.kind ?? 'changed') as DiffKind;
    if (!['added', 'removed', 'changed'].includes(kind)) throw new HttpError(400, '比较类别不正确');
    const { page, size } = paging(q);
    return diffSnapshots(runtime, user(req), idParam(req, 'a', '数据快照'), idParam(req, 'b', '数据快照'), String(q.module ?? 'member'), kind, page, size);
  });
  app.post('/api/snapshots/:id/records', { config: perm(SNAPSHOT, REPORT) }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const m = queryModule(runtime, user(req), body.module);
    const cond = await compileWhere({ registry: runtime.registry, orgTree: runtime.ctx.orgTree, actor: await runtime.actorOf(user(req)) }, m, body.where);
    const { page, size } = paging(body);
    return snapshotRecords(runtime, user(req), idParam(req, 'id', '数据快照'), m, cond ? [cond] : [], page, size);
  });

  app.get('/api/snapshots/:id/export', { config: perm(SNAPSHOT) }, async (req, reply) => {
    const id = idParam(req, 'id', '数据快照');
    const m = queryModule(runtime, user(req), (req.query as { module?: unknown }).module ?? 'member');
    const info = await snapshotInfo(runtime, id, m.id);
    return exportSnapshot(app, reply, user(req), id, m, info.title);
  });

  // ---- 大数据展示
  app.get('/api/bigdata/overview', { config: perm(BIGDATA) }, async (req) => bigDataOverview(app, user(req)));
  app.get('/api/bigdata/study-hours', { config: perm(BIGDATA) }, async (req) => studyHours(app, user(req), (req.query as { year?: unknown }).year));

}

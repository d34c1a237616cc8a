import type { FastifyInstance } from 'fastify';
import { perm } from '../../core/auth/guard.js';
import { sendXlsx } from '../../core/xlsx.js';
import { addCorrection, listAdjustments, removeAdjustment } from './adjustments.js';
import { deferItems, reportBatch, undeferItems } from './batch-reports.js';
import { batchLog, batchRow, closeBatch, configureBatch, createBatch, deleteBatch, getBatch, listBatches, startBatch } from './batches.js';
import { callerOf, idParam, pageParams, type Dues } from './context.js';
import { waiveMonths } from './waivers.js';
import { listItems } from './items.js';
import { batchProgress } from './progress.js';
import { progressWorkbook } from './reports.js';

const batchId = (params: unknown) => idParam((params as { id: string }).id, '收费批次编号不正确');
const optionalOrg = (value: unknown) => idParam(value, '所选党组织不正确', true);

/** Fee batches (menu 收费批次管理): the state machine, reports up the levels, deferrals, adjustments. */
export function batchRoutes(app: FastifyInstance, dues: Dues): void {
  app.get('/api/dues/batches', { config: perm('dues-batch:list', 'dues-onsite:list', 'dues-report:list') }, async (req) => {
    const q = req.query as { year?: string; state?: string };
    return listBatches(dues, await callerOf(req), { year: q.year ? Number(q.year) || undefined : undefined, state: q.state ? Number(q.state) || undefined : undefined });
  });

  app.post('/api/dues/batches', { config: perm('dues-batch:add') }, async (req, reply) => {
    const caller = await callerOf(req);
    const id = await createBatch(dues, (req.body ?? {}) as never, caller.actor);
    return reply.code(201).send(await getBatch(dues, caller, id));
  });

  app.get('/api/dues/batches/:id', { config: perm('dues-batch:list', 'dues-onsite:list', 'dues-report:list') }, async (req) => getBatch(dues, await callerOf(req), batchId(req.params)));

  app.delete('/api/dues/batches/:id', { config: perm('dues-batch:delete') }, async (req) => {
    await deleteBatch(dues, batchId(req.params));
    return { status: 200, message: '删除成功' };
  });

  app.post('/api/dues/batches/:id/configure', { config: perm('dues-batch:configure') }, async (req) => {
    const caller = await callerOf(req);
    const id = batchId(req.params);
    const result = await configureBatch(dues, id, (req.body ?? {}) as never, caller.actor);
    return { ...result, batch: await getBatch(dues, caller, id) };
  });

  app.post('/api/dues/batches/:id/start', { config: perm('dues-batch:start') }, async (req) => {
    const caller = await callerOf(req);
    await startBatch(dues, batchId(req.params), caller.actor);
    return getBatch(dues, caller, batchId(req.params));
  });

  app.post('/api/dues/batches/:id/close', { config: perm('dues-batch:close') }, async (req) => {
    const caller = await callerOf(req);
    await closeBatch(dues, batchId(req.params), caller.actor);
    return getBatch(dues, caller, batchId(req.params));
  });

  app.get('/api/dues/batches/:id/progress', { config: perm('dues-batch:list', 'dues-report:list') }, async (req) => {
    const id = batchId(req.params);
    await batchRow(dues.db, dues, id);
    return batchProgress(dues, await callerOf(req), id, optionalOrg((req.query as { orgId?: string }).orgId));
  });

  app.get('/api/dues/batches/:id/progress/export', { config: perm('dues-report:export', 'dues-batch:list') }, async (req, reply) => {
    const id = batchId(req.params);
    const batch = await batchRow(dues.db, dues, id);
    const nodes = await batchProgress(dues, await callerOf(req), id, optionalOrg((req.query as { orgId?: string }).orgId));
    return sendXlsx(reply, progressWorkbook(batch.title, nodes), `${batch.title}收缴情况.xlsx`);
  });

  app.get('/api/dues/batches/:id/items', { config: perm('dues-batch:list', 'dues-onsite:list') }, async (req) => {
    const id = batchId(req.params);
    await batchRow(dues.db, dues, id);
    const q = req.query as { orgId?: string; status?: string; name?: string };
    return listItems(dues, await callerOf(req), id, { orgId: optionalOrg(q.orgId), status: q.status || undefined, name: q.name?.trim() || undefined, ...pageParams(req.query) });
  });

  app.get('/api/dues/batches/:id/log', { config: perm('dues-batch:list') }, async (req) => batchLog(dues, await callerOf(req), batchId(req.params)));

  app.post('/api/dues/batches/:id/report', { config: perm('dues-batch:report') }, async (req) => {
    const body = (req.body ?? {}) as { orgId?: unknown; comment?: unknown };
    const orgId = idParam(body.orgId, '请选择上报的党组织');
    const comment = typeof body.comment === 'string' ? body.comment.trim().slice(0, 200) : '';
    const caller = await callerOf(req);
    await reportBatch(dues, caller, batchId(req.params), orgId, comment);
    return batchProgress(dues, caller, batchId(req.params), orgId);
  });

  app.post('/api/dues/batches/:id/deferrals', { config: perm('dues-batch:defer') }, async (req) => {
    const deferred = await deferItems(dues, await callerOf(req), batchId(req.params), (req.body ?? {}) as never);
    return { status: 200, message: `已登记${deferred}人缓交`, deferred };
  });

  app.delete('/api/dues/batches/:id/deferrals', { config: perm('dues-batch:defer') }, async (req) => {
    const removed = await undeferItems(dues, await callerOf(req), batchId(req.params), ((req.body ?? {}) as { itemIds?: number[] }).itemIds ?? []);
    return { status: 200, message: `已撤销${removed}人的缓交登记`, removed };
  });

  app.get('/api/dues/batches/:id/adjustments', { config: perm('dues-batch:list') }, async (req) => listAdjustments(dues, await callerOf(req), batchId(req.params)));

  app.post('/api/dues/batches/:id/adjustments', { config: perm('dues-batch:adjust') }, async (req, reply) => {
    const id = await addCorrection(dues, await callerOf(req), batchId(req.params), (req.body ?? {}) as never);
    return reply.code(201).send({ id });
  });

  // 免交: closed months of a member exempted with the committee's approval (中组发〔2008〕3号 第七条).
  app.post('/api/dues/members/:id/waivers', { config: perm('dues-batch:adjust') }, async (req) => {
    const waived = await waiveMonths(dues, await callerOf(req), idParam((req.params as { id: string }).id, '党员编号不正确'), (req.body ?? {}) as never);
    return { status: 200, message: `已登记${waived}个月免交`, waived };
  });

  app.delete('/api/dues/adjustments/:id', { config: perm('dues-batch:adjust') }, async (req) => {
    await removeAdjustment(dues, await callerOf(req), idParam((req.params as { id: string }).id, '调整记录编号不正确'));
    return { status: 200, message: '已撤销调整' };
  });
}

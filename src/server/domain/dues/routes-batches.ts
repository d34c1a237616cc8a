import type { FastifyInstance } from 'fastify';
import { perm } from '../../core/auth/guard.js';
import type { SessionUser } from '../../core/auth/session-user.js';
import type { Runtime } from '../../runtime/index.js';
import type { ProgressNode } from '../../../shared/dues/api.js';
import { sendXlsx } from '../../core/xlsx.js';
import { addCorrection, listAdjustments, removeAdjustment } from './adjustments.js';
import { deferItems, undeferItems } from './batch-reports.js';
import { batchLog, batchRow, getBatch, listBatches } from './batches.js';
import { callerOf, idParam, pageParams, type Dues } from './context.js';
import { waiveMonths } from './waivers.js';
import { listItems } from './items.js';
import { batchProgress } from './progress.js';
import { progressWorkbook } from './reports.js';

const batchId = (params: unknown) => idParam((params as { id: string }).id, '收费批次编号不正确');
const optionalOrg = (value: unknown) => idParam(value, '所选党组织不正确', true);

/**
 * Fee batches (menu 收费批次管理): the batch with its progress as the caller sees it, its members, log,
 * deferrals and adjustments. The batch itself is the module dues-batch: created, deleted and moved through
 * its states (配置, 开始收缴, 上报, 关闭) by the runtime's API (`/api/m/dues-batch`, its transitions).
 */
export function batchRoutes(app: FastifyInstance, dues: Dues): void {
  app.get('/api/dues/batches', { config: perm('dues-batch:list', 'dues-onsite:list', 'dues-report:list') }, async (req) => {
    const q = req.query as { year?: string; state?: string };
    return listBatches(dues, await callerOf(req), { year: q.year ? Number(q.year) || undefined : undefined, state: q.state ? Number(q.state) || undefined : undefined });
  });

  app.get('/api/dues/batches/:id', { config: perm('dues-batch:list', 'dues-onsite:list', 'dues-report:list') }, async (req) => getBatch(dues, await callerOf(req), batchId(req.params)));

  app.get('/api/dues/batches/:id/progress', { config: perm('dues-batch:list', 'dues-report:list') }, async (req) => {
    const id = batchId(req.params);
    await batchRow(dues.db, dues, id);
    const caller = await callerOf(req);
    return markReportable(req.server.runtime, id, await batchProgress(dues, caller, id, optionalOrg((req.query as { orgId?: string }).orgId)), caller.user);
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

/** Marks the unreported branches and committees the caller may take 上报 for now (the engine decides, as it would on the step). */
async function markReportable(runtime: Runtime, batchId: number, nodes: ProgressNode[], user: SessionUser): Promise<ProgressNode[]> {
  const m = runtime.module('dues-batch');
  const open: ProgressNode[] = [];
  const walk = (list: ProgressNode[]): void => {
    for (const n of list) {
      if ((n.level === 'branch' || n.level === 'committee') && !n.report) open.push(n);
      walk(n.children ?? []);
    }
  };
  walk(nodes);
  if (!m || !open.length) return nodes;
  const actable = await runtime.workflows.actableFor(m, batchId, 'report', open.map((n) => n.orgId), user);
  for (const n of open) n.canReport = actable.has(n.orgId);
  return nodes;
}

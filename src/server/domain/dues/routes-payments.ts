import type { FastifyInstance } from 'fastify';
import { PUBLIC, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import { branchStanding, remindBehind } from './branch-standing.js';
import { callerOf, coveredOrgs, idParam, pageParams, type Dues } from './context.js';
import { onsiteMembers } from './items.js';
import { myDues, myMember } from './my-dues.js';
import { activeProvider, completeOrder, createOrder, notifyOrder, ownOrder, simulatorProvider } from './online.js';
import { listPayments, payOnSite, receipts, reversePayment } from './payments.js';
import { yearParam } from './standards.js';

const optionalId = (value: unknown, message: string) => idParam(value, message, true);

/** On-site payment (menu 现场缴费), receipts, and the member's own dues with online payment (我的党费). */
export function paymentRoutes(app: FastifyInstance, dues: Dues): void {
  app.get('/api/dues/onsite/members', { config: perm('dues-onsite:list') }, async (req) => {
    const q = req.query as { orgId?: string; name?: string };
    return onsiteMembers(dues, await callerOf(req), { orgId: optionalId(q.orgId, '所选党组织不正确'), name: q.name?.trim() || undefined, ...pageParams(req.query) });
  });

  // 支部党员 on the mobile terminal (issue 31): the branch's members with their standing; 提醒缴费 for those behind.
  app.get('/api/dues/branch/members', { config: perm('dues-onsite:list') }, async (req) => {
    const q = req.query as { orgId?: string; behind?: string };
    return branchStanding(dues, await callerOf(req), { orgId: optionalId(q.orgId, '所选党组织不正确'), behind: q.behind === 'true', ...pageParams(req.query) });
  });

  app.post('/api/dues/branch/remind', { config: perm('dues-onsite:remind') }, async (req) => remindBehind(dues, await callerOf(req), req.body));

  app.post('/api/dues/payments', { config: perm('dues-onsite:pay') }, async (req, reply) => {
    const caller = await callerOf(req);
    return reply.code(201).send(await payOnSite(dues, { actor: caller.actor, scope: caller.scope }, req.body));
  });

  app.get('/api/dues/payments', { config: perm('dues-onsite:list') }, async (req) => {
    const q = req.query as { orgId?: string; memberId?: string; batchId?: string };
    const covered = await coveredOrgs(dues, await callerOf(req), optionalId(q.orgId, '所选党组织不正确'));
    return listPayments(dues, covered, { memberId: optionalId(q.memberId, '党员编号不正确'), batchId: optionalId(q.batchId, '收费批次编号不正确'), ...pageParams(req.query) });
  });

  app.get('/api/dues/payments/:id', { config: perm('dues-onsite:list') }, async (req) => {
    const caller = await callerOf(req);
    const [receipt] = await receipts(dues, [idParam((req.params as { id: string }).id, '缴费记录编号不正确')]);
    if (!receipt || (caller.scope !== 'all' && !caller.scope.includes(receipt.orgId))) throw new HttpError(404, '缴费记录不存在');
    return receipt;
  });

  app.post('/api/dues/payments/:id/reverse', { config: perm('dues-onsite:reverse') }, async (req) => {
    const caller = await callerOf(req);
    return reversePayment(dues, { actor: caller.actor, scope: caller.scope }, idParam((req.params as { id: string }).id, '缴费记录编号不正确'), (req.body as { reason?: unknown } | undefined)?.reason);
  });

  // ---------------------------------------------------------------- the member's own dues

  app.get('/api/dues/my', { config: perm('dues-my:list') }, async (req) => {
    const year = (req.query as { year?: string }).year;
    return myDues(dues, (await callerOf(req)).user.id, year ? yearParam(year) : new Date().getFullYear());
  });

  app.get('/api/dues/my/receipts/:id', { config: perm('dues-my:list') }, async (req) => {
    const member = await myMember(dues, (await callerOf(req)).user.id);
    const [receipt] = await receipts(dues, [idParam((req.params as { id: string }).id, '缴费记录编号不正确')]);
    if (!receipt || receipt.memberId !== member.id) throw new HttpError(404, '缴费记录不存在');
    return receipt;
  });

  app.post('/api/dues/my/orders', { config: perm('dues-my:list') }, async (req, reply) => {
    const caller = await callerOf(req);
    const member = await myMember(dues, caller.user.id);
    return reply.code(201).send(await createOrder(dues, caller.user.id, member.id, (req.body ?? {}) as never));
  });

  app.get('/api/dues/my/orders/:id', { config: perm('dues-my:list') }, async (req) =>
    ownOrder(dues, (await callerOf(req)).user.id, idParam((req.params as { id: string }).id, '订单编号不正确')),
  );

  // The simulator's payment page confirms (or cancels) here, standing in for the gateway's notification:
  // only where an administrator chose the simulator (the demo), and only for the simulator's orders.
  app.post('/api/dues/pay/simulator/:orderId', { config: perm('dues-my:list') }, async (req) => {
    if ((await activeProvider(dues)) !== simulatorProvider) throw new HttpError(404, '模拟支付未启用');
    const caller = await callerOf(req);
    const orderId = idParam((req.params as { orderId: string }).orderId, '订单编号不正确');
    if ((await ownOrder(dues, caller.user.id, orderId)).provider.id !== simulatorProvider.id) throw new HttpError(404, '订单不存在');
    const result = (req.body as { result?: unknown } | undefined)?.result;
    if (result !== 'success' && result !== 'fail') throw new HttpError(400, '支付结果只能是 success 或 fail');
    return completeOrder(dues, orderId, result);
  });

  // A payment provider's notification: public (the gateway calls it), trusted only by its signature.
  app.post('/api/dues/pay/notify/:provider', { config: PUBLIC }, async (req) =>
    notifyOrder(dues, (req.params as { provider: string }).provider, { headers: req.headers, body: req.body }),
  );
}

/**
 * 规则参数 (issue 42): the registry's parameters with their values in force, an administrator's change
 * (validated, with a reason and the day it takes effect) and each parameter's history. A change is
 * announced on the invalidation bus, so every app server reads it at once, without a restart.
 */
import type { FastifyInstance } from 'fastify';
import { currentUser, perm } from '../../core/auth/guard.js';
import { HttpError } from '../../errors.js';
import type { Runtime } from '../index.js';
import { RULE_PARAMS_TOPIC } from './registry.js';

export const RULE_PARAM_LIST = 'rule-param:list';
export const RULE_PARAM_EDIT = 'rule-param:edit';

export function ruleParamRoutes(app: FastifyInstance, runtime: Runtime): void {
  const params = runtime.params;
  // Another server changed a value: forget the cached changes here too.
  app.services.invalidations.on(RULE_PARAMS_TOPIC, () => params.invalidate());
  params.announce = () => app.services.invalidations.invalidate(RULE_PARAMS_TOPIC);

  const known = (key: string) => {
    const p = params.get(key);
    if (!p) throw new HttpError(400, `规则参数“${key}”不存在`);
    return p;
  };

  app.get('/api/rule-params', { config: perm(RULE_PARAM_LIST) }, async () => {
    const snapshot = await params.snapshot();
    return Promise.all(params.list().map((p) => params.describe(p, snapshot)));
  });

  app.get('/api/rule-params/:key', { config: perm(RULE_PARAM_LIST) }, async (req) => {
    const p = known((req.params as { key: string }).key);
    const date = (req.query as { date?: string }).date;
    if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new HttpError(400, '日期格式不正确（YYYY-MM-DD）');
    const snapshot = await params.snapshot();
    const described = await params.describe(p, snapshot);
    if (!date) return described;
    const on = snapshot.valueOn(p.key, date);
    return { ...described, date, valueOn: on.value, sourceOn: on.source };
  });

  app.put('/api/rule-params/:key', { config: perm(RULE_PARAM_EDIT) }, async (req) => {
    const key = (req.params as { key: string }).key;
    const body = (req.body ?? {}) as { value?: unknown; reason?: unknown; effectiveFrom?: unknown };
    if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, '请求内容格式不正确');
    const user = currentUser(req);
    const change = await params.set(key, body, { id: user.id, name: user.nickName || user.username });
    return { ...(await params.describe(known(key), await params.snapshot())), change };
  });

  app.get('/api/rule-params/:key/history', { config: perm(RULE_PARAM_LIST) }, async (req) => {
    const p = known((req.params as { key: string }).key);
    return params.history(p.key);
  });
}

/**
 * The workflow API of a module with x-workflow (docs/schema.md, "Workflow API"):
 * - `GET  /api/m/{id}/{recordId}/transitions`           the steps the caller may take now
 * - `POST /api/m/{id}/{recordId}/transitions/{step}`    `{ version, comment, values }` → the record (+ warnings)
 * - `POST /api/m/{id}/transitions/{step}`               `{ ids, comment, values? }` → per record: done or why not
 * - `GET  /api/m/{id}/{recordId}/approvals`             the approval log, oldest first
 * and `"$waiting": true` in the body of `POST /api/m/{id}/list` (records waiting for the caller);
 * - `GET  /api/workflow/waiting`                        every module's records waiting for the caller (the mobile 待审批)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOGIN, currentUser, perm } from '../../core/auth/guard.js';
import { hasAnyPermission } from '../../core/auth/session-user.js';
import type { SessionUser } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import type { Runtime } from '../index.js';
import type { RuntimeModule } from '../module.js';
import type { Condition } from '../query.js';

/** The key of the list body that asks for the records waiting for the caller. */
export const WAITING_KEY = '$waiting';

function recordId(raw: unknown, m: RuntimeModule): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, `${m.title}记录不存在`);
  return id;
}

/** Splits `$waiting` off a list body: the filter object for the runtime, and the extra condition. */
export async function listWaiting(runtime: Runtime, m: RuntimeModule, body: unknown, user: SessionUser): Promise<{ filter: unknown; conditions: Condition[] }> {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !(WAITING_KEY in body)) return { filter: body, conditions: [] };
  const { [WAITING_KEY]: waiting, ...filter } = body as Record<string, unknown>;
  if (!m.workflow) throw new HttpError(400, `${m.title}没有审批流程，不能按“待我审批”筛选`, { errors: [{ field: WAITING_KEY, message: '该模块没有审批流程' }] });
  if (waiting !== true && waiting !== false && waiting !== null && waiting !== 'later') throw new HttpError(400, '“待我审批”的筛选值不正确', { errors: [{ field: WAITING_KEY, message: '应为 true、false 或 "later"' }] });
  // `later`: records whose next step for the caller waits on a date (`notBefore`), 待到期.
  if (waiting === 'later') return { filter, conditions: [await runtime.workflows.waitingCondition(m, user, 'later')] };
  return { filter, conditions: waiting === true ? [await runtime.workflows.waitingCondition(m, user)] : [] };
}

export function workflowRoutes(app: FastifyInstance, runtime: Runtime, m: RuntimeModule): void {
  const wf = m.workflow;
  if (!wf) return;
  const base = `/api/m/${m.id}`;
  const engine = runtime.workflows;
  // The route admits anyone holding one of the steps' permissions; the step's own is checked inside.
  const stepPermissions = perm(...new Set([...wf.transitions.values()].map((t) => t.permission)));
  const ipOf = (req: FastifyRequest) => req.ip ?? null;

  app.get(`${base}/:id/transitions`, { config: perm(m.permissions.view) }, async (req) =>
    engine.open(m, recordId((req.params as { id: string }).id, m), currentUser(req)),
  );

  app.get(`${base}/:id/approvals`, { config: perm(m.permissions.view) }, async (req) =>
    engine.approvals(m, recordId((req.params as { id: string }).id, m), currentUser(req)),
  );

  app.post(`${base}/:id/transitions/:transition`, { config: stepPermissions }, async (req) => {
    const params = req.params as { id: string; transition: string };
    return engine.take(m, recordId(params.id, m), params.transition, req.body, currentUser(req), ipOf(req));
  });

  app.post(`${base}/transitions/:transition`, { config: stepPermissions }, async (req) =>
    engine.batch(m, (req.params as { transition: string }).transition, req.body, currentUser(req), ipOf(req)),
  );
}

/** How many records of each module `GET /api/workflow/waiting` lists (the total says how many more wait). */
const WAITING_PAGE = 20;

export interface WaitingModule {
  module: string;
  title: string;
  total: number;
  records: { id: number; name: string; state: number | null; stateTitle: string }[];
}

/**
 * The records waiting for the caller in every `x-workflow` module they may list and act in, one answer for
 * all (a phone on a slow network makes one request, not one per module). Modules with none are left out.
 */
export function waitingRoutes(app: FastifyInstance, runtime: Runtime): void {
  app.get('/api/workflow/waiting', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    const actor = await runtime.actorOf(user);
    const answer: WaitingModule[] = [];
    for (const m of runtime.registry.list()) {
      const wf = m.workflow;
      if (!wf || !hasAnyPermission(user, [m.permissions.list]) || !wf.waitingSteps().some((t) => hasAnyPermission(user, [t.permission]))) continue;
      const page = await runtime.records(m.id).list({ conditions: [await runtime.workflows.waitingCondition(m, user)], query: { page: 0, size: WAITING_PAGE, count: true } }, actor);
      if (!page.totalElements) continue;
      answer.push({
        module: m.id,
        title: m.title,
        total: page.totalElements,
        records: page.content.map((r) => {
          const state = (r[wf.stateField.name] as number | null | undefined) ?? null;
          const name = m.nameField ? r[m.nameField.name] : undefined;
          return { id: r.id as number, name: typeof name === 'string' && name ? name : `${m.title} ${r.id as number}`, state, stateTitle: state === null ? '' : wf.stateTitle(state) };
        }),
      });
    }
    return answer;
  });
}

/**
 * A member's whole life in the party (issue 41, docs/member-lifecycle.md): discipline, leaving the party,
 * 停止/恢复党籍, members abroad, graduates kept, the graduation wave, the yearly change table. The hooks,
 * guards and effects the lifecycle schemas name, and the area's endpoints. A route plugin of src/server/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { registerHook, type HookContext, type WriteHookContext } from '../../runtime/index.js';
import { disciplineHook, fromMemberHook, lastContactHook, quitEvidenceHook } from './hooks.js';
import { registerGraduateBatch } from './graduate-batch.js';
import { registerLifecycleProcess } from './process.js';
import { lifecycleRoutes } from './routes.js';

export { onRosterSql } from '../member/members.js';

export async function lifecycleArea(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const onWrite = (fn: (ctx: WriteHookContext) => Promise<void>) => (ctx: HookContext) => (ctx.action === 'delete' ? undefined : fn(ctx));
  const lostContactModules = () => ({ transferIn: runtime.module('transfer-in'), floating: runtime.module('floating') });
  const maxYears = () => Number(runtime.module('member-discipline')?.workflow?.params.maxProbationYears ?? 2);
  registerHook('lifecycle.fromMember', onWrite(fromMemberHook));
  registerHook('lifecycle.discipline', onWrite(disciplineHook(maxYears)));
  registerHook('lifecycle.quitEvidence', onWrite(quitEvidenceHook));
  registerHook('lifecycle.lastContact', onWrite(lastContactHook(lostContactModules)));
  registerLifecycleProcess(lostContactModules);
  registerGraduateBatch(() => runtime.ctx.registry.list(), () => runtime.ctx.school, (id) => runtime.module(id));
  if (runtime.module('member')) await lifecycleRoutes(app);
}

/**
 * Transfers of organisational relations and floating members (组织关系转接, 流动党员, docs/transfers.md):
 * the write hooks, workflow guards and effects the transfer schemas name, the reminders, and the area's
 * endpoints. A route plugin of src/server/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { registerHook, type HookContext, type WriteHookContext } from '../../runtime/index.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { schedulePeriodic } from '../schedule.js';
import { registerTransferEffects } from './effects.js';
import { registerTransferGuards } from './guards.js';
import { TRANSFER_MODULES, contactOrgHook, draftOnlyHook, floatingMemberHook, fromMemberHook, incomingLetterHook } from './hooks.js';
import { sendTransferReminders } from './reminders.js';
import { transferRoutes } from './routes.js';

export { setDuesSources, type DuesStanding, type DuesStatusSource, type LapseCandidate, type LapseCandidateSource } from './dues-source.js';
export { sendTransferReminders } from './reminders.js';

export async function transferArea(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const module = (id: string) => runtime.module(id);
  const modulesOf = (ids: string[]) => ids.map(module).filter((m): m is RuntimeModule => !!m);
  const onWrite = (fn: (ctx: WriteHookContext) => Promise<void>) => (ctx: HookContext) => (ctx.action === 'delete' ? undefined : fn(ctx));
  registerHook('transfer.fromMember', onWrite(fromMemberHook(() => modulesOf(TRANSFER_MODULES))));
  registerHook('transfer.incomingLetter', onWrite(incomingLetterHook()));
  registerHook('transfer.floatingMember', onWrite(floatingMemberHook(() => module('floating'))));
  registerHook('transfer.contactOrg', onWrite(contactOrgHook()));
  registerHook('transfer.draftOnly', draftOnlyHook());
  registerTransferGuards();
  registerTransferEffects(() => runtime.ctx.school);
  if (!module('member') || !module('org')) return;
  const stop = schedulePeriodic('transfer reminders', () => sendTransferReminders({ runtime, db: app.services.database.db, messages: app.services.messages }), app.log);
  app.addHook('onClose', async () => stop());
  await transferRoutes(app);
}

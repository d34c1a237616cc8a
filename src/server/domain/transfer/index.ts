/**
 * Transfers of organisational relations and floating members (组织关系转接, 流动党员, docs/transfers.md):
 * the write hooks, workflow guards and effects the transfer schemas name, the reminders, and the area's
 * endpoints. A route plugin of src/server/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { registerHook, type HookContext, type Runtime, type WriteHookContext } from '../../runtime/index.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { registerTransferEffects } from './effects.js';
import { registerTransferGuards } from './guards.js';
import { TRANSFER_MODULES, contactOrgHook, floatingMemberHook, fromMemberHook, incomingLetterHook } from './hooks.js';
import { transferRoutes } from './routes.js';
import { addDays, isDate } from '../../../shared/calendar.js';
import { registerReminderDate } from '../../runtime/reminders/model.js';

/** 介绍信回执: due the day the letter's validity ends (issue date + validDays, the letter's own 有效期至). */
registerReminderDate('transfer.letterExpiry', (r) => (isDate(r.issueDate) ? addDays(r.issueDate, Number(r.validDays ?? 30)) : null));

export { setDuesSources, type DuesStanding, type DuesStatusSource, type LapseCandidate, type LapseCandidateSource } from './dues-source.js';
/** Recomputes the transfer reminders (x-reminders of transfer-out and floating) as of `today` and sends what is due; answers how many were sent. */
export const sendTransferReminders = (services: { runtime: Runtime }, today?: string): Promise<number> => services.runtime.reminders.run({ modules: ['transfer-out', 'floating'], today });

export async function transferArea(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const module = (id: string) => runtime.module(id);
  const modulesOf = (ids: string[]) => ids.map(module).filter((m): m is RuntimeModule => !!m);
  const onWrite = (fn: (ctx: WriteHookContext) => Promise<void>) => (ctx: HookContext) => (ctx.action === 'delete' ? undefined : fn(ctx));
  registerHook('transfer.fromMember', onWrite(fromMemberHook(() => modulesOf(TRANSFER_MODULES))));
  registerHook('transfer.incomingLetter', onWrite(incomingLetterHook()));
  registerHook('transfer.floatingMember', onWrite(floatingMemberHook(() => module('floating'))));
  registerHook('transfer.contactOrg', onWrite(contactOrgHook()));
  registerTransferGuards();
  registerTransferEffects(() => runtime.ctx.school);
  if (!module('member') || !module('org')) return;
  await transferRoutes(app);
}

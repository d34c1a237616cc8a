/**
 * Elections (换届选举, 党代会, 党代表选举; 中国共产党基层组织选举工作条例, 2020): the `election` workflow's
 * guards and effects, the terms of organisations (`org-term`), the area's endpoints. The counting is the pure
 * function of src/shared/ballot.ts. docs/elections.md. A route plugin of src/server/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import './workflow.js';
import './congress.js';
import { documentRoutes } from './documents.js';
import { electionRoutes } from './routes.js';
import { registerTermHooks } from './terms.js';

/** Recomputes the term reminders (x-reminders of org-term) as of `today` and sends what is due. */
export const sendTermReminders = (app: FastifyInstance, today?: string): Promise<number> => app.runtime.reminders.run({ modules: ['org-term'], today });

export async function electionArea(app: FastifyInstance): Promise<void> {
  registerTermHooks(app.runtime);
  if (!app.runtime.module('election') || !app.runtime.module('org')) return;
  await electionRoutes(app);
  await documentRoutes(app);
}

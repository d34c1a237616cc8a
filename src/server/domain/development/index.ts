/**
 * The development of new party members (发展党员, 《中国共产党发展党员工作细则》): the `development` module's
 * workflow guards and effects, the hooks of its modules, reminders and the pages' routes. Importing this
 * file registers the guards, effects and hooks the schemas name (the start refuses a missing one).
 */
import type { FastifyInstance } from 'fastify';
import './guards.js';
import './effects.js';
import './identify.js';
import './book-numbers.js';
import { developmentRoutes } from './routes.js';
import { myDevelopmentRoutes } from './mine.js';

export { registerTrainingSource, type TrainingSource } from './training-source.js';
export { developmentCandidates } from './candidates.js';
/** Recomputes the development reminders (x-reminders of its schema) as of `today` and sends what is due; answers how many were sent. */
export const sendDevelopmentReminders = (app: FastifyInstance, today?: string): Promise<number> => app.runtime.reminders.run({ modules: ['development'], today });

/** The area's routes (a route plugin of src/server/routes.ts); its reminders are the runtime's (x-reminders). */
export async function developmentArea(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module('development')) return;
  await developmentRoutes(app);
  await myDevelopmentRoutes(app);
}

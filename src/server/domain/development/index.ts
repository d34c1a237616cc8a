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
import { scheduleDevelopmentReminders } from './reminders.js';
import { developmentRoutes } from './routes.js';

export { registerTrainingSource, type TrainingSource } from './training-source.js';
export { developmentCandidates } from './candidates.js';
export { sendDevelopmentReminders } from './reminders.js';

/** The area's routes and its reminder schedule (a route plugin of src/server/routes.ts). */
export async function developmentArea(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module('development')) return;
  await developmentRoutes(app);
  const stop = scheduleDevelopmentReminders(app);
  app.addHook('onClose', async () => stop());
}

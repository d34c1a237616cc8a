/**
 * Members' daily management and evaluation (党员日常管理、评议与考核; docs/organisation-life.md): rewards and
 * punishments, talks, assistance, points, duty reports, assessment plans, weak organisations and appraisal.
 * Importing this file registers the hooks, guards and effects the schemas name (the start refuses a missing one).
 */
import type { FastifyInstance } from 'fastify';
import './hooks.js';
import './guards.js';
import { evaluationRoutes } from './routes.js';

export { registerQuarterCompliance, type QuarterCompliance } from './read.js';

/** The area's routes (a route plugin of src/server/routes.ts). */
export async function evaluationArea(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module('member-talk')) return;
  await evaluationRoutes(app);
}

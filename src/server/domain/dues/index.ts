/**
 * Party dues (党费收缴, 中组发〔2008〕3号): standards (module dues-standard and its hook), fee batches
 * and their states, payments, online payment, reports. For other areas: duesStatusOf / duesStatusesOf
 * ("is anything unpaid", "paid up to which month") and lapseCandidates (the 自行脱党 list) in status.ts.
 */
import type { FastifyInstance } from 'fastify';
import { registerBatchWorkflow } from './batch-workflow.js';
import { duesOf } from './context.js';
import { batchRoutes } from './routes-batches.js';
import { paymentRoutes } from './routes-payments.js';
import { reportRoutes } from './routes-reports.js';
import { standardRoutes } from './routes-standards.js';
import { registerStandardHook } from './standard-hook.js';

export { duesStatusOf, duesStatusesOf, lapseCandidates, type DuesStatus, type LapseCandidate } from './status.js';
export { yearFigures, type YearFiguresRow } from './year-figures.js';

export async function duesRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  if (!runtime.module('dues-standard') || !runtime.module('member') || !runtime.module('org')) return;
  registerStandardHook(app.services.appConfig.school, runtime);
  const dues = duesOf(app);
  registerBatchWorkflow(dues);
  standardRoutes(app, dues);
  batchRoutes(app, dues);
  paymentRoutes(app, dues);
  reportRoutes(app, dues);
}

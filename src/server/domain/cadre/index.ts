/**
 * Cadres (干部管理, docs/cadres.md): the cadre base with its nine kinds of records, leadership teams,
 * staffing and the six cadre reminders, on the schema runtime. Importing this file registers the hooks
 * and reminder dates the schemas name (the start refuses a missing one); each part of the area that
 * needs registering is imported here, one line each.
 */
import type { FastifyInstance } from 'fastify';
import './base.js';
import './resume.js';
import './staffing.js';
import './teams.js';
import './reminders.js';
import './abroad.js';
import './reserve.js';
import './supervision.js';
import './unit-post.js';
import './dispatch.js';
import { useRuntimeForDispatch } from './dispatch.js';
import { useRuntimeForSupervision } from './supervision.js';
import { pushBaseRefresh } from './base.js';
import { cadreRoutes } from './routes.js';
import { selectionArea } from './appointment-area.js';

export { staffingCheck, refreshStaffing, type StaffingCheck } from './staffing.js';
export { RULE_STAFFING } from './rules.js';

/** The area's routes (a route plugin of src/server/routes.ts). */
export async function cadreArea(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module('cadre')) return;
  pushBaseRefresh(app);
  useRuntimeForDispatch(app.runtime);
  useRuntimeForSupervision(app.runtime);
  await cadreRoutes(app);
  await selectionArea(app);
}

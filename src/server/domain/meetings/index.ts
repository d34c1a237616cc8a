/**
 * Organisation life (组织生活, issue 27): the `meeting` module's quorum hook, the compliance of the
 * declared frequencies and its routes. Importing this file registers the hooks the schemas name.
 * docs/organisation-life.md describes the rules and their settings.
 */
import type { FastifyInstance } from 'fastify';
import './quorum.js';
import './attendance.js';
import { useFrequenciesOf } from './reminders.js';
import { checkFrequencies } from './frequencies.js';
import { meetingRoutes } from './routes.js';
import { checkinRoutes } from './checkin.js';

export { complianceOf, type OrgCompliance, type PeriodCompliance, type ComplianceQuery } from './compliance.js';
export { frequencyRules, type FrequencyRule } from './frequencies.js';

/** The area's routes (a route plugin of src/server/routes.ts). */
export async function meetingsArea(app: FastifyInstance): Promise<void> {
  const m = app.runtime.module('meeting');
  if (!m) return;
  const problems = checkFrequencies(m.workflow?.params.frequencies);
  if (problems.length) throw new Error(`module meeting: ${problems.join('; ')}`);
  useFrequenciesOf(m);
  await meetingRoutes(app);
  await checkinRoutes(app);
}

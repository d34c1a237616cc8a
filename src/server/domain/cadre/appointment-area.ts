/**
 * The selection, assessment and analysis part of the cadre area (选拔任用, 干部考核, 干部队伍结构分析, 干部绩效分析,
 * 任免审批表): importing it registers the appointment workflow's guards and effects and the assessment cap;
 * `selectionArea` adds the routes. Registered from the area's index.ts.
 */
import type { FastifyInstance } from 'fastify';
import './appointment.js';
import './appointment-checks.js';
import { assessmentRoutes } from './assessment.js';
import { cadreAnalysisRoutes } from './analysis.js';
import { lrmxRoutes } from './lrmx.js';

export async function selectionArea(app: FastifyInstance): Promise<void> {
  await cadreAnalysisRoutes(app);
  await assessmentRoutes(app);
  await lrmxRoutes(app);
}

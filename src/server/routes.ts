import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './core/auth/routes.js';
import { dictRoutes } from './core/dicts/routes.js';
import { fileRoutes } from './core/files/routes.js';
import { menuRoutes } from './core/menus/routes.js';
import { messageRoutes } from './core/messages/routes.js';
import { miscRoutes } from './core/misc-routes.js';
import { roleRoutes } from './core/roles/routes.js';
import { runtimeRoutes } from './runtime/routes.js';
import { reminderRoutes } from './runtime/reminders/routes.js';
import { memberAnalysisRoutes } from './domain/member/analysis.js';
import { memberLookupRoutes } from './domain/member/lookups.js';
import { memberRosterRoutes } from './domain/member/roster.js';
import './domain/member/hooks.js';
import { memberSelfRoutes } from './domain/member/me.js';
import { orgRoutes } from './domain/org/routes.js';
import { duesRoutes } from './domain/dues/index.js';
import { pschoolRoutes } from './domain/pschool/index.js';
import { transferArea } from './domain/transfer/index.js';
import { lifecycleArea } from './domain/lifecycle/index.js';
import { developmentArea } from './domain/development/index.js';
import { calendarArea } from './domain/calendar/index.js';
import { formsArea } from './domain/forms/index.js';
import { statisticsArea } from './domain/statistics/index.js';
import { jobRoutes } from './runtime/jobs.js';
import { electionArea } from './domain/elections/index.js';
import { cadreArea } from './domain/cadre/index.js';
import { ukeyPlugin } from './domain/cadre/ukey.js';
import { evaluationArea } from './domain/evaluation/index.js';
import { meetingsArea } from './domain/meetings/index.js';
import { workArea } from './domain/work/index.js';
import { templateRoutes } from './domain/templates/index.js';
import { sysConfigRoutes } from './core/sysconfig/routes.js';
import { userRoutes } from './core/users/routes.js';

/**
 * Every route module of the server, registered in this order. Each receives `app.services` and declares
 * a permission on every route (see core/auth/guard.ts). Add a module here with one line.
 */
export const routePlugins: FastifyPluginAsync[] = [
  miscRoutes, // first: its route index (/doc.html) sees the routes registered after it
  ukeyPlugin, // second: its hook (the cadre uKey, issue 38.9) guards the routes of every later plugin
  authRoutes,
  userRoutes,
  roleRoutes,
  menuRoutes,
  sysConfigRoutes,
  dictRoutes,
  messageRoutes,
  fileRoutes,
  runtimeRoutes,
  reminderRoutes,
  jobRoutes,
  calendarArea,
  formsArea,
  orgRoutes,
  memberLookupRoutes,
  memberAnalysisRoutes,
  memberRosterRoutes,
  memberSelfRoutes,
  duesRoutes,
  pschoolRoutes,
  transferArea,
  lifecycleArea,
  developmentArea,
  cadreArea,
  statisticsArea,
  electionArea,
  evaluationArea,
  meetingsArea,
  workArea,
  templateRoutes,
];

import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './core/auth/routes.js';
import { roleRoutes } from './core/roles/routes.js';
import { userRoutes } from './core/users/routes.js';

/**
 * Every route module of the server, registered in this order. Each receives `app.services` and declares
 * a permission on every route (see core/auth/guard.ts). Add a module here with one line.
 */
export const routePlugins: FastifyPluginAsync[] = [
  authRoutes,
  userRoutes,
  roleRoutes,
];

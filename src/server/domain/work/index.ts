/**
 * Work management (工作管理; docs/work.md): work batches, tasks, other reports and documents are module schemas;
 * importing this file registers the guards their workflows name (the start refuses a missing one).
 * Readers download documents through documents.ts.
 */
import type { FastifyInstance } from 'fastify';
import './guards.js';
import { documentRoutes } from './documents.js';

/** The area's routes (a route plugin of src/server/routes.ts) beyond the modules' own API: 文件下载 for readers. */
export async function workArea(app: FastifyInstance): Promise<void> {
  if (!app.runtime.module('document')) return;
  await documentRoutes(app);
}

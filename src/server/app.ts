import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { HttpError, STATUS_MESSAGES } from './errors.js';
import { registerWebApp } from './web-static.js';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST_DIR = path.join(ROOT_DIR, 'dist', 'web');

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    config: AppConfig;
  }
}

export interface BuildOptions {
  config: AppConfig;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  webDir?: string;
}

const OVERRIDABLE = new Set(['PUT', 'DELETE', 'PATCH']);

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: options.config.logLevel },
    trustProxy: true,
    bodyLimit: 10 * 1024 * 1024,
    // Production clients send PUT and DELETE as POST with X-HTTP-Method-Override (spec section 7).
    rewriteUrl(req) {
      const override = req.headers['x-http-method-override'];
      if (req.method === 'POST' && typeof override === 'string' && OVERRIDABLE.has(override.toUpperCase())) {
        req.method = override.toUpperCase();
      }
      return req.url ?? '/';
    },
  });
  app.decorate('database', options.database);
  app.decorate('config', options.config);
  // Graceful shutdown: answers sent while closing end their keep-alive connection, so the server stops
  // as soon as the requests in flight are done instead of waiting for idle sockets to time out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await options.database.close();
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, req, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ status: error.statusCode, message: error.message, ...error.details });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    const message = error.validation ? STATUS_MESSAGES[400] : (STATUS_MESSAGES[status] ?? STATUS_MESSAGES[500]);
    return reply.code(status).send({ status, message });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ status: 404, message: STATUS_MESSAGES[404], path: req.url.split('?')[0] }),
  );

  app.get('/api/health', async (_req, reply) => {
    try {
      await sql`SELECT 1`.execute(options.database.db);
      return { status: 'UP', db: 'UP', kind: options.database.kind };
    } catch {
      return reply.code(503).send({ status: 'DOWN', db: 'DOWN', kind: options.database.kind });
    }
  });

  await registerWebApp(app, options.webDir ?? WEB_DIST_DIR);
  return app;
}

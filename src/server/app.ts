import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import { sql } from 'kysely';
import { trustProxyOption, type AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { authGuard, PUBLIC } from './core/auth/guard.js';
import { outboxSender, type MessageSender } from './core/auth/messages.js';
import { flatOrgTree } from './core/auth/org-scope.js';
import { loadOrCreateKeyPair } from './core/auth/rsa.js';
import { SessionService } from './core/auth/sessions.js';
import { DictService } from './core/dicts/service.js';
import { MenuService } from './core/menus/service.js';
import { InvalidationBus } from './core/cluster/invalidation-bus.js';
import { MessageService } from './core/messages/service.js';
import type { CoreServices } from './core/services.js';
import type { CoreTables } from './core/tables.js';
import type { DictTables } from './core/dicts/tables.js';
import type { FileTables } from './core/files/tables.js';
import type { MenuTables } from './core/menus/tables.js';
import type { MessageTables } from './core/messages/tables.js';
import type { RuntimeTables } from './runtime/tables.js';
import type { PschoolTables } from './domain/pschool/tables.js';
import type { WorkflowTables } from './runtime/workflow/tables.js';
import type { ReminderTables } from './runtime/reminders/tables.js';
import type { TransferTables } from './domain/transfer/tables.js';
import { ConfigStore } from './core/sysconfig/store.js';
import { HttpError, STATUS_MESSAGES, requestValidationErrors } from './errors.js';
import { badValueMessage, cleanInputHook, clientErrorHandler, frameworkErrors } from './input-guard.js';
import { logSerializers } from './log-redact.js';
import { SCHEMAS_DIR, WEB_DIST_DIR } from './paths.js';
import { routePlugins } from './routes.js';
import { wireAreaSeams } from './seams.js';
import { Runtime } from './runtime/index.js';
import { recordFileReadable } from './runtime/file-access.js';
import { installOrgTree } from './domain/org/index.js';

import { registerWebApp } from './web-static.js';

/** The whole database as Kysely sees it: each area's tables, joined here (add an area's interface to the list). */
declare module './db/types.js' {
  interface DB extends CoreTables, DictTables, MenuTables, MessageTables, FileTables, RuntimeTables, WorkflowTables, PschoolTables, TransferTables, ReminderTables {}
}

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
  /** Where schemas (modules, dicts, menus, schools) are read from; tests point it at fixtures. */
  schemasDir?: string;
  /** Replaces the default outbox sender (an SMS provider in production, a spy in tests). */
  sender?: MessageSender;
}

const OVERRIDABLE = new Set(['PUT', 'DELETE', 'PATCH']);

/** The logger options with our serializers last, so no caller's options can log a token in a URL. */
function loggerOptions(given: BuildOptions['logger'], level: AppConfig['logLevel']): FastifyServerOptions['logger'] {
  if (given === false) return false;
  const base = typeof given === 'object' && given ? given : { level };
  return { ...base, serializers: { ...base.serializers, ...logSerializers } };
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(options.logger, options.config.logLevel),
    // Only the configured proxies may name the client in X-Forwarded-For (TRUST_PROXY, off by default).
    trustProxy: trustProxyOption(options.config.trustProxy),
    frameworkErrors,
    clientErrorHandler,
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
    await app.services?.messages.stop();
    await app.services?.invalidations.stop();
    await options.database.close();
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, req, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ status: error.statusCode, message: error.message, ...error.details });
    }
    if (error.validation) {
      const errors = requestValidationErrors(req, error.validation as never);
      return reply.code(400).send({ status: 400, message: errors[0]?.message ?? STATUS_MESSAGES[400], errors });
    }
    const badValue = badValueMessage(error);
    if (badValue) {
      req.log.warn({ err: error }, 'request refused: a value the database cannot take');
      return reply.code(400).send({ status: 400, message: badValue });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ status, message: STATUS_MESSAGES[status] ?? STATUS_MESSAGES[500] });
  });
  app.addHook('preValidation', cleanInputHook);
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ status: 404, message: STATUS_MESSAGES[404], path: req.url.split('?')[0] }));

  // Security headers, built once: @fastify/helmet built Helmet's middleware again on every request
  // (parsing the policy each time, 3% of a list call's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        // The ukey client talks to a local service on the loopback address.
        connectSrc: ["'self'", 'ws:', 'wss:', 'ws://127.0.0.1:10096', 'ws://127.0.0.1:10086'],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (req, reply, done) => securityHeaders(req.raw, reply.raw, (err) => done(err as Error | undefined)));
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, status: 429, message: `请求过于频繁，请${Math.ceil(ctx.ttl / 1000)}秒后再试` }),
  });

  const config = new ConfigStore(options.database);
  const services: CoreServices = {
    appConfig: options.config,
    database: options.database,
    config,
    sessions: new SessionService(options.database, config),
    keys: await loadOrCreateKeyPair(options.database),
    sender: options.sender ?? outboxSender(options.database, app.log),
    orgTree: flatOrgTree,
    dicts: new DictService(options.database),
    messages: new MessageService(options.database),
    invalidations: new InvalidationBus(options.database),
    listPermissionOf: (moduleId) => runtime.module(moduleId)?.permissions.list ?? `${moduleId}:list`,
    moduleFileAccess: (user, file) => recordFileReadable(runtime, user, file),
  };
  // The runtime reads the core services it uses on each call: the organisation tree is replaced below.
  const runtime = new Runtime({
    database: options.database,
    schemasDir: options.schemasDir ?? SCHEMAS_DIR,
    school: options.config.school,
    dicts: () => services.dicts,
    orgTree: () => services.orgTree,
    log: app.log,
    messages: () => services.messages,
    jobs: { abandonedAfterS: options.config.jobAbandonedAfterS, exportInlineMax: options.config.exportInlineMax },
  });
  // Dictionaries the shipped files add since the last start (administrators' edits are kept).
  await services.dicts.syncFromFiles(options.schemasDir ?? SCHEMAS_DIR);
  // The shipped menu tree likewise (nodes administrators edited, created or deleted stay as they are).
  await new MenuService(options.database).syncFromFiles(options.schemasDir ?? SCHEMAS_DIR);
  // Module tables follow the schemas (and the school's overrides) before any route serves them.
  await runtime.start();
  installOrgTree(services, runtime);
  await services.messages.start(app.log);
  await services.invalidations.start(app.log);
  services.sessions.relayInvalidations(services.invalidations);
  app.decorate('services', services);
  app.decorate('runtime', runtime);
  await app.register(authGuard, { sessions: services.sessions });

  wireAreaSeams(runtime);
  for (const plugin of routePlugins) await app.register(plugin);

  app.get('/api/health', { config: PUBLIC }, async (_req, reply) => {
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

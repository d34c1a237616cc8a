import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { MessageSender } from './auth/messages.js';
import type { OrgTree } from './auth/org-scope.js';
import type { KeyPair } from './auth/rsa.js';
import type { SessionService } from './auth/sessions.js';
import type { DictService } from './dicts/service.js';
import type { InvalidationBus } from './cluster/invalidation-bus.js';
import type { MessageService } from './messages/service.js';
import type { ConfigStore } from './sysconfig/store.js';
import type { ModuleFileAccess } from './files/store.js';

/**
 * The core services every route module receives (one instance per app, built by the composition root
 * `src/server/app.ts`). The schema runtime is `app.runtime` (runtime/index.ts): core does not know it.
 */
export interface CoreServices {
  appConfig: AppConfig;
  database: Database;
  config: ConfigStore;
  sessions: SessionService;
  keys: KeyPair;
  sender: MessageSender;
  /** Replaceable: the organisation module installs the real tree. */
  orgTree: OrgTree;
  dicts: DictService;
  /** To-dos, private messages and reminders, pushed to the recipients' websockets. */
  messages: MessageService;
  /** Cache invalidations for every app server (LISTEN/NOTIFY on PostgreSQL). */
  invalidations: InvalidationBus;
  /**
   * The permission that lets a user list a module's records (and so see the files attached to them):
   * the schema runtime answers it, wired in by the composition root.
   */
  listPermissionOf(moduleId: string): string;
  /** Record-level access to a module's files (view permission and data scope of a referring record). */
  moduleFileAccess?: ModuleFileAccess;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: CoreServices;
  }
}

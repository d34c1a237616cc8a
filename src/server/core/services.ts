import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { MessageSender } from './auth/messages.js';
import type { OrgTree } from './auth/org-scope.js';
import type { KeyPair } from './auth/rsa.js';
import type { SessionService } from './auth/sessions.js';
import type { DictService } from './dicts/service.js';
import type { ConfigStore } from './sysconfig/store.js';

/** The core services every route module receives (one instance per app). */
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
}

declare module 'fastify' {
  interface FastifyInstance {
    services: CoreServices;
  }
}

import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { keepListening, type Listening } from '../../db/keep-listening.js';

/** The LISTEN/NOTIFY channel of cache invalidations between app servers. */
export const INVALIDATION_CHANNEL = 'dj_invalidate';

type Key = string | number | undefined;
type Handler = (key: Key) => void;

/**
 * Cache invalidations for every app server behind a load balancer: a change made through one server
 * (a role revoked, a user disabled, a logout) must not keep working on the others until a cache expires.
 * `invalidate` applies at once here and, on PostgreSQL, NOTIFYs the other servers, which apply it too.
 * On the embedded engine (one process) it stays here.
 */
export class InvalidationBus {
  private readonly handlers = new Map<string, Set<Handler>>();
  /** Tells this server's own NOTIFYs apart: they were applied when sent. */
  private readonly origin = crypto.randomUUID();
  private relay?: Listening;

  constructor(private readonly database: Database) {}

  async start(log: FastifyBaseLogger): Promise<void> {
    this.relay = await keepListening(this.database, INVALIDATION_CHANNEL, (payload) => {
      try {
        const { origin, topic, key } = JSON.parse(payload) as { origin: string; topic: string; key?: string | number };
        if (origin !== this.origin) this.apply(topic, key);
      } catch (err) {
        log.warn({ err }, 'a relayed cache invalidation could not be read');
      }
    }, log, 'the cache invalidation relay');
  }

  async stop(): Promise<void> {
    await this.relay?.stop();
    this.relay = undefined;
  }

  on(topic: string, handler: Handler): void {
    const set = this.handlers.get(topic) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(topic, set);
  }

  /** Forgets `key` (or everything) of `topic` here and on every other app server. */
  async invalidate(topic: string, key?: string | number): Promise<void> {
    this.apply(topic, key);
    if (!this.relay?.active) return;
    const payload = JSON.stringify({ origin: this.origin, topic, ...(key === undefined ? {} : { key }) });
    await sql`SELECT pg_notify(${INVALIDATION_CHANNEL}, ${payload})`.execute(this.database.db);
  }

  private apply(topic: string, key: Key): void {
    for (const handler of this.handlers.get(topic) ?? []) handler(key);
  }
}

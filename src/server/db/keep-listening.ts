import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './database.js';

/** How long a relay waits before listening again after its connection was lost. */
export const RELAY_RETRY_MS = 2000;

/** A LISTEN that comes back after a lost connection; `active` says whether NOTIFYs reach it right now. */
export interface Listening {
  readonly active: boolean;
  stop(): Promise<void>;
}

/**
 * LISTENs on `channel` (PostgreSQL only: answers undefined on the embedded engine, which has one process)
 * and listens again every RELAY_RETRY_MS after its connection is lost (a database restart, a network blip),
 * until `stop`. `what` names the relay in the log.
 */
export async function keepListening(
  database: Database,
  channel: string,
  onPayload: (payload: string) => void,
  log: FastifyBaseLogger,
  what: string,
): Promise<Listening | undefined> {
  const listen = database.listen?.bind(database);
  if (!listen) return undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  const start = async (): Promise<void> => {
    unlisten = await listen(channel, onPayload, (err) => {
      log.warn({ err }, `${what} lost its database connection; it works on this server only until it is back`);
      unlisten = undefined;
      retry();
    });
  };
  const retry = (): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      start().then(() => log.info(`${what} is listening again`), retry);
    }, RELAY_RETRY_MS);
    timer.unref();
  };
  await start();
  return {
    get active() {
      return unlisten !== undefined;
    },
    async stop() {
      stopped = true;
      const stop = unlisten;
      unlisten = undefined;
      await stop?.();
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';

/** Sends an SMS or e-mail. Deployments plug in a provider; the default keeps it in the outbox. */
export interface MessageSender {
  send(message: { channel: 'sms' | 'email'; target: string; content: string; purpose?: string }): Promise<void>;
}

/** The default sender: writes to `message_outbox` and the log, so every flow works with no provider. */
export function outboxSender(database: Database, log: FastifyBaseLogger): MessageSender {
  return {
    async send(message) {
      await database.db
        .insertInto('message_outbox')
        .values({ channel: message.channel, target: message.target, content: message.content, purpose: message.purpose ?? null })
        .execute();
      log.info({ channel: message.channel, target: message.target, purpose: message.purpose }, 'message written to outbox');
    },
  };
}

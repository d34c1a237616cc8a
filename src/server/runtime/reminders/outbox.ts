/**
 * Delivery of reminder announcements, at least once: the outbox row was written in the transaction that
 * started the reminder; here each pending row is leased (other servers skip it), sent, and marked sent. A
 * failed send is tried again later (1, 2, 4 ... minutes, at most six hours apart); a server that dies
 * between the send and the mark sends it again once the lease has run out.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface Announcement {
  reminderId: number;
  toUserIds: number[];
  title: string;
  content: string;
  link: string | null;
}

/** Sends one announcement (the message service by default); throwing means "not sent, try again". */
export type AnnouncementSender = (a: Announcement) => Promise<void>;

const LEASE_MINUTES = 10;
const BATCH = 200;
const MAX_BACKOFF_MINUTES = 360;

export function backoffMinutes(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MINUTES);
}

/**
 * Sends the announcements due by `now` (of these modules, or all); answers how many were sent.
 * Failures are recorded on their row and logged by the caller through `onError`.
 */
export async function deliverOutbox(db: Kysely<DB>, send: AnnouncementSender, options: { now?: Date; modules?: string[]; onError?: (err: unknown, id: number) => void } = {}): Promise<number> {
  const now = options.now ?? new Date();
  let sent = 0;
  for (;;) {
    const modules = options.modules ?? null;
    // The lease: rows due, locked against other servers' leases, moved out of everyone's way for a while.
    const leased = await sql<{ id: number; reminder_id: number; user_ids: number[]; title: string; content: string; link: string | null; attempts: number }>`
      UPDATE reminder_outbox SET next_attempt_at = ${now}::timestamptz + make_interval(mins => ${LEASE_MINUTES})
      WHERE id IN (
        SELECT id FROM reminder_outbox
        WHERE sent_at IS NULL AND next_attempt_at <= ${now}::timestamptz AND (${modules}::text[] IS NULL OR module = ANY(${modules}::text[]))
        ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING id, reminder_id, user_ids, title, content, link, attempts`.execute(db);
    if (!leased.rows.length) return sent;
    for (const row of leased.rows.sort((a, b) => a.id - b.id)) {
      try {
        await send({ reminderId: row.reminder_id, toUserIds: row.user_ids, title: row.title, content: row.content, link: row.link });
        await db.updateTable('reminder_outbox').set({ sent_at: new Date(), attempts: row.attempts + 1, last_error: null }).where('id', '=', row.id).execute();
        sent++;
      } catch (err) {
        const attempts = row.attempts + 1;
        await db
          .updateTable('reminder_outbox')
          .set({ attempts, last_error: String((err as Error)?.message ?? err).slice(0, 500), next_attempt_at: new Date(now.getTime() + backoffMinutes(attempts) * 60_000) })
          .where('id', '=', row.id)
          .execute();
        options.onError?.(err, row.id);
      }
    }
    if (leased.rows.length < BATCH) return sent;
  }
}

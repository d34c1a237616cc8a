/**
 * "One at a time" rules checked inside a write's transaction (one application in progress per person,
 * one transfer under way per member): a transaction-scoped advisory lock on the subject, so a second
 * write racing the first checks after it. The lock is tried, never waited for: a transaction waiting on
 * it holds a pooled connection, and twenty of them waiting would leave none for the holder's own
 * queries (the pool deadlocks). Whoever finds it taken answers 409 at once (issue 24 §3.5).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from './types.js';

/** True when this transaction now holds the lock of (`kind`, `key`); false when another transaction does. */
export async function tryLockFor(db: Kysely<DB>, kind: string, key: string | number): Promise<boolean> {
  const row = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${kind}), hashtext(${String(key)})) AS locked`.execute(db);
  return row.rows[0]?.locked === true;
}

/**
 * Session lookups kept briefly in memory: a busy client sends several requests a second with one token,
 * and each used to cost a database round trip before its handler ran. An entry lives at most
 * SESSION_CACHE_TTL_MS and never past the session's expiry; logout, password changes, role and user
 * changes forget entries at once (on every app server when a cluster bus carries them: SessionService).
 */

/** How long a session lookup is reused. Short: other app servers without the bus see a logout within it. */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Entries beyond which expired ones are swept on the next insert. */
const SWEEP_ABOVE = 10_000;

export class SessionCache<R extends { id: number }> {
  private readonly entries = new Map<string, { row: R; until: number }>();
  /** Bumped by every forget: a lookup that started before one must not store what it read. */
  private generation = 0;

  constructor(private readonly ttlMs = SESSION_CACHE_TTL_MS) {}

  get(tokenHash: string): R | undefined {
    const hit = this.entries.get(tokenHash);
    if (!hit) return undefined;
    if (hit.until > Date.now()) return hit.row;
    this.entries.delete(tokenHash);
    return undefined;
  }

  /** The generation to hand back to `set` (read it before the lookup). */
  get stamp(): number {
    return this.generation;
  }

  /** Keeps a row read under `stamp`, unless something was forgotten since; never past `expiresAt`. */
  set(tokenHash: string, row: R, expiresAt: Date, stamp: number): void {
    if (stamp !== this.generation) return;
    if (this.entries.size >= SWEEP_ABOVE) this.sweep();
    this.entries.set(tokenHash, { row, until: Math.min(Date.now() + this.ttlMs, new Date(expiresAt).getTime()) });
  }

  /** Forgets the sessions of one user, or every session. */
  forget(userId?: number): void {
    this.generation++;
    if (userId === undefined) return this.entries.clear();
    for (const [key, { row }] of this.entries) if (row.id === userId) this.entries.delete(key);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, { until }] of this.entries) if (until <= now) this.entries.delete(key);
  }
}

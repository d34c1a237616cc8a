import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * Back-off after failed password logins, kept in `login_attempts` (so every app server sees it).
 *
 * - By account name: 5 failures since the last success or unlock (within a day) lock the name for 1 minute,
 *   each further failure doubles it, up to 15 minutes. Counted by the name typed, whether or not an account
 *   has it, so a lock (and its message) never tells whether an account exists.
 * - By client address: 20 failures from one address within an hour lock that address the same way, whatever
 *   names it tried (password spraying; more than per name, as many people may share an address). A success
 *   does not clear it: an attacker's own account must not reset their count.
 *
 * A remote attacker can keep an account name locked, but never shut its owner out: during an account lock
 * a login with the right password and a captcha answered for it still succeeds (routes.ts), and an SMS code
 * login (/auth/vercode/login) is not affected. An address lock has no such way round: it only stops the
 * address that made the failures. Where the login page asks every login for a captcha anyway, an account lock
 * adds nothing to it: guessing then costs a captcha each, and one address still gets 20 guesses an hour.
 */
const BASE_MS = 60_000;
const CAP_MS = 15 * 60_000;
export const ACCOUNT_LIMIT = { threshold: 5, windowMs: 24 * 60 * 60_000 };
export const ADDRESS_LIMIT = { threshold: 20, windowMs: 60 * 60_000 };

/** When a lock after `failures` failures (the last at `lastAt`) ends; null below the threshold. */
export function lockEnd(failures: number, lastAt: Date | null, threshold: number): Date | null {
  if (failures < threshold || !lastAt) return null;
  const ms = Math.min(CAP_MS, BASE_MS * 2 ** Math.min(failures - threshold, 10));
  return new Date(lastAt.getTime() + ms);
}

export interface LockState {
  /** The end of the lock of the name typed, if it is locked now. */
  account: Date | null;
  /** The end of the lock of the client address, if it is locked now. */
  address: Date | null;
}

const live = (end: Date | null) => (end && end.getTime() > Date.now() ? end : null);

/** The locks on this name and this address now. */
export async function lockState(database: Database, username: string, ip: string, addressThreshold = ADDRESS_LIMIT.threshold): Promise<LockState> {
  const { db } = database;
  const lastSuccess = db.selectFrom('login_attempts').select(sql<Date>`max(at)`.as('at')).where('username', '=', username).where('success', '=', true);
  const [byName, byAddress] = await Promise.all([
    db
      .selectFrom('login_attempts')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`max(at)`.as('last')])
      .where('username', '=', username)
      .where('success', '=', false)
      .where('at', '>', sql<Date>`greatest(now() - make_interval(secs => ${ACCOUNT_LIMIT.windowMs / 1000}), coalesce((${lastSuccess}), '-infinity'))`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('login_attempts')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`max(at)`.as('last')])
      .where('ip', '=', ip)
      .where('success', '=', false)
      .where('at', '>', sql<Date>`now() - make_interval(secs => ${ADDRESS_LIMIT.windowMs / 1000})`)
      .executeTakeFirstOrThrow(),
  ]);
  const date = (v: Date | null) => (v ? new Date(v) : null);
  return {
    account: live(lockEnd(byName.n, date(byName.last), ACCOUNT_LIMIT.threshold)),
    address: live(lockEnd(byAddress.n, date(byAddress.last), addressThreshold)),
  };
}

const minutesUntil = (end: Date) => Math.max(1, Math.ceil((end.getTime() - Date.now()) / 60_000));

/** The answer while a name is locked: the same for every name, existing or not. */
export const accountLockedMessage = (end: Date) =>
  `密码错误次数过多，账号已被锁定，请${minutesUntil(end)}分钟后再试，或输入图形验证码后登录，或联系管理员解锁`;

/** The answer to the failure that locks (or extends the lock of) a name. */
export const accountLockingMessage = (end: Date) => `密码错误次数过多，账号已被锁定${minutesUntil(end)}分钟`;

/** The answer while the caller's address is locked. */
export const addressLockedMessage = (end: Date) => `登录失败次数过多，请${minutesUntil(end)}分钟后再试`;

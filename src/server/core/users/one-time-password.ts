/**
 * One-time passwords: what an administrator hands a person whose account they created, reset or opened.
 * Each is random (a shared initial password let anyone who knew it take over every fresh account), valid
 * for `oneTimeHours` (72 by default), shown once, and must be replaced at the first login.
 */
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { PasswordPolicy } from '../auth/password-policy.js';
import { hashPassword } from '../passwords.js';

// No look-alikes (0/O, 1/l/I) so the password can be read out or copied by hand.
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '@#%&*!?';
const ALL = LOWER + UPPER + DIGITS + SPECIAL;

const pick = (chars: string) => chars[randomInt(chars.length)];

/** A 12-character password with every kind of character, matching the configured rule. */
export function oneTimePassword(policy: Pick<PasswordPolicy, 'pattern' | 'initPassword'>): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL), ...Array.from({ length: 8 }, () => pick(ALL))];
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j], chars[i]];
    }
    const password = chars.join('');
    if (password !== policy.initPassword && (!policy.pattern || policy.pattern.test(password))) return password;
  }
  throw new Error('passwordReg admits no generated password');
}

export interface IssuedPassword {
  id: number;
  username: string;
  phone: string | null;
  password: string;
  expiresAt: Date;
}

/** The columns of a freshly issued one-time password (to set on a new or existing user). */
export async function oneTimeColumns(policy: PasswordPolicy): Promise<{ plain: string; columns: { password_hash: string; password_weak: true; password_expires_at: Date } }> {
  const plain = oneTimePassword(policy);
  return { plain, columns: { password_hash: await hashPassword(plain), password_weak: true, password_expires_at: new Date(Date.now() + policy.oneTimeHours * 3_600_000) } };
}

/** Gives each of these users a new one-time password (and unlocks them); answers them, once. */
export async function issueOneTimePasswords(db: Kysely<DB>, policy: PasswordPolicy, userIds: number[], extra: { enabled?: boolean } = {}): Promise<IssuedPassword[]> {
  const users = await db.selectFrom('users').select(['id', 'username', 'phone']).where('id', 'in', userIds).orderBy('id').execute();
  const issued: IssuedPassword[] = [];
  for (const u of users) {
    const { plain, columns } = await oneTimeColumns(policy);
    await db.updateTable('users').set({ ...columns, ...extra, locked_until: null, updated_at: new Date() }).where('id', '=', u.id).execute();
    issued.push({ ...u, password: plain, expiresAt: columns.password_expires_at });
  }
  return issued;
}

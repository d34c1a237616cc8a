import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { HttpError } from '../../errors.js';
import type { MessageSender } from './messages.js';

export type CodePurpose = 'login' | 'register' | 'reset' | 'email';

const CODE_TTL_MS = 5 * 60_000;
const RESEND_AFTER_MS = 60_000;
const DAILY_LIMIT = 10;
const MAX_ATTEMPTS = 5;

const PURPOSE_TEXT: Record<CodePurpose, string> = {
  login: '登录',
  register: '注册',
  reset: '重置密码',
  email: '修改邮箱',
};

const hash = (code: string) => crypto.createHash('sha256').update(code).digest('hex');

/**
 * Sends a 6-digit code valid for 5 minutes; at most one a minute and 10 a day per phone or address.
 */
export async function sendCode(database: Database, sender: MessageSender, target: string, purpose: CodePurpose): Promise<void> {
  const { db } = database;
  const recent = await db
    .selectFrom('verification_codes')
    .select([
      sql<number>`count(*) FILTER (WHERE created_at > now() - interval '1 day')::int`.as('today'),
      sql<number>`count(*) FILTER (WHERE created_at > now() - make_interval(secs => ${RESEND_AFTER_MS / 1000}))::int`.as('lastMinute'),
    ])
    .where('target', '=', target)
    .executeTakeFirstOrThrow();
  if (recent.lastMinute > 0) throw new HttpError(429, '验证码发送过于频繁，请1分钟后再试');
  if (recent.today >= DAILY_LIMIT) throw new HttpError(429, '今日验证码发送次数已达上限，请明天再试');
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .insertInto('verification_codes')
    .values({ target, purpose, code_hash: hash(code), expires_at: new Date(Date.now() + CODE_TTL_MS) })
    .execute();
  await sender.send({
    channel: purpose === 'email' ? 'email' : 'sms',
    target,
    purpose,
    content: `【党建工作管理系统】您的${PURPOSE_TEXT[purpose]}验证码为${code}，5分钟内有效，请勿泄露给他人。`,
  });
}

/** Checks and consumes the latest code for this target and purpose; five wrong tries spend it. */
export async function consumeCode(database: Database, target: string, purpose: CodePurpose, code: unknown): Promise<void> {
  const invalid = new HttpError(400, '验证码错误或已过期', { errors: [{ field: 'vercode', message: '验证码错误或已过期' }] });
  if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) throw invalid;
  const { db } = database;
  const row = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('verification_codes')
        .select('id')
        .where('target', '=', target)
        .where('purpose', '=', purpose)
        .where('used', '=', false)
        .where('expires_at', '>', sql<Date>`now()`)
        .orderBy('created_at', 'desc')
        .limit(1),
    )
    .returning(['id', 'code_hash', 'attempts'])
    .executeTakeFirst();
  if (!row || row.attempts > MAX_ATTEMPTS || row.code_hash !== hash(code.trim())) throw invalid;
  await db.updateTable('verification_codes').set({ used: true }).where('id', '=', row.id).execute();
}

import crypto from 'node:crypto';
import { sql } from 'kysely';
import svgCaptcha from 'svg-captcha';
import type { Database } from '../../db/database.js';
import { HttpError } from '../../errors.js';

const CAPTCHA_TTL_MS = 2 * 60_000;

/** A new captcha: the image as a data URL and the uuid that names its stored answer (2 minutes, single use). */
export async function createCaptcha(database: Database): Promise<{ img: string; uuid: string }> {
  const captcha = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f4f6fa', width: 111, height: 36 });
  const uuid = crypto.randomUUID();
  await database.db.deleteFrom('captchas').where('expires_at', '<', sql<Date>`now()`).execute();
  await database.db
    .insertInto('captchas')
    .values({ uuid, answer: captcha.text.toLowerCase(), expires_at: new Date(Date.now() + CAPTCHA_TTL_MS) })
    .execute();
  return { img: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}`, uuid };
}

/** Checks and consumes a captcha answer (case-insensitive). Throws a 400 with a clear message. */
export async function verifyCaptcha(database: Database, uuid: unknown, code: unknown): Promise<void> {
  if (typeof uuid !== 'string' || !uuid || typeof code !== 'string' || !code.trim()) {
    throw new HttpError(400, '请输入验证码', { errors: [{ field: 'code', message: '请输入验证码' }] });
  }
  const row = await database.db.deleteFrom('captchas').where('uuid', '=', uuid).returning(['answer', 'expires_at']).executeTakeFirst();
  if (!row || new Date(row.expires_at).getTime() < Date.now()) {
    throw new HttpError(400, '验证码不存在或已过期', { errors: [{ field: 'code', message: '验证码不存在或已过期' }] });
  }
  if (row.answer !== code.trim().toLowerCase()) {
    throw new HttpError(400, '验证码错误', { errors: [{ field: 'code', message: '验证码错误' }] });
  }
}

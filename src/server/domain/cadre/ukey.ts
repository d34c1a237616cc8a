/**
 * The cadre uKey on the server (spec §4 and §6, issue 38.9). The browser's PIN dialog alone protected
 * nothing: an account of a role `cadreUkeyRoles` names read cadres through the API without any key. Now
 * such an account proves its key to the server: the server issues a challenge bound to the session, the
 * key (through the local certificate service, after its PIN) signs it, the server verifies the signature
 * with the public key an administrator registered for the account, and marks the session. Until then
 * every cadre route refuses with 403.
 *
 * - `GET  /api/cadre/ukey`                  `{ required, verified }` for the caller
 * - `POST /api/cadre/ukey/challenge`        `{ required, verified, challenge? }` (LOGIN: the layout asks for every uKey user)
 * - `POST /api/cadre/ukey/verify`           `{ challenge, deviceId, signature }` (base64) → the session is marked
 * - `PUT  /api/cadre/ukey/keys/{userId}`    `{ deviceId, publicKey }` (PEM, SPKI) registers an account's key (and sets
 *                                           its `useUkey`); `publicKey: null` removes it
 *
 * A cadre route is every `/api/cadre/**` (but these), the cadre lookups `/api/common/gbjbxx|ldbzxx` and the
 * generic `/api/m/{module}/**` of the cadre modules (those whose permissions are the cadre menu's).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type ColumnType, type Kysely } from 'kysely';
import { currentUser, LOGIN, perm } from '../../core/auth/guard.js';
import type { SessionUser } from '../../core/auth/session-user.js';
import { Grants } from '../../core/users/grants.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { orgTreeOf } from '../org/index.js';
import { CADRE_SETTINGS, readSetting } from './settings.js';

interface UkeyTables {
  ukey_keys: { user_id: number; device_id: string; public_key: string; registered_by: number | null; registered_at: ColumnType<Date, Date | undefined, Date> };
  ukey_sessions: { session_id: number; device_id: string; verified_at: ColumnType<Date, Date | undefined, Date> };
}
declare module '../../db/types.js' {
  interface DB extends UkeyTables {}
}

export const CADRE_READERS = ['cadre-info:list', 'cadre-leadership:list', 'cadre-selection:list', 'cadre-assess:list'];

/** How long a challenge may be answered: the PIN dialog is open meanwhile. */
export const UKEY_CHALLENGE_TTL_MS = 5 * 60_000;
export const UKEY_REFUSED = '访问干部信息须先插入干部安全数字证书uKey并完成验证';
export const UKEY_NOT_ISSUED = '您的角色须使用干部安全数字证书uKey访问干部信息，请联系管理员为账号登记uKey';

/** The uKey routes themselves (the proof is given through them). */
const UKEY_ROUTES = /^\/api\/cadre\/ukey(\/|$)/;
const CADRE_ROUTES = /^\/api\/(cadre\/|common\/(gbjbxx|ldbzxx)(\/|$))/;
const MODULE_ROUTE = /^\/api\/m\/([^/]+)(\/|$)/;

/** The message a key signs: the challenge, named for this purpose (a signature made for anything else does not fit). */
export const ukeySignedText = (challenge: string) => `dangjian-ukey:${challenge}`;

/** Whether a module is the cadre area's: its id, or its permissions those of the cadre menu. */
function isCadreModule(app: FastifyInstance, id: string): boolean {
  if (id === 'cadre' || id.startsWith('cadre-')) return true;
  const m = app.runtime.module(id);
  return !!m && Object.values(m.permissions).some((p) => typeof p === 'string' && p.startsWith('cadre-'));
}

export function isCadreRoute(app: FastifyInstance, url: string | undefined): boolean {
  if (!url || UKEY_ROUTES.test(url)) return false;
  if (CADRE_ROUTES.test(url)) return true;
  const m = MODULE_ROUTE.exec(url);
  return !!m && isCadreModule(app, m[1]);
}

export class UkeyService {
  private readonly secret: Buffer;

  constructor(
    private readonly db: Kysely<DB>,
    serverKey: string,
  ) {
    this.secret = crypto.createHash('sha256').update(`ukey-challenge:${serverKey}`).digest();
  }

  /** Whether the setting names one of the caller's roles: then the key must be proved (whatever `useUkey` says). */
  async required(user: SessionUser): Promise<boolean> {
    const roles = ((await readSetting(this.db, CADRE_SETTINGS.ukeyRoles)) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!roles.length) return false;
    const { rows } = await sql<{ code: string }>`SELECT r.code FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = ${user.id}`.execute(this.db);
    return rows.some((r) => roles.includes(r.code));
  }

  async verified(sessionId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('ukey_sessions').select('session_id').where('session_id', '=', sessionId).executeTakeFirst());
  }

  private mac(sessionId: number, expires: number, nonce: string): string {
    return crypto.createHmac('sha256', this.secret).update(`${sessionId}:${expires}:${nonce}`).digest('base64url');
  }

  /** A challenge only this session can answer, until it expires (stateless: any app server checks it). */
  challenge(sessionId: number): string {
    const expires = Date.now() + UKEY_CHALLENGE_TTL_MS;
    const nonce = crypto.randomBytes(16).toString('base64url');
    return `${expires}.${nonce}.${this.mac(sessionId, expires, nonce)}`;
  }

  private challengeValid(sessionId: number, challenge: string): boolean {
    const m = /^(\d{13})\.([\w-]{22})\.([\w-]{43})$/.exec(challenge);
    if (!m || Number(m[1]) < Date.now()) return false;
    const expected = Buffer.from(this.mac(sessionId, Number(m[1]), m[2]));
    const given = Buffer.from(m[3]);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  /** Checks the key's signature of a challenge of this session with the account's registered key; marks the session. */
  async verify(user: SessionUser, body: unknown): Promise<void> {
    const { challenge, deviceId, signature } = (body ?? {}) as Record<string, unknown>;
    if (typeof challenge !== 'string' || typeof deviceId !== 'string' || typeof signature !== 'string' || signature.length > 2048) {
      throw new HttpError(400, 'uKey验证数据不完整');
    }
    if (!this.challengeValid(user.sessionId, challenge)) throw new HttpError(400, 'uKey验证已过期，请重新验证');
    const key = await this.db.selectFrom('ukey_keys').select(['device_id', 'public_key']).where('user_id', '=', user.id).executeTakeFirst();
    if (!key) throw new HttpError(403, UKEY_NOT_ISSUED);
    if (key.device_id !== deviceId || !signatureValid(key.public_key, ukeySignedText(challenge), signature)) {
      throw new HttpError(403, 'uKey验证失败：该uKey不是登记给您的数字证书');
    }
    await this.db
      .insertInto('ukey_sessions')
      .values({ session_id: user.sessionId, device_id: deviceId })
      .onConflict((oc) => oc.column('session_id').doUpdateSet({ device_id: deviceId, verified_at: new Date() }))
      .execute();
  }

  /** Refuses a cadre route until the session proved the key (when the caller's role needs one). */
  async assertProved(user: SessionUser): Promise<void> {
    if (!(await this.required(user)) || (await this.verified(user.sessionId))) return;
    const issued = await this.db.selectFrom('ukey_keys').select('user_id').where('user_id', '=', user.id).executeTakeFirst();
    throw new HttpError(403, issued ? UKEY_REFUSED : UKEY_NOT_ISSUED);
  }
}

function signatureValid(publicKeyPem: string, text: string, signature: string): boolean {
  try {
    const key = crypto.createPublicKey(publicKeyPem);
    // Ed25519 signs the message itself; RSA and EC keys sign its SHA-256.
    const algorithm = key.asymmetricKeyType === 'ed25519' || key.asymmetricKeyType === 'ed448' ? null : 'sha256';
    return crypto.verify(algorithm, Buffer.from(text), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

function publicKeyOrThrow(value: unknown): string {
  if (typeof value !== 'string' || value.length > 4096) throw new HttpError(400, '请提供uKey的公钥（PEM格式）');
  try {
    return crypto.createPublicKey(value).export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    throw new HttpError(400, 'uKey公钥格式不正确（应为PEM格式的公钥）');
  }
}

/**
 * The uKey's routes and the guard of the cadre routes. A root plugin (fastify-plugin): its hook sees the
 * generic module routes too, after the session guard resolved the caller.
 */
export const ukeyPlugin = fp(async function ukeyPlugin(app: FastifyInstance): Promise<void> {
  const db = app.services.database.db;
  const ukey = new UkeyService(db, app.services.keys.privateKey);

  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (!req.user || req.user.isSuper || !isCadreRoute(app, req.routeOptions.url)) return;
    await ukey.assertProved(req.user);
  });

  app.get('/api/cadre/ukey', { config: perm(...CADRE_READERS) }, async (req) => {
    const user = currentUser(req);
    const required = await ukey.required(user);
    return { required, verified: required && (await ukey.verified(user.sessionId)) };
  });

  app.post('/api/cadre/ukey/challenge', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    const required = !user.isSuper && (await ukey.required(user));
    const verified = required && (await ukey.verified(user.sessionId));
    return { required, verified, ...(required && !verified && { challenge: ukey.challenge(user.sessionId) }) };
  });

  app.post('/api/cadre/ukey/verify', { config: LOGIN }, async (req) => {
    await ukey.verify(currentUser(req), req.body);
    return { verified: true };
  });

  app.put('/api/cadre/ukey/keys/:userId', { config: perm('user:edit') }, async (req) => {
    const caller = currentUser(req);
    const userId = Number((req.params as { userId: string }).userId);
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new HttpError(404, '用户不存在');
    if (userId === caller.id && !caller.isSuper) throw new HttpError(403, '不能为自己的账号登记uKey');
    const target = await db.selectFrom('users').select(['id', 'org_id']).where('id', '=', userId).executeTakeFirst();
    const grants = new Grants(db, orgTreeOf(app.services)!, caller);
    if (!target || !(await grants.orgWithin(target.org_id))) throw new HttpError(404, '用户不存在');
    await grants.assertCanManage([userId]);
    const { deviceId, publicKey } = (req.body ?? {}) as { deviceId?: unknown; publicKey?: unknown };
    if (publicKey === null) {
      await db.deleteFrom('ukey_keys').where('user_id', '=', userId).execute();
      return { userId, registered: false };
    }
    if (typeof deviceId !== 'string' || !deviceId.trim() || deviceId.length > 200) throw new HttpError(400, '请填写uKey的设备编号');
    const pem = publicKeyOrThrow(publicKey);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('ukey_keys')
        .values({ user_id: userId, device_id: deviceId.trim(), public_key: pem, registered_by: caller.id })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ device_id: deviceId.trim(), public_key: pem, registered_by: caller.id, registered_at: new Date() }))
        .execute();
      // The account signs with a uKey from now on (the browser's client runs for it, spec §6).
      await trx.updateTable('users').set({ use_ukey: true }).where('id', '=', userId).execute();
      // A new key: sessions proved with the old one prove nothing any more.
      await trx.deleteFrom('ukey_sessions').where('session_id', 'in', (eb) => eb.selectFrom('sessions').select('id').where('user_id', '=', userId)).execute();
    });
    return { userId, registered: true, deviceId: deviceId.trim() };
  });
});

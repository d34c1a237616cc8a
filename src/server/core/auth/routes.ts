import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { createCaptcha, verifyCaptcha } from './captcha.js';
import { consumeCode, sendCode } from './codes.js';
import { LOGIN, PUBLIC, bearerToken, currentUser } from './guard.js';
import { isWeakPassword, passwordPolicy } from './password-policy.js';
import { decryptPassword } from './rsa.js';
import { publicUser } from './session-user.js';

const LOCK_AFTER_FAILURES = 5;
const LOCK_WINDOW_MS = 15 * 60_000;
const BAD_CREDENTIALS = '用户名或密码错误';
// Verified against when the username is unknown, so both failures take the same time.
const DUMMY_HASH = await hashPassword('dangjian-timing-equaliser');

const MOBILE = '^1[3-9]\\d{9}$';

const str = (title: string, extra: Record<string, unknown> = {}) => ({ type: 'string', title, ...extra });

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { database, sessions, keys, config, sender, appConfig } = app.services;
  const { db } = database;
  // Per client address (AUTH_RATE_LIMIT a minute); the per-phone limits (one a minute, ten a day) live in codes.ts.
  const authLimit = { rateLimit: { max: appConfig.authRateLimit, timeWindow: '1 minute' } };
  const smsLimit = authLimit;

  const captchaEnabled = async () => appConfig.captcha && (await config.flag('captchaEnabled', true));
  const clientMeta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

  /** Opens a session for a user who proved who they are, and answers `{ token, user }`. */
  async function signIn(req: FastifyRequest, userId: number, method: string, username: string) {
    const { token } = await sessions.create(userId, clientMeta(req));
    await db.updateTable('users').set({ last_login_at: new Date(), locked_until: null }).where('id', '=', userId).execute();
    await db.insertInto('login_attempts').values({ username, user_id: userId, success: true, method, ip: req.ip, user_agent: req.headers['user-agent'] ?? null }).execute();
    const user = await sessions.resolve(token);
    if (!user) throw new HttpError(500, '登录失败');
    return { token, user: publicUser(user) };
  }

  /** Failed logins within the window and since the last success or unlock (both recorded as successes). */
  async function recentFailures(username: string): Promise<number> {
    const { n } = await db
      .selectFrom('login_attempts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('username', '=', username)
      .where('success', '=', false)
      .where('at', '>', sql<Date>`greatest(now() - make_interval(secs => ${LOCK_WINDOW_MS / 1000}),
        coalesce((SELECT max(at) FROM login_attempts WHERE username = ${username} AND success), '-infinity'))`)
      .executeTakeFirstOrThrow();
    return n;
  }

  function assertMayLogIn(user: { enabled: boolean; has_left: boolean }) {
    if (user.has_left) throw new HttpError(400, '该账号已离校（离职），无法登录');
    if (!user.enabled) throw new HttpError(400, '该账号已被禁用，请联系管理员');
  }

  app.get('/auth/code', { config: { ...PUBLIC, ...authLimit } }, async () => {
    if (!(await captchaEnabled())) return { img: '', uuid: '', enabled: false };
    return { ...(await createCaptcha(database)), enabled: true };
  });

  app.get('/auth/publicKey', { config: PUBLIC }, async () => ({ publicKey: keys.publicKey }));

  app.post(
    '/auth/login',
    {
      config: { ...PUBLIC, ...authLimit },
      schema: {
        body: {
          type: 'object',
          required: ['username', 'password'],
          properties: { username: str('用户名', { minLength: 1, maxLength: 64 }), password: str('密码', { minLength: 1 }), code: str('验证码'), uuid: str('验证码标识') },
        },
      },
    },
    async (req) => {
      const body = req.body as { username: string; password: string; code?: string; uuid?: string };
      if (await captchaEnabled()) await verifyCaptcha(database, body.uuid, body.code);
      const username = body.username.trim();
      const password = decryptPassword(keys.privateKey, body.password);
      const user = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      if (user?.locked_until && new Date(user.locked_until).getTime() > Date.now()) {
        throw new HttpError(400, `密码错误次数过多，账号已被锁定，请${Math.ceil((new Date(user.locked_until).getTime() - Date.now()) / 60_000)}分钟后再试或联系管理员解锁`);
      }
      const ok = await verifyPassword(user?.password_hash ?? DUMMY_HASH, password);
      if (!user || !ok) {
        await db.insertInto('login_attempts').values({ username, user_id: user?.id ?? null, success: false, ip: req.ip, user_agent: req.headers['user-agent'] ?? null }).execute();
        if (user && (await recentFailures(username)) >= LOCK_AFTER_FAILURES) {
          await db.updateTable('users').set({ locked_until: new Date(Date.now() + LOCK_WINDOW_MS) }).where('id', '=', user.id).execute();
          throw new HttpError(400, '密码错误次数过多，账号已被锁定15分钟');
        }
        throw new HttpError(400, BAD_CREDENTIALS);
      }
      assertMayLogIn(user);
      // A one-time password an administrator issued works until it expires, and only to set one's own.
      if (user.password_expires_at && new Date(user.password_expires_at).getTime() <= Date.now()) throw new HttpError(400, '一次性密码已过期，请联系管理员重新生成');
      const weak = isWeakPassword(password, await passwordPolicy(config)) || user.password_expires_at !== null;
      if (weak !== user.password_weak) await db.updateTable('users').set({ password_weak: weak }).where('id', '=', user.id).execute();
      return signIn(req, user.id, 'password', username);
    },
  );

  app.get('/auth/info', { config: LOGIN }, async (req) => publicUser(currentUser(req)));

  app.get('/auth/logout', { config: PUBLIC }, async (req) => {
    const token = bearerToken(req);
    if (req.user) await sessions.end([req.user.sessionId]);
    return { status: 200, message: token ? '已退出登录' : '未登录' };
  });

  const phoneBody = (extra: Record<string, unknown> = {}, required: string[] = ['phone']) => ({
    body: { type: 'object', required, properties: { phone: str('手机号码', { pattern: MOBILE }), ...extra } },
  });

  // Sends a login (or, with type "reset", a password-reset) code to a phone that belongs to an account.
  app.post('/auth/sms/verify', { config: { ...PUBLIC, ...smsLimit }, schema: phoneBody({ type: { enum: ['login', 'reset'] } }) }, async (req) => {
    const { phone, type = 'login' } = req.body as { phone: string; type?: 'login' | 'reset' };
    const user = await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();
    // Same answer either way: the endpoint must not reveal which phones have accounts.
    if (user) await sendCode(database, sender, phone, type);
    return { status: 200, message: '验证码已发送，请注意查收' };
  });

  app.post('/auth/sms/register/verify', { config: { ...PUBLIC, ...smsLimit }, schema: phoneBody() }, async (req) => {
    const { phone } = req.body as { phone: string };
    const taken = await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();
    if (taken) throw new HttpError(400, '该手机号已注册，请直接登录');
    await sendCode(database, sender, phone, 'register');
    return { status: 200, message: '验证码已发送，请注意查收' };
  });

  app.post('/auth/vercode/login', { config: { ...PUBLIC, ...authLimit }, schema: phoneBody({ vercode: str('验证码') }, ['phone', 'vercode']) }, async (req) => {
    const { phone, vercode } = req.body as { phone: string; vercode: string };
    await consumeCode(database, phone, 'login', vercode);
    const user = await db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
    if (!user) throw new HttpError(400, '验证码错误或已过期');
    assertMayLogIn(user);
    return signIn(req, user.id, 'sms', user.username);
  });

  app.post(
    '/auth/register',
    {
      config: { ...PUBLIC, ...authLimit },
      schema: phoneBody(
        { vercode: str('验证码'), username: str('用户名', { minLength: 2, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' }), password: str('密码'), nickName: str('姓名', { maxLength: 32 }) },
        ['phone', 'vercode', 'username', 'password'],
      ),
    },
    async (req, reply) => {
      const body = req.body as { phone: string; vercode: string; username: string; password: string; nickName?: string };
      const password = decryptPassword(keys.privateKey, body.password);
      const policy = await passwordPolicy(config);
      if (policy.pattern && !policy.pattern.test(password)) throw new HttpError(400, policy.tip, { errors: [{ field: 'password', message: policy.tip }] });
      const taken = await db.selectFrom('users').select(['username', 'phone']).where((eb) => eb.or([eb('username', '=', body.username), eb('phone', '=', body.phone)])).executeTakeFirst();
      if (taken) throw new HttpError(400, taken.username === body.username ? '用户名已被使用' : '该手机号已注册，请直接登录');
      await consumeCode(database, body.phone, 'register', body.vercode);
      const user = await db
        .insertInto('users')
        .values({ username: body.username, nick_name: body.nickName ?? body.username, phone: body.phone, password_hash: await hashPassword(password), password_weak: isWeakPassword(password, policy), password_changed_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.code(201).send({ status: 201, message: '注册成功，请登录', id: user.id });
    },
  );

  // Resets a forgotten password with an SMS code (sent by /auth/sms/verify with type "reset").
  app.post('/api/users/resetPass', { config: { ...PUBLIC, ...authLimit }, schema: phoneBody({ vercode: str('验证码'), password: str('新密码') }, ['phone', 'vercode', 'password']) }, async (req) => {
    const body = req.body as { phone: string; vercode: string; password: string };
    const password = decryptPassword(keys.privateKey, body.password);
    const policy = await passwordPolicy(config);
    if (policy.pattern && !policy.pattern.test(password)) throw new HttpError(400, policy.tip, { errors: [{ field: 'password', message: policy.tip }] });
    await consumeCode(database, body.phone, 'reset', body.vercode);
    const user = await db.selectFrom('users').select('id').where('phone', '=', body.phone).executeTakeFirst();
    if (!user) throw new HttpError(400, '验证码错误或已过期');
    await db.updateTable('users').set({ password_hash: await hashPassword(password), password_weak: isWeakPassword(password, policy), password_expires_at: null, password_changed_at: new Date(), locked_until: null, updated_at: new Date() }).where('id', '=', user.id).execute();
    await sessions.endAllOf([user.id]);
    return { status: 200, message: '密码已重置，请使用新密码登录' };
  });
}

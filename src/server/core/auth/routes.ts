import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { createCaptcha, verifyCaptcha } from './captcha.js';
import { consumeCode, sendCode } from './codes.js';
import { LOGIN, PUBLIC, bearerToken, currentUser } from './guard.js';
import { accountLockedMessage, accountLockingMessage, addressLockedMessage, lockState } from './lockout.js';
import { isWeakPassword, passwordPolicy } from './password-policy.js';
import { assertRegistrationOpen, registrationGrants } from './registration.js';
import type { MessageSender } from './messages.js';
import { decryptPassword } from './rsa.js';
import { publicUser } from './session-user.js';
import { TERMINAL_HEADER, terminalOf } from '../../../shared/terminal.js';

const BAD_CREDENTIALS = '用户名或密码错误';
// Verified against when the username is unknown, so both failures take the same time.
const DUMMY_HASH = await hashPassword('dangjian-timing-equaliser');

const MOBILE = '^1[3-9]\\d{9}$';

const str = (title: string, extra: Record<string, unknown> = {}) => ({ type: 'string', title, ...extra });

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { database, sessions, keys, config, sender, appConfig } = app.services;
  const { db } = database;
  // Records a code for a phone without an account (so it counts against the phone's limits) and sends nothing.
  const silentSender: MessageSender = { send: async () => undefined };
  // Per client address (AUTH_RATE_LIMIT a minute); the per-phone limits (one a minute, ten a day) live in codes.ts.
  const authLimit = { rateLimit: { max: appConfig.authRateLimit, timeWindow: '1 minute' } };
  const smsLimit = authLimit;

  const captchaEnabled = async () => appConfig.captcha && (await config.flag('captchaEnabled', true));
  // Spec §9: the session records its terminal (PC 1, MOBILE 2): the mobile app names itself, a phone's browser is one.
  const clientMeta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'], terminal: terminalOf(req.headers[TERMINAL_HEADER], req.headers['user-agent']) });

  /** Opens a session for a user who proved who they are, and answers `{ token, user }`. */
  async function signIn(req: FastifyRequest, userId: number, method: string, username: string) {
    const { token } = await sessions.create(userId, clientMeta(req));
    await db.updateTable('users').set({ last_login_at: new Date(), locked_until: null }).where('id', '=', userId).execute();
    await db.insertInto('login_attempts').values({ username, user_id: userId, success: true, method, ip: req.ip, user_agent: req.headers['user-agent'] ?? null }).execute();
    const user = await sessions.resolve(token);
    if (!user) throw new HttpError(500, '登录失败');
    return { token, user: publicUser(user) };
  }

  function assertMayLogIn(user: { enabled: boolean; has_left: boolean }) {
    if (user.has_left) throw new HttpError(400, '该账号已离校（离职），无法登录');
    if (!user.enabled) throw new HttpError(400, '该账号已被禁用，请联系管理员');
  }

  // `?lock=true`: a captcha even when the login page shows none, to log in to a locked account (lockout.ts).
  app.get('/auth/code', { config: { ...PUBLIC, ...authLimit } }, async (req) => {
    const forLock = (req.query as { lock?: string }).lock === 'true';
    if (!forLock && !(await captchaEnabled())) return { img: '', uuid: '', enabled: false };
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
      // A captcha answered for this login: always when the page shows one; otherwise only to pass an account lock.
      const captchaAnswered = (await captchaEnabled()) || !!body.uuid || !!body.code;
      if (captchaAnswered) await verifyCaptcha(database, body.uuid, body.code);
      const username = body.username.trim();
      const password = decryptPassword(keys.privateKey, body.password);
      // Locks are by the name typed and the client address, never by whether the account exists (lockout.ts),
      // and each answer below is the same for an unknown name as for an existing one.
      const lock = await lockState(database, username, req.ip, appConfig.loginAddressLockAfter);
      if (lock.address) throw new HttpError(400, addressLockedMessage(lock.address));
      if (lock.account && !captchaAnswered) throw new HttpError(400, accountLockedMessage(lock.account), { captchaRequired: true });
      const user = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      const ok = await verifyPassword(user?.password_hash ?? DUMMY_HASH, password);
      if (!user || !ok) {
        await db.insertInto('login_attempts').values({ username, user_id: user?.id ?? null, success: false, ip: req.ip, user_agent: req.headers['user-agent'] ?? null }).execute();
        const after = await lockState(database, username, req.ip, appConfig.loginAddressLockAfter);
        // Shown in the administrators' user list; written by name so an unknown name costs the same.
        await db.updateTable('users').set({ locked_until: after.account }).where('username', '=', username).execute();
        if (after.address) throw new HttpError(400, addressLockedMessage(after.address));
        if (after.account) throw new HttpError(400, accountLockingMessage(after.account), { captchaRequired: true });
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
    // Same answer and the same per-phone limits either way: the endpoint must not reveal which phones have
    // accounts. An unknown phone gets no SMS (its code is recorded, to count, but never sent).
    await sendCode(database, user ? sender : silentSender, phone, type);
    return { status: 200, message: '验证码已发送，请注意查收' };
  });

  // Sent whether or not the phone has an account: only its owner, with the code, learns that (/auth/register).
  app.post('/auth/sms/register/verify', { config: { ...PUBLIC, ...smsLimit }, schema: phoneBody() }, async (req) => {
    await assertRegistrationOpen(config);
    const { phone } = req.body as { phone: string };
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
      await assertRegistrationOpen(config);
      const body = req.body as { phone: string; vercode: string; username: string; password: string; nickName?: string };
      const password = decryptPassword(keys.privateKey, body.password);
      const policy = await passwordPolicy(config);
      if (policy.pattern && !policy.pattern.test(password)) throw new HttpError(400, policy.tip, { errors: [{ field: 'password', message: policy.tip }] });
      const grants = await registrationGrants(database, config, app.services.orgTree);
      // The code first: without it, nobody learns whether a username or phone is taken.
      await consumeCode(database, body.phone, 'register', body.vercode);
      const taken = await db.selectFrom('users').select(['username', 'phone']).where((eb) => eb.or([eb('username', '=', body.username), eb('phone', '=', body.phone)])).executeTakeFirst();
      if (taken) throw new HttpError(400, taken.username === body.username ? '用户名已被使用' : '该手机号已注册，请直接登录');
      const passwordHash = await hashPassword(password);
      const user = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('users')
          .values({ username: body.username, nick_name: body.nickName ?? body.username, phone: body.phone, org_id: grants.orgId, password_hash: passwordHash, password_weak: isWeakPassword(password, policy), password_changed_at: new Date() })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (grants.roleId !== null) await trx.insertInto('user_roles').values({ user_id: row.id, role_id: grants.roleId }).execute();
        return row;
      });
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

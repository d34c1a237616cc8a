import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { LOGIN, PUBLIC, currentUser } from '../auth/guard.js';
import { hashToken } from '../auth/sessions.js';
import { IMAGE_TYPES, MAX_AVATAR_BYTES } from '../../../shared/file-types.js';
import { sendStoredFile } from './serve.js';
import { fileDto, fileLookup, fileRefToken, fileUrl } from './store.js';
import { fileStoreOf, receiveUpload, registerMultipart } from './upload.js';

/** A phone upload link (the QR code on the desktop page) lives this long and works once. */
const MOBILE_TOKEN_MS = 10 * 60_000;
const MOBILE_TOKEN_GONE = '二维码已失效，请在电脑端刷新';

const idOf = (req: FastifyRequest) => (req.query as { id?: unknown }).id;

/** Upload, download, view and play of files; avatars; uploads from a phone through a one-time link. */
export async function fileRoutes(app: FastifyInstance): Promise<void> {
  const { database, messages } = app.services;
  const { db } = database;
  const store = fileStoreOf(app);
  await registerMultipart(app);

  app.post('/api/file/upload', { config: LOGIN }, async (req) => {
    const { file } = await receiveUpload(req, store, { ownerId: currentUser(req).id });
    return fileDto(file);
  });

  app.get('/api/file/download', { config: LOGIN }, async (req, reply) => sendStoredFile(req, reply, store, await store.readable(currentUser(req), idOf(req)), 'attachment'));
  app.get('/api/file/view', { config: LOGIN }, async (req, reply) => sendStoredFile(req, reply, store, await store.readable(currentUser(req), idOf(req)), 'view'));
  app.get('/api/file/play', { config: LOGIN }, async (req, reply) => sendStoredFile(req, reply, store, await store.readable(currentUser(req), idOf(req)), 'view'));

  app.post('/api/users/updateAvatar', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    const { file } = await receiveUpload(req, store, { ownerId: user.id, types: IMAGE_TYPES, maxBytes: MAX_AVATAR_BYTES, moduleName: 'avatar' });
    const avatar = fileUrl(file);
    const before = await db.selectFrom('users').select('avatar').where('id', '=', user.id).executeTakeFirst();
    await db.updateTable('users').set({ avatar, updated_at: new Date() }).where('id', '=', user.id).execute();
    await app.services.sessions.forgetSessions(user.id);
    // The replaced avatar is removed when it was this user's own upload.
    const oldToken = before?.avatar?.startsWith('/api/file/view?') ? fileRefToken(before.avatar) : null;
    if (oldToken) {
      const [column, value] = fileLookup(oldToken);
      const old = await db.selectFrom('files').selectAll().where(column, '=', value as never).where('owner_id', '=', user.id).where('module_name', '=', 'avatar').executeTakeFirst();
      if (old) await store.remove([old]);
    }
    return { avatar, file: fileDto(file) };
  });

  // ---- Upload from a phone (/mobileUpload) --------------------------------------------------------

  app.post('/api/file/mobileToken', { config: LOGIN }, async (req) => {
    const token = crypto.randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + MOBILE_TOKEN_MS);
    await db.insertInto('file_upload_tokens').values({ token_hash: hashToken(token), user_id: currentUser(req).id, expires_at: expiresAt }).execute();
    return { token, expiresAt };
  });

  /** The desktop page polls this (and also receives `{type:'upload'}` on its websocket). */
  app.get('/api/file/mobileToken/:token', { config: LOGIN }, async (req) => {
    const row = await db.selectFrom('file_upload_tokens').selectAll().where('token_hash', '=', hashToken((req.params as { token: string }).token)).executeTakeFirst();
    if (!row || row.user_id !== currentUser(req).id) throw new HttpError(404, '上传链接不存在');
    const file = row.file_id ? await db.selectFrom('files').selectAll().where('id', '=', row.file_id).executeTakeFirst() : undefined;
    return { used: !!row.used_at, expired: !row.used_at && new Date(row.expires_at) < new Date(), expiresAt: row.expires_at, file: file ? fileDto(file) : null };
  });

  async function openToken(req: FastifyRequest) {
    const token = (req.query as { token?: unknown }).token;
    const row = typeof token === 'string' && token ? await db.selectFrom('file_upload_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst() : undefined;
    if (!row || row.used_at || new Date(row.expires_at) < new Date()) throw new HttpError(400, MOBILE_TOKEN_GONE);
    return row;
  }

  const mobileLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  /** Lets the phone page say at once that a scanned code is stale. */
  app.get('/api/file/mobileUpload', { config: { ...PUBLIC, ...mobileLimit } }, async (req) => {
    const row = await openToken(req);
    return { valid: true, expiresAt: row.expires_at };
  });

  app.post('/api/file/mobileUpload', { config: { ...PUBLIC, ...mobileLimit } }, async (req) => {
    const row = await openToken(req);
    const { file } = await receiveUpload(req, store, { ownerId: row.user_id });
    // Claimed only now, and only once even if two phones raced with the same code.
    const claimed = await db.updateTable('file_upload_tokens').set({ used_at: new Date(), file_id: file.id }).where('id', '=', row.id).where('used_at', 'is', null).returning('id').executeTakeFirst();
    if (!claimed) {
      await store.remove([file]);
      throw new HttpError(400, MOBILE_TOKEN_GONE);
    }
    messages.push([row.user_id], { type: 'upload', file: fileDto(file) });
    return fileDto(file);
  });
}

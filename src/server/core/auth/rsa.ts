import crypto from 'node:crypto';
import type { Database } from '../../db/database.js';
import { HttpError } from '../../errors.js';

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

const META_KEY = 'rsa_keypair';

/**
 * The password-transport key pair: made once (2048 bits) and stored with the data, so every app server
 * of a deployment shares it and restarts keep it. Never a key in the source.
 */
export async function loadOrCreateKeyPair(database: Database): Promise<KeyPair> {
  const { db } = database;
  const found = await db.selectFrom('app_meta').select('value').where('key', '=', META_KEY).executeTakeFirst();
  if (found) return found.value as KeyPair;
  const pair = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // Two servers starting at once: the first insert wins and both use the stored pair.
  await db.insertInto('app_meta').values({ key: META_KEY, value: JSON.stringify(pair) }).onConflict((oc) => oc.column('key').doNothing()).execute();
  const stored = await db.selectFrom('app_meta').select('value').where('key', '=', META_KEY).executeTakeFirstOrThrow();
  return stored.value as KeyPair;
}

/** Decrypts base64 RSA-OAEP (SHA-256) of a password's UTF-8 bytes, as the web client sends it. */
export function decryptPassword(privateKey: string, encrypted: unknown, field = 'password'): string {
  if (typeof encrypted !== 'string' || encrypted.length === 0) {
    throw new HttpError(400, '密码不能为空', { errors: [{ field, message: '密码不能为空' }] });
  }
  try {
    return crypto
      .privateDecrypt({ key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(encrypted, 'base64'))
      .toString('utf8');
  } catch {
    throw new HttpError(400, '密码数据无法解密，请刷新页面后重试', { errors: [{ field, message: '密码数据无法解密' }] });
  }
}

/** What the browser does (jsencrypt encryptOAEP): used by tests and scripts that call the API. */
export function encryptPassword(publicKey: string, plain: string): string {
  return crypto.publicEncrypt({ key: publicKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain, 'utf8')).toString('base64');
}

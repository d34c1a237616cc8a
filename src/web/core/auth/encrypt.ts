import { get } from '../request/request';

let publicKey: Promise<string> | undefined;

/** The server's password-transport public key, fetched once. */
export function getPublicKey(): Promise<string> {
  publicKey ??= get<{ publicKey: string }>('/auth/publicKey').then((r) => r.publicKey);
  publicKey.catch(() => (publicKey = undefined));
  return publicKey;
}

/** Encrypts a password for the wire; the RSA library loads on first use, not with the first page. */
export async function encrypt(plain: string): Promise<string> {
  const [{ encryptWith }, key] = await Promise.all([import('./encrypt-rsa'), getPublicKey()]);
  return encryptWith(key, plain);
}

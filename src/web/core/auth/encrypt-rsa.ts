import { JSEncrypt } from 'jsencrypt';

/**
 * Base64 RSA-OAEP (SHA-256) of the password's UTF-8 bytes (DESIGN.md §6): jsencrypt takes one byte per
 * character, so the UTF-8 bytes go in as a binary string or non-ASCII passwords break.
 */
export function encryptWith(key: string, plain: string): string {
  const rsa = new JSEncrypt();
  rsa.setPublicKey(key);
  const bytes = unescape(encodeURIComponent(plain));
  const result = rsa.encryptOAEP(bytes);
  if (!result) throw new Error('password encryption failed');
  return result;
}

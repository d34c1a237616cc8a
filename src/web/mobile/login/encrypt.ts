/**
 * The password for the wire as the server expects it (DESIGN.md §6: base64 RSA-OAEP with SHA-256 over the UTF-8
 * bytes). The browser's own WebCrypto does it at no download cost where it exists (https, localhost); elsewhere
 * (plain http on a campus network) the desktop's jsencrypt is loaded, on the login screen only.
 */
function spkiOf(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

export async function encryptPassword(publicKey: string, plain: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const key = await subtle.importKey('spki', spkiOf(publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const sealed = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain)));
    let binary = '';
    sealed.forEach((b) => (binary += String.fromCharCode(b)));
    return btoa(binary);
  }
  const { encryptWith } = await import('../../core/auth/encrypt-rsa');
  return encryptWith(publicKey, plain);
}

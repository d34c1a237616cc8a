import { inject } from 'vitest';
import { encryptPassword } from '../../src/server/core/auth/rsa.js';

/** Calls the e2e server's API directly (set-up and checks around browser steps). */
export async function api<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${inject('baseUrl')}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T };
}

let publicKey: string | undefined;
export async function encryptForServer(plain: string): Promise<string> {
  publicKey ??= (await api<{ publicKey: string }>('GET', '/auth/publicKey')).body.publicKey;
  return encryptPassword(publicKey, plain);
}

export async function apiLogin(username = 'admin', password = 'Dangjian@2026'): Promise<string> {
  const res = await api<{ token: string }>('POST', '/auth/login', { username, password: await encryptForServer(password) });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** The stored value of a configuration key (listAll also answers derived keys such as `school`). */
export async function storedSysConfig(adminToken: string, configKey: string): Promise<string | undefined> {
  const page = await api<{ content: { configKey: string; configValue: string }[] }>('GET', `/api/sysConfig?size=100&blurry=${encodeURIComponent(configKey)}`, undefined, adminToken);
  return page.body.content.find((i) => i.configKey === configKey)?.configValue;
}

/** Sets a system configuration value as administrator; returns the previous stored value. */
export async function setSysConfig(adminToken: string, configKey: string, configValue: string): Promise<string | undefined> {
  const previous = await storedSysConfig(adminToken, configKey);
  const res = previous === undefined
    ? await api('POST', '/api/sysConfig', { configKey, configValue }, adminToken)
    : await api('PUT', '/api/sysConfig', { configKey, configValue }, adminToken);
  if (res.status >= 300) throw new Error(`sysConfig ${configKey}: ${JSON.stringify(res.body)}`);
  return previous;
}

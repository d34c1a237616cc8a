import crypto from 'node:crypto';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decryptPassword } from '../../src/server/core/auth/rsa';
import { PASS_COOKIE_EXPIRES, TOKEN_COOKIE_EXPIRES } from '../../src/shared/constants';
import { defaultSettings } from '../../src/shared/school-branding';
import { encryptWith } from '../../src/web/core/auth/encrypt-rsa';
import * as token from '../../src/web/core/auth/token';
import { request } from '../../src/web/core/request/request';
import { effectiveRoles, useSession } from '../../src/web/core/stores/session';

const pair = crypto.generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

afterEach(() => {
  vi.restoreAllMocks();
  token.removeToken();
  token.forgetCredentials();
});

describe('password encryption in the browser', () => {
  it('[S5.V2b] the helper output differs from the input and the server private key decrypts it, non-ASCII included', () => {
    for (const plain of ['Dangjian@2026', '党建Pass#2026', 'ÄÖü-пароль']) {
      const sent = encryptWith(pair.publicKey, plain);
      expect(sent).not.toBe(plain);
      expect(sent).not.toContain(plain);
      expect(decryptPassword(pair.privateKey, sent)).toBe(plain);
    }
    // OAEP is randomised: the same password never looks the same twice on the wire.
    expect(encryptWith(pair.publicKey, 'x')).not.toBe(encryptWith(pair.publicKey, 'x'));
  });
});

describe('token and remembered credentials', () => {
  it('[S9.L8c] one fixed key reads, writes and removes the token', () => {
    token.setToken('abc');
    expect(Cookies.get(token.TOKEN_KEY)).toBe('abc');
    expect(token.getToken()).toBe('abc');
    token.removeToken();
    expect(Cookies.get(token.TOKEN_KEY)).toBeUndefined();
  });

  it('[S9.L8a][S9.L8b][S3.E10b] the token and remembered-login cookies expire after 1 (from the settings value)', () => {
    const set = vi.spyOn(Cookies, 'set');
    token.setToken('abc', true, defaultSettings.tokenCookieExpires);
    token.remember({ username: 'admin' });
    expect(set.mock.calls[0][2]).toMatchObject({ expires: 1 });
    expect(set.mock.calls.length).toBeGreaterThan(1);
    expect(set.mock.calls.slice(1).every((c) => (c[2] as { expires: number }).expires === PASS_COOKIE_EXPIRES)).toBe(true);
    expect(defaultSettings.tokenCookieExpires).toBe(TOKEN_COOKIE_EXPIRES);
    expect(TOKEN_COOKIE_EXPIRES).toBe(1);
    expect(PASS_COOKIE_EXPIRES).toBe(1);
  });
});

describe('the session store', () => {
  it('[S3.E1a] holds token, a user with roles, and loadMenus', () => {
    const s = useSession.getState();
    expect(s).toHaveProperty('token');
    expect(s).toHaveProperty('user');
    expect(s).toHaveProperty('roles');
    expect(s.loadMenus).toBe(false);
  });

  it('[S3.E1b][S6.P1b] a user with an empty roles list gets ROLE_SYSTEM_DEFAULT', () => {
    expect(effectiveRoles([])).toEqual(['ROLE_SYSTEM_DEFAULT']);
    expect(effectiveRoles(undefined)).toEqual(['ROLE_SYSTEM_DEFAULT']);
    expect(effectiveRoles(['member:list'])).toEqual(['member:list']);
  });

  it('[S5.V1][S6.P1a] login trims the username, encrypts the password and takes roles from the user record; [S4.S2] logout clears token, roles and credentials', async () => {
    const calls: { url: string; data: unknown }[] = [];
    vi.spyOn(request, 'get').mockImplementation(async (url: string) => {
      calls.push({ url, data: undefined });
      if (url === '/auth/publicKey') return { data: { publicKey: pair.publicKey } };
      return { data: {} };
    });
    vi.spyOn(request, 'post').mockImplementation(async (url: string, data?: unknown) => {
      calls.push({ url, data });
      return { data: { token: 'tok-1', user: { id: 1, username: 'admin', roles: [] } } };
    });
    await useSession.getState().login({ username: '  admin  ', password: '党建Pass#1', rememberMe: true });
    const sent = calls.find((c) => c.url === '/auth/login')!.data as { username: string; password: string };
    expect(sent.username).toBe('admin');
    expect(decryptPassword(pair.privateKey, sent.password)).toBe('党建Pass#1');
    expect(useSession.getState()).toMatchObject({ token: 'tok-1', roles: ['ROLE_SYSTEM_DEFAULT'] });
    expect(token.getToken()).toBe('tok-1');
    expect(token.getRemembered()?.username).toBe('admin');
    // "Remember me" keeps no password, not even the encrypted one a script could replay (issue 12).
    expect(Object.values(Cookies.get()).some((v) => v === sent.password)).toBe(false);
    expect(JSON.stringify(Cookies.get())).not.toContain('党建Pass#1');

    await useSession.getState().logout();
    expect(calls.some((c) => c.url === '/auth/logout')).toBe(true);
    expect(useSession.getState()).toMatchObject({ token: undefined, user: null, roles: [], loadMenus: false });
    expect(token.getToken()).toBeUndefined();
    expect(token.getRemembered()).toBeUndefined();
  });
});

import Cookies from 'js-cookie';
import { PASS_COOKIE_EXPIRES, TOKEN_COOKIE_EXPIRES } from '../../../shared/constants';

/** The one cookie name for the session token: reading, writing and removing all use it (spec §9). */
export const TOKEN_KEY = 'DJ-TOKEN';
const USERNAME_KEY = 'username';
/** Earlier versions kept the encrypted password here; only removed now. */
const PASSWORD_KEY = 'password';
const REMEMBER_KEY = 'rememberMe';

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_KEY);
}

/** `expires` in days, from the site setting tokenCookieExpires (1 by default); a session cookie when not remembered. */
export function setToken(token: string, remember = false, expires = TOKEN_COOKIE_EXPIRES): void {
  Cookies.set(TOKEN_KEY, token, remember ? { expires, sameSite: 'lax' } : { sameSite: 'lax' });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_KEY);
}

/**
 * "Remember me" remembers the username only, for passCookieExpires. The password, even encrypted, is never
 * kept in a cookie: a script-readable cookie holding it could be replayed to log in (security issue 12).
 */
export interface RememberedLogin {
  username: string;
}

export function getRemembered(): RememberedLogin | undefined {
  const username = Cookies.get(USERNAME_KEY);
  return Cookies.get(REMEMBER_KEY) && username ? { username } : undefined;
}

export function remember(login: RememberedLogin, expires = PASS_COOKIE_EXPIRES): void {
  Cookies.set(USERNAME_KEY, login.username, { expires, sameSite: 'lax' });
  Cookies.set(REMEMBER_KEY, '1', { expires, sameSite: 'lax' });
  Cookies.remove(PASSWORD_KEY); // written by earlier versions
}

export function forgetCredentials(): void {
  Cookies.remove(USERNAME_KEY);
  Cookies.remove(PASSWORD_KEY);
  Cookies.remove(REMEMBER_KEY);
}

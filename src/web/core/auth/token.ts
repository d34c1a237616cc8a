import Cookies from 'js-cookie';
import { PASS_COOKIE_EXPIRES, TOKEN_COOKIE_EXPIRES } from '../../../shared/constants';

/** The one cookie name for the session token: reading, writing and removing all use it (spec §9). */
export const TOKEN_KEY = 'DJ-TOKEN';
const USERNAME_KEY = 'username';
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

export interface RememberedLogin {
  username: string;
  /** The RSA-encrypted password, never the plain text. */
  password: string;
}

export function getRemembered(): RememberedLogin | undefined {
  const username = Cookies.get(USERNAME_KEY);
  const password = Cookies.get(PASSWORD_KEY);
  return Cookies.get(REMEMBER_KEY) && username && password ? { username, password } : undefined;
}

export function remember(login: RememberedLogin, expires = PASS_COOKIE_EXPIRES): void {
  Cookies.set(USERNAME_KEY, login.username, { expires, sameSite: 'lax' });
  Cookies.set(PASSWORD_KEY, login.password, { expires, sameSite: 'lax' });
  Cookies.set(REMEMBER_KEY, '1', { expires, sameSite: 'lax' });
}

export function forgetCredentials(): void {
  Cookies.remove(USERNAME_KEY);
  Cookies.remove(PASSWORD_KEY);
  Cookies.remove(REMEMBER_KEY);
}

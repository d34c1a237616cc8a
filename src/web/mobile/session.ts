import type { PublicUser } from '../../shared/session-user';
import { getToken } from '../core/auth/token';

/** The signed-in user the server put inside the page (web-static.ts, `#m-session`), or null: then /auth/info is asked. */
export function userFromPage(): PublicUser | null {
  const block = document.getElementById('m-session');
  if (!block || !getToken()) return null;
  try {
    return JSON.parse(block.textContent ?? '') as PublicUser;
  } catch {
    return null;
  }
}

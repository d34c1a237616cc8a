import { redirect } from 'react-router-dom';
import { getToken } from './token';
import { configFlag } from '../stores/sysconfig';

/** Paths open without a session (spec §2), and any path that starts with one of them. */
export const OPEN_PATHS = ['/login', '/newlogin', '/kclogin', '/lylogin', '/rjlogin', '/mobileUpload'] as const;

export function isOpenPath(pathname: string): boolean {
  return OPEN_PATHS.some((p) => pathname.startsWith(p));
}

/** Where a visitor without a session goes: /login, or /newlogin when the new-login setting is on. */
export function loginPathFor(target: string): string {
  const base = configFlag('isNewLogin') ? '/newlogin' : '/login';
  return `${base}?redirect=${encodeURIComponent(target)}`;
}

/** The web-app path of a router request (the router's basename /web removed). */
export function appPath(request: Request): { pathname: string; search: URLSearchParams; full: string } {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/^\/web(?=\/|$)/, '') || '/';
  url.searchParams.delete('sessionId');
  const query = url.searchParams.toString();
  return { pathname, search: new URL(request.url).searchParams, full: pathname + (query ? `?${query}` : '') };
}

/** Login pages: a signed-in user going to /login or /newlogin goes to the root (spec S2.G3). */
export function loginGuard({ request }: { request: Request }) {
  const { pathname } = appPath(request);
  if (getToken() && (pathname === '/login' || pathname === '/newlogin')) return redirect('/');
  return null;
}

import { redirect } from 'react-router-dom';
import { getToken } from './token';
import { configFlag } from '../stores/sysconfig';
import { usePermission } from '../stores/permission';
import { useSession } from '../stores/session';

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
function appPath(request: Request): { pathname: string; search: URLSearchParams; full: string } {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/^\/web(?=\/|$)/, '') || '/';
  url.searchParams.delete('sessionId');
  const query = url.searchParams.toString();
  return { pathname, search: new URL(request.url).searchParams, full: pathname + (query ? `?${query}` : '') };
}

/**
 * The navigation guard of spec §2 for every page inside the layout: session token, single sign-on
 * `?sessionId=`, user info before menus, logout when the info fetch fails, `/` to the first menu entry.
 */
export async function layoutGuard({ request }: { request: Request }) {
  const { pathname, search, full } = appPath(request);
  if (!getToken()) {
    const sessionId = search.get('sessionId');
    if (sessionId) {
      useSession.getState().adoptToken(sessionId);
      return redirect('/');
    }
    return redirect(loginPathFor(full));
  }
  const session = useSession.getState();
  if (!session.user || session.roles.length === 0) {
    try {
      await session.getInfo();
    } catch {
      await session.logout(false);
      usePermission.getState().reset();
      return redirect(loginPathFor(full));
    }
  }
  if (!useSession.getState().loadMenus) {
    try {
      await usePermission.getState().loadMenuRoutes();
    } catch {
      usePermission.getState().reset();
    }
    useSession.getState().setLoadMenus(true);
  }
  if (pathname === '/') return redirect(usePermission.getState().extraPath);
  return null;
}

/** Login pages: a signed-in user going to /login or /newlogin goes to the root (spec S2.G3). */
export function loginGuard({ request }: { request: Request }) {
  const { pathname } = appPath(request);
  if (getToken() && (pathname === '/login' || pathname === '/newlogin')) return redirect('/');
  return null;
}

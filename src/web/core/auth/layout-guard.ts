import { redirect } from 'react-router-dom';
import { usePermission } from '../stores/permission';
import { useSession } from '../stores/session';
import { getToken } from './token';
import { appPath, isOpenPath, loginPathFor } from './guard';

/**
 * The navigation guard of spec §2 for every page inside the layout: session token, single sign-on
 * `?sessionId=`, user info before menus, logout when the info fetch fails, `/` to the first menu entry.
 * A path that starts with an open path (`/loginFoo`, `/mobileUpload/x`) needs no session: it is no page
 * of the app, so it goes where the catch-all sends unknown paths, the root.
 */
export async function layoutGuard({ request }: { request: Request }) {
  const { pathname, search, full } = appPath(request);
  if (!getToken()) {
    const sessionId = search.get('sessionId');
    if (sessionId) {
      useSession.getState().adoptToken(sessionId);
      return redirect('/');
    }
    if (isOpenPath(pathname)) return redirect('/');
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

import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { NavigationEffects } from './NavigationEffects';
import type { RouteMeta } from './route-meta';

export const WEB_BASE = '/web';

function Root() {
  return (
    <>
      <NavigationEffects />
      <Outlet />
    </>
  );
}

const loginPage = () => import('../pages/login/LoginPage').then((m) => ({ Component: m.default }));
const loginMeta: RouteMeta = { title: '登录', hidden: true, noCache: true };

/** The constant routes of spec section 2 built so far; pages load on demand (one chunk per route). */
export const constantRoutes: (RouteObject & { handle?: RouteMeta })[] = [
  ...['/login', '/newlogin', '/kclogin', '/lylogin', '/rjlogin'].map((path) => ({ path, lazy: loginPage, handle: loginMeta })),
  { path: '/404', lazy: () => import('../pages/error/NotFoundPage').then((m) => ({ Component: m.default })), handle: { title: '404', hidden: true } },
  { path: '/401', lazy: () => import('../pages/error/ForbiddenPage').then((m) => ({ Component: m.default })), handle: { title: '401', hidden: true } },
  { path: '/', element: <Navigate to="/login" replace />, handle: { hidden: true } },
  { path: '*', element: <Navigate to="/" replace />, handle: { hidden: true } },
];

export function createAppRouter() {
  return createBrowserRouter([{ element: <Root />, children: constantRoutes }], { basename: WEB_BASE });
}

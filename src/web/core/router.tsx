import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { layoutGuard, loginGuard } from './auth/guard';
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

export type AppRouteObject = RouteObject & { handle?: RouteMeta };

/** The constant routes of spec §2 outside the layout; pages load on demand (one chunk per route). */
export const constantRoutes: AppRouteObject[] = [
  ...['/login', '/newlogin', '/kclogin', '/lylogin', '/rjlogin'].map((path) => ({ path, lazy: loginPage, loader: loginGuard, handle: loginMeta })),
  { path: '/mobileUpload', lazy: () => import('../pages/mobile-upload/MobileUploadPage').then((m) => ({ Component: m.default })), handle: { title: '上传文件', hidden: true, noCache: true } },
  { path: '/404', lazy: () => import('../pages/error/NotFoundPage').then((m) => ({ Component: m.default })), handle: { title: '404', hidden: true } },
  { path: '/401', lazy: () => import('../pages/error/ForbiddenPage').then((m) => ({ Component: m.default })), handle: { title: '401', hidden: true } },
];

/** Everything else is inside the layout, behind the guard; the layout resolves the page from the menu. */
export const layoutRoute: AppRouteObject = {
  path: '/*',
  loader: layoutGuard,
  lazy: () => import('./layout/Layout').then((m) => ({ Component: m.default })),
  handle: { hidden: true },
};

export function createAppRouter() {
  return createBrowserRouter([{ element: <Root />, children: [...constantRoutes, layoutRoute, { path: '*', element: <Navigate to="/" replace /> }] }], { basename: WEB_BASE });
}

import type { ComponentType } from 'react';
import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { loginGuard } from '../core/auth/guard';
import { NavigationEffects } from '../core/NavigationEffects';
import { NavigationProgress } from '../core/NavigationProgress';
import type { RouteMeta } from '../core/route-meta';

export const WEB_BASE = '/web';

function Root() {
  return (
    <>
      <NavigationEffects />
      <Outlet />
    </>
  );
}

/** Pages that work with server data load the app shell (antd App, query cache) with them; see app-shell.tsx. */
function withAppShell(load: () => Promise<{ default: ComponentType }>) {
  return async () => {
    const [{ default: Page }, { AppShell }] = await Promise.all([load(), import('../core/app-shell')]);
    return {
      Component: () => (
        <AppShell>
          <Page />
        </AppShell>
      ),
    };
  };
}

const loginPage = () => import('../pages/login/LoginPage').then((m) => ({ Component: m.default }));
const loginMeta: RouteMeta = { title: '登录', hidden: true, noCache: true };

export type AppRouteObject = RouteObject & { handle?: RouteMeta };

/** The constant routes of spec §2 outside the layout; pages load on demand (one chunk per route). */
export const constantRoutes: AppRouteObject[] = [
  ...['/login', '/newlogin', '/kclogin', '/lylogin', '/rjlogin'].map((path) => ({ path, lazy: loginPage, loader: loginGuard, handle: loginMeta })),
  { path: '/mobileUpload', lazy: withAppShell(() => import('../pages/mobile-upload/MobileUploadPage')), handle: { title: '上传文件', hidden: true, noCache: true } },
  { path: '/404', lazy: () => import('../pages/error/NotFoundPage').then((m) => ({ Component: m.default })), handle: { title: '404', hidden: true } },
  { path: '/401', lazy: () => import('../pages/error/ForbiddenPage').then((m) => ({ Component: m.default })), handle: { title: '401', hidden: true } },
];

/** Everything else is inside the layout, behind the guard; the layout resolves the page from the menu. */
export const layoutRoute: AppRouteObject = {
  path: '/*',
  // The guard loads with the layout (it brings the menu code, which the login page does not need).
  loader: (args) => import('../core/auth/layout-guard').then((m) => m.layoutGuard(args)),
  lazy: withAppShell(() => import('./AppLayout')),
  handle: { hidden: true },
};

/** Every route of the app: the constant routes, the layout, and the catch-all to the root (spec §2). */
// The loading bar while the first page's code and data load (react-router warned on every full load without one).
const FirstLoad = () => <NavigationProgress loading />;

export const appRoutes: RouteObject[] = [{ element: <Root />, HydrateFallback: FirstLoad, children: [...constantRoutes, layoutRoute, { path: '*', element: <Navigate to="/" replace /> }] }];

export function createAppRouter() {
  return createBrowserRouter(appRoutes, { basename: WEB_BASE });
}

import { lazy, Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';
import { matchPath } from 'react-router-dom';
import { parseComponent } from '../../shared/menus';
import type { ConstantLayoutRoute, ResolvedPage } from '../core/layout/layout-pages';
import { menuRouteFor } from '../core/stores/permission';
import { PendingPage, constantLayoutRoutes, corePages } from '../pages/registry';

const ModulePage = lazy(() => import('../renderer/ModulePage'));

const fallback = (
  <div style={{ padding: 48, textAlign: 'center' }}>
    <Spin />
  </div>
);

const isPattern = (path: string) => /[:*]/.test(path);

/** The constant layout route of a path: an exact path first, then the patterns in table order. */
export function constantRouteFor(pathname: string): ConstantLayoutRoute | undefined {
  return (
    constantLayoutRoutes.find((r) => !isPattern(r.path) && r.path === pathname) ??
    constantLayoutRoutes.find((r) => isPattern(r.path) && matchPath({ path: r.path, end: true }, pathname))
  );
}

/** Which page a path inside the layout shows: a constant route, or a page of the user's server menu. */
export function resolvePage(pathname: string): ResolvedPage | undefined {
  const constant = constantRouteFor(pathname);
  if (constant) {
    const Page = corePages[constant.page];
    return {
      path: pathname,
      title: constant.title,
      name: constant.name ?? '',
      noCache: !!constant.noCache,
      affix: !!constant.affix,
      hidden: !!constant.hidden,
      redirect: constant.redirect,
      element: <Suspense fallback={fallback}><Page title={constant.title} /></Suspense>,
    };
  }
  const route = menuRouteFor(pathname);
  if (!route) return undefined;
  const title = route.meta.title ?? 'no-name';
  const component = parseComponent(route.component);
  let element: ReactNode;
  if (component?.kind === 'module') element = <ModulePage moduleId={component.id} title={title} />;
  else if (component?.kind === 'core' && corePages[component.id]) {
    const Page = corePages[component.id];
    element = <Page title={title} />;
  } else element = <PendingPage title={title} />;
  return {
    path: pathname,
    title,
    name: route.name,
    noCache: !!route.meta.noCache,
    affix: !!route.meta.affix,
    hidden: !!route.meta.hidden,
    redirect: route.meta.redirect,
    element: <Suspense fallback={fallback}>{element}</Suspense>,
  };
}

import type { AppRoute } from '../../../shared/menus';

export interface Crumb {
  title: string;
  /** Where the entry leads; absent for groups and `noredirect` entries. */
  path?: string;
}

export const HOME_CRUMB: Crumb = { title: '首页', path: '/dashboard' };

/** The chain of menu routes from a first-level route down to the page with `pathname`, if any. */
export function menuChain(routes: AppRoute[], pathname: string): AppRoute[] | undefined {
  // Visible entries first: a level-3 page is also registered (hidden) directly below its first level.
  const ordered = [...routes.filter((r) => !r.meta.hidden), ...routes.filter((r) => r.meta.hidden)];
  for (const route of ordered) {
    if (route.path === pathname && route.component) return [route];
    const below = route.children && menuChain(route.children, pathname);
    if (below) return [route, ...below];
  }
  return undefined;
}

/**
 * The breadcrumb of a page (spec §2): always starting at 首页 (/dashboard), then the menu groups above the
 * page, then the page. Entries with `breadcrumb: false` are skipped.
 */
export function breadcrumbOf(topbarRouters: AppRoute[], pathname: string, page?: { title: string; redirect?: string }): Crumb[] {
  if (pathname === HOME_CRUMB.path) return [HOME_CRUMB];
  const chain = menuChain(topbarRouters, pathname);
  if (chain) {
    const crumbs = chain
      .filter((r) => r.meta.breadcrumb !== false)
      .map((r): Crumb => ({ title: r.meta.title, ...(r.component && r.meta.redirect !== 'noredirect' ? { path: r.path } : {}) }));
    // The page itself under its own title, as its tag and the window title name it (a constant route such as
    // /pschool is 党校 there, though its menu entry says 学习中心).
    const last = crumbs[crumbs.length - 1];
    if (page?.title && last?.path === pathname) last.title = page.title;
    return [HOME_CRUMB, ...crumbs];
  }
  if (!page?.title) return [HOME_CRUMB];
  return [HOME_CRUMB, { title: page.title, ...(page.redirect === 'noredirect' ? {} : { path: pathname }) }];
}

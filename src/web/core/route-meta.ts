import type { RouteMeta as MenuRouteMeta } from '../../shared/menus';

/** Route meta of spec section 3 (shared with the server menu); constant routes may leave out the title. */
export type RouteMeta = Omit<MenuRouteMeta, 'title'> & { title?: string };

/** The site title shown after every route title until system configuration provides `htmlTitle`. */
export const DEFAULT_SITE_TITLE = '党建工作管理系统';

export function pageTitle(routeTitle: string | undefined, siteTitle: string = DEFAULT_SITE_TITLE): string {
  return routeTitle ? `${routeTitle} - ${siteTitle}` : siteTitle;
}

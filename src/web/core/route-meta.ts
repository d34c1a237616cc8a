/** Route meta of spec section 3: carried by constant routes and by routes built from the server menu. */
export interface RouteMeta {
  title?: string;
  icon?: string;
  affix?: boolean;
  breadcrumb?: boolean;
  hidden?: boolean;
  alwaysShow?: boolean;
  redirect?: string;
  noCache?: boolean;
}

/** The site title shown after every route title until system configuration provides `htmlTitle`. */
export const DEFAULT_SITE_TITLE = '党建工作管理系统';

export function pageTitle(routeTitle: string | undefined, siteTitle: string = DEFAULT_SITE_TITLE): string {
  return routeTitle ? `${routeTitle} - ${siteTitle}` : siteTitle;
}

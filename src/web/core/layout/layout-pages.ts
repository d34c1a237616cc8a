import { createContext, useContext, type ReactNode } from 'react';

/** A route inside the layout that every signed-in user has (spec §2 route table), as the app lists them. */
export interface ConstantLayoutRoute {
  /** A path, or a react-router pattern (`/pschool/:navigation`, `/redirect/*`). */
  path: string;
  /** Route name: the tag's cache key. Routes without one get no tag (the redirect helper). */
  name?: string;
  /** The page it shows: a key of the app's page registry. */
  page: string;
  title: string;
  noCache?: boolean;
  affix?: boolean;
  /** Hidden routes are not listed in the menu or the header search. */
  hidden?: boolean;
  /** `noredirect`: its breadcrumb entry is not a link. */
  redirect?: string;
  icon?: string;
}

/** The page a path inside the layout shows, with what the tags, breadcrumb and title need. */
export interface ResolvedPage {
  path: string;
  title: string;
  /** The route name (tag and cache key); empty for helpers that get no tag (the redirect route). */
  name: string;
  noCache: boolean;
  affix: boolean;
  hidden: boolean;
  /** `noredirect`: the page's breadcrumb entry is not a link. */
  redirect?: string;
  element: ReactNode;
}

/**
 * What the layout shows inside it, handed down by the app's composition root (src/web/app), so the
 * layout itself knows neither the pages nor the schema renderer.
 */
export interface LayoutPages {
  /** Which page a path shows: a constant route or a page of the user's server menu; undefined if none. */
  resolve(pathname: string): ResolvedPage | undefined;
  /** The constant routes inside the layout (affix tags, the header search). */
  constantRoutes: ConstantLayoutRoute[];
}

export const LayoutPagesContext = createContext<LayoutPages | null>(null);

export function useLayoutPages(): LayoutPages {
  const pages = useContext(LayoutPagesContext);
  if (!pages) throw new Error('the layout needs LayoutPagesContext (src/web/app/AppLayout.tsx provides it)');
  return pages;
}

import Fuse, { type IFuseOptions } from 'fuse.js';
import type { AppRoute } from '../../../shared/menus';
import type { ConstantLayoutRoute } from './layout-pages';

/** One entry of the header search: a page the user may open. */
export interface SearchEntry {
  title: string;
  path: string;
  /** Titles of the menu groups above the page, for the result label (党员管理 > 党员基本信息). */
  trail: string[];
}

/** Spec §2: fuzzy, threshold 0.4, title weighted 0.7 and path 0.3. */
export const SEARCH_OPTIONS: IFuseOptions<SearchEntry> = {
  threshold: 0.4,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
};

function collect(routes: AppRoute[], trail: string[], out: SearchEntry[]): void {
  for (const route of routes) {
    // A hidden route is left out with everything below it (the level-3 copies registered under the
    // first-level path are hidden too: the visible sidebar entry stands for them).
    if (route.meta.hidden) continue;
    if (route.children?.length) collect(route.children, [...trail, route.meta.title], out);
    else if (route.component && !out.some((e) => e.path === route.path)) out.push({ title: route.meta.title, path: route.path, trail });
  }
}

/**
 * What the header search covers: the visible constant layout routes and the visible pages of the
 * user's permission-filtered server menu. Nothing hidden, nothing the user may not open.
 */
export function searchEntries(topbarRouters: AppRoute[], constantRoutes: ConstantLayoutRoute[]): SearchEntry[] {
  const out: SearchEntry[] = constantRoutes
    .filter((r) => !r.hidden && !/[:*]/.test(r.path))
    .map((r) => ({ title: r.title, path: r.path, trail: [] }));
  collect(topbarRouters, [], out);
  return out;
}

/** A result's label: the groups above the page, then the page; a page named like its group says it once (党费管理, not 党费管理 > 党费管理). */
export function searchLabel(e: SearchEntry): string {
  const trail = e.trail.at(-1) === e.title ? e.trail.slice(0, -1) : e.trail;
  return [...trail, e.title].join(' > ');
}

export function createRouteSearch(entries: SearchEntry[]): Fuse<SearchEntry> {
  return new Fuse(entries, SEARCH_OPTIONS);
}

import { Activity, useMemo, useRef, type ReactNode } from 'react';
import { UNSAFE_LocationContext as LocationContext, useLocation, useNavigationType, type Location, type NavigationType } from 'react-router-dom';
import { useTags } from '../stores/tags';
import { Breadcrumbs } from './Breadcrumbs';
import { useLayoutPages, type ResolvedPage } from './layout-pages';

interface ViewLocation {
  location: Location;
  navigationType: NavigationType;
}

/** A view sees the location it was last shown at, so a hidden page does not react to other routes. */
function PinnedLocation({ value, children }: { value: ViewLocation; children: ReactNode }) {
  return <LocationContext.Provider value={value}>{children}</LocationContext.Provider>;
}

/**
 * The page area with keep-alive (spec §2): the views of open tags stay mounted but hidden (React
 * Activity keeps their state and DOM and pauses their effects), except noCache routes and closed or
 * refreshed tags, whose views are unmounted and created anew next time.
 */
export function AppMain({ page, keepAlive }: { page: ResolvedPage; keepAlive: boolean }) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const visited = useTags((s) => s.visitedViews);
  const cached = useTags((s) => s.cachedViews);
  const pinned = useRef(new Map<string, ViewLocation>());
  const { resolve } = useLayoutPages();

  const current = pinned.current.get(page.path);
  if (!current || current.location !== location) pinned.current.set(page.path, { location, navigationType });

  // While at /redirect/<path>, the view of <path> is left out: it is unmounted and comes back new.
  const refreshing = page.path.startsWith('/redirect/') ? page.path.slice('/redirect'.length) : undefined;

  const views = useMemo(() => {
    const kept = keepAlive ? visited.filter((v) => cached.includes(v.name) && pinned.current.has(v.path) && v.path !== refreshing).map((v) => v.path) : [];
    const paths = keepAlive ? visited.map((v) => v.path).filter((p) => p === page.path || kept.includes(p)) : [];
    if (!paths.includes(page.path)) paths.push(page.path);
    for (const path of [...pinned.current.keys()]) if (!paths.includes(path)) pinned.current.delete(path);
    return paths.map((path): ResolvedPage | undefined => (path === page.path ? page : resolve(path))).filter((v): v is ResolvedPage => !!v);
  }, [keepAlive, visited, cached, page, refreshing, resolve]);

  return (
    <main className="app-main">
      <Breadcrumbs page={page} />
      {views.map((view) => (
        <Activity key={view.path} mode={view.path === page.path ? 'visible' : 'hidden'}>
          <PinnedLocation value={pinned.current.get(view.path)!}>
            <div className="app-view" data-view={view.path}>
              {view.element}
            </div>
          </PinnedLocation>
        </Activity>
      ))}
    </main>
  );
}

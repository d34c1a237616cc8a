import { useEffect } from 'react';
import { useLocation, useMatches, useNavigation } from 'react-router-dom';
import { NavigationProgress } from './NavigationProgress';
import { pageTitle, type RouteMeta } from './route-meta';
import { useSysConfig } from './stores/sysconfig';

/** Sets the page title: route title followed by the site title `htmlTitle` (spec §2). */
export function useDocumentTitle(title: string | undefined) {
  const siteTitle = useSysConfig((s) => s.map.htmlTitle);
  useEffect(() => {
    if (title !== undefined) document.title = pageTitle(title, siteTitle || undefined);
  }, [title, siteTitle]);
}

/** The loading bar during navigation, scroll to top after it, and the title of routes outside the layout. */
export function NavigationEffects() {
  const navigation = useNavigation();
  const location = useLocation();
  const matches = useMatches();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const meta = [...matches].reverse().find((m) => (m.handle as RouteMeta | undefined)?.title)?.handle as RouteMeta | undefined;
  useDocumentTitle(meta?.title);
  return <NavigationProgress loading={navigation.state !== 'idle'} />;
}

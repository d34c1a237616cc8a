import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { useLocation, useMatches, useNavigation } from 'react-router-dom';
import { pageTitle, type RouteMeta } from './route-meta';

NProgress.configure({ showSpinner: false });

/** The loading bar during navigation, scroll to top after it, and the page title from route meta. */
export function NavigationEffects() {
  const navigation = useNavigation();
  const location = useLocation();
  const matches = useMatches();

  useEffect(() => {
    if (navigation.state === 'idle') NProgress.done();
    else NProgress.start();
  }, [navigation.state]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const meta = [...matches].reverse().find((m) => (m.handle as RouteMeta | undefined)?.title)?.handle as RouteMeta | undefined;
  useEffect(() => {
    document.title = pageTitle(meta?.title);
  }, [meta?.title]);
  return null;
}

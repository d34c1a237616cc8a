import { Navigate, useLocation } from 'react-router-dom';

/** `/redirect/<path>`: goes on to `<path>` at once, so the view of `<path>` is created anew (tag refresh). */
export default function RedirectPage() {
  const { pathname, search } = useLocation();
  const target = pathname.replace(/^\/redirect(?=\/|$)/, '') || '/';
  return <Navigate to={target + search} replace />;
}

import Layout from '../core/layout/Layout';
import { LayoutPagesContext, type LayoutPages } from '../core/layout/layout-pages';
import { constantLayoutRoutes } from '../pages/registry';
import { resolvePage } from './resolve-page';

const pages: LayoutPages = { resolve: resolvePage, constantRoutes: constantLayoutRoutes };

/** The signed-in layout with this app's pages: the constant routes, the core pages and the schema pages. */
export default function AppLayout() {
  return (
    <LayoutPagesContext.Provider value={pages}>
      <Layout />
    </LayoutPagesContext.Provider>
  );
}

import { Breadcrumb } from 'antd';
import { Link } from 'react-router-dom';
import { usePermission } from '../stores/permission';
import { breadcrumbOf } from './breadcrumb';
import type { ResolvedPage } from './layout-pages';

/** 首页 / menu groups / page (spec §2: Home is the first entry on every page). */
export function Breadcrumbs({ page }: { page: ResolvedPage }) {
  const topbar = usePermission((s) => s.topbarRouters);
  const crumbs = breadcrumbOf(topbar, page.path, page);
  return (
    <Breadcrumb
      className="app-breadcrumb"
      items={crumbs.map((c, i) => ({
        key: `${i}-${c.title}`,
        title: c.path && i < crumbs.length - 1 ? <Link to={c.path}>{c.title}</Link> : <span>{c.title}</span>,
      }))}
    />
  );
}

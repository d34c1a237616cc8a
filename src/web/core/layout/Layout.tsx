import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Layout as AntLayout } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { SIDEBAR_WIDTH } from '../../../shared/constants';
import { firstVisibleLeaf } from '../../../shared/menus';
import { useDocumentTitle } from '../NavigationEffects';
import { useApp } from '../stores/app';
import { usePermission } from '../stores/permission';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { useTags } from '../stores/tags';
import { AppFooter } from './AppFooter';
import { AppMain } from './AppMain';
import { DemoMark } from './DemoMark';
import { FullscreenToggle } from './FullscreenToggle';
import { HeaderSearch } from './HeaderSearch';
import { useLayoutPages, type ConstantLayoutRoute } from './layout-pages';
import { SidebarPanel } from './Sidebar';
import { SizeSelect } from './SizeSelect';
import { TagsView } from './TagsView';
import { TopTabs } from './TopTabs';
import { useActiveFirstLevel } from './useActiveFirstLevel';
import { useMessageCounters } from './useMessageCounters';
import { useResponsive } from './useResponsive';
import { UserMenu } from './UserMenu';
import { UkeyGuard } from '../ukey/UkeyGuard';
import { WeakPasswordGate } from './WeakPasswordGate';
import './layout.css';

// The settings drawer loads the first time it is opened, the mobile sidebar on a narrow screen.
const SettingsDrawer = lazy(() => import('./SettingsDrawer'));
const MobileSidebar = lazy(() => import('./MobileSidebar'));

/** Width of the collapsed sidebar: the menu icons only. */
export const COLLAPSED_SIDEBAR_WIDTH = 54;

/** Affix tags shown from the start: constant affix routes (首页) and affix pages of the server menu. */
function useAffixTags(constantRoutes: ConstantLayoutRoute[]) {
  const addRouters = usePermission((s) => s.addRouters);
  const userId = useSession((s) => s.user?.id);
  useEffect(() => {
    const tags = useTags.getState();
    if (userId !== undefined) tags.claim(userId);
    for (const r of constantRoutes) if (r.affix && r.name) tags.addVisitedView({ path: r.path, name: r.name, meta: { title: r.title, affix: true, noCache: r.noCache } });
    for (const r of addRouters) if (r.meta.affix) tags.addVisitedView({ path: r.path, name: r.name, meta: { title: r.meta.title, affix: true, noCache: r.meta.noCache } });
  }, [addRouters, userId, constantRoutes]);
}

/**
 * The main layout (spec §2): sidebar of the active top-level menu, navbar (hamburger, top tabs, search,
 * fullscreen, size, settings, user menu), tags, the kept-alive page views, footer and settings drawer.
 * Which page a path shows comes from LayoutPagesContext, provided by the app (src/web/app/AppLayout.tsx).
 */
export default function Layout() {
  const location = useLocation();
  const pages = useLayoutPages();
  const page = pages.resolve(location.pathname);
  const active = useActiveFirstLevel(location.pathname);
  const sidebars = usePermission((s) => s.sidebarRouters);
  const topbar = usePermission((s) => s.topbarRouters);
  const { sidebar, device, toggleSidebar, closeSidebar } = useApp();
  const { tagsView, fixedHeader, showFooter } = useSettings();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsUsed, setSettingsUsed] = useState(false);
  const mobile = device === 'mobile';
  const openSettings = () => {
    setSettingsUsed(true);
    setSettingsOpen(true);
  };
  const collapsed = !sidebar.opened;

  const everySection = useMemo(
    () => topbar.filter((r) => !r.meta.hidden && firstVisibleLeaf(r)).map((r) => ({ ...r, children: sidebars[r.path] ?? [] })),
    [topbar, sidebars],
  );

  useResponsive();
  useMessageCounters();
  useAffixTags(pages.constantRoutes);
  useDocumentTitle(page?.title || undefined);

  // Every page with a route name gets its tag (once per path; the latest query is what the tag opens).
  useEffect(() => {
    if (!page?.name || !tagsView) return;
    useTags.getState().addView({ path: page.path, fullPath: location.pathname + location.search, name: page.name, meta: { title: page.title, affix: page.affix, noCache: page.noCache } });
  }, [page?.path, page?.name, page?.title, page?.affix, page?.noCache, location.pathname, location.search, tagsView]);

  if (!page) return <Navigate to="/" replace />;

  // The phone's drawer holds every section (no top tabs fit there), the current one opened (issue 33.15).
  const routes = mobile ? everySection : active ? (sidebars[active.path] ?? []) : [];
  const panel = <SidebarPanel routes={routes} pathname={location.pathname} collapsed={mobile ? false : collapsed} />;
  const classes = ['app-layout', mobile ? 'is-mobile' : 'is-desktop', collapsed ? 'sidebar-collapsed' : 'sidebar-opened', sidebar.withoutAnimation ? 'without-animation' : '', fixedHeader ? 'has-fixed-header' : ''];

  return (
    <AntLayout className={classes.filter(Boolean).join(' ')} hasSider>
      {mobile ? (
        <Suspense fallback={null}>
          <MobileSidebar open={sidebar.opened} onClose={() => closeSidebar(false)}>
            {panel}
          </MobileSidebar>
        </Suspense>
      ) : (
        <AntLayout.Sider className="app-sidebar" width={SIDEBAR_WIDTH} collapsedWidth={COLLAPSED_SIDEBAR_WIDTH} collapsed={collapsed} trigger={null} theme="dark">
          {panel}
        </AntLayout.Sider>
      )}
      <AntLayout className="app-column">
        <div className={`app-header${fixedHeader ? ' fixed-header' : ''}`}>
          <header className="navbar">
            <button type="button" className="navbar-icon hamburger" aria-label={collapsed ? '展开侧边栏' : '收起侧边栏'} onClick={toggleSidebar}>
              {collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            </button>
            {mobile ? <div className="navbar-title">{active?.meta.title}</div> : <TopTabs active={active} />}
            <div className="navbar-right">
              <DemoMark />
              <HeaderSearch />
              {!mobile && <FullscreenToggle />}
              <SizeSelect />
              <button type="button" className="navbar-icon settings-toggle" aria-label="布局设置" title="布局设置" onClick={openSettings}>
                <SettingOutlined />
              </button>
              <UserMenu />
            </div>
          </header>
          {tagsView && <TagsView activePath={page.path} />}
        </div>
        <AppMain page={page} keepAlive={tagsView} />
        {showFooter && <AppFooter />}
      </AntLayout>
      {settingsUsed && (
        <Suspense fallback={null}>
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
      <WeakPasswordGate />
      <UkeyGuard />
    </AntLayout>
  );
}

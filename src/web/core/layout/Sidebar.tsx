import { ConfigProvider, Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isUnder, type AppRoute } from '../../../shared/menus';
import { defaultSettings } from '../../../shared/school-branding';
import { useSettings, useSchool } from '../stores/settings';
import { useSysConfig } from '../stores/sysconfig';
import { MenuIcon } from './menu-icons';

type MenuItem = Required<MenuProps>['items'][number];

/** Antd menu items of the visible routes; directories become submenus keyed by their path. */
export function toMenuItems(routes: AppRoute[]): MenuItem[] {
  return routes
    .filter((r) => !r.meta.hidden)
    .map((r) => {
      const children = r.children?.filter((c) => !c.meta.hidden);
      const base = { key: r.path, icon: <MenuIcon name={r.meta.icon} />, label: r.meta.title };
      return children?.length || (r.meta.alwaysShow && !r.component) ? { ...base, children: toMenuItems(children ?? []) } : base;
    });
}

/** Paths of the directories above `pathname` in a sidebar tree (the submenus to open). */
function openPathsFor(routes: AppRoute[], pathname: string): string[] {
  for (const r of routes) {
    if (!r.children) continue;
    if (r.children.some((c) => c.path === pathname)) return [r.path];
    const below = openPathsFor(r.children, pathname);
    if (below.length) return [r.path, ...below];
  }
  return [];
}

const menuTheme = {
  components: {
    Menu: {
      darkItemBg: defaultSettings.menuBg,
      darkSubMenuItemBg: defaultSettings.subMenuBg,
      darkPopupBg: defaultSettings.menuBg,
      darkItemColor: defaultSettings.menuText,
      darkItemHoverColor: '#ffffff',
      darkItemHoverBg: defaultSettings.subMenuHover,
      darkItemSelectedBg: defaultSettings.subMenuHover,
      darkItemSelectedColor: defaultSettings.menuActiveText,
      darkGroupTitleColor: defaultSettings.menuText,
      itemBorderRadius: 0,
      itemMarginInline: 0,
      itemMarginBlock: 0,
    },
  },
};

/** The sidebar logo (spec §2): htmlLogo when collapsed, htmlExpandLogo when expanded, else the school's. */
export function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const school = useSchool();
  const config = useSysConfig((s) => s.map);
  const title = config.htmlTitle || defaultSettings.title;
  const src = (collapsed ? config.htmlLogo : config.htmlExpandLogo) || school.schoolLogo;
  return (
    <Link to="/" className="sidebar-logo" title={title}>
      <img src={src} alt="" className="sidebar-logo-img" data-logo={collapsed ? 'collapsed' : 'expanded'} />
      {!collapsed && (
        <span className="sidebar-logo-text">
          <span className="sidebar-title">{title}</span>
          <span className="sidebar-school">{school.schoolName}</span>
        </span>
      )}
    </Link>
  );
}

interface SidebarProps {
  routes: AppRoute[];
  pathname: string;
  collapsed: boolean;
}

/** Logo, the menu of the active first-level route, and the bank-school strip of the school that has one. */
export function SidebarPanel({ routes, pathname, collapsed }: SidebarProps) {
  const navigate = useNavigate();
  const school = useSchool();
  const sidebarLogo = useSettings((s) => s.sidebarLogo);
  const uniqueOpened = useSettings((s) => s.uniqueOpened);
  const items = useMemo(() => toMenuItems(routes), [routes]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openPathsFor(routes, pathname));

  // Arriving on a page opens the submenus above it (without closing others unless uniqueOpened).
  useEffect(() => {
    const needed = openPathsFor(routes, pathname);
    if (needed.length) setOpenKeys((keys) => (uniqueOpened ? needed : [...new Set([...keys, ...needed])]));
  }, [routes, pathname, uniqueOpened]);

  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((k) => !openKeys.includes(k));
    // uniqueOpened: opening a submenu closes the others, except the ones it lies in.
    setOpenKeys(uniqueOpened && opened ? keys.filter((k) => isUnder(opened, k)) : keys);
  };

  return (
    <div className="sidebar-panel">
      {sidebarLogo && <SidebarLogo collapsed={collapsed} />}
      <div className="sidebar-menu">
        <ConfigProvider theme={menuTheme}>
          <Menu
            mode="inline"
            theme="dark"
            items={items}
            selectedKeys={[pathname]}
            inlineIndent={18}
            {...(collapsed ? {} : { openKeys, onOpenChange })}
            onClick={({ key }) => navigate(key)}
          />
        </ConfigProvider>
      </div>
      {school.bankStrip && !collapsed && (
        <div className="sidebar-bank-strip">
          <img src={school.bankStrip} alt="银校合作" />
        </div>
      )}
    </div>
  );
}

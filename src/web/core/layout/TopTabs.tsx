import { Menu } from 'antd';
import { useNavigate } from 'react-router-dom';
import { firstVisibleLeaf, type AppRoute } from '../../../shared/menus';
import { usePermission } from '../stores/permission';
import { MenuIcon } from './menu-icons';

/** One tab per visible first-level route (spec §2); a click opens the route's first visible leaf. */
export function TopTabs({ active }: { active?: AppRoute }) {
  const navigate = useNavigate();
  const topbar = usePermission((s) => s.topbarRouters);
  const visible = topbar.filter((r) => !r.meta.hidden);
  return (
    <Menu
      mode="horizontal"
      className="top-tabs"
      selectedKeys={active ? [active.path] : []}
      items={visible.map((r) => ({ key: r.path, icon: <MenuIcon name={r.meta.icon} />, label: <span data-tab={r.path}>{r.meta.title}</span> }))}
      onClick={({ key }) => {
        const route = visible.find((r) => r.path === key);
        const leaf = route && firstVisibleLeaf(route);
        if (leaf) navigate(leaf);
      }}
    />
  );
}

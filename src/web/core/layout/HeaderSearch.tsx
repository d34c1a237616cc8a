import { SearchOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';

const HeaderSearchBox = lazy(() => import('./HeaderSearchBox'));

/** The navbar's menu search (spec §2): an icon that opens the fuzzy search box over the user's pages. */
export function HeaderSearch() {
  const [open, setOpen] = useState(false);
  return (
    <div className={`header-search${open ? ' show' : ''}`}>
      <Tooltip title="搜索菜单">
        <SearchOutlined className="header-search-icon" aria-label="搜索菜单" onClick={() => setOpen(!open)} />
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <HeaderSearchBox onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePermission } from '../stores/permission';
import { useLayoutPages } from './layout-pages';
import { createRouteSearch, searchEntries, searchLabel } from './search';

const MAX_RESULTS = 12;

/** The search box itself (loaded on the first use of the search): fuzzy results, choosing one opens it. */
export default function HeaderSearchBox({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const topbar = usePermission((s) => s.topbarRouters);
  const { constantRoutes } = useLayoutPages();
  const fuse = useMemo(() => createRouteSearch(searchEntries(topbar, constantRoutes)), [topbar, constantRoutes]);
  const [query, setQuery] = useState('');
  const results = useMemo(() => (query.trim() ? fuse.search(query.trim(), { limit: MAX_RESULTS }).map((r) => r.item) : []), [fuse, query]);
  return (
    <Select
      className="header-search-select"
      autoFocus
      defaultOpen
      placeholder="搜索菜单"
      value={null}
      showSearch={{ filterOption: false, searchValue: query, onSearch: setQuery, autoClearSearchValue: true }}
      notFoundContent={query.trim() ? '没有匹配的菜单' : null}
      options={results.map((e) => ({ value: e.path, label: searchLabel(e) }))}
      onSelect={(path) => {
        onClose();
        if (path) navigate(path);
      }}
      onBlur={onClose}
    />
  );
}

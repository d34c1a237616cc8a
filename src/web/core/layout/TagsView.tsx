import { CloseOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTags, type TagView } from '../stores/tags';

export const TAG_ACTIONS = { refresh: '刷新', close: '关闭', closeOthers: '关闭其他', closeAll: '关闭全部' } as const;
type TagAction = keyof typeof TAG_ACTIONS;

/** Re-creates a view: its cached instance is dropped, and `/redirect/<path>` comes back to it (spec §2). */
export function refreshView(view: TagView, navigate: (to: string, options?: { replace?: boolean }) => void) {
  useTags.getState().delCachedView(view);
  navigate(`/redirect${view.fullPath}`, { replace: true });
}

/** The visited-pages tag bar with its right-click menu: 刷新, 关闭, 关闭其他, 关闭全部. */
export function TagsView({ activePath }: { activePath: string }) {
  const navigate = useNavigate();
  const visited = useTags((s) => s.visitedViews);
  const scroller = useRef<HTMLDivElement>(null);

  // Keep the active tag in sight when the bar overflows.
  useEffect(() => {
    scroller.current?.querySelector('.tags-view-item.active')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activePath, visited.length]);

  /** After closing the active tag: the last remaining one, or the root. */
  const toLastView = (views: TagView[]) => navigate(views.length ? views[views.length - 1].fullPath : '/');

  const run = (action: TagAction, view: TagView) => {
    const tags = useTags.getState();
    if (action === 'refresh') return refreshView(view, navigate);
    if (action === 'close') {
      tags.delView(view);
      if (view.path === activePath && !view.meta.affix) toLastView(useTags.getState().visitedViews);
    } else if (action === 'closeOthers') {
      tags.delOthersViews(view);
      if (view.path !== activePath) navigate(view.fullPath);
    } else {
      tags.delAllViews();
      const left = useTags.getState().visitedViews;
      if (!left.some((v) => v.path === activePath)) toLastView(left);
    }
  };

  const menuFor = (view: TagView): MenuProps => ({
    items: (Object.keys(TAG_ACTIONS) as TagAction[]).map((key) => ({ key, label: TAG_ACTIONS[key], disabled: key === 'close' && !!view.meta.affix })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      run(key as TagAction, view);
    },
  });

  return (
    <div className="tags-view" ref={scroller}>
      {visited.map((view) => (
        <Dropdown key={view.path} trigger={['contextMenu']} menu={menuFor(view)}>
          <Link to={view.fullPath} className={`tags-view-item${view.path === activePath ? ' active' : ''}`} data-path={view.path}>
            <span className="tags-view-title">{view.title}</span>
            {!view.meta.affix && (
              <CloseOutlined
                className="tags-view-close"
                aria-label={`关闭 ${view.title}`}
                onClick={(e) => {
                  e.preventDefault();
                  e.stopPropagation();
                  run('close', view);
                }}
              />
            )}
          </Link>
        </Dropdown>
      ))}
    </div>
  );
}

import { useRef } from 'react';
import { findFirstLevel, type AppRoute } from '../../../shared/menus';
import { usePermission } from '../stores/permission';

/**
 * The first-level route whose tab is active and whose children fill the sidebar (spec §2): the one the
 * path belongs to, else the last one visited (pages outside the menu, e.g. /user/center, keep the
 * sidebar the user came from), else the first visible one.
 */
export function useActiveFirstLevel(pathname: string): AppRoute | undefined {
  const topbar = usePermission((s) => s.topbarRouters);
  const last = useRef<string | undefined>(undefined);
  const found = findFirstLevel(topbar, pathname);
  if (found) last.current = found.path;
  return found ?? topbar.find((r) => r.path === last.current) ?? topbar.find((r) => !r.meta.hidden);
}

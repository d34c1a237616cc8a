import { create } from 'zustand';
import { findFirstLevel, firstVisibleLeaf, menuToRoutes, registrableRoutes, type AppRoute, type MenuNode } from '../../../shared/menus';
import { get } from '../request/request';

interface PermissionState {
  /** Every route the user may open: constant layout routes plus the server menu's pages (flat). */
  routers: AppRoute[];
  /** Sidebar trees keyed by first-level path. */
  sidebarRouters: Record<string, AppRoute[]>;
  /** Top tabs: the first-level menu routes. */
  topbarRouters: AppRoute[];
  /** The routes added from the server menu (registered pages). */
  addRouters: AppRoute[];
  /** The path a bare `/` leads to: the first visible menu leaf. */
  extraPath: string;
  menus: MenuNode[];
  loadMenuRoutes(): Promise<void>;
  reset(): void;
}

const empty = { routers: [], sidebarRouters: {}, topbarRouters: [], addRouters: [], extraPath: '/dashboard', menus: [] };

/** Builds the permission state from the user's server menu tree (spec §2: first- and second-level routes). */
export function buildPermissionState(tree: MenuNode[]) {
  const { firstLevel, secondLevel } = menuToRoutes(tree);
  const addRouters = firstLevel.flatMap(registrableRoutes);
  const firstVisible = firstLevel.find((r) => !r.meta.hidden);
  return {
    menus: tree,
    topbarRouters: firstLevel,
    sidebarRouters: secondLevel,
    addRouters,
    routers: addRouters,
    extraPath: (firstVisible && firstVisibleLeaf(firstVisible)) || '/dashboard',
  };
}

export const usePermission = create<PermissionState>((set) => ({
  ...empty,
  async loadMenuRoutes() {
    const tree = await get<MenuNode[]>('/api/menus/myTree', undefined, { skipErrorNotify: true });
    set(buildPermissionState(tree));
  },
  reset() {
    set(empty);
  },
}));

/** The first-level route a path belongs to (its tab and sidebar), or the first visible one for `/`. */
export function activeFirstLevel(pathname: string): AppRoute | undefined {
  const { topbarRouters } = usePermission.getState();
  return findFirstLevel(topbarRouters, pathname) ?? topbarRouters.find((r) => !r.meta.hidden);
}

/** The registered menu page for a path, if any. */
export function menuRouteFor(pathname: string): AppRoute | undefined {
  return usePermission.getState().addRouters.find((r) => r.path === pathname);
}

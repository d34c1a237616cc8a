/**
 * The server menu tree and its conversion into web routes (spec sections 2 "Navigation guard" and 3
 * "Route meta"). Pure functions: used by the server (seed, filtering by permission) and by the web app
 * (top tabs, sidebar, registered routes).
 */

export type MenuNodeType = 'directory' | 'page' | 'button';

/** Route meta of spec section 3: all eight fields travel from a server menu item to its route. */
export interface RouteMeta {
  title: string;
  icon?: string;
  affix?: boolean;
  breadcrumb?: boolean;
  hidden?: boolean;
  alwaysShow?: boolean;
  redirect?: string;
  noCache?: boolean;
}

export const ROUTE_META_FIELDS = ['title', 'icon', 'affix', 'breadcrumb', 'hidden', 'alwaysShow', 'redirect', 'noCache'] as const;

/** One node of schemas/menus.json and of the menu API (shape enforced by schemas/meta/menus.schema.json). */
export interface MenuNode {
  id: string;
  type: MenuNodeType;
  title: string;
  /** Absolute on the first level; a relative segment below, or absolute for a link to a constant route. */
  path?: string;
  icon?: string;
  /** Pages only: `module:<id>`, `core:<page>` or `pending:<id>`. */
  component?: string;
  /** Pages and buttons. */
  permission?: string;
  hidden?: boolean;
  noCache?: boolean;
  affix?: boolean;
  alwaysShow?: boolean;
  breadcrumb?: boolean;
  redirect?: string;
  /** The spec section 1 area (checklist id, e.g. S1.F1a) a page realises. */
  feature?: string;
  children?: MenuNode[];
}

export interface AppRoute {
  /** Absolute path (joined with the parents'). */
  path: string;
  /** The menu node id: unique, so usable as route name and cache key. */
  name: string;
  /** Pages only; directories render their children. */
  component?: string;
  meta: RouteMeta;
  children?: AppRoute[];
}

export interface MenuRoutes {
  /** Top tabs: one per first-level menu. `children` = the sidebar tree followed by the hidden level-3 leaves. */
  firstLevel: AppRoute[];
  /** The sidebar tree of each first-level route, keyed by its path. */
  secondLevel: Record<string, AppRoute[]>;
  /** Leaves at level 3 or deeper, flattened and hidden, as registered under their first-level path. */
  hiddenThirdLevel: AppRoute[];
}

/** Hand-written pages a `core:<page>` component may name. */
export const CORE_PAGES = [
  'dashboard', 'users', 'roles', 'menus', 'dicts', 'sysconfig', 'rule-params', 'online', 'sms-outbox',
  'msginfo', 'member-roster', 'member-analysis', 'org-trail',
  'dues', 'dues-batch', 'dues-onsite', 'dues-report', 'dues-my',
  'pschool-class', 'pschool-questionnaire', 'pschool-exam-manage', 'pschool-seating',
  'pschool-study-center', 'pschool-training-center', 'pschool-online-exam', 'pschool-video', 'pschool-doc',
  'transfer-lost-contact', 'transfer-stats',
  'development-process', 'development-record',
  'reminders',
  'forms',
  'service-query', 'stat-report', 'stat-snapshot', 'stat-bigdata',
  'service-mobile',
  'meetings-three-one', 'meetings-theme-day', 'meetings-life', 'meetings-democratic',
  'cadre-info', 'cadre-assess', 'cadre-structure', 'cadre-performance',
  'member-talk', 'member-points', 'member-assist', 'assess-plan', 'org-weak',
  'service-download',
  'service-template',
] as const;

/** Modules whose schema is being written; `module:<id>` may name them before schemas/modules/<id>.json exists. */
export const PLANNED_MODULE_IDS = ['org', 'unit', 'member', 'student', 'teacher', 'class'] as const;

export type ComponentKind = 'module' | 'core' | 'pending';

export function parseComponent(component: string | undefined): { kind: ComponentKind; id: string } | undefined {
  const match = /^(module|core|pending):(.+)$/.exec(component ?? '');
  return match ? { kind: match[1] as ComponentKind, id: match[2] } : undefined;
}

/** Joins a child path onto its parent's; an absolute child path stands on its own. */
export function joinPath(parent: string, path: string | undefined): string {
  if (!path) return parent || '/';
  if (path.startsWith('/')) return normalise(path);
  return normalise(`${parent}/${path}`);
}

function normalise(path: string): string {
  return `/${path.split('/').filter(Boolean).join('/')}`;
}

/** True when `path` is `base` or lies below it. */
export function isUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The navigable tree a user may see. A page needs its permission (a page without one is open to every
 * signed-in user); a directory stays while any child stays. Buttons are dropped: they only grant actions.
 */
export function filterMenuTree(tree: MenuNode[], permissions: Set<string> | 'all'): MenuNode[] {
  const allowed = (p: string | undefined) => permissions === 'all' || !p || permissions.has(p);
  const keep = (node: MenuNode): MenuNode | undefined => {
    if (node.type === 'button') return undefined;
    if (node.type === 'page') {
      if (!allowed(node.permission)) return undefined;
      const { children: _buttons, ...page } = node;
      return page;
    }
    const children = (node.children ?? []).map(keep).filter((n): n is MenuNode => n !== undefined);
    return children.length > 0 ? { ...node, children } : undefined;
  };
  return tree.map(keep).filter((n): n is MenuNode => n !== undefined);
}

function metaOf(node: MenuNode): RouteMeta {
  const meta: RouteMeta = { title: node.title };
  // `!= null`: items read from the database carry null for unset columns.
  if (node.icon != null) meta.icon = node.icon;
  if (node.affix != null) meta.affix = node.affix;
  if (node.breadcrumb != null) meta.breadcrumb = node.breadcrumb;
  if (node.hidden != null) meta.hidden = node.hidden;
  if (node.alwaysShow != null) meta.alwaysShow = node.alwaysShow;
  if (node.redirect != null) meta.redirect = node.redirect;
  if (node.noCache != null) meta.noCache = node.noCache;
  return meta;
}

function toRoute(node: MenuNode, parentPath: string): AppRoute {
  const route: AppRoute = { path: joinPath(parentPath, node.path), name: node.id, meta: metaOf(node) };
  if (node.component) route.component = node.component;
  const children = (node.children ?? []).filter((c) => c.type !== 'button').map((c) => toRoute(c, route.path));
  if (children.length > 0) route.children = children;
  return route;
}

/** Pages of a route's subtree (the route itself included), depth first. */
function leaves(route: AppRoute): AppRoute[] {
  if (!route.children) return route.component ? [route] : [];
  return route.children.flatMap(leaves);
}

/**
 * Splits a (permission-filtered) server menu tree into top tabs and sidebars, and registers every leaf
 * below a sidebar group as a hidden child of its first-level route, so a level-3 URL renders inside the
 * layout. A leaf whose absolute path lies outside its first-level path links to a constant route
 * (e.g. /pschool/...) and is not registered again.
 */
export function menuToRoutes(tree: MenuNode[]): MenuRoutes {
  const firstLevel: AppRoute[] = [];
  const secondLevel: Record<string, AppRoute[]> = {};
  const hiddenThirdLevel: AppRoute[] = [];
  for (const node of tree) {
    if (node.type === 'button') continue;
    const first = toRoute(node, '');
    const sidebar = first.children ?? [];
    const hidden = sidebar
      .filter((second) => second.children)
      .flatMap((second) => second.children!.flatMap(leaves))
      .filter((leaf) => isUnder(leaf.path, first.path))
      .map((leaf): AppRoute => ({ path: leaf.path, name: leaf.name, component: leaf.component, meta: { ...leaf.meta, hidden: true } }));
    secondLevel[first.path] = sidebar;
    hiddenThirdLevel.push(...hidden);
    if (sidebar.length > 0 || hidden.length > 0) first.children = [...sidebar, ...hidden];
    firstLevel.push(first);
  }
  return { firstLevel, secondLevel, hiddenThirdLevel };
}

/**
 * The page routes to register under a first-level (layout) route: its own pages plus the hidden level-3
 * leaves, without groups (which only structure the sidebar) and without links to constant routes.
 */
export function registrableRoutes(first: AppRoute): AppRoute[] {
  return (first.children ?? []).filter((r) => r.component && isUnder(r.path, first.path));
}

/** The path a top tab opens: its first leaf that is not hidden (spec section 2 "Layout"). */
export function firstVisibleLeaf(route: AppRoute): string | undefined {
  const visible = (route.children ?? []).filter((c) => !c.meta.hidden);
  if (visible.length === 0) return route.component ? route.path : undefined;
  for (const child of visible) {
    const path = firstVisibleLeaf(child);
    if (path) return path;
  }
  return undefined;
}

function contains(route: AppRoute, pathname: string): boolean {
  return (route.children ?? []).some((c) => (c.component && isUnder(pathname, c.path)) || contains(c, pathname));
}

/**
 * The first-level route whose sidebar a pathname shows: for the root the first non-hidden one, else the
 * one the path lies under, else the one holding a leaf with that path (links to constant routes).
 */
export function findFirstLevel(firstLevel: AppRoute[], pathname: string): AppRoute | undefined {
  const path = normalise(pathname);
  if (path === '/') return firstLevel.find((r) => !r.meta.hidden);
  return firstLevel.find((r) => isUnder(path, r.path)) ?? firstLevel.find((r) => contains(r, path));
}

/** Every node, depth first, parents before children (buttons included). */
export function flattenMenus(tree: MenuNode[]): MenuNode[] {
  return tree.flatMap((node) => [node, ...flattenMenus(node.children ?? [])]);
}

/** Every permission the tree names (pages and buttons), sorted, each once. */
export function collectPermissions(tree: MenuNode[]): string[] {
  const all = new Set<string>();
  for (const node of flattenMenus(tree)) if (node.permission) all.add(node.permission);
  return [...all].sort();
}

/** Absolute path of every directory and page, in tree order. */
export function menuPaths(tree: MenuNode[], parentPath = ''): { id: string; path: string }[] {
  return tree
    .filter((n) => n.type !== 'button')
    .flatMap((n) => {
      const path = joinPath(parentPath, n.path);
      return [{ id: n.id, path }, ...menuPaths(n.children ?? [], path)];
    });
}

/** A menu node as `POST api/menus` takes it (and `PUT`, with `id`): the editable fields; null clears one. */
export interface MenuInput {
  parentId?: number | null;
  type?: MenuNodeType;
  title?: string;
  path?: string | null;
  icon?: string | null;
  component?: string | null;
  permission?: string | null;
  sort?: number;
  hidden?: boolean | null;
  noCache?: boolean | null;
  affix?: boolean | null;
  alwaysShow?: boolean | null;
  breadcrumb?: boolean | null;
  redirect?: string | null;
  feature?: string | null;
}

/** A node of the administration tree (`GET api/menus/tree`). */
export interface MenuDto {
  id: number;
  key: string;
  parentId: number | null;
  type: MenuNodeType;
  title: string;
  path: string | null;
  icon: string | null;
  component: string | null;
  permission: string | null;
  sort: number;
  hidden: boolean | null;
  noCache: boolean | null;
  affix: boolean | null;
  alwaysShow: boolean | null;
  breadcrumb: boolean | null;
  redirect: string | null;
  feature: string | null;
  /** True when an administrator changed the node: the file sync no longer updates it. */
  edited: boolean;
  /** Present only when the node has children. */
  children?: MenuDto[];
}

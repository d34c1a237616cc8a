/** A node of `GET /api/menus/permissions`: menus with the permission strings of their pages and buttons. */
export interface PermissionNode {
  id: number;
  key: string;
  type: 'directory' | 'page' | 'button';
  title: string;
  permission: string | null;
  children?: PermissionNode[];
}

/** Every permission string in the subtrees. */
export function permissionsIn(nodes: PermissionNode[]): string[] {
  return nodes.flatMap((n) => [...(n.permission ? [n.permission] : []), ...permissionsIn(n.children ?? [])]);
}

/** The nodes from the root down to the node with `key` (the node last); empty when absent. */
export function pathTo(nodes: PermissionNode[], key: string): PermissionNode[] {
  for (const n of nodes) {
    if (n.key === key) return [n];
    const below = pathTo(n.children ?? [], key);
    if (below.length) return [n, ...below];
  }
  return [];
}

/**
 * The tree's check marks for a set of granted permissions: a node with a permission is checked when it
 * is granted; a directory is checked when everything below is, half-checked when some of it is.
 */
export function checkState(nodes: PermissionNode[], granted: ReadonlySet<string>): { checked: string[]; halfChecked: string[] } {
  const checked: string[] = [];
  const halfChecked: string[] = [];
  const visit = (n: PermissionNode): { all: boolean; some: boolean } => {
    const below = (n.children ?? []).map(visit);
    const own = n.permission ? granted.has(n.permission) : undefined;
    const all = own ?? (below.length > 0 && below.every((b) => b.all));
    const some = !!own || below.some((b) => b.some);
    if (all) checked.push(n.key);
    else if (some) halfChecked.push(n.key);
    return { all, some };
  };
  nodes.forEach(visit);
  return { checked, halfChecked };
}

/**
 * Ticking a node grants its whole subtree and the pages above it (a button is of no use without its
 * page); unticking revokes the subtree. Permissions outside the tree are kept.
 */
export function toggle(nodes: PermissionNode[], granted: ReadonlySet<string>, key: string, on: boolean): Set<string> {
  const path = pathTo(nodes, key);
  const node = path[path.length - 1];
  const next = new Set(granted);
  if (!node) return next;
  const subtree = permissionsIn([node]);
  if (on) {
    subtree.forEach((p) => next.add(p));
    path.slice(0, -1).forEach((a) => a.permission && next.add(a.permission));
  } else subtree.forEach((p) => next.delete(p));
  return next;
}

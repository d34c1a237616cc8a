import crypto from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { HttpError } from '../../errors.js';
import type { FieldError } from '../../../shared/validation-messages.js';
import { CORE_PAGES, filterMenuTree, firstVisibleLeaf, menuToRoutes, parseComponent, type MenuDto, type MenuInput, type MenuNode, type MenuNodeType } from '../../../shared/menus.js';
import type { SessionUser } from '../auth/session-user.js';
import { SORT_STEP, syncMenusFromFile } from './sync.js';
import type { MenusTable } from './tables.js';

export type MenuRow = Selectable<MenusTable>;
export type { MenuDto };

export type { MenuInput };

/** API field → column. */
const COLUMNS = {
  parentId: 'parent_id', type: 'type', title: 'title', path: 'path', icon: 'icon', component: 'component',
  permission: 'permission', sort: 'sort', hidden: 'hidden', noCache: 'no_cache', affix: 'affix',
  alwaysShow: 'always_show', breadcrumb: 'breadcrumb', redirect: 'redirect', feature: 'feature',
} as const satisfies Record<keyof MenuInput, keyof MenusTable>;

/** The stable string id of a row: its key; a row inserted by hand without one gets a derived id. */
export const keyOf = (row: Pick<MenuRow, 'id' | 'key'>) => row.key ?? `custom-${row.id}`;

const bySort = (a: MenuRow, b: MenuRow) => a.sort - b.sort || a.id - b.id;

/** Rows grouped by parent id (null = first level), each group in display order. */
function childrenIndex(rows: MenuRow[]): Map<number | null, MenuRow[]> {
  const index = new Map<number | null, MenuRow[]>();
  for (const row of [...rows].sort(bySort)) {
    const list = index.get(row.parent_id) ?? [];
    list.push(row);
    index.set(row.parent_id, list);
  }
  return index;
}

function buildTree<T>(rows: MenuRow[], convert: (row: MenuRow, children: T[]) => T, rootId: number | null = null): T[] {
  const index = childrenIndex(rows);
  const build = (parentId: number | null): T[] => (index.get(parentId) ?? []).map((row) => convert(row, build(row.id)));
  return build(rootId);
}

function toDto(row: MenuRow, children: MenuDto[]): MenuDto {
  const dto: MenuDto = {
    id: row.id, key: keyOf(row), parentId: row.parent_id, type: row.type, title: row.title, path: row.path, icon: row.icon,
    component: row.component, permission: row.permission, sort: row.sort, hidden: row.hidden, noCache: row.no_cache,
    affix: row.affix, alwaysShow: row.always_show, breadcrumb: row.breadcrumb, redirect: row.redirect, feature: row.feature,
    edited: row.edited_at !== null,
  };
  if (children.length) dto.children = children;
  return dto;
}

/** A row as the shared MenuNode (unset fields left out), so the web can call menuToRoutes on it. */
function toMenuNode(row: MenuRow, children: MenuNode[]): MenuNode {
  const node: MenuNode = { id: keyOf(row), type: row.type, title: row.title };
  const optional: [keyof MenuNode, unknown][] = [
    ['path', row.path], ['icon', row.icon], ['component', row.component], ['permission', row.permission],
    ['hidden', row.hidden], ['noCache', row.no_cache], ['affix', row.affix], ['alwaysShow', row.always_show],
    ['breadcrumb', row.breadcrumb], ['redirect', row.redirect], ['feature', row.feature],
  ];
  for (const [field, value] of optional) if (value !== null) (node as unknown as Record<string, unknown>)[field] = value;
  if (children.length) node.children = children;
  return node;
}

export interface PermissionNode {
  id: number;
  key: string;
  type: MenuNodeType;
  title: string;
  permission: string | null;
  children?: PermissionNode[];
}

export interface HeadMenuEntry {
  id: string;
  title: string;
  path: string;
  icon?: string;
  /** The path the top tab opens: its first leaf that is not hidden. */
  firstVisibleLeaf: string;
}

/** Menus for server code: the tree as stored, a user's view of it, and administrators' edits. */
export class MenuService {
  constructor(private readonly database: Database) {}

  /** See sync.ts: called at every start with the shipped schemas directory. */
  syncFromFiles(schemasDir: string) {
    return syncMenusFromFile(this.database, schemasDir);
  }

  rows(): Promise<MenuRow[]> {
    return this.database.db.selectFrom('menus').selectAll().execute();
  }

  /** The whole tree for administration: directories, pages and buttons. */
  async tree(): Promise<MenuDto[]> {
    return buildTree(await this.rows(), toDto);
  }

  /** The whole tree in the shared MenuNode shape (buttons included). */
  async menuNodes(): Promise<MenuNode[]> {
    return buildTree(await this.rows(), toMenuNode);
  }

  /** What a user may navigate: filtered by their permissions (a superuser sees all), without buttons. */
  async treeFor(user: Pick<SessionUser, 'roles' | 'isSuper'>): Promise<MenuNode[]> {
    return filterMenuTree(await this.menuNodes(), user.isSuper ? 'all' : new Set(user.roles));
  }

  /** The user's visible top tabs, each with the page it opens. */
  async headMenuFor(user: Pick<SessionUser, 'roles' | 'isSuper'>): Promise<HeadMenuEntry[]> {
    const { firstLevel } = menuToRoutes(await this.treeFor(user));
    return firstLevel
      .filter((route) => !route.meta.hidden)
      .flatMap((route) => {
        const leaf = firstVisibleLeaf(route);
        if (!leaf) return [];
        const entry: HeadMenuEntry = { id: route.name, title: route.meta.title, path: route.path, firstVisibleLeaf: leaf };
        if (route.meta.icon) entry.icon = route.meta.icon;
        return [entry];
      });
  }

  /**
   * Pages and buttons with their permission strings, under the directories that hold them, for the role
   * editor; directories without any permission below them are left out.
   */
  async permissionTree(): Promise<PermissionNode[]> {
    const prune = (nodes: PermissionNode[]): PermissionNode[] =>
      nodes.flatMap((n) => {
        const children = prune(n.children ?? []);
        const node: PermissionNode = { id: n.id, key: n.key, type: n.type, title: n.title, permission: n.permission };
        if (children.length) node.children = children;
        return n.permission || children.length ? [node] : [];
      });
    return prune(buildTree(await this.rows(), (row, children: PermissionNode[]) => ({ id: row.id, key: keyOf(row), type: row.type, title: row.title, permission: row.permission, children })));
  }

  /** Rows of a subtree (the node first, then descendants parent before child) or of the whole tree, and all rows. */
  async subtreeRows(rootId?: number): Promise<{ subtree: MenuRow[]; all: MenuRow[] }> {
    const rows = await this.rows();
    const index = childrenIndex(rows);
    const out: MenuRow[] = [];
    const walk = (row: MenuRow) => {
      out.push(row);
      (index.get(row.id) ?? []).forEach(walk);
    };
    if (rootId === undefined) (index.get(null) ?? []).forEach(walk);
    else {
      const root = rows.find((r) => r.id === rootId);
      if (!root) throw new HttpError(404, '菜单不存在');
      walk(root);
    }
    return { subtree: out, all: rows };
  }

  /** Creates an administrator's node; its key is `custom-<random>`, and the file sync never touches it. */
  async create(input: MenuInput): Promise<{ id: number; key: string }> {
    const node = normalise(input);
    await this.check(node);
    const { db } = this.database;
    const sort = node.sort ?? (await this.nextSort(node.parentId ?? null));
    const row = await db
      .insertInto('menus')
      .values({ ...columnsOf({ ...node, sort }), key: `custom-${crypto.randomBytes(4).toString('hex')}`, type: node.type!, title: node.title!, edited_at: new Date() })
      .returning(['id', 'key'])
      .executeTakeFirstOrThrow();
    return { id: row.id, key: row.key! };
  }

  /** Applies the given fields (absent = unchanged, null = cleared); the node counts as edited from now on. */
  async update(id: number, input: MenuInput): Promise<void> {
    const row = await this.database.db.selectFrom('menus').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new HttpError(404, '菜单不存在');
    const changes = normalise(input);
    await this.check({ ...inputOf(row), ...changes }, row);
    await this.database.db
      .updateTable('menus')
      .set({ ...columnsOf(changes), edited_at: new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes the nodes and their subtrees; answers how many nodes were removed. */
  async remove(ids: number[]): Promise<number> {
    const { db } = this.database;
    return db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('menus').select('id').where('id', 'in', ids).execute();
      if (found.length === 0) throw new HttpError(404, '菜单不存在');
      const before = await trx.selectFrom('menus').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      await trx.deleteFrom('menus').where('id', 'in', ids).execute();
      const after = await trx.selectFrom('menus').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(before.n) - Number(after.n);
    });
  }

  private async nextSort(parentId: number | null): Promise<number> {
    const q = this.database.db.selectFrom('menus').select((eb) => eb.fn.max('sort').as('max'));
    const { max } = await (parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId)).executeTakeFirstOrThrow();
    return (Number(max) || 0) + SORT_STEP;
  }

  /** The rules a JSON schema cannot express; throws a 400 listing every broken one. */
  private async check(node: MenuInput, existing?: MenuRow): Promise<void> {
    const errors: FieldError[] = [];
    const fail = (field: string, message: string) => errors.push({ field, message });
    const rows = await this.rows();
    const parentId = node.parentId ?? null;
    const parent = parentId === null ? undefined : rows.find((r) => r.id === parentId);

    if (!node.title) fail('title', '菜单标题不能为空');
    if (node.type === 'page') {
      if (!node.path) fail('path', '页面必须填写路由地址');
      if (!node.component) fail('component', '页面必须选择组件');
    }
    if (node.type === 'directory' && !node.path) fail('path', '目录必须填写路由地址');
    if (node.type === 'button' && !node.permission) fail('permission', '按钮必须填写权限标识');
    const component = parseComponent(node.component ?? undefined);
    if (component?.kind === 'core' && !(CORE_PAGES as readonly string[]).includes(component.id)) fail('component', `组件“${node.component}”不存在`);

    if (parentId !== null && !parent) fail('parentId', '上级菜单不存在');
    else if (parent) {
      if (parent.type === 'button') fail('parentId', '按钮下不能添加菜单');
      else if (parent.type === 'page' && node.type !== 'button') fail('parentId', '页面下只能添加按钮');
      if (existing && descendantIds(rows, existing.id).has(parent.id)) fail('parentId', '上级菜单不能是该菜单自身或其下级');
    } else if (node.type === 'button') fail('parentId', '按钮必须有上级菜单');
    else {
      if (node.type !== 'directory') fail('type', '一级菜单必须是目录');
      if (node.path && !node.path.startsWith('/')) fail('path', '一级菜单的路由地址必须以“/”开头');
    }

    if (existing) {
      const children = rows.filter((r) => r.parent_id === existing.id);
      if (node.type === 'button' && children.length) fail('type', '有下级菜单的节点不能改为按钮');
      if (node.type === 'page' && children.some((c) => c.type !== 'button')) fail('type', '有下级目录或页面的节点不能改为页面');
    }

    if (node.type !== 'button' && node.path) {
      const clash = rows.find((r) => r.parent_id === parentId && r.id !== existing?.id && r.type !== 'button' && r.path === node.path);
      if (clash) fail('path', `同级菜单“${clash.title}”已使用路由地址“${node.path}”`);
    }
    if (errors.length) throw new HttpError(400, errors[0].message, { errors });
  }
}

/** The node itself and every node below it. */
function descendantIds(rows: MenuRow[], id: number): Set<number> {
  const index = childrenIndex(rows);
  const out = new Set<number>([id]);
  const walk = (parentId: number) => (index.get(parentId) ?? []).forEach((c) => (out.add(c.id), walk(c.id)));
  walk(id);
  return out;
}

/** Empty strings from forms mean "not set". */
function normalise(input: MenuInput): MenuInput {
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(COLUMNS) as (keyof MenuInput)[]) {
    const value = input[field];
    if (value === undefined) continue;
    out[field] = typeof value === 'string' ? value.trim() || null : value;
  }
  return out as MenuInput;
}

function columnsOf(input: MenuInput): Updateable<MenusTable> {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = input[field as keyof MenuInput];
    if (value !== undefined) out[column] = value;
  }
  return out as Updateable<MenusTable>;
}

function inputOf(row: MenuRow): MenuInput {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMNS)) out[field] = row[column];
  return out as MenuInput;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MENUS_FILE, checkMenus, loadMenus } from '../../generators/lib/menus.js';
import { MENU_ICON_SPRITE_FILE, menuIconSprite } from '../../generators/lib/menu-icon-sprite.js';
import { ROOT, SCHEMAS_DIR } from '../../generators/lib/schemas.js';
import { MENU_ICONS, isMenuIcon } from '../../src/shared/menu-icons.js';
import {
  CORE_PAGES,
  ROUTE_META_FIELDS,
  collectPermissions,
  filterMenuTree,
  findFirstLevel,
  firstVisibleLeaf,
  flattenMenus,
  menuPaths,
  menuToRoutes,
  registrableRoutes,
  type MenuNode,
} from '../../src/shared/menus.js';

/** The 64 feature areas of spec section 1 (checklist rows S1.F1a … S1.F14n). */
const FEATURE_AREAS = [
  'S1.F1a', 'S1.F1b', 'S1.F1c',
  'S1.F2a', 'S1.F2b', 'S1.F2c',
  'S1.F3a', 'S1.F3b', 'S1.F3c', 'S1.F3d', 'S1.F3e',
  'S1.F4a', 'S1.F4b', 'S1.F4c',
  'S1.F5a', 'S1.F5b',
  'S1.F6a', 'S1.F6b', 'S1.F6c', 'S1.F6d', 'S1.F6e', 'S1.F6f', 'S1.F6g', 'S1.F6h', 'S1.F6i',
  'S1.F7a', 'S1.F7b', 'S1.F7c',
  'S1.F8a', 'S1.F8b', 'S1.F8c', 'S1.F8d',
  'S1.F9a', 'S1.F9b', 'S1.F9c',
  'S1.F10a', 'S1.F10b', 'S1.F10c', 'S1.F10d',
  'S1.F11a', 'S1.F11b', 'S1.F11c',
  'S1.F12a', 'S1.F12b', 'S1.F12c', 'S1.F12d',
  'S1.F13a', 'S1.F13b', 'S1.F13c', 'S1.F13d',
  'S1.F14a', 'S1.F14b', 'S1.F14c', 'S1.F14d', 'S1.F14e', 'S1.F14f', 'S1.F14g',
  'S1.F14h', 'S1.F14i', 'S1.F14j', 'S1.F14k', 'S1.F14l', 'S1.F14m', 'S1.F14n',
];

/** Constant routes of spec section 2 that menu leaves may link to. */
const CONSTANT_PSCHOOL = ['/pschool', '/pschool/party/center', '/pschool/exam/center', '/pschool/video/view', '/pschool/doc/view'];

function repoDoc(): { $comment?: string; menus: MenuNode[] } {
  return JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, MENUS_FILE), 'utf8'));
}

function tempSchemas(menus: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'menus-'));
  fs.writeFileSync(path.join(dir, MENUS_FILE), typeof menus === 'string' ? menus : JSON.stringify(menus));
  fs.cpSync(path.join(SCHEMAS_DIR, 'modules'), path.join(dir, 'modules'), { recursive: true });
  return dir;
}

/** A small server tree: two tabs, a sidebar group with level-3 leaves, a hidden page, buttons and a constant-route link. */
function sampleTree(): MenuNode[] {
  return [
    {
      id: 'members', type: 'directory', title: '党员管理', path: '/party-member', icon: 'TeamOutlined',
      children: [
        {
          id: 'member-info', type: 'page', title: '党员基本信息', path: 'info', icon: 'IdcardOutlined', component: 'module:member', permission: 'member:list',
          children: [
            { id: 'member-add', type: 'button', title: '新增', permission: 'member:add' },
            { id: 'member-delete', type: 'button', title: '删除', permission: 'member:delete' },
          ],
        },
        { id: 'member-detail', type: 'page', title: '党员详情', path: 'detail', icon: 'ProfileOutlined', component: 'core:member-detail', permission: 'member:list', hidden: true },
        {
          id: 'daily', type: 'directory', title: '日常管理', path: 'daily', icon: 'ScheduleOutlined', redirect: 'noredirect',
          children: [
            { id: 'points', type: 'page', title: '党员积分', path: 'points', icon: 'StarOutlined', component: 'pending:points', permission: 'points:list' },
            { id: 'talk', type: 'page', title: '谈心谈话', path: 'talk', icon: 'CommentOutlined', component: 'pending:talk', permission: 'talk:list' },
          ],
        },
      ],
    },
    {
      id: 'school', type: 'directory', title: '党校管理', path: '/party-school', icon: 'ReadOutlined',
      children: [
        {
          id: 'study', type: 'directory', title: '学习培训', path: 'study', icon: 'BookOutlined',
          children: [
            { id: 'exam', type: 'page', title: '在线考试', path: '/pschool/exam/center', icon: 'EditOutlined', component: 'pending:exam', permission: 'exam:list', noCache: true },
            { id: 'bank', type: 'page', title: '题库管理', path: 'bank', icon: 'DatabaseOutlined', component: 'pending:bank', permission: 'bank:list' },
          ],
        },
      ],
    },
  ];
}

describe('menu tree (schemas/menus.json)', () => {
  it('the repository menu is valid: meta-schema, unique ids and paths, known components', () => {
    expect(checkMenus()).toEqual([]);
    expect(loadMenus().map((m) => m.title)).toEqual([
      '首页', '党员管理', '组织管理', '干部管理', '发展党员', '党校管理', '党费管理',
      '组织关系转接', '组织生活', '消息中心', '统计报表', '综合服务', '系统管理',
    ]);
  });

  it('[31] no page of the repository menu is a placeholder (pending:) any more', () => {
    expect(flattenMenus(loadMenus()).filter((n) => n.component?.startsWith('pending:')).map((n) => n.title)).toEqual([]);
  });

  // Structure only: an S1.F row is covered by the test of its working page, never by its menu entry
  // (checklist), so this test claims none of them, and a pending: page is still a placeholder.
  it('every feature area of spec §1 has a menu page registered under a top tab', () => {
    const tree = loadMenus();
    const pages = flattenMenus(tree).filter((n) => n.feature);
    expect(pages.map((p) => p.feature).sort()).toEqual([...FEATURE_AREAS].sort());
    const { firstLevel } = menuToRoutes(filterMenuTree(tree, 'all'));
    const paths = new Map(menuPaths(tree).map((p) => [p.id, p.path]));
    for (const area of FEATURE_AREAS) {
      const page = pages.find((p) => p.feature === area)!;
      expect(page.type, area).toBe('page');
      expect(page.hidden, area).toBeUndefined();
      expect(page.component, area).toMatch(/^(module|core|pending):[a-z-]+$/);
      const pagePath = paths.get(page.id)!;
      // A tab holds the page in its sidebar, and the URL is either registered under that tab or a constant route.
      const tab = findFirstLevel(firstLevel, pagePath);
      expect(tab, area).toBeDefined();
      const registered = registrableRoutes(tab!).some((r) => r.path === pagePath);
      expect(registered || CONSTANT_PSCHOOL.includes(pagePath), `${area} ${pagePath}`).toBe(true);
    }
  });

  it('[S1.F6d][S1.F6e][S1.F6h][S1.F6i] party-school study leaves point at the constant /pschool routes', () => {
    const byFeature = new Map(flattenMenus(loadMenus()).map((n) => [n.feature, n]));
    expect(byFeature.get('S1.F6d')?.path).toBe('/pschool/party/center');
    expect(byFeature.get('S1.F6e')?.path).toBe('/pschool/exam/center');
    expect(byFeature.get('S1.F6h')?.path).toBe('/pschool/video/view');
    expect(byFeature.get('S1.F6i')?.path).toBe('/pschool/doc/view');
    expect(byFeature.get('S1.F6d')?.noCache).toBe(true);
  });

  it('absolute paths are unique and every icon is a menu icon of the sprite', () => {
    const tree = loadMenus();
    const all = menuPaths(tree).map((p) => p.path);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('/party-member/info');
    expect(all).toContain('/system/users');
    const icons = new Set(flattenMenus(tree).flatMap((n) => (n.icon ? [n.icon] : [])));
    expect([...icons].filter((icon) => !isMenuIcon(icon))).toEqual([]);
    // Every listed icon is an @ant-design/icons-svg definition, so the sprite can draw it.
    expect(MENU_ICONS.filter((icon) => !fs.existsSync(path.join(ROOT, 'node_modules/@ant-design/icons-svg/lib/asn', `${icon}.js`)))).toEqual([]);
  });

  it('the committed menu icon sprite is up to date (run `npm run icons` after changing src/shared/menu-icons.ts)', () => {
    const committed = fs.readFileSync(MENU_ICON_SPRITE_FILE, 'utf8');
    expect(committed, 'src/web/core/layout/menu-icons.svg is stale: run `npm run icons`').toBe(menuIconSprite());
    for (const icon of MENU_ICONS) expect(committed).toMatch(new RegExp(`<symbol id="${icon}" viewBox="[\\d ]+">`));
  });

  it('core module pages carry add/edit/delete/export/import buttons', () => {
    const permissions = new Set(collectPermissions(loadMenus()));
    for (const module of ['member', 'org', 'unit', 'user']) {
      for (const action of ['list', 'add', 'edit', 'delete', 'export', 'import']) expect(permissions, `${module}:${action}`).toContain(`${module}:${action}`);
    }
    for (const action of ['list', 'add', 'edit', 'delete']) expect(permissions).toContain(`role:${action}`);
    const buttons = flattenMenus(loadMenus()).filter((n) => n.type === 'button');
    expect(buttons.every((b) => b.permission && !b.children)).toBe(true);
  });

  it('schemas:check catches a broken menu', () => {
    const doc = repoDoc();
    doc.menus = doc.menus.filter((m) => m.id !== 'home'); // the paths below count from 党员管理
    const [members, org] = doc.menus;
    const info = members.children![0];
    info.children![0].children = [{ id: 'x', type: 'button', title: 'x', permission: 'x:y' }]; // button with children
    delete org.children![1].permission; // page without permission
    const broken = checkMenus(tempSchemas(doc));
    expect(broken.some((p) => p.includes('/menus/0/children/0/children/0') && p.includes('additional properties'))).toBe(true);
    expect(broken.some((p) => p.includes('/menus/1/children/1') && p.includes("must have required property 'permission'"))).toBe(true);

    const dup = repoDoc();
    dup.menus = dup.menus.filter((m) => m.id !== 'home'); // as above
    dup.menus[1].children![4].id = 'member-info'; // duplicate id
    dup.menus[1].children![1].feature = 'S1.F1a'; // same area twice
    dup.menus[1].children![1].component = 'module:no-such-module';
    dup.menus[1].children![2].component = 'core:no-such-page';
    dup.menus[1].children![3].path = 'org'; // same absolute path as the organisation library
    dup.menus[1].children![3].icon = 'NoSuchOutlined';
    expect(checkMenus(tempSchemas(dup))).toEqual([

      'menus.json: feature "S1.F1a" used by "member-info" and "unit-info"',
      'menus.json: "unit-info": module "no-such-module" has no schemas/modules/no-such-module.json and is not a planned module',
      `menus.json: "org-trail": core page "no-such-page" is not one of ${CORE_PAGES.join(', ')}`,
      'menus.json: "org-weak": icon "NoSuchOutlined" is not in src/shared/menu-icons.ts',
      'menus.json: id "member-info" is not unique',
      'menus.json: path "/party-org/org" used by "org-info" and "org-weak"',
    ]);

    const relativeTop = repoDoc();
    relativeTop.menus[0].path = 'party-member';
    expect(checkMenus(tempSchemas(relativeTop)).some((p) => p.startsWith('menus.json: /menus/0/path'))).toBe(true);
    expect(checkMenus(tempSchemas('{ not json'))[0]).toMatch(/^menus\.json: cannot read/);
  });
});

describe('menu conversion (src/shared/menus.ts)', () => {
  it('[S2.G7a] a server tree splits into first-level routes (top tabs) and second-level routes (sidebar)', () => {
    const { firstLevel, secondLevel } = menuToRoutes(sampleTree());
    expect(firstLevel.map((r) => [r.path, r.name, r.meta.title])).toEqual([
      ['/party-member', 'members', '党员管理'],
      ['/party-school', 'school', '党校管理'],
    ]);
    expect(Object.keys(secondLevel)).toEqual(['/party-member', '/party-school']);
    expect(secondLevel['/party-member'].map((r) => [r.path, r.component ?? null, r.meta.hidden ?? false])).toEqual([
      ['/party-member/info', 'module:member', false],
      ['/party-member/detail', 'core:member-detail', true],
      ['/party-member/daily', null, false],
    ]);
    // The sidebar group keeps its leaves for the menu; buttons never become routes.
    expect(secondLevel['/party-member'][2].children!.map((r) => r.path)).toEqual(['/party-member/daily/points', '/party-member/daily/talk']);
    expect(secondLevel['/party-member'][0].children).toBeUndefined();
    expect(secondLevel['/party-school'][0].children!.map((r) => r.path)).toEqual(['/pschool/exam/center', '/party-school/study/bank']);
  });

  it('[S2.G7b] level-3 leaves are registered as hidden children of their first-level route', () => {
    const { firstLevel, secondLevel, hiddenThirdLevel } = menuToRoutes(sampleTree());
    const members = firstLevel[0];
    const hiddenChildren = members.children!.filter((r) => r.meta.hidden && r.path.startsWith('/party-member/daily/'));
    expect(hiddenChildren.map((r) => [r.path, r.name, r.component, r.meta.title, r.meta.hidden])).toEqual([
      ['/party-member/daily/points', 'points', 'pending:points', '党员积分', true],
      ['/party-member/daily/talk', 'talk', 'pending:talk', '谈心谈话', true],
    ]);
    // Not an extra menu entry: the sidebar still lists them only inside their group, visible there.
    expect(secondLevel['/party-member']).toHaveLength(3);
    expect(secondLevel['/party-member'][2].children!.every((r) => !r.meta.hidden)).toBe(true);
    expect(registrableRoutes(members).map((r) => r.path)).toEqual([
      '/party-member/info', '/party-member/detail', '/party-member/daily/points', '/party-member/daily/talk',
    ]);
    // A leaf linking to a constant route (/pschool/...) is in the sidebar but not registered again.
    expect(hiddenThirdLevel.map((r) => r.path)).toEqual(['/party-member/daily/points', '/party-member/daily/talk', '/party-school/study/bank']);
    expect(registrableRoutes(firstLevel[1]).map((r) => r.path)).toEqual(['/party-school/study/bank']);
  });

  it('[S3.E5] the converter keeps all eight route-meta fields of a server menu item', () => {
    expect([...ROUTE_META_FIELDS]).toEqual(['title', 'icon', 'affix', 'breadcrumb', 'hidden', 'alwaysShow', 'redirect', 'noCache']);
    const item: MenuNode = {
      id: 'dash', type: 'page', title: '首页', path: 'home', icon: 'HomeOutlined', component: 'core:users', permission: 'home:list',
      affix: true, breadcrumb: false, hidden: false, alwaysShow: true, redirect: 'noredirect', noCache: true,
    };
    const tree: MenuNode[] = [{ id: 'top', type: 'directory', title: '顶层', path: '/top', icon: 'AppstoreOutlined', alwaysShow: false, children: [item] }];
    const { secondLevel, firstLevel } = menuToRoutes(tree);
    expect(secondLevel['/top'][0].meta).toEqual({
      title: '首页', icon: 'HomeOutlined', affix: true, breadcrumb: false, hidden: false, alwaysShow: true, redirect: 'noredirect', noCache: true,
    });
    expect(firstLevel[0].meta).toEqual({ title: '顶层', icon: 'AppstoreOutlined', alwaysShow: false });
    // Database rows carry null for unset columns: those are not meta values.
    const fromDb = { ...item, affix: null, redirect: null } as unknown as MenuNode;
    const meta = menuToRoutes([{ ...tree[0], children: [fromDb] }]).secondLevel['/top'][0].meta;
    expect('affix' in meta || 'redirect' in meta).toBe(false);
    expect(meta.noCache).toBe(true);
  });

  it('filters the tree by permission: pages need theirs, empty directories go, buttons are dropped', () => {
    const tree = sampleTree();
    const all = filterMenuTree(tree, 'all');
    expect(flattenMenus(all).filter((n) => n.type === 'button')).toEqual([]);
    expect(flattenMenus(all).map((n) => n.id)).toEqual(['members', 'member-info', 'member-detail', 'daily', 'points', 'talk', 'school', 'study', 'exam', 'bank']);

    const some = filterMenuTree(tree, new Set(['member:list', 'talk:list', 'member:add']));
    expect(flattenMenus(some).map((n) => n.id)).toEqual(['members', 'member-info', 'member-detail', 'daily', 'talk']);
    expect(filterMenuTree(tree, new Set(['member:add']))).toEqual([]); // a button permission alone shows no page
    expect(tree[0].children![0].children).toHaveLength(2); // the input is not mutated

    const onlyExam = menuToRoutes(filterMenuTree(tree, new Set(['exam:list'])));
    expect(onlyExam.firstLevel.map((r) => r.path)).toEqual(['/party-school']);
    expect(onlyExam.secondLevel['/party-school'][0].children!.map((r) => r.name)).toEqual(['exam']);
  });

  it('[S2.L2c] firstVisibleLeaf finds the path a top tab opens, skipping hidden routes', () => {
    const { firstLevel } = menuToRoutes(sampleTree());
    expect(firstVisibleLeaf(firstLevel[0])).toBe('/party-member/info');
    expect(firstVisibleLeaf(firstLevel[1])).toBe('/pschool/exam/center');
    const tree = sampleTree();
    tree[0].children![0].hidden = true;
    expect(firstVisibleLeaf(menuToRoutes(tree).firstLevel[0])).toBe('/party-member/daily/points');
    const onlyHidden = menuToRoutes(filterMenuTree(sampleTree(), new Set(['member:list']))).firstLevel[0];
    onlyHidden.children = onlyHidden.children!.filter((r) => r.meta.hidden);
    expect(firstVisibleLeaf(onlyHidden)).toBeUndefined();
    // The repository menu: every tab opens a real page.
    const repo = menuToRoutes(filterMenuTree(loadMenus(), 'all')).firstLevel;
    expect(repo.map((r) => firstVisibleLeaf(r))).toEqual([
      '/dashboard', '/party-member/info', '/party-org/org', '/cadre/info', '/development/process', '/party-school/admin/batch', '/party-dues/dues',
      '/transfer/in', '/org-life/democratic', '/message-center/remind', '/statistics/data/snapshot', '/service/info/regulation', '/system/users',
    ]);
  });

  it('[S2.G5b][S2.G5c] findFirstLevel picks the tab whose sidebar a path shows; the root takes the first visible one', () => {
    const tree = sampleTree();
    const { firstLevel } = menuToRoutes(tree);
    expect(findFirstLevel(firstLevel, '/party-school/study/bank')?.name).toBe('school');
    expect(findFirstLevel(firstLevel, '/party-member/daily/talk/')?.name).toBe('members');
    expect(findFirstLevel(firstLevel, '/pschool/exam/center')?.name).toBe('school');
    expect(findFirstLevel(firstLevel, '/party-memberx')).toBeUndefined();
    expect(findFirstLevel(firstLevel, '/')?.name).toBe('members');
    tree[0].hidden = true;
    expect(findFirstLevel(menuToRoutes(tree).firstLevel, '/')?.name).toBe('school');
  });

  it('collects every permission once and flattens the tree parents first', () => {
    const tree = sampleTree();
    expect(collectPermissions(tree)).toEqual(['bank:list', 'exam:list', 'member:add', 'member:delete', 'member:list', 'points:list', 'talk:list']);
    expect(flattenMenus(tree).slice(0, 4).map((n) => n.id)).toEqual(['members', 'member-info', 'member-add', 'member-delete']);
    expect(flattenMenus(tree)).toHaveLength(12);
  });
});

describe('[issue 43.5] 首页 first', () => {
  it('首页 (/dashboard) is the first visible menu entry of every demo role, so the guard lands every role there after login', { timeout: 60_000 }, async () => {
    const { DEMO_ROLES } = await import('../../src/server/seed/demo.js');
    const tree = loadMenus();
    for (const role of DEMO_ROLES) {
      const routes = menuToRoutes(filterMenuTree(tree, new Set(role.permissions(tree)))).firstLevel;
      expect(firstVisibleLeaf(routes[0]), role.code).toBe('/dashboard');
    }
    expect(firstVisibleLeaf(menuToRoutes(filterMenuTree(tree, new Set())).firstLevel[0])).toBe('/dashboard'); // a role with no permission too
  });
});

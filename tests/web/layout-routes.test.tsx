import menusFile from '../../schemas/menus.json';
import { describe, expect, it } from 'vitest';
import { collectPermissions, filterMenuTree, menuToRoutes, type MenuNode } from '../../src/shared/menus';
import { breadcrumbOf, HOME_CRUMB } from '../../src/web/core/layout/breadcrumb';
import { constantRouteFor } from '../../src/web/app/resolve-page';
import { SEARCH_OPTIONS, createRouteSearch, searchEntries, searchLabel } from '../../src/web/core/layout/search';
import { layoutRoute } from '../../src/web/app/router';
import { buildPermissionState } from '../../src/web/core/stores/permission';
import { constantLayoutRoutes } from '../../src/web/pages/registry';

const tree = (menusFile as unknown as { menus: MenuNode[] }).menus;
const adminTop = menuToRoutes(filterMenuTree(tree, 'all')).firstLevel;
const search = (topbar = adminTop) => createRouteSearch(searchEntries(topbar, constantLayoutRoutes));

describe('header search (spec §2)', () => {
  it('[S2.L4a] uses fuse.js with threshold 0.4, title weight 0.7 and path weight 0.3; a misspelt title still finds the page', () => {
    expect(SEARCH_OPTIONS).toEqual({ threshold: 0.4, keys: [{ name: 'title', weight: 0.7 }, { name: 'path', weight: 0.3 }] });
    expect(search().search('党员基本信')[0]?.item.path).toBe('/party-member/info');
    expect(search().search('用户管里')[0]?.item.path).toBe('/system/users');
    expect(search().search('users')[0]?.item.path).toBe('/system/users');
  });

  it('[S2.L4b][S6.P3b] covers only the permitted routes: a restricted tree finds nothing outside it', () => {
    const narrow = filterMenuTree(tree, new Set(collectPermissions(tree).filter((p) => p.startsWith('pschool') || p.startsWith('msg'))));
    const top = menuToRoutes(narrow).firstLevel;
    expect(search(top).search('用户管理').map((r) => r.item.title)).not.toContain('用户管理');
    expect(search(top).search('党员基本信息').map((r) => r.item.path)).not.toContain('/party-member/info');
    expect(search(top).search('学习中心')[0]?.item.path).toBe('/pschool');
  });

  it('[33.7] a page named like its group is labelled once: 党费管理, not 党费管理 > 党费管理', () => {
    const entries = searchEntries(menuToRoutes(tree).firstLevel, []);
    expect(searchLabel(entries.find((e) => e.path === '/party-dues/dues')!)).toBe('党费管理');
    expect(searchLabel(entries.find((e) => e.path === '/party-member/info')!)).toBe('党员管理 > 党员基本信息');
  });

  it('[S6.P3c][S2.R4a][S2.R2b] hidden routes are not listed: hidden menu pages, the hidden level-3 copies, /, /user/center, /mobileUpload, the login pages', () => {
    const withHidden: MenuNode[] = [
      ...tree,
      { id: 'secret', type: 'directory', title: '隐藏目录', path: '/secret', icon: 'AppstoreOutlined', children: [{ id: 'secret-page', type: 'page', title: '隐藏测试页', path: 'page', icon: 'AppstoreOutlined', component: 'pending:secret', hidden: true }] },
    ];
    const entries = searchEntries(menuToRoutes(filterMenuTree(withHidden, 'all')).firstLevel, constantLayoutRoutes);
    const paths = entries.map((e) => e.path);
    expect(paths).not.toContain('/secret/page');
    for (const hidden of ['/', '/user/center', '/message/msginfo', '/mobileUpload', '/login', '/newlogin', '/redirect/*']) expect(paths).not.toContain(hidden);
    expect(new Set(paths).size).toBe(paths.length); // level-3 pages once, not again as hidden copies
    expect(paths).toContain('/party-member/daily/reward');
    expect(paths).toContain('/dashboard');
    expect(layoutRoute.handle?.hidden).toBe(true);
  });
});

describe('constant layout routes (spec §2 route table)', () => {
  it('[S2.R6b] /user/center is 个人中心 with redirect noredirect', () => {
    expect(constantRouteFor('/user/center')).toMatchObject({ title: '个人中心', redirect: 'noredirect' });
  });

  it('[S2.R8] /redirect/:path* and the party-school patterns resolve; exact paths win over /pschool/:navigation', () => {
    expect(constantRouteFor('/redirect/dashboard')?.page).toBe('redirect');
    expect(constantRouteFor('/redirect/a/b/c')?.page).toBe('redirect');
    expect(constantRouteFor('/pschool/video/view')?.title).toBe('视频播放');
    expect(constantRouteFor('/pschool/anything')?.title).toBe('党校');
    expect(constantRouteFor('/pschool')?.noCache).toBe(true);
    expect(constantRouteFor('/nothing-here')).toBeUndefined();
    expect(constantRouteFor('/dashboard')).toMatchObject({ title: '首页', affix: true });
  });
});

describe('breadcrumb (spec §2)', () => {
  it('[S2.R5b] starts at 首页 (/dashboard) and follows the menu groups down to the page', () => {
    expect(breadcrumbOf(adminTop, '/dashboard')).toEqual([HOME_CRUMB]);
    expect(HOME_CRUMB).toEqual({ title: '首页', path: '/dashboard' });
    expect(breadcrumbOf(adminTop, '/party-member/daily/reward').map((c) => c.title)).toEqual(['首页', '党员管理', '党员日常管理', '奖惩信息']);
    const userCenter = breadcrumbOf(adminTop, '/user/center', { title: '个人中心', redirect: 'noredirect' });
    expect(userCenter).toEqual([HOME_CRUMB, { title: '个人中心' }]);
  });

  it('[33.7] a constant route with a menu entry ends the breadcrumb under the title its tag shows (党校, not 学习中心)', () => {
    expect(breadcrumbOf(adminTop, '/pschool', { title: '党校' }).map((c) => c.title)).toEqual(['首页', '党校管理', '学习培训', '党校']);
    expect(breadcrumbOf(adminTop, '/pschool/video/view', { title: '视频播放' }).at(-1)).toEqual({ title: '视频播放', path: '/pschool/video/view' });
  });
});

describe('permission state from the server tree', () => {
  it('[S3.E5] a server menu item keeps all eight route-meta fields in the routes the layout reads', () => {
    const node: MenuNode = { id: 'x', type: 'directory', title: 'X', path: '/x', icon: 'AppstoreOutlined', children: [
      { id: 'y', type: 'page', title: 'Y', path: 'y', icon: 'UserOutlined', component: 'pending:y', affix: true, breadcrumb: false, hidden: false, alwaysShow: true, redirect: 'noredirect', noCache: true },
    ] };
    const state = buildPermissionState([node]);
    expect(state.addRouters[0].meta).toEqual({ title: 'Y', icon: 'UserOutlined', affix: true, breadcrumb: false, hidden: false, alwaysShow: true, redirect: 'noredirect', noCache: true });
    expect(state.extraPath).toBe('/x/y');
  });
});

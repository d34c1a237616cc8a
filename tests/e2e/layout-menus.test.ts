import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstVisibleLeaf, flattenMenus, menuPaths, menuToRoutes, type MenuNode } from '../../src/shared/menus';
import { api, apiLogin } from '../support/api.js';
import { launchBrowser } from '../support/browser.js';
import { appPath, createUser, go, signedIn, unique, visibleView, POLL } from './layout-helpers.js';

const menus = (JSON.parse(fs.readFileSync(path.resolve('schemas/menus.json'), 'utf8')) as { menus: MenuNode[] }).menus;
const pathOf = new Map(menuPaths(menus).map((p) => [p.id, p.path]));
const featurePages = flattenMenus(menus).filter((n) => n.feature);

let browser: Browser;
let admin: string;
let adminPage: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
  adminPage = await signedIn(browser, admin);
});
afterAll(() => browser?.close());

const sidebarItems = (page: Page) => page.locator('.app-sidebar .sidebar-menu > .ant-menu > li.ant-menu-item, .app-sidebar .sidebar-menu > .ant-menu > li.ant-menu-submenu > .ant-menu-submenu-title').allInnerTexts();
const topTabs = (page: Page) => page.locator('.navbar .top-tabs [data-tab]').evaluateAll((els) => els.map((e) => ({ path: e.getAttribute('data-tab'), title: e.textContent })));

/**
 * Opens a feature page from the admin's menu: it shows inside the layout (sidebar, navbar, a view with
 * content, the entry selected), neither /404 nor blank. Layout only: an S1.F row is covered by the test of
 * its working page (checklist), so the tests here claim none.
 */
async function opensInsideLayout(node: MenuNode): Promise<string> {
  const target = pathOf.get(node.id)!;
  await go(adminPage, target);
  const view = await visibleView(adminPage, target);
  expect(appPath(adminPage), node.title).toBe(target);
  const text = await view.innerText();
  expect(text, node.title).not.toMatch(/页面不存在|404/);
  await adminPage.locator('.navbar').waitFor();
  // The sidebar holds the entry (opened down to it and selected), so the menu leads there.
  await expect.poll(() => adminPage.locator('.app-sidebar .ant-menu-item-selected').innerText(), POLL).toBe(node.title);
  return text;
}

const pending = (n: MenuNode) => n.component?.startsWith('pending:') ?? false;

describe('the feature pages of spec §1 open from the admin menu inside the layout', () => {
  // Opens every feature page in turn: its limit is for a hang, with room for a busy machine.
  it('[31] no menu page is a placeholder any more, and every feature page opens inside the layout', { timeout: 600_000 }, async () => {
    expect(featurePages.filter(pending).map((n) => n.title)).toEqual([]);
    expect(featurePages.length).toBeGreaterThan(0);
    for (const node of featurePages) {
      await opensInsideLayout(node);
      expect(await adminPage.locator('.pending-page').count(), node.title).toBe(0);
    }
  });
});

describe('menu routes, top tabs and sidebar', () => {
  it('[S2.R4b][S2.G5c] / goes to the first visible menu entry, whose first-level route fills the sidebar', async () => {
    const tree = (await api<MenuNode[]>('GET', '/api/menus/myTree', undefined, admin)).body;
    const first = menuToRoutes(tree).firstLevel.find((r) => !r.meta.hidden)!;
    const page = await signedIn(browser, admin, '/');
    await page.waitForURL((u) => u.pathname !== '/web/');
    expect(appPath(page)).toBe(firstVisibleLeaf(first));
    expect(await sidebarItems(page)).toEqual((first.children ?? []).filter((c) => !c.meta.hidden).map((c) => c.meta.title));
    expect(await page.locator('.top-tabs .ant-menu-item-selected [data-tab]').getAttribute('data-tab')).toBe(first.path);
    await page.context().close();
  });

  it('[S2.R15] an unknown path inside the layout ends at the root and so at the first visible entry', async () => {
    const page = await signedIn(browser, admin, '/no-such-page-xyz');
    await page.waitForURL((u) => !u.pathname.includes('no-such-page'));
    const first = menuToRoutes((await api<MenuNode[]>('GET', '/api/menus/myTree', undefined, admin)).body).firstLevel.find((r) => !r.meta.hidden)!;
    expect(appPath(page)).toBe(firstVisibleLeaf(first));
    await page.context().close();
  });

  it('[S2.G5a] once loaded, moving between menu pages makes no new auth/info or menu request; [S2.G5b] a page under route B shows B in the sidebar and tabs', async () => {
    const page = await signedIn(browser, admin, '/party-member/info');
    const seen: string[] = [];
    page.on('request', (r) => seen.push(new URL(r.url()).pathname));
    await page.locator('.top-tabs [data-tab="/system"]').evaluate((e) => e.closest('li')?.click());
    await page.waitForURL(/\/web\/system\/users$/);
    await go(page, '/party-org/trail');
    await visibleView(page, '/party-org/trail');
    expect(seen.filter((p) => p === '/auth/info' || p.startsWith('/api/menus'))).toEqual([]);
    expect(await page.locator('.top-tabs .ant-menu-item-selected [data-tab]').getAttribute('data-tab')).toBe('/party-org');
    expect(await sidebarItems(page)).toEqual(['党组织信息库', '单位信息库', '单位与组织修改痕迹', '软弱涣散党组织整顿', '换届选举', '基础数据']);
    await page.context().close();
  });

  it('[S2.G7a][S2.L2b] the top tabs are the visible first level of the server tree and the sidebar its children; [S2.G7b] a level-3 leaf renders without becoming an extra entry', async () => {
    const tree = (await api<MenuNode[]>('GET', '/api/menus/myTree', undefined, admin)).body;
    const { firstLevel, secondLevel } = menuToRoutes(tree);
    const visibleFirst = firstLevel.filter((r) => !r.meta.hidden);
    await go(adminPage, '/party-member/daily/reward');
    await visibleView(adminPage, '/party-member/daily/reward');
    expect(await topTabs(adminPage)).toEqual(visibleFirst.map((r) => ({ path: r.path, title: r.meta.title })));
    expect(await sidebarItems(adminPage)).toEqual(secondLevel['/party-member'].filter((r) => !r.meta.hidden).map((r) => r.meta.title));
    // The leaf is listed once, inside its group, though it is also registered directly below /party-member.
    expect(await adminPage.locator('.app-sidebar .ant-menu-item', { hasText: '奖惩信息' }).count()).toBe(1);
  });

  it('[S2.L2c] clicking a tab opens its first visible leaf', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    await page.locator('.top-tabs [data-tab="/party-org"]').click();
    await page.waitForURL(/\/web\/party-org\/org$/);
    await page.locator('.top-tabs [data-tab="/cadre"]').click();
    await page.waitForURL(/\/web\/cadre\/info$/);
    await page.context().close();
  });
});

describe('a narrow role sees only its own menus, and nothing hidden', () => {
  let narrow: { id: number; token: string };
  let hiddenMenuId: number | undefined;

  beforeAll(async () => {
    narrow = await createUser(admin, `lay${unique()}`, ['pschool:study', 'msg-remind:list', 'regulation:list']);
    // A hidden page every signed-in user may open (no permission), below 消息中心.
    const all = flattenMenus((await api<MenuNode[]>('GET', '/api/menus/tree', undefined, admin)).body as MenuNode[]) as (MenuNode & { id: unknown; key?: string })[];
    const parent = all.find((n) => n.key === 'message-center')!;
    const created = await api<{ id: number }>('POST', '/api/menus', { parentId: parent.id, type: 'page', title: '隐藏测试页面', path: 'hidden-layout-test', icon: 'AppstoreOutlined', component: 'pending:hidden-layout-test', hidden: true, sort: 999 }, admin);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    hiddenMenuId = created.body.id;
  });
  afterAll(async () => {
    if (hiddenMenuId) await api('DELETE', '/api/menus', [hiddenMenuId], admin);
  });

  it('[S6.P3a] two users with different roles each see exactly their own tree in the top tabs and sidebar', async () => {
    for (const token of [admin, narrow.token]) {
      const tree = (await api<MenuNode[]>('GET', '/api/menus/myTree', undefined, token)).body;
      const { firstLevel, secondLevel } = menuToRoutes(tree);
      const page = await signedIn(browser, token, '/');
      await page.waitForURL((u) => u.pathname !== '/web/');
      expect(await topTabs(page)).toEqual(firstLevel.filter((r) => !r.meta.hidden).map((r) => ({ path: r.path, title: r.meta.title })));
      for (const first of firstLevel.filter((r) => !r.meta.hidden)) {
        await page.locator(`.top-tabs [data-tab="${first.path}"]`).evaluate((e) => e.closest('li')?.click());
        await expect.poll(() => sidebarItems(page), POLL).toEqual(secondLevel[first.path].filter((r) => !r.meta.hidden).map((r) => r.meta.title));
      }
      await page.context().close();
    }
    const narrowTree = (await api<MenuNode[]>('GET', '/api/menus/myTree', undefined, narrow.token)).body;
    expect(narrowTree.map((n) => n.title)).not.toContain('系统管理');
  });

  /** Types `query` into the header search and returns the result labels. */
  async function searchFor(page: Page, query: string): Promise<string[]> {
    await page.locator('.header-search-icon').click();
    const input = page.locator('.header-search-select input');
    await input.fill(query);
    // The results render with the query: options, or the empty text (没有匹配的菜单).
    await page.locator('.ant-select-dropdown:visible').locator('.ant-select-item-option, .ant-select-item-empty').first().waitFor();
    const labels = await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts();
    await page.keyboard.press('Escape');
    // Blur closes the search; a click "somewhere" could land on the page behind it (a course card opens a drawer).
    await input.evaluate((e) => (e as HTMLInputElement).blur());
    await page.locator('.header-search-select').waitFor({ state: 'hidden' }).catch(() => undefined);
    return labels;
  }

  it('[S2.L2f][S2.L4a] the navbar search finds a page by a misspelt title and opens it', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    await page.locator('.header-search-icon').click();
    await page.locator('.header-search-select input').fill('党员基本信');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '党员基本信息' }).first().click();
    await page.waitForURL(/\/web\/party-member\/info$/);
    expect(await searchFor(page, '用户管里')).toContain('系统管理 > 用户管理');
    await page.context().close();
  });

  it('[S2.L4b][S6.P3b][S6.P3c][S2.R2b][S2.R4a] the search never offers a page the user lacks, a hidden route, /mobileUpload or the layout root', async () => {
    const page = await signedIn(browser, narrow.token, '/');
    await page.waitForURL((u) => u.pathname !== '/web/');
    expect(await searchFor(page, '学习中心')).toContain('党校管理 > 学习培训 > 学习中心');
    for (const query of ['用户管理', '党员基本信息', '隐藏测试页面', '上传文件', 'mobileUpload', '个人中心', '登录']) {
      expect(await searchFor(page, query), query).toEqual([]);
    }
    // The hidden page exists for this user (its URL renders) but is neither in the sidebar nor the tabs.
    await go(page, '/message-center/hidden-layout-test');
    await visibleView(page, '/message-center/hidden-layout-test');
    expect(await page.locator('.app-sidebar').innerText()).not.toContain('隐藏测试页面');
    expect(await page.locator('.top-tabs').innerText()).not.toContain('隐藏测试页面');
    await page.context().close();
  });

  it('[S2.R2b][S2.R1g] no sidebar entry or tab leads to /mobileUpload or a login page', async () => {
    await go(adminPage, '/dashboard');
    for (const first of await topTabs(adminPage)) {
      await adminPage.locator(`.top-tabs [data-tab="${first.path}"]`).evaluate((e) => e.closest('li')?.click());
      await adminPage.locator(`.top-tabs .ant-menu-item-selected [data-tab="${first.path}"]`).waitFor();
      const keys = await adminPage.locator('.app-sidebar .ant-menu-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-id') ?? ''));
      expect(keys.some((k) => /mobileUpload|login/i.test(k))).toBe(false);
    }
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api, apiLogin } from '../support/api.js';
import { chooseMenuItem, launchBrowser, newPage, openMenu, webUrl } from '../support/browser.js';
import { appPath, createUser, go, signedIn, unique, visibleView, POLL } from './layout-helpers.js';

let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

const tagPaths = (page: Page) => page.locator('.tags-view .tags-view-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
const tag = (page: Page, path: string) => page.locator(`.tags-view-item[data-path="${path}"]`);
/** The first text box of a page view: a list page's filter field. */
const field = (page: Page, path: string) => page.locator(`.app-view[data-view="${path}"] input.ant-input`).first();

async function tagAction(page: Page, path: string, action: string) {
  await chooseMenuItem(page, tag(page, path), new RegExp(`^${action}$`), 'right-click');
}

describe('the tags view (spec §2)', () => {
  it('[S2.L5a][S2.L5h][S2.L5j] visited pages get one tag each, titled from the route, once per path whatever the query', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    for (const path of ['/system/users', '/system/roles', '/party-org/trail', '/system/users?page=2', '/system/users']) {
      await go(page, path);
      await visibleView(page, path.split('?')[0]);
    }
    expect(await tagPaths(page)).toEqual(['/dashboard', '/system/users', '/system/roles', '/party-org/trail']);
    expect(await page.locator('.tags-view-item').allInnerTexts()).toEqual(['首页', '用户管理', '角色管理', '单位与组织修改痕迹']);
    await page.context().close();
  });

  it('[S2.L5b] the right-click menu offers exactly 刷新, 关闭, 关闭其他, 关闭全部', async () => {
    const page = await signedIn(browser, admin, '/system/users');
    const menu = await openMenu(page, tag(page, '/system/users'), 'right-click');
    expect(await menu.locator('.ant-dropdown-menu-item').allInnerTexts()).toEqual(['刷新', '关闭', '关闭其他', '关闭全部']);
    await page.context().close();
  });

  it('[S2.L5i] a cached page keeps a typed filter when you come back; a noCache page (/pschool) is created anew', async () => {
    const page = await signedIn(browser, admin, '/system/users');
    await visibleView(page, '/system/users');
    await field(page, '/system/users').fill('张三');
    await go(page, '/pschool');
    const pschool = await visibleView(page, '/pschool');
    await pschool.evaluate((e) => e.setAttribute('data-marker', 'state'));
    await tag(page, '/system/users').click();
    await visibleView(page, '/system/users');
    expect(await field(page, '/system/users').inputValue()).toBe('张三');
    await tag(page, '/pschool').click();
    expect(await (await visibleView(page, '/pschool')).getAttribute('data-marker')).toBeNull();
    await page.context().close();
  });

  it('[S2.L5c][S2.R8] refresh re-creates the view through /redirect: same URL, the typed filter is gone', async () => {
    const page = await signedIn(browser, admin, '/system/users');
    await visibleView(page, '/system/users');
    await field(page, '/system/users').fill('李四');
    // Record the URLs the app goes through (the redirect is replaced at once, too fast to wait for).
    await page.evaluate(() => {
      const w = window as unknown as { visitedUrls: string[] };
      w.visitedUrls = [];
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (data, unused, url) => {
          w.visitedUrls.push(String(url));
          original(data, unused, url);
        };
      }
    });
    await tagAction(page, '/system/users', '刷新');
    await expect.poll(() => page.evaluate(() => (window as unknown as { visitedUrls: string[] }).visitedUrls), POLL).toEqual(['/web/redirect/system/users', '/web/system/users']);
    await visibleView(page, '/system/users');
    expect(await field(page, '/system/users').inputValue()).toBe('');
    expect(await tagPaths(page)).toEqual(['/dashboard', '/system/users']);
    await page.context().close();
  });

  it('[S2.L5d][S2.L5e][S2.L5f][S2.L5g] close, close others and close all; the affix 首页 tag has no close control and survives them all', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    for (const path of ['/system/users', '/system/roles', '/system/dicts']) {
      await go(page, path);
      await visibleView(page, path);
    }
    expect(await tag(page, '/dashboard').locator('.tags-view-close').count()).toBe(0);
    expect(await tag(page, '/system/roles').locator('.tags-view-close').count()).toBe(1);

    await tagAction(page, '/system/roles', '关闭');
    expect(await tagPaths(page)).toEqual(['/dashboard', '/system/users', '/system/dicts']);

    const close = (await openMenu(page, tag(page, '/dashboard'), 'right-click')).locator('.ant-dropdown-menu-item', { hasText: /^关闭$/ });
    await expect.poll(() => close.getAttribute('aria-disabled'), POLL).toBe('true');
    await close.dispatchEvent('click'); // choosing it anyway changes nothing
    await page.locator('.app-breadcrumb li').last().click(); // a click outside closes the menu
    expect(await tagPaths(page)).toContain('/dashboard');

    await go(page, '/system/roles');
    await visibleView(page, '/system/roles');
    await tagAction(page, '/system/users', '关闭其他');
    await page.waitForURL(/\/web\/system\/users$/);
    expect(await tagPaths(page)).toEqual(['/dashboard', '/system/users']);

    await go(page, '/system/roles');
    await visibleView(page, '/system/roles');
    await tagAction(page, '/system/roles', '关闭全部');
    await page.waitForURL(/\/web\/dashboard$/);
    expect(await tagPaths(page)).toEqual(['/dashboard']);

    // Closing the active tag with its close control goes to the last remaining tag.
    await go(page, '/system/users');
    await visibleView(page, '/system/users');
    await tag(page, '/system/users').locator('.tags-view-close').click();
    await page.waitForURL(/\/web\/dashboard$/);
    await page.context().close();
  });
});

describe('the user dropdown and its badges', () => {
  let user: { id: number; token: string };

  beforeAll(async () => {
    user = await createUser(admin, `lay${unique()}`, ['regulation:list']);
    for (let i = 0; i < 3; i++) expect((await api('POST', '/api/msgPushHistory', { userId: user.id, type: 'private', title: `私信${i}` }, admin)).status).toBe(201);
    for (let i = 0; i < 4; i++) expect((await api('POST', '/api/msgTodo', { userId: user.id, title: `待办${i}` }, admin)).status).toBe(201);
  });

  const openUserMenu = (page: Page) => openMenu(page, page.locator('.user-button'));
  const item = (page: Page, text: string) => page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: text });
  const totalBadge = (page: Page) => page.locator('.user-badge .ant-badge-count').getAttribute('title');

  it('[S7.MS3] the layout loads the reminders and to-dos as soon as it mounts, before the first counter tick', async () => {
    const page = await newPage(browser);
    await page.context().addCookies([{ name: TOKEN_KEY, value: user.token, url: webUrl('/') }]);
    const seen: { path: string; at: number }[] = [];
    const started = Date.now();
    page.on('request', (r) => seen.push({ path: new URL(r.url()).pathname, at: Date.now() - started }));
    await page.goto(webUrl('/dashboard'));
    await page.locator('.app-layout').waitFor();
    const startLists = ['/api/msgPushHistory/remind', '/api/msgTodo/getTodo'];
    await expect.poll(() => seen.map((s) => s.path), POLL).toEqual(expect.arrayContaining(startLists));
    for (const s of seen.filter((x) => startLists.includes(x.path))) expect(s.at).toBeLessThan(5000);
    expect(seen.filter((x) => x.path.endsWith('/count'))).toEqual([]); // the counters themselves wait for their first tick
    await page.context().close();
  });

  it('[S2.L2g][S2.L3a][S2.L3b][S2.L3c][S2.L3f] the dropdown: 个人中心, 私信 with the unread count, 我的待办 with the to-do count, 退出登录; the button shows their sum', async () => {
    const page = await signedIn(browser, user.token, '/dashboard');
    await expect.poll(() => totalBadge(page), POLL).toBe('7');
    await openUserMenu(page);
    expect(await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').allInnerTexts().then((t) => t.map((s) => s.replace(/\d+/g, '').trim()))).toEqual(['个人中心', '私信', '我的待办', '退出登录']);
    expect(await item(page, '私信').locator('.ant-badge-count').getAttribute('title')).toBe('3');
    expect(await item(page, '我的待办').locator('.ant-badge-count').getAttribute('title')).toBe('4');
    await chooseMenuItem(page, page.locator('.user-button'), '个人中心');
    await page.waitForURL(/\/web\/user\/center$/);
    for (const [label, tab] of [['私信', 'private'], ['我的待办', 'todo']]) {
      await chooseMenuItem(page, page.locator('.user-button'), label);
      await page.waitForURL((u) => u.pathname === '/web/message/msginfo' && u.searchParams.get('tab') === tab);
    }
    // A new to-do arrives over the push channel at once, without waiting for the next poll.
    expect((await api('POST', '/api/msgTodo', { userId: user.id, title: '新待办' }, admin)).status).toBe(201);
    await expect.poll(() => totalBadge(page), { timeout: 4000 }).toBe('8');
    await page.context().close();
  });

  it('[S2.L3f][S9.L4b] above 99 the button badge never shows more than 99', async () => {
    await Promise.all(Array.from({ length: 100 }, (_, i) => api('POST', '/api/msgPushHistory', { userId: user.id, type: 'private', title: `批量私信${i}` }, admin)));
    const page = await signedIn(browser, user.token, '/dashboard');
    await expect.poll(() => totalBadge(page), POLL).toBe('99');
    const shown = await page.locator('.user-badge .ant-badge-count').innerText();
    expect(Math.max(...(shown.match(/\d+/g) ?? ['0']).map(Number))).toBeLessThanOrEqual(99);
    await openUserMenu(page);
    expect(await item(page, '私信').locator('.ant-badge-count').getAttribute('title')).toBe('103');
    expect(await item(page, '私信').locator('.ant-badge-count').innerText()).toBe('99+');
    await page.context().close();
  });

  it('[S2.L3d][S2.L3e] log out asks 提示 / 确定注销并退出系统吗？; cancel stays, confirm logs out and clears the token', async () => {
    const page = await signedIn(browser, user.token, '/dashboard');
    const confirmLogout = async () => {
      await chooseMenuItem(page, page.locator('.user-button'), '退出登录');
      await page.locator('.ant-modal-confirm').waitFor();
      expect(await page.locator('.ant-modal-confirm-title').innerText()).toBe('提示');
      expect(await page.locator('.ant-modal-confirm-content').innerText()).toBe('确定注销并退出系统吗？');
    };
    await confirmLogout();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /取\s*消/ }).click();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    expect(appPath(page)).toBe('/dashboard');
    expect((await page.context().cookies()).some((c) => c.name === TOKEN_KEY)).toBe(true);

    await confirmLogout();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/web\/login/);
    await page.getByPlaceholder('用户名').waitFor();
    expect((await page.context().cookies()).some((c) => c.name === TOKEN_KEY)).toBe(false);
    expect((await api('GET', '/auth/info', undefined, user.token)).status).toBe(401);
    await page.context().close();
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from '../support/api.js';
import { launchBrowser, webUrl } from '../support/browser.js';
import { appPath, go, signedIn, visibleView, POLL } from './layout-helpers.js';

let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

describe('constant routes inside the layout', () => {
  it('[S2.R5a] /dashboard renders inside the layout; [S2.R5b] on every page the first breadcrumb entry is 首页 (/dashboard)', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    await visibleView(page, '/dashboard');
    expect(await page.locator('.app-sidebar').isVisible()).toBe(true);
    expect(await page.locator('.navbar').isVisible()).toBe(true);
    expect(await page.locator('.app-breadcrumb li').first().innerText()).toBe('首页');
    for (const path of ['/system/users', '/party-member/daily/reward', '/user/center']) {
      await go(page, path);
      await visibleView(page, path);
      const home = page.locator('.app-breadcrumb a').first();
      expect(await home.innerText()).toBe('首页');
      expect(await home.getAttribute('href')).toBe('/web/dashboard');
    }
    await page.locator('.app-breadcrumb a').first().click();
    await page.waitForURL(/\/web\/dashboard$/);
    await page.context().close();
  });

  it('[S2.R6a] /user/center is the personal centre inside the layout, titled 个人中心', async () => {
    const page = await signedIn(browser, admin, '/user/center');
    await visibleView(page, '/user/center');
    expect(await page.locator('.app-sidebar').isVisible()).toBe(true);
    expect(await page.locator('.navbar').isVisible()).toBe(true);
    await expect.poll(() => page.title(), POLL).toMatch(/^个人中心/);
    await page.context().close();
  });

  it('[S2.R9a][S2.R9b][S2.R10][S2.R11][S2.R12][S2.R13][S2.R14] the party-school routes open inside the layout with their titles', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    const routes: [string, string][] = [
      ['/pschool', '党校'],
      ['/pschool/some-navigation', '党校'],
      ['/pschool/video/view', '视频播放'],
      ['/pschool/doc/view', '文档阅读'],
      ['/pschool/home/page', '个人主页'],
      ['/pschool/party/center', '培训中心'],
      ['/pschool/exam/center', '在线考试'],
    ];
    for (const [path, title] of routes) {
      await page.goto(webUrl(path));
      // The layout shows this path's own view, under the route's title.
      await page.locator(`.app-view[data-view="${path}"]`).waitFor({ state: 'visible' });
      expect(appPath(page)).toBe(path); // rendered there, not redirected to the root
      await expect.poll(() => page.title(), POLL).toMatch(new RegExp(`^${title}`));
    }
    await page.context().close();
  });

  it('[S2.R9c] the party-school view is not kept: leaving and coming back builds it anew', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    await go(page, '/pschool');
    const view = await visibleView(page, '/pschool');
    await view.evaluate((e) => e.setAttribute('data-marker', 'old'));
    await go(page, '/dashboard');
    await visibleView(page, '/dashboard');
    await go(page, '/pschool');
    expect(await (await visibleView(page, '/pschool')).getAttribute('data-marker')).toBeNull();
    await page.context().close();
  });

  it('[S2.G4a] after a reload the guard fetches the user info first, then the menu routes, then builds the sidebar', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    const events: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/menus/myTree')) events.push('menus requested');
      if (r.url().includes('/auth/info')) events.push('info requested');
    });
    page.on('requestfinished', (r) => {
      if (r.url().includes('/auth/info')) events.push('info finished');
    });
    await page.reload();
    await page.locator('.app-sidebar .ant-menu-item, .app-sidebar .ant-menu-submenu').first().waitFor();
    expect(events).toEqual(['info requested', 'info finished', 'menus requested']);
    await page.context().close();
  });

  it('[S2.R8] /redirect/dashboard ends on /dashboard with the view created anew', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    const view = await visibleView(page, '/dashboard');
    await view.evaluate((e) => e.setAttribute('data-marker', 'old'));
    await go(page, '/system/users');
    await visibleView(page, '/system/users');
    await go(page, '/dashboard');
    expect(await (await visibleView(page, '/dashboard')).getAttribute('data-marker')).toBe('old'); // kept alive meanwhile
    await go(page, '/redirect/dashboard');
    await page.waitForURL(/\/web\/dashboard$/);
    expect(await (await visibleView(page, '/dashboard')).getAttribute('data-marker')).toBeNull();
    await page.context().close();
  });
});

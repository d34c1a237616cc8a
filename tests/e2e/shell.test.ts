import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

describe('the web shell in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('[S2.N1] is served in history mode under /web: deep URLs load the app directly, no #', async () => {
    const page = await newPage(browser);
    for (const route of ['/login', '/404']) {
      await page.goto(webUrl(route));
      await page.waitForSelector('#app > *');
      expect(new URL(page.url()).pathname).toBe(`/web${route}`);
      expect(page.url()).not.toContain('#');
    }
    await page.reload();
    await page.getByRole('button', { name: '返回首页' }).waitFor();
    await page.context().close();
  });

  it('[S2.R1a] /login shows a login form titled 登录; [S2.R3a] /404 and [S2.R3b] /401 render', async () => {
    const page = await newPage(browser);
    await page.goto(webUrl('/login'));
    await page.getByPlaceholder('用户名').waitFor();
    await page.getByPlaceholder('密码').waitFor();
    expect(await page.title()).toMatch(/^登录/);
    await page.goto(webUrl('/404'));
    await page.getByText('抱歉，您访问的页面不存在').waitFor();
    await page.goto(webUrl('/401'));
    await page.getByText('您没有访问该页面的权限').waitFor();
    await page.context().close();
  });

  it('[S2.N2] every navigation scrolls to the top', async () => {
    const page = await newPage(browser, { viewport: { width: 360, height: 240 } });
    await page.goto(webUrl('/login'));
    await page.getByPlaceholder('用户名').waitFor();
    for (const next of ['/newlogin', '/kclogin']) {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      // A URL navigation inside the app (as a menu or tag click does): the page stays long, the scroll resets.
      await page.evaluate((path) => {
        window.history.pushState({}, '', `/web${path}`);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, next);
      await page.waitForFunction((path) => window.location.pathname === `/web${path}`, next);
      await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 3000 });
      expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
    }
    await page.context().close();
  });

  it('[S2.N3] a loading bar shows during a slow navigation and is gone after it', async () => {
    const page = await newPage(browser);
    await page.goto(webUrl('/404'));
    await page.getByRole('button', { name: '返回首页' }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1500, downloadThroughput: 200_000, uploadThroughput: 200_000 });
    await page.getByRole('button', { name: '返回首页' }).click();
    await page.locator('.nav-progress .bar').waitFor({ state: 'visible', timeout: 5000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByPlaceholder('用户名').waitFor();
    await page.locator('.nav-progress').waitFor({ state: 'detached', timeout: 5000 });
    await page.context().close();
  });
});

/**
 * The mobile terminal (issue 31, foundation) on a 390 × 844 touch phone: a phone's login leads to /web/m/, whose
 * page links its manifest; the bottom tab bar holds only screens that exist; my to-dos are listed and one is done
 * from the phone; the session reports terminal MOBILE 2; 移动终端 in the admin links the app with a QR code.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api, apiToken, menuPagePath } from '../support/admin-e2e.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA };
const SLOW = { timeout: 30_000 };

describe('the mobile terminal on a 390 × 844 phone', () => {
  let browser: Browser;
  let page: Page;
  let admin: string;
  const todoTitle = `手机端待办${Date.now()}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    const dy = await apiToken('dy', DEMO_USER_PASSWORD);
    const me = await api<{ id: number }>('GET', '/auth/info', undefined, dy);
    expect((await api('POST', '/api/msgTodo', { userId: me.body.id, title: todoTitle, content: '请在手机上办理' }, admin)).status).toBe(201);
    page = await newPage(browser, PHONE);
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
  });

  it('a phone logs in and lands on /web/m/: the tab bar (首页, 消息, 我的), my to-dos, and a link to the desktop', async () => {
    await page.goto(webUrl('/login'));
    await page.getByPlaceholder('用户名').fill('dy');
    await page.getByPlaceholder('密码').fill(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL((url) => url.pathname === '/web/m/', SLOW);
    const tabs = page.getByRole('navigation', { name: '底部导航' }).getByRole('button');
    await expect.poll(() => tabs.allTextContents(), SLOW).toEqual(['⌂首页', '✉消息', '☺我的']);
    for (const box of await tabs.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))) expect(box.height).toBeGreaterThanOrEqual(44);
    expect(await page.locator('.ant-layout, .sidebar-container, .navbar').count()).toBe(0);
    expect(await page.getByRole('link', { name: '电脑版' }).getAttribute('href')).toBe('/web/');
    const todo = page.getByRole('list', { name: '我的待办' }).getByRole('listitem').filter({ hasText: todoTitle });
    await todo.waitFor(SLOW);
    await todo.getByRole('button', { name: '完成' }).tap();
    await expect.poll(() => todo.count(), SLOW).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('the page links its manifest, and the session it made reports terminal 2 in the online list', async () => {
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/web/m/manifest.webmanifest');
    const manifest = await page.request.get(webUrl('/m/manifest.webmanifest'));
    expect(await manifest.json()).toMatchObject({ name: '党建', start_url: '/web/m/', display: 'standalone' });
    const online = await api<{ content: { username: string; terminal: number }[] }>('GET', '/api/online?size=200&blurry=dy', undefined, admin);
    expect(online.body.content.filter((s) => s.username === 'dy').map((s) => s.terminal)).toContain(2);
  });

  it('消息 and 我的 open from the tab bar; 我的党费 shows the member\'s dues', async () => {
    const tab = (name: string) => page.getByRole('navigation', { name: '底部导航' }).getByRole('button', { name });
    await tab('消息').tap();
    await page.getByRole('tablist', { name: '消息类型' }).waitFor(SLOW);
    expect(new URL(page.url()).pathname).toBe('/web/m/messages');
    await tab('我的').tap();
    await page.getByRole('button', { name: '我的党费' }).tap();
    await page.getByText('每月标准').waitFor(SLOW);
    await page.getByRole('button', { name: '返回' }).tap();
    await page.getByRole('button', { name: '我的党费' }).waitFor(SLOW);
  });

  it('移动终端 in the admin explains the app and shows its QR code', async () => {
    const desk = await newPage(browser);
    await desk.context().addCookies([{ name: TOKEN_KEY, value: admin, url: new URL(webUrl('/')).origin }]);
    await desk.goto(webUrl(menuPagePath('core:service-mobile')));
    await desk.getByRole('img', { name: '手机端二维码' }).waitFor(SLOW);
    expect(await desk.getByText('/web/m/', { exact: false }).first().textContent()).toContain('/web/m/');
    await desk.context().close();
  });
});

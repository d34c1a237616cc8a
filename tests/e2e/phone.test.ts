/**
 * The admin on a 390 × 844 phone (issue 33.15): 我的党费 shows its months as cards (nothing cut off at
 * the right, batch names on one line), the slide-out menu holds every section, the top bar names the
 * section of the page shown, and buttons are touch targets of at least 44 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { apiToken, menuPagePath } from '../support/admin-e2e.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const SLOW = { timeout: 30_000 };

describe('the admin on a 390 × 844 phone', () => {
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const p of pages) await p.context().close();
    await browser?.close();
  });

  async function open(user: string, route: string): Promise<Page> {
    const page = await newPage(browser, PHONE);
    pages.push(page);
    await page.context().addCookies([{ name: TOKEN_KEY, value: await apiToken(user, DEMO_USER_PASSWORD), url: new URL(webUrl('/')).origin }]);
    await page.goto(webUrl(route));
    return page;
  }
  const right = async (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));

  it('[33.15] 我的党费 shows each month as a card: nothing beyond the screen, batch names on one line, receipts in reach', async () => {
    const page = await open('dy', menuPagePath('core:dues-my'));
    await page.locator('.dues-my-card').first().waitFor(SLOW);
    expect(await page.locator('.dues-my .ant-table').count()).toBe(0);
    expect(Math.max(...(await right(page, '.dues-my-card')))).toBeLessThanOrEqual(390);
    // One line of text: a batch name such as 2026年10月党费 no longer wraps in a narrow column.
    const titleHeights = await page.locator('.dues-my-card-title').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(Math.max(...titleHeights)).toBeLessThan(30);
    // Paid months show their receipt inside the screen, and it opens.
    const receipt = page.locator('.dues-my-card-facts a').first();
    await receipt.waitFor(SLOW);
    expect(Math.max(...(await right(page, '.dues-my-card-facts a')))).toBeLessThanOrEqual(390);
    expect((await receipt.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await receipt.click();
    await page.locator('.dues-receipt').first().waitFor(SLOW);
    // The page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('[33.15] the top bar names the section of the page shown, and the slide-out menu holds every section', async () => {
    const page = await open('dy', menuPagePath('core:dues-my'));
    await expect.poll(() => page.locator('.navbar-title').textContent(), SLOW).toBe('党费管理');
    expect(await page.locator('.navbar .top-tabs').count()).toBe(0);
    await page.locator('.hamburger').click();
    const drawer = page.locator('.sidebar-drawer');
    await drawer.waitFor();
    const sections = drawer.locator('.ant-menu-submenu-title');
    await expect.poll(() => sections.allTextContents(), SLOW).toEqual(expect.arrayContaining(['党校管理', '党费管理', '消息中心']));
    // The current section is open on its page; another opens and leads to its pages.
    await drawer.locator('.ant-menu-item-selected', { hasText: '我的党费' }).waitFor();
    await sections.filter({ hasText: '消息中心' }).click();
    await drawer.locator('.ant-menu-item', { hasText: '待办事项' }).first().click();
    await page.waitForURL(/\/web\/message-center\//);
    await expect.poll(() => page.locator('.navbar-title').textContent(), SLOW).toBe('消息中心');
    const heights = await drawer.locator('.ant-menu-submenu-title').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(Math.min(...heights.filter((h) => h > 0))).toBeGreaterThanOrEqual(44);
  });

  it('[33.15] buttons on a phone are touch targets of at least 44 px', async () => {
    const page = await open('admin', menuPagePath('module:member'));
    const buttons = page.locator('.app-main .ant-btn:not(.ant-input-search-button):visible');
    await buttons.first().waitFor(SLOW);
    const sizes = await buttons.evaluateAll((els) => els.map((e) => ({ text: e.textContent, h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width })));
    expect(sizes.length).toBeGreaterThan(2);
    expect(sizes.filter((s) => s.h < 44 || s.w < 44)).toEqual([]);
  });
});

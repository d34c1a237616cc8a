import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from '../support/api.js';
import { menuPagePath } from '../support/admin-e2e.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

/**
 * How the generated list page lays out (issue 13): pinned columns stay readable while a wide list scrolls
 * sideways, and on a phone the filters move into a drawer.
 */
let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

async function openAsAdmin(path: string, viewport = { width: 1366, height: 800 }): Promise<Page> {
  const page = await newPage(browser, { viewport });
  page.setDefaultTimeout(20_000);
  await page.context().addCookies([{ name: 'DJ-TOKEN', value: admin, url: new URL(webUrl('/')).origin }]);
  await page.goto(webUrl(path));
  return page;
}

/** The header cell the user sees at the middle of `header` (what is painted on top there). */
const topmostHeaderText = (page: Page, title: string) =>
  page.evaluate((text) => {
    const th = [...document.querySelectorAll<HTMLElement>('.rt-table thead th')].find((e) => e.textContent?.trim() === text);
    if (!th) return `no header ${text}`;
    const box = th.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit?.closest('th')?.textContent?.trim() ?? `nothing (${hit?.tagName})`;
  }, title);

describe('list layout in Chromium', () => {
  it('[issue 13.2] pinned headers stay visible and on top while a wide list scrolls sideways', async () => {
    const page = await openAsAdmin(menuPagePath('module:member'), { width: 1100, height: 800 });
    try {
      await page.locator('tr.rt-row').first().waitFor();
      const scroller = page.locator('.rt-scroll');
      expect(await scroller.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
      for (const left of [0, 300, 100_000]) {
        await scroller.evaluate((e, x) => {
          e.scrollLeft = x;
        }, left);
        await page.waitForFunction((x) => Math.abs(document.querySelector('.rt-scroll')!.scrollLeft - Math.min(x, document.querySelector('.rt-scroll')!.scrollWidth)) < 2000, left);
        expect(await topmostHeaderText(page, '操作')).toBe('操作');
        expect(await topmostHeaderText(page, '姓名')).toBe('姓名');
      }
      // Scrolled down too: the header row stays above the body cells, pinned ones included.
      await scroller.evaluate((e) => {
        e.scrollTop = 200;
      });
      expect(await topmostHeaderText(page, '操作')).toBe('操作');
      expect(await topmostHeaderText(page, '姓名')).toBe('姓名');
    } finally {
      await page.screenshot({ path: '.tmp/e2e-pinned-headers.png' });
      await page.context().close();
    }
  });
});

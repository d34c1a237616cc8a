import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from '../support/api.js';
import { menuPagePath } from '../support/admin-e2e.js';
import { CONTEXT, launchBrowser, newPage, webUrl } from '../support/browser.js';

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
        await page.waitForFunction(
          (x) => Math.abs(document.querySelector('.rt-scroll')!.scrollLeft - Math.min(x, document.querySelector('.rt-scroll')!.scrollWidth)) < 2000,
          left,
        );
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

  it('[issue 14] a page of 500 rows draws the columns on screen; scrolling sideways draws the others under their headers', async () => {
    const page = await openAsAdmin(menuPagePath('module:member'), { width: 1100, height: 800 });
    try {
      await page.locator('tr.rt-row').first().waitFor();
      const cellsOfFirstRow = () => page.locator('tr.rt-row').first().locator('td[aria-colindex]').count();
      const headers = await page.locator('.rt-table thead th').count();
      // A page of 20 rows draws every column (the row's text is whole for find and copy).
      expect(await cellsOfFirstRow()).toBe(headers);
      await page.locator('.rt-pagination .ant-pagination-options .ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '500 条/页' }).click();
      await page.locator('table.rt-table[aria-rowcount="501"]').waitFor();
      await expect.poll(cellsOfFirstRow).toBeLessThan(headers);
      // The last unpinned column: not drawn at the left, drawn under its header at the right end.
      const lastUnpinned = await page.locator('.rt-table thead th:not(.rt-pinned)').last().getAttribute('aria-colindex');
      const cell = page.locator(`tr.rt-row >> nth=0 >> td[aria-colindex="${lastUnpinned}"]`);
      expect(await cell.count()).toBe(0);
      await page.locator('.rt-scroll').evaluate((e) => {
        e.scrollLeft = e.scrollWidth;
      });
      await cell.waitFor();
      const header = page.locator(`.rt-table thead th[aria-colindex="${lastUnpinned}"]`);
      const [cellBox, headerBox] = [await cell.boundingBox(), await header.boundingBox()];
      expect(Math.abs(cellBox!.x - headerBox!.x)).toBeLessThan(1);
      expect(Math.abs(cellBox!.width - headerBox!.width)).toBeLessThan(1);
      // The column's values are drawn (a single member may have none in it).
      expect((await page.locator(`tr.rt-row td[aria-colindex="${lastUnpinned}"]`).allTextContents()).some((t) => t.trim())).toBe(true);
      // Every drawn cell of the row sits under its own header.
      const misplaced = await page.evaluate(() => {
        const row = document.querySelector('tr.rt-row')!;
        return [...row.querySelectorAll<HTMLElement>('td[aria-colindex]')].filter((td) => {
          const th = document.querySelector<HTMLElement>(`.rt-table thead th[aria-colindex="${td.getAttribute('aria-colindex')}"]`)!;
          return Math.abs(td.getBoundingClientRect().left - th.getBoundingClientRect().left) > 1;
        }).length;
      });
      expect(misplaced).toBe(0);
    } finally {
      await page.screenshot({ path: '.tmp/e2e-virtual-columns.png' });
      await page.context().close();
    }
  });

  it('[issue 14] scrolling a 500-row page re-uses row elements, each showing its own record in its place; the focused row is not handed on', async () => {
    const page = await openAsAdmin(menuPagePath('module:member'), { width: 1100, height: 800 });
    try {
      await page.locator('tr.rt-row').first().waitFor();
      const answer = page.waitForResponse((r) => r.url().includes('/api/m/member/list') && r.url().includes('size=500'));
      await page.locator('.rt-pagination .ant-pagination-options .ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '500 条/页' }).click();
      const records = ((await (await answer).json()) as { content: { id: number; name: string }[] }).content;
      await page.locator('table.rt-table[aria-rowcount="501"]').waitFor();
      // Keyboard focus on the first row's checkbox, then every row element is marked with the record it shows.
      await page.locator('tr.rt-row[aria-rowindex="2"] input.rt-checkbox').focus();
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('tr.rt-row').forEach((tr) => (tr.dataset.firstShown = tr.dataset.rowKey)));
      const nameColumn = await page.locator('.rt-table thead th', { hasText: '姓名' }).getAttribute('aria-colindex');
      const check = async () =>
        page.evaluate((col) => {
          const body = document.querySelector('.rt-table tbody')!.getBoundingClientRect();
          return [...document.querySelectorAll<HTMLElement>('tr.rt-row')].map((tr) => ({
            place: Number(tr.getAttribute('aria-rowindex')) - 2,
            key: tr.dataset.rowKey,
            firstShown: tr.dataset.firstShown,
            name: tr.querySelector(`td[aria-colindex="${col}"]`)?.textContent,
            top: Math.round(tr.getBoundingClientRect().top - body.top),
            height: Math.round(tr.getBoundingClientRect().height),
          }));
        }, nameColumn);
      for (let step = 0; step < 12; step++) {
        const scrollTop = await page.locator('.rt-scroll').evaluate((e) => ((e.scrollTop += 700), e.scrollTop));
        // The table has drawn the row at the new scroll position (it renders from its scroll event).
        await page.waitForFunction((top) => {
          const rows = [...document.querySelectorAll<HTMLElement>('tr.rt-row')];
          const height = rows[0]?.getBoundingClientRect().height;
          return !!height && rows.some((tr) => Number(tr.getAttribute('aria-rowindex')) - 2 === Math.floor(top / height));
        }, scrollTop);
        for (const row of await check()) {
          expect(row.key).toBe(String(records[row.place].id));
          expect(row.name).toBe(records[row.place].name);
          expect(row.top).toBe(row.place * row.height);
        }
      }
      const rows = await check();
      // Elements first drawn for the top rows now show rows further down.
      expect(rows.filter((r) => r.firstShown && r.firstShown !== r.key).length).toBeGreaterThan(5);
      // The focus stayed with the first record: its element was not handed to another one.
      const focusedKey = await page.evaluate(() => document.activeElement?.closest<HTMLElement>('tr.rt-row')?.dataset.rowKey ?? null);
      expect([null, String(records[0].id)]).toContain(focusedKey);
      // Back at the top, the first record is drawn first again.
      await page.locator('.rt-scroll').evaluate((e) => (e.scrollTop = 0));
      await expect.poll(async () => (await check()).find((r) => r.place === 0)?.key).toBe(String(records[0].id));
    } finally {
      await page.context().close();
    }
  });

  it('[issue 13.9] on a 390×844 phone the filters stack in a drawer; no button covers an input', async () => {
    const page = await openAsAdmin(menuPagePath('module:member'), { width: 390, height: 844 });
    try {
      await page.locator('tr.rt-row').first().waitFor();
      const card = page.locator('.rt-filter-card');
      // The card holds buttons only: nothing to cover.
      expect(await card.locator('input:visible').count()).toBe(0);
      await card.getByRole('button', { name: /筛\s*选/ }).click();
      const drawer = page.locator('.rt-filter-drawer');
      await drawer.getByText('姓名', { exact: true }).waitFor();
      // Stacked: one filter per row, each as wide as the drawer's body, none overlapping the next.
      const boxes = await drawer.locator('.rt-filter').evaluateAll((items) => items.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      expect(boxes.length).toBeGreaterThan(3);
      for (let i = 1; i < boxes.length; i++) expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom - 1);
      for (const b of boxes) expect(b.width).toBeGreaterThan(300);
      const name = (
        await page.evaluate(() =>
          fetch('/api/m/member/list?size=1', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${document.cookie.match(/DJ-TOKEN=([^;]+)/)![1]}` },
            body: '{}',
          }).then((r) => r.json()),
        )
      ).content[0].name as string;
      await drawer.locator('.rt-filter').filter({ hasText: '姓名' }).locator('input').fill(name);
      await drawer.getByRole('button', { name: /查\s*询/ }).click();
      await drawer.waitFor({ state: 'hidden' });
      await card.getByRole('button', { name: /筛选（1）/ }).waitFor();
      await page.waitForFunction((n) => [...document.querySelectorAll('tr.rt-row')].every((r) => r.textContent?.includes(n)), name);
    } finally {
      await page.screenshot({ path: '.tmp/e2e-phone-filters.png' });
      await page.context().close();
    }
  });

  it('[issue 13.10] the form code is fetched while the list idles; a click shows the dialog frame at once', async () => {
    const context = await browser.newContext(CONTEXT);
    await context.addCookies([{ name: 'DJ-TOKEN', value: admin, url: new URL(webUrl('/')).origin }]);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    // Hold the form's code: the dialog must show without it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let requested = false;
    await page.route(/\/FormDialog-[^/]*\.js$/, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    try {
      await page.goto(webUrl(menuPagePath('module:member')));
      await page.locator('tr.rt-row').first().waitFor();
      // Prefetched on idle: asked for before anyone points at 新增.
      await expect.poll(() => requested, { timeout: 15_000 }).toBe(true);
      await page.getByRole('button', { name: /新\s*增/ }).click();
      const frame = page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: '新增党员基本信息' }) });
      await frame.locator('.ant-skeleton').waitFor();
      release();
      await frame.locator('#root_name').waitFor();
      expect(await frame.locator('.ant-skeleton').count()).toBe(0);
    } finally {
      release();
      await page.screenshot({ path: '.tmp/e2e-dialog-frame.png' });
      await context.close();
    }
  });
});

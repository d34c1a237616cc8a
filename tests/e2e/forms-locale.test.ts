/**
 * Issue 33.2, 33.3 and the router warning of 33.7: date pickers in Chinese wherever they open, a form with
 * changes asks 放弃修改？ before it closes, and a full load warns about no missing HydrateFallback.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { apiToken, menuPagePath } from '../support/admin-e2e.js';
import { clickFor, confirmDialog, launchBrowser, newPage, webUrl } from '../support/browser.js';
import { TOKEN_KEY } from '../../src/web/core/auth/token';

const WEEKDAYS = ['一', '二', '三', '四', '五', '六', '日'];
const ENGLISH = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Su|Mo|Tu|We|Th|Fr|Sa)\b/;

describe('forms: Chinese date pickers and the discard prompt', () => {
  let browser: Browser;
  let page: Page;
  const warnings: string[] = [];
  const dialog = () => page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: /^新增党员基本信息$/ }) });
  const openForm = async () => {
    await clickFor(() => page.getByRole('button', { name: /新\s*增/ }).click({ timeout: 5000 }), () => dialog().locator('#root_name').waitFor({ timeout: 10_000 }));
    return dialog();
  };
  const panel = () => page.locator('.ant-picker-dropdown:visible');
  const weekdays = async (p: Locator) => (await p.locator('.ant-picker-date-panel thead th').allTextContents()).slice(0, 7);

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser);
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    await page.context().addCookies([{ name: TOKEN_KEY, value: await apiToken('admin', DEMO_ADMIN_PASSWORD), url: webUrl('/') }]);
    await page.goto(webUrl(menuPagePath('module:member')));
    await page.locator('tr.rt-row').first().waitFor();
  });
  afterAll(() => browser?.close());

  it('[33.7] a full load of a page gives no react-router warning about HydrateFallback', () => {
    expect(warnings.filter((w) => w.includes('HydrateFallback'))).toEqual([]);
  });

  it('[33.2] the form\'s date picker shows Chinese week days and months, in its day and month panels', async () => {
    const form = await openForm();
    await form.locator('#root_joinDate').click();
    await panel().locator('.ant-picker-date-panel').waitFor();
    expect(await weekdays(panel())).toEqual(WEEKDAYS);
    const header = await panel().locator('.ant-picker-header-view').first().innerText();
    expect(header).toMatch(/^\d{4}年\s*\d{1,2}月$/);
    await panel().locator('.ant-picker-month-btn').first().click();
    await panel().locator('.ant-picker-month-panel').waitFor();
    const months = await panel().locator('.ant-picker-month-panel .ant-picker-cell').allTextContents();
    expect(months).toEqual(Array.from({ length: 12 }, (_, i) => `${i + 1}月`));
    expect(await panel().innerText()).not.toMatch(ENGLISH);
    await page.keyboard.press('Escape');
    await panel().waitFor({ state: 'hidden' });
    // Untouched (a picker opened and closed changes nothing): 取消 closes at once.
    await form.getByRole('button', { name: /取\s*消/ }).click();
    await form.waitFor({ state: 'hidden' });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  });

  it('[33.2] the filter bar\'s range picker shows Chinese week days too', async () => {
    const expand = page.locator('.rt-filters').getByText(/展开/).first();
    if (await expand.isVisible()) await expand.click();
    const item = page.locator('.rt-filter').filter({ hasText: '入党日期' }).first();
    await item.locator('.lazy-picker, .ant-picker-range').first().hover();
    await item.locator('.ant-picker-range input').first().click();
    await panel().locator('.ant-picker-date-panel').first().waitFor();
    expect(await weekdays(panel())).toEqual(WEEKDAYS);
    expect(await panel().innerText()).not.toMatch(ENGLISH);
    await page.keyboard.press('Escape');
  });

  it('[33.3] a form with changes asks 放弃修改？ on 取消 and on ✕; 继续填写 keeps the input, 放弃修改 closes', async () => {
    const form = await openForm();
    await form.locator('#root_name').fill('未保存的姓名');
    await form.getByRole('button', { name: /取\s*消/ }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect.poll(() => confirm.locator('.ant-modal-confirm-title').textContent()).toBe('放弃修改？');
    await confirmDialog(page, /继续填写/);
    expect(await form.locator('#root_name').inputValue()).toBe('未保存的姓名');

    await form.locator('.ant-modal-close').click();
    await confirm.waitFor();
    await confirmDialog(page, /放弃修改/);
    await form.waitFor({ state: 'hidden' });

    // Opened again: nothing typed, so ✕ closes without asking.
    const again = await openForm();
    expect(await again.locator('#root_name').inputValue()).toBe('');
    await again.locator('.ant-modal-close').click();
    await again.waitFor({ state: 'hidden' });
    expect(await confirm.count()).toBe(0);
  });
});

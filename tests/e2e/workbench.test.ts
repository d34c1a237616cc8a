/**
 * Issue 33.4: the home page is each role's workbench, with figures from the same APIs as the lists they
 * open (compared here with those APIs, never with fixed numbers).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api } from '../support/api.js';
import { apiToken } from '../support/admin-e2e.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

type Page_<T> = { content: T[]; totalElements: number };
const figure = (page: Page, selector: string) => page.locator(`${selector} .ant-statistic-content-value`);
const number = async (page: Page, selector: string) => Number((await figure(page, selector).innerText()).replace(/,/g, ''));

describe('the workbench of each role', () => {
  let browser: Browser;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    browser = await launchBrowser();
    tokens.admin = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    for (const u of ['zbsj', 'dy']) tokens[u] = await apiToken(u, DEMO_USER_PASSWORD);
  });
  afterAll(() => browser?.close());

  const open = async (user: string) => {
    const page = await newPage(browser);
    await page.context().addCookies([{ name: TOKEN_KEY, value: tokens[user], url: webUrl('/') }]);
    await page.goto(webUrl('/dashboard'));
    await page.locator('.workbench .wb-todos').waitFor();
    return page;
  };
  const count = (user: string, module: string, body: object) => api<Page_<unknown>>('POST', `/api/m/${module}/list?page=0&size=1`, body, tokens[user]).then((r) => r.body.totalElements);

  it('[33.4] the administrator sees what waits for approval per area, the key figures of the scope and the notices, each as the API answers', async () => {
    const page = await open('admin');
    for (const module of ['development', 'transfer-internal', 'transfer-out', 'transfer-in', 'floating']) {
      const sel = `.wb-approvals [data-module="${module}"]`;
      await expect.poll(() => number(page, sel)).toBe(await count('admin', module, { $waiting: true }));
    }
    // [43.6] Members counted as 大数据 and 统计报表 count them: 党籍正常, of them 预备党员.
    const big = (await api<{ members: { total: number; byCommittee: { probation: number }[] } }>('GET', '/api/bigdata/overview', undefined, tokens.admin)).body.members;
    expect(big.total).toBe(await count('admin', 'member', { partyStatus: '1' }));
    expect(big.total).toBeLessThan(await count('admin', 'member', {}));
    await expect.poll(() => number(page, '[data-figure="members"]')).toBe(big.total);
    await expect.poll(() => number(page, '[data-figure="probation"]')).toBe(big.byCommittee.reduce((s, r) => s + r.probation, 0));
    const year = new Date().getFullYear();
    const dues = (await api<{ totals: { paid: string } }>('GET', `/api/dues/reports/year?year=${year}`, undefined, tokens.admin)).body.totals.paid;
    await expect.poll(() => figure(page, '[data-figure="dues"]').innerText().then((t) => t.replace(/,/g, ''))).toBe(dues);
    const stats = (await api<{ kinds: { underway: number }[] }>('GET', `/api/transfers/stats?year=${year}`, undefined, tokens.admin)).body.kinds;
    await expect.poll(() => number(page, '[data-figure="transfers"]')).toBe(stats.reduce((s, k) => s + k.underway, 0));
    const funnel = (await api<{ stages: { value: string; count: number }[] }>('GET', '/api/development/funnel', undefined, tokens.admin)).body.stages;
    for (const s of funnel) await expect.poll(() => page.locator(`.wb-stage[data-stage="${s.value}"] b`).innerText()).toBe(String(s.count));

    // Notices an administrator published, and one published here reaches a member's workbench.
    const notices = (await api<Page_<{ title: string }>>('GET', '/api/msgPushHistory?type=notice&size=5', undefined, tokens.admin)).body.content;
    expect(notices.length).toBeGreaterThan(0);
    await page.locator('.wb-notices').getByText(notices[0].title).waitFor();
    await page.locator('.wb-notices').getByRole('button', { name: /发布公告/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '发布公告' });
    await dialog.locator('#title').fill('工作台测试公告');
    await dialog.locator('#content').fill('请各支部按时完成工作。');
    await dialog.getByRole('button', { name: /发\s*布/ }).click();
    await page.locator('.wb-notices').getByText('工作台测试公告').waitFor();

    // A figure opens the list it counts: 校内转接 on its 待我审批 tab, with as many rows.
    await page.locator('.wb-approvals [data-module="transfer-internal"]').click();
    await page.waitForURL(/\/transfer\/internal\?tab=waiting/);
    await expect.poll(() => page.locator('.wf-tabs .ant-tabs-tab-active').innerText()).toMatch(/待我审批/);
    await page.context().close();
  });

  it('[33.4][33.14] a branch secretary\'s to-dos show their number and the first few, each opening its record', async () => {
    const todos = (await api<Page_<{ title: string; link: string | null }>>('GET', '/api/msgTodo/getTodo?status=0&page=0&size=5', undefined, tokens.zbsj)).body;
    expect(todos.totalElements).toBeGreaterThan(0);
    const page = await open('zbsj');
    await expect.poll(() => page.locator('.wb-todos .wb-count').innerText()).toBe(`共 ${todos.totalElements} 项`);
    // The first of them that opens a record (others open a fill-in form's page, the 43.8 return to-do).
    const first = todos.content.find((x) => /\?id=\d+$/.test(x.link ?? ''))!;
    expect(first, JSON.stringify(todos.content)).toBeTruthy();
    await page.locator('.wb-todos .wb-entry', { hasText: first.title }).first().click();
    await page.waitForURL((url) => url.pathname + url.search === `/web${first.link}`);
    await page.locator('.ant-drawer .rf-detail-fields').first().waitFor();
    await page.context().close();
  });

  it('[33.4] a member sees the dues payable now and their notices; no approvals of others', async () => {
    const my = (await api<{ member: unknown; items: { canPay: boolean; months: string[] }[] }>('GET', `/api/dues/my?year=${new Date().getFullYear()}`, undefined, tokens.dy)).body;
    const months = my.items.filter((i) => i.canPay).flatMap((i) => i.months);
    const page = await open('dy');
    const dues = page.locator('.wb-dues');
    if (months.length) await expect.poll(() => dues.innerText()).toContain(`待缴 ${months.length} 个月`);
    else await expect.poll(() => dues.innerText()).toContain('党费已缴清');
    await page.locator('.wb-notices').getByText('工作台测试公告').waitFor();
    // Areas shown are those of the member's menu, each with what waits for the member (nothing, as a rule).
    for (const module of await page.locator('.wb-approvals [data-module]').evaluateAll((els) => els.map((e) => e.getAttribute('data-module')!))) {
      await expect.poll(() => number(page, `.wb-approvals [data-module="${module}"]`)).toBe(await count('dy', module, { $waiting: true }));
    }
    // 最新文件: the five newest documents published to the member (fewer than everything published), each downloading its file.
    const mine = (await api<{ title: string; fileName: string | null }[]>('GET', '/api/work/documents/newest?limit=5', undefined, tokens.dy)).body;
    const all = (await api<{ totalElements: number }>('GET', '/api/work/documents?size=1', undefined, tokens.admin)).body;
    expect(mine.length).toBeGreaterThan(0);
    expect(all.totalElements).toBeGreaterThan(mine.length);
    const documents = page.locator('.wb-documents .wb-entry');
    await expect.poll(() => documents.allInnerTexts().then((t) => t.map((x) => x.split('\n')[0].trim()))).toEqual(mine.map((d) => d.title));
    const [file] = await Promise.all([page.waitForEvent('download'), documents.first().click()]);
    expect(file.suggestedFilename()).toBe(mine[0].fileName ?? mine[0].title);
    await page.context().close();
  });
});

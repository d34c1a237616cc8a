/**
 * What the request layer does with 401 and 403 answers, in Chromium against the real server: the session
 * ended on the server, a permission withdrawn while the page is open.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api, apiLogin } from '../support/api.js';
import { launchBrowser } from '../support/browser.js';
import { appPath, createUser, go, signedIn, unique, visibleView, POLL } from './layout-helpers.js';

let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

const USERS = '/system/users';
const tokenCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === TOKEN_KEY)?.value;
/** Answers of the server with this status, as the page receives them. */
function answers(page: Page, status: number): string[] {
  const seen: string[] = [];
  page.on('response', (r) => {
    if (r.status() === status) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}
/**
 * The users page's list asks the server again: its 刷新 button clicked from script, because the page's
 * background calls (counters, the push channel) may have met the ended session or the withdrawn
 * permission first, so a dialog may already cover the button or the page may already be gone.
 */
const reload = (page: Page) =>
  page.evaluate((selector) => document.querySelector<HTMLElement>(selector)?.click(), `.app-view[data-view="${USERS}"] button[aria-label="刷新"]`);

describe('an expired session (spec §8: HTTP 401)', () => {
  it('[S8.E1a][S8.E1b][S8.E1d][S4.S3a] the session ended on the server: one 系统提示 dialog however many calls fail; 取消 keeps the page', async () => {
    const user = await createUser(admin, `exp${unique()}`, ['user:list']);
    const page = await signedIn(browser, user.token, '/dashboard');
    await visibleView(page, '/dashboard');
    const unauthorised = answers(page, 401);
    expect((await api('GET', '/auth/logout', undefined, user.token)).status).toBe(200);

    // Opening the users page sends its calls at once (the list, the roles, the gender dictionary): all 401.
    await go(page, USERS);
    await expect.poll(() => new Set(unauthorised).size, POLL).toBeGreaterThanOrEqual(3);
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.count()).toBe(1);
    expect(await dialog.locator('.ant-modal-confirm-title').innerText()).toBe('系统提示');
    expect(await dialog.locator('.ant-modal-confirm-content').innerText()).toMatch(/登录状态已过期.*留在该页面.*重新登录/);
    expect((await dialog.getByRole('button').allInnerTexts()).map((t) => t.replace(/\s/g, ''))).toEqual(['取消', '重新登录']);

    // 取消 closes it (another background call may open the next one soon after: one at a time).
    const shown = page.locator(`.ant-modal-confirm[aria-labelledby="${await dialog.getAttribute('aria-labelledby')}"]`);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await shown.waitFor({ state: 'detached' });
    expect(appPath(page)).toBe(USERS);
    await page.locator(`.app-view[data-view="${USERS}"]`).waitFor();
    // Closed, the next failing call asks again.
    await reload(page);
    await dialog.waitFor();
    expect(await dialog.count()).toBe(1);
    await page.context().close();
  });

  it('[S8.E1c][S4.S3b] 重新登录 logs out: the token is cleared and the login page shows, coming back to the page afterwards', async () => {
    const user = await createUser(admin, `exp${unique()}`, ['user:list']);
    const page = await signedIn(browser, user.token, USERS);
    await visibleView(page, USERS);
    expect((await api('GET', '/auth/logout', undefined, user.token)).status).toBe(200);
    await reload(page);
    const dialog = page.locator('.ant-modal-confirm', { hasText: '系统提示' });
    await dialog.getByRole('button', { name: /重新登录/ }).click();
    await page.waitForURL((url) => url.pathname === '/web/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(USERS);
    await page.getByPlaceholder('用户名').waitFor();
    expect(await tokenCookie(page)).toBeUndefined();
    await page.context().close();
  });
});

describe('a missing permission (spec §8: HTTP 403)', () => {
  it('[S8.E2][S6.P4][S2.R3c] a permission withdrawn while the page is open: the next call is answered 403 and the browser goes to /401', async () => {
    const username = `perm${unique()}`;
    const user = await createUser(admin, username, ['user:list']);
    const page = await signedIn(browser, user.token, USERS);
    await visibleView(page, USERS);
    const forbidden = answers(page, 403);
    const roles = await api<{ id: number; code: string }[]>('GET', '/api/roles/all', undefined, admin);
    const role = roles.body.find((r) => r.code === `layout_${username}`)!;
    expect((await api('PUT', '/api/roles', { id: role.id, permissions: ['regulation:list'] }, admin)).status).toBe(200);

    await reload(page);
    await page.waitForURL((url) => url.pathname === '/web/401');
    expect(forbidden.length).toBeGreaterThan(0);
    await page.getByText('抱歉，您没有访问该页面的权限').waitFor();
    expect(await tokenCookie(page)).toBe(user.token); // still signed in: only this page is out of reach
    await page.context().close();
  });

  it('an ordinary refusal is no 403: a non-superuser choosing the 超级管理员 role sees the reason under the field and stays on the page', async () => {
    const deputy = await createUser(admin, `dep${unique()}`, ['user:list', 'user:add']);
    const page = await signedIn(browser, deputy.token, USERS);
    await visibleView(page, USERS);
    const forbidden = answers(page, 403);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const form = page.locator('.ant-modal', { hasText: '新增用户' });
    await form.getByLabel('用户名').fill(`promoted${unique()}`);
    await form.getByLabel('姓名').fill('提权测试');
    // Picked until it shows as chosen (a click while the list animates picks nothing).
    for (let attempt = 1; ; attempt++) {
      await form.getByLabel('角色').click();
      await page.locator('.ant-select-dropdown:visible').getByTitle('超级管理员', { exact: true }).click();
      await page.keyboard.press('Escape'); // the open select would cover the dialog's buttons
      const chosen = form.locator('.ant-select-selection-item', { hasText: '超级管理员' });
      if (await chosen.waitFor({ timeout: 5000 }).then(() => true, () => attempt === 3)) break;
    }
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await form.locator('.ant-form-item-explain', { hasText: '只有超级管理员可以分配超级管理员角色' }).waitFor();
    expect(appPath(page)).toBe(USERS);
    expect(forbidden).toEqual([]);
    await page.context().close();
  });
});

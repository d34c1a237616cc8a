/** Shared steps of the layout browser tests (tests/e2e/layout-*.test.ts). */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api, apiLogin, encryptForServer } from '../support/api.js';
import { newPage, webUrl } from '../support/browser.js';

export const LAYOUT_PASSWORD = 'Layout@2026';

/** A page whose browser holds the session `token` (as after a login), opened at `route`. */
export async function signedIn(browser: Browser, token: string, route = '/dashboard', options: BrowserContextOptions = {}): Promise<Page> {
  const page = await newPage(browser, options);
  await page.context().addCookies([{ name: TOKEN_KEY, value: token, url: inject('baseUrl') }]);
  await page.goto(webUrl(route));
  await page.locator('.app-layout').waitFor();
  return page;
}

/** In-app navigation (as a link does): history push and popstate, no page reload. */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/web${p}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForFunction((p) => window.location.pathname + window.location.search === `/web${p}`, path);
}

export const appPath = (page: Page) => new URL(page.url()).pathname.replace(/^\/web/, '');

/** The visible page view of the layout, once it shows some text. */
export async function visibleView(page: Page, path: string) {
  const view = page.locator(`.app-view[data-view="${path}"]`);
  await view.waitFor({ state: 'visible' });
  await page.waitForFunction((p) => (document.querySelector(`.app-view[data-view="${p}"]`) as HTMLElement | null)?.innerText.trim().length, path);
  return view;
}

/**
 * A user of its own with a role holding `permissions`, whose initial (weak) password was changed to
 * LAYOUT_PASSWORD unless `keepWeak`; returns its id and a session token.
 */
export async function createUser(adminToken: string, username: string, permissions: string[], keepWeak = false): Promise<{ id: number; token: string }> {
  const role = await api<{ id: number }>('POST', '/api/roles', { name: `布局测试-${username}`, code: `layout_${username}`, permissions, dataScope: 'all' }, adminToken);
  expect(role.status, JSON.stringify(role.body)).toBe(201);
  const user = await api<{ id: number; password: string }>('POST', '/api/users', { username, nickName: `测试${username}`, roles: [role.body.id] }, adminToken);
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const first = await apiLogin(username, user.body.password);
  if (keepWeak) return { id: user.body.id, token: first };
  const changed = await api('POST', '/api/users/updatePass', { oldPass: await encryptForServer(user.body.password), newPass: await encryptForServer(LAYOUT_PASSWORD) }, first);
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return { id: user.body.id, token: await apiLogin(username, LAYOUT_PASSWORD) };
}

/** A unique suffix so reruns against one database do not clash. */
export const unique = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 1000);

/** Polling options for UI changes (animations, lazy chunks) on a busy machine. */
export const POLL = { timeout: 8000 } as const;

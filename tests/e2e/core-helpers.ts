/**
 * Shared setup of the core-page browser tests (personal centre, files, messages, uKey): one browser and
 * the administrator's session per test file, users with a non-weak password, pages signed in as them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api, apiLogin, encryptForServer } from '../support/api.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

export const PASSWORD = 'Core#Pages2026';
/** A suffix per test file, so reruns and files running side by side never share a username. */
export const run = Date.now().toString(36).slice(-5) + Math.random().toString(36).slice(2, 5);

export let browser: Browser;
export let admin: string;
export const baseUrl = () => inject('baseUrl');

/** Call once at the top of a test file: the browser and the administrator's session for its tests. */
export function useCoreSession(): void {
  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await apiLogin();
  });
  afterAll(() => browser?.close());
}

export interface TestUser {
  id: number;
  username: string;
  password: string;
  /** A live session: /auth/login is rate-limited (30 a minute), so tests reuse it until a logout ends it. */
  token: string;
}
/** A new account with a non-weak password (so no forced change dialog), optionally flagged useUkey. */
export async function createUser(prefix: string, opts: { useUkey?: boolean; orgId?: number } = {}): Promise<TestUser> {
  const username = `${prefix}_${run}`;
  const created = await api<{ id: number; password: string }>('POST', '/api/users', { username, nickName: `${prefix}用户`, ...(opts.orgId ? { orgId: opts.orgId } : {}) }, admin);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (opts.useUkey) {
    const flagged = await api('PUT', '/api/users', { id: created.body.id, useUkey: true }, admin);
    expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);
  }
  const token = await apiLogin(username, created.body.password);
  // Changing the password ends the user's other sessions; this one stays valid.
  const changed = await api('POST', '/api/users/updatePass', { newPass: await encryptForServer(PASSWORD) }, token);
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return { id: created.body.id, username, password: PASSWORD, token };
}

/** A page signed in as `user` (token cookie), at `route`; `fresh`: a new session (the last one was logged out). */
export async function openAs(user: TestUser | 'admin', route: string, opts: { context?: BrowserContext; fresh?: boolean } = {}): Promise<Page> {
  if (user !== 'admin' && opts.fresh) user.token = await apiLogin(user.username, user.password);
  const token = user === 'admin' ? admin : user.token;
  const context = opts.context;
  const page = context ? await context.newPage() : await newPage(browser);
  await page.context().addCookies([{ name: TOKEN_KEY, value: token, url: baseUrl() }]);
  await page.goto(webUrl(route));
  return page;
}

export const tokenCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === TOKEN_KEY)?.value;

/** Uploads a file through the API as `token`; answers the stored file. */
export async function apiUpload(token: string, name: string, bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${baseUrl()}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number; key: string; name: string };
}

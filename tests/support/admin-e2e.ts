import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { encryptPassword } from '../../src/server/core/auth/rsa.js';
import { flattenMenus, menuPaths, type MenuNode } from '../../src/shared/menus.js';
import { webUrl } from './browser.js';

const menuTree = (): MenuNode[] =>
  (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../schemas/menus.json'), 'utf8')) as { menus: MenuNode[] }).menus;

/** The menu page bound to `component` in schemas/menus.json. */
export function menuPage(component: string): MenuNode {
  const node = flattenMenus(menuTree()).find((n) => n.component === component);
  if (!node) throw new Error(`no menu page with component ${component}`);
  return node;
}

/** The web path of the menu page bound to `component` (e.g. core:users → /system/users). */
export function menuPagePath(component: string): string {
  const id = menuPage(component).id;
  return menuPaths(menuTree()).find((p) => p.id === id)!.path;
}

/** The first-level menu titles of schemas/menus.json. */
export function firstLevelTitles(): string[] {
  return menuTree().map((n) => n.title);
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

let publicKey: string | undefined;

/** Calls the e2e server directly (JSON in and out), as `token` when given. */
export async function api<T = any>(method: string, url: string, body?: unknown, token?: string): Promise<ApiAnswer<T>> {
  const res = await fetch(`${inject('baseUrl')}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A password as the browser sends it: RSA-OAEP with the server's public key. */
export async function encrypted(plain: string): Promise<string> {
  publicKey ??= (await api<{ publicKey: string }>('GET', '/auth/publicKey')).body.publicKey;
  return encryptPassword(publicKey, plain);
}

/** `POST /auth/login` (captcha is off on the e2e server). */
export async function apiLogin(username: string, password: string): Promise<ApiAnswer<{ token?: string; message?: string }>> {
  return api('POST', '/auth/login', { username, password: await encrypted(password) });
}

export async function apiToken(username: string, password: string): Promise<string> {
  const answer = await apiLogin(username, password);
  if (answer.status !== 200 || !answer.body.token) throw new Error(`login ${username} failed: ${JSON.stringify(answer.body)}`);
  return answer.body.token;
}

/** Signs in through the real login page and waits until the layout has left it. */
export async function uiLogin(page: Page, username: string, password: string): Promise<void> {
  await page.goto(webUrl('/login'));
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL((url) => !url.pathname.includes('login'), { timeout: 30_000 });
}

/** Reads one system configuration value as the administrator. */
export async function configValue(adminToken: string, key: string): Promise<string> {
  const answer = await api<{ configKey: string; configValue: string }[]>('GET', '/api/sysConfig/listAll', undefined, adminToken);
  const item = answer.body.find((c) => c.configKey === key);
  if (!item) throw new Error(`no system configuration ${key}`);
  return item.configValue;
}

export async function setConfigValue(adminToken: string, key: string, value: string): Promise<void> {
  const answer = await api('PUT', '/api/sysConfig', { configKey: key, configValue: value }, adminToken);
  if (answer.status !== 200) throw new Error(`setting ${key} failed: ${JSON.stringify(answer.body)}`);
}

/** A fresh mainland mobile number for test users (unique phone numbers are enforced). */
export const randomPhone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

import { chromium } from 'playwright-core';
import { encryptPassword } from './src/server/core/auth/rsa.js';
const BASE = 'http://127.0.0.1:18515';
async function token(username: string) {
  const { publicKey } = await (await fetch(`${BASE}/auth/publicKey`)).json();
  const res = await fetch(`${BASE}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: encryptPassword(publicKey, 'Dangjian@2026') }) });
  return (await res.json()).token as string;
}
const [user, route, out, ...actions] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
await context.addCookies([{ name: 'DJ-TOKEN', value: await token(user), url: BASE }]);
const page = await context.newPage();
page.on('pageerror', (e) => console.error('pageerror', e.message));
page.on('console', (m) => { if (m.type() === 'error') console.error('console', m.text()); });
await page.goto(`${BASE}/web${route}`);
await page.waitForTimeout(6000);
for (const a of actions) {
  const kind = a.slice(0, a.indexOf('=')); const sel = a.slice(a.indexOf('=') + 1);
  if (kind === 'click') await page.locator(sel).first().click();
  if (kind === 'wait') await page.waitForTimeout(Number(sel));
}
await page.screenshot({ path: out, fullPage: false });
await browser.close();

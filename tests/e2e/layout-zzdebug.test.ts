import { it } from 'vitest';
import { apiLogin } from '../support/api.js';
import { launchBrowser } from '../support/browser.js';
import { go, signedIn, visibleView } from './layout-helpers.js';
it('debug', async () => {
  const browser = await launchBrowser();
  const page = await signedIn(browser, await apiLogin(), '/dashboard');
  for (const path of ['/system/users', '/system/roles', '/system/dicts']) { await go(page, path); await visibleView(page, path); }
  await page.locator('.tags-view-item[data-path="/system/roles"]').click({ button: 'right' });
  await page.waitForTimeout(1000);
  console.log(await page.evaluate(() => [...document.querySelectorAll('.ant-dropdown')].map((d) => `${d.className} | ${getComputedStyle(d).display} ${getComputedStyle(d).zIndex} ${JSON.stringify(d.getBoundingClientRect())}`).join('\n')));
  console.log(await page.evaluate(() => { const li = [...document.querySelectorAll('.ant-dropdown-menu-item')].find((e) => e.textContent === '关闭')!; const r = li.getBoundingClientRect(); const top = document.elementFromPoint(r.x + 5, r.y + 5); return top?.outerHTML.slice(0, 200); }));
  await page.screenshot({ path: '.tmp/layout/dbg3.png' });
  await browser.close();
});

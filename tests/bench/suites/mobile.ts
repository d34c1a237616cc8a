import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { encryptPassword } from '../../../src/server/core/auth/rsa.js';
import { TOKEN_KEY } from '../../../src/web/core/auth/token.js';
import { chromiumPath } from '../../support/prerequisites.js';
import { median, startServerProcess, type BenchResult } from '../lib.js';
import { productionBuild } from './web.js';

const RUNS = 5;
/** Issue 31: the mobile shell's first load ≤ 120 KB gzip of JS and CSS; its first screen ≤ 3 s on slow 3G. */
const SHELL_BUDGET_KB = 120;
const SLOW_3G_BUDGET_MS = 3000;
/** Chrome DevTools' "Slow 3G" preset: 2 s round trips, 400 kbit/s down and up. */
const SLOW_3G = { offline: false, latency: 2000, downloadThroughput: (400 * 1024) / 8, uploadThroughput: (400 * 1024) / 8 };
/** The shell painted (drawn by the page itself before its script), the app started, the first data (my to-dos) shown. */
const READY = '.m-tabs';
const LIVE = '.m-shell[data-live]';
const FIRST_DATA = 'section[aria-label^="我的待办（"]';

/** One cold load of /web/m/ on a phone: JS + CSS fetched (gzip) and the time until the tab bar shows. */
async function coldLoad(browser: Browser, base: string, token: string, slow3g: boolean): Promise<{ gzipBytes: number; files: number; ms: number; liveMs: number; dataMs: number }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  await context.addCookies([{ name: TOKEN_KEY, value: token, url: base }]);
  const page = await context.newPage();
  if (slow3g) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
  }
  const sizes: Promise<number>[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    // The page counts too: it carries the stylesheet (inlined) and the shell.
    if (type === 'script' || type === 'stylesheet' || type === 'document') sizes.push(res.body().then((b) => zlib.gzipSync(b, { level: 9 }).length, () => 0));
  });
  const started = performance.now();
  // From the first byte on (`commit`), not the load event: the shell shows before the scripts have arrived.
  await page.goto(`${base}/web/m/`, { waitUntil: 'commit' });
  await page.locator(READY).waitFor({ timeout: 60_000 });
  const ms = performance.now() - started;
  await page.locator(LIVE).waitFor({ timeout: 60_000 });
  const liveMs = performance.now() - started;
  await page.locator(FIRST_DATA).waitFor({ timeout: 60_000 });
  const dataMs = performance.now() - started;
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  await context.close();
  return { gzipBytes: all.reduce((a, b) => a + b, 0), files: all.length, ms, liveMs, dataMs };
}

/** The mobile terminal's shell (/web/m/): what a phone downloads on a first visit, and how soon it shows. */
export async function mobileSuite(): Promise<BenchResult[]> {
  productionBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-mobile-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, CAPTCHA: 'off' });
  const base = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'] });
  try {
    const publicKey = ((await (await fetch(`${base}/auth/publicKey`)).json()) as { publicKey: string }).publicKey;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-terminal': '2' },
      body: JSON.stringify({ username: 'admin', password: encryptPassword(publicKey, process.env.ADMIN_PASSWORD ?? 'Dangjian@2026') }),
    });
    const { token } = (await login.json()) as { token: string };
    const fast = [];
    for (let i = 0; i < RUNS; i++) fast.push(await coldLoad(browser, base, token, false));
    const slow = [];
    for (let i = 0; i < 3; i++) slow.push(await coldLoad(browser, base, token, true));
    return [
      { suite: 'mobile', name: '/web/m/ shell: page + JS + CSS downloaded on first load (gzip)', value: Math.round((median(fast.map((l) => l.gzipBytes)) / 1024) * 10) / 10, unit: 'KB', budget: SHELL_BUDGET_KB, note: `${fast[0].files} files` },
      { suite: 'mobile', name: '/web/m/ first screen (tab bar shown), loopback', value: Math.round(median(fast.map((l) => l.ms))), unit: 'ms', note: `median of ${RUNS} cold loads, 390×844` },
      { suite: 'mobile', name: '/web/m/ first screen under slow 3G (2 s RTT, 400 kbit/s)', value: Math.round(median(slow.map((l) => l.ms))), unit: 'ms', budget: SLOW_3G_BUDGET_MS, note: 'median of 3 cold loads, DevTools Slow 3G preset: the shell (title and tab bar) painted from the page' },
      { suite: 'mobile', name: '/web/m/ app started under slow 3G', value: Math.round(median(slow.map((l) => l.liveMs))), unit: 'ms', note: 'the scripts arrived and the app replaced the shell (taps work)' },
      { suite: 'mobile', name: '/web/m/ first data under slow 3G (my to-dos)', value: Math.round(median(slow.map((l) => l.dataMs))), unit: 'ms', note: 'the user comes inside the page; one more round trip for the to-dos' },
    ];
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

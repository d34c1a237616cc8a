import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { encryptPassword } from '../../../src/server/core/auth/rsa.js';
import { TOKEN_KEY } from '../../../src/web/core/auth/token.js';
import { chromiumPath } from '../../support/prerequisites.js';
import { median, startServerProcess, type BenchResult } from '../lib.js';

const RUNS = 5;
/** Budgets of issue 4: JS + CSS (gzip) of a first load. */
const LOGIN_BUDGET_KB = 200;
const LIST_BUDGET_KB = 450;

/** The pages measured: the login page, and list pages with their filter form (a core one, a schema one). */
const PAGES = [
  { name: '/web/login', route: '/login', signedIn: false, budget: LOGIN_BUDGET_KB, ready: 'input[placeholder="用户名"]' },
  { name: '/web/system/users (core list page)', route: '/system/users', signedIn: true, budget: LIST_BUDGET_KB, ready: '.app-view .ant-table-row, .app-view .ant-empty' },
  { name: '/web/service/info/regulation (schema list page)', route: '/service/info/regulation', signedIn: true, budget: LIST_BUDGET_KB, ready: '.app-view .ant-table-row, .app-view .ant-empty, .app-view table tbody tr' },
];

interface Load {
  gzipBytes: number;
  files: number;
  /** Images, fonts and the menu icon sprite (gzip), reported beside the budgeted figure. */
  otherGzipBytes: number;
  ms: number;
}

/** One first load in an empty browser cache: the JS and CSS it fetched (gzip size) and the time until `ready` shows. */
async function firstLoad(browser: Browser, base: string, token: string | undefined, route: string, ready: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
  if (token) await context.addCookies([{ name: TOKEN_KEY, value: token, url: base }]);
  const page: Page = await context.newPage();
  const bodies: Promise<number>[] = [];
  const others: Promise<number>[] = [];
  const gzipSize = (res: { body(): Promise<Buffer> }) => res.body().then((b) => zlib.gzipSync(b, { level: 9 }).length, () => 0);
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet') bodies.push(gzipSize(res));
    else if (!['document', 'xhr', 'fetch', 'websocket', 'eventsource'].includes(type)) others.push(gzipSize(res));
  });
  const started = performance.now();
  await page.goto(`${base}/web${route}`);
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  const ms = performance.now() - started;
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(bodies);
  const otherSizes = await Promise.all(others);
  await context.close();
  return { gzipBytes: sizes.reduce((a, b) => a + b, 0), files: sizes.length, otherGzipBytes: otherSizes.reduce((a, b) => a + b, 0), ms };
}

/**
 * Builds dist/web as `npm run build` does. NODE_ENV is set explicitly: a build started from a process
 * whose NODE_ENV is not production (vitest sets `test`) bundles React's development builds.
 */
export function productionBuild(): void {
  execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });
}

/**
 * What a browser downloads (JS + CSS, gzip) on the first load of the login page and of list pages after
 * login, and the time until each page is usable, in headless Chromium against the built app.
 */
export async function webSuite(): Promise<BenchResult[]> {
  productionBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-web-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, CAPTCHA: 'off' });
  const base = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  const results: BenchResult[] = [];
  try {
    const publicKey = ((await (await fetch(`${base}/auth/publicKey`)).json()) as { publicKey: string }).publicKey;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: encryptPassword(publicKey, process.env.ADMIN_PASSWORD ?? 'Dangjian@2026') }),
    });
    const { token } = (await login.json()) as { token: string };
    for (const p of PAGES) {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await firstLoad(browser, base, p.signedIn ? token : undefined, p.route, p.ready));
      const kb = Math.round((median(loads.map((l) => l.gzipBytes)) / 1024) * 10) / 10;
      const otherKb = Math.round((median(loads.map((l) => l.otherGzipBytes)) / 1024) * 10) / 10;
      results.push({ suite: 'web', name: `${p.name}: JS + CSS downloaded on first load (gzip)`, value: kb, unit: 'KB', budget: p.budget, note: `${loads[0].files} files; images, fonts and icon sprite besides: ${otherKb} KB` });
      results.push({ suite: 'web', name: `${p.name}: time to a usable page (headless Chromium, loopback)`, value: Math.round(median(loads.map((l) => l.ms))), unit: 'ms', note: `median of ${RUNS} cold loads` });
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

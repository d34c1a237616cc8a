/**
 * `npm run bench table` (issue 14): a schema list page showing 1,000 rows × 30 columns (page size 1,000)
 * in headless Chromium on the production build, against the real server.
 *
 * The module is `bench-wide`, written for this bench into a copy of the fixture schemas (30 list columns:
 * a pinned name, dictionaries, dates, computed ages, an organisation reference, numbers, a flag, an enum,
 * texts), with 1,000 generated records. The compiled server is `tests/bench/runtime-server.ts` (the real
 * server on a schemas directory of its own), run as plain JavaScript like `npm run serve`.
 *
 * Figures:
 * - first paint of the rows: from the end of the list answer (resource timing of the request) to the
 *   frame after React committed the 1,000-row page (requestAnimationFrame, then a message: that frame
 *   is painted by then); the page size is switched from 20 to 1,000 in the page's size changer, as a user
 *   does. Median and worst of RUNS switches; budget 300 ms.
 * - a 3 s scroll from the top to the bottom of the 1,000 rows (scrollTop set in every animation frame,
 *   constant speed): the frame times (rAF deltas), worst and p99; budget: no frame over 32 ms. The same
 *   scroll on a bare page (a tall plain div) in the same browser is the floor of this machine at that
 *   moment: frames lost there are the machine's, not the table's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { openDatabase } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { ROOT_DIR } from '../../../src/server/paths.js';
import { initialiseDatabase } from '../../../src/server/seed/index.js';
import { buildServer } from '../../../src/server/server-build.js';
import { ensureWebBuilt } from '../../../src/server/web-build.js';
import { TOKEN_KEY } from '../../../src/web/core/auth/token.js';
import { FIXTURE_SCHEMAS } from '../../fixtures/runtime-hooks.js';
import { chromiumPath } from '../../support/prerequisites.js';
import { benchLogin, median, percentile, startServerProcess, type BenchResult } from '../lib.js';

const SUITE = 'table';
const ROWS = 1000;
const TEXT_COLUMNS = 15;
const RUNS = Number(process.env.BENCH_TABLE_RUNS ?? 5);
const SCROLL_MS = 3000;
const ADMIN_PASSWORD = 'Bench#2026a';
const SERVER_DIR = path.join(ROOT_DIR, 'dist', 'bench-table');
const MODULE = 'bench-wide';
const ROUTE = '/bench-area/wide';
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** The module of the bench: 15 typed columns and 15 texts, 30 list columns in all. */
function wideModule(): Record<string, unknown> {
  const texts = Array.from({ length: TEXT_COLUMNS }, (_, i) => `text${String(i + 1).padStart(2, '0')}`);
  const properties: Record<string, unknown> = {
    name: { type: 'string', title: '姓名', minLength: 1, maxLength: 50 },
    gender: { type: 'string', title: '性别', 'x-dict': 'TEST_GENDER', 'x-widget': 'radio' },
    level: { type: 'string', title: '级别', 'x-dict': 'TEST_LEVEL' },
    idCard: { type: 'string', title: '身份证号', format: 'id-card' },
    birthDate: { type: 'string', title: '出生日期', format: 'date' },
    age: { type: 'integer', title: '年龄', readOnly: true, 'x-computed': { fn: 'age', args: ['birthDate'] } },
    orgId: { type: 'integer', title: '所属组织', 'x-ref': 'org', 'x-widget': 'org-tree' },
    joinDate: { type: 'string', title: '入党日期', format: 'date' },
    partyAge: { type: 'integer', title: '党龄', readOnly: true, 'x-computed': { fn: 'partyAge', args: ['joinDate'] } },
    score: { type: 'number', title: '积分', minimum: 0, maximum: 100 },
    childCount: { type: 'integer', title: '子女数', minimum: 0 },
    isCadre: { type: 'boolean', title: '是否干部' },
    status: { type: 'string', title: '状态', enum: ['在册', '离校'] },
    mobile: { type: 'string', title: '手机号码', format: 'mobile' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    ...Object.fromEntries(texts.map((t, i) => [t, { type: 'string', title: `信息项${i + 1}`, maxLength: 100 }])),
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    'x-id': MODULE,
    title: '宽表测试',
    description: 'Benchmark module (npm run bench table): 30 list columns.',
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties,
    'x-name-field': 'name',
    'x-list': {
      columns: [{ field: 'name', width: 120, fixed: 'left' }, ...Object.keys(properties).slice(1)],
      filters: [{ field: 'name', op: 'like' }],
      sort: 'joinDate,desc',
    },
  };
}

/** A copy of the fixture schemas with the bench module and its menu entry. */
function schemasDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-table-schemas-'));
  fs.cpSync(FIXTURE_SCHEMAS, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'modules', `${MODULE}.json`), JSON.stringify(wideModule(), null, 2));
  const menusFile = path.join(dir, 'menus.json');
  const menus = JSON.parse(fs.readFileSync(menusFile, 'utf8')) as { menus: unknown[] };
  menus.menus.push({
    id: 'bench-area',
    type: 'directory',
    title: '性能测试',
    path: '/bench-area',
    icon: 'ExperimentOutlined',
    children: [
      {
        id: 'bench-wide-page',
        type: 'page',
        title: '宽表测试',
        path: 'wide',
        icon: 'TeamOutlined',
        component: `module:${MODULE}`,
        permission: `${MODULE}:list`,
      },
    ],
  });
  fs.writeFileSync(menusFile, JSON.stringify(menus, null, 2));
  return dir;
}

/** Creates the tables through the app, the administrator, then ROWS records in one INSERT ... SELECT. */
async function seed(env: Record<string, string>, schemas: string, dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  await migrate(database);
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false, schemasDir: schemas });
  try {
    await initialiseDatabase({ database, config, log: app.log });
    const texts = Array.from({ length: TEXT_COLUMNS }, (_, i) => `text${String(i + 1).padStart(2, '0')}`);
    await sql`
      INSERT INTO m_bench_wide (school, created_by, updated_by, name, gender, level, id_card, birth_date, org_id, join_date, score,
                                child_count, is_cadre, status, mobile, remark, ${sql.join(texts.map((t) => sql.ref(t)))})
      SELECT 'hntb', 1, 1,
             (ARRAY['张','王','李','赵','刘','陈','杨','黄','周','吴'])[1 + g % 10] || (ARRAY['伟','芳','娜','敏','静','磊','洋','勇','艳','杰','军','丽'])[1 + (g / 10) % 12] || g,
             (1 + (g / 3) % 2)::text,
             (ARRAY['A','B','C'])[1 + g % 3],
             '110105' || lpad(g::text, 12, '0'),
             date '1960-01-01' + (g * 37 % 16000),
             1,
             date '1985-01-01' + (g * 53 % 14000),
             (g % 1001) / 10.0,
             g % 4,
             g % 10 = 0,
             CASE WHEN g % 20 = 0 THEN '离校' ELSE '在册' END,
             '138' || lpad(g::text, 8, '0'),
             '备注：第' || g || '条记录的说明文字，用来占满这一列的宽度',
             ${sql.join(texts.map((_, i) => sql`'信息' || ${i + 1}::int || '-' || g`))}
      FROM generate_series(1, ${ROWS}::int) AS g`.execute(database.db);
  } finally {
    await app.close();
  }
}

/**
 * tsx compiles this file with esbuild's keepNames, which wraps named functions in a `__name` helper that
 * the page does not have: define it there before passing functions to `page.evaluate`.
 */
const withNameHelper = (page: Page) => page.evaluate('window.__name = (f) => f');

interface FirstPaint {
  /** End of the list answer to the frame after the rows were committed, ms. */
  paintMs: number;
  /** The size changer's click to that frame, ms (request, answer and rendering). */
  fromClickMs: number;
  /** Bytes of the list answer (as transferred). */
  bytes: number;
  /** Cells in the DOM once painted (the rows drawn of the 1,000, times their cells). */
  cells: number;
}

/** Opens the page (20 rows), then switches to 1,000 rows per page and times the first paint of them. */
async function firstPaint(
  browser: Browser,
  base: string,
  token: string,
  beforeSwitch?: (page: Page) => Promise<void>,
): Promise<{ page: Page; figures: FirstPaint }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
  await context.addCookies([{ name: TOKEN_KEY, value: token, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/web${ROUTE}`);
  await page.locator('.rt-table tr.rt-row').first().waitFor({ timeout: 30_000 });
  const columns = await page.locator('.rt-table thead th').count();
  // 30 data columns, the selection column and the row actions.
  if (columns !== 32) throw new Error(`the list shows ${columns} header cells, expected 32`);
  await withNameHelper(page);

  await page.evaluate((rows) => {
    const w = window as unknown as { paint?: Promise<{ painted: number; answered: number; bytes: number; cells: number }>; clicked?: number };
    w.paint = new Promise((resolve) => {
      const done = () => {
        // aria-rowcount counts the header row too.
        const table = document.querySelector(`table.rt-table[aria-rowcount="${rows + 1}"]`);
        if (!table || !table.querySelector('tr.rt-row')) return false;
        observer.disconnect();
        // The frame after this commit: by the message after its animation frame, it is painted.
        requestAnimationFrame(() => {
          const after = new MessageChannel();
          after.port1.onmessage = () => {
            const painted = performance.now();
            const entry = performance
              .getEntriesByType('resource')
              .filter((e) => e.name.includes('/list?') && e.name.includes(`size=${rows}`))
              .at(-1) as PerformanceResourceTiming | undefined;
            resolve({ painted, answered: entry?.responseEnd ?? NaN, bytes: entry?.transferSize ?? 0, cells: table.querySelectorAll('td.rt-cell').length });
          };
          after.port2.postMessage(0);
        });
        return true;
      };
      const observer = new MutationObserver(() => void done());
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-rowcount'] });
    });
    document.addEventListener('mousedown', () => (w.clicked ??= performance.now()), { capture: true });
  }, ROWS);
  await beforeSwitch?.(page);
  // The page size changer: antd's Select in the pagination.
  await page.locator('.rt-pagination .ant-pagination-options .ant-select').click();
  await page.evaluate(() => ((window as unknown as { clicked?: number }).clicked = undefined));
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `${ROWS} 条/页` }).click();
  const r = await page.evaluate(() => {
    const w = window as unknown as { paint: Promise<{ painted: number; answered: number; bytes: number; cells: number }>; clicked: number };
    return w.paint.then((p) => ({ ...p, clicked: w.clicked }));
  });
  if (!Number.isFinite(r.answered)) throw new Error('no resource timing of the 1,000-row list answer');
  return { page, figures: { paintMs: r.painted - r.answered, fromClickMs: r.painted - r.clicked, bytes: r.bytes, cells: r.cells } };
}

interface Scroll {
  /** Frame times (rAF deltas) in ms, sorted. */
  frames: number[];
  /** scrollTop reached / scrollable height (1 = the bottom). */
  reached: number;
}

/** Scrolls `selector` from top to bottom in SCROLL_MS at constant speed, setting scrollTop in every frame. */
function scroll(page: Page, selector: string): Promise<Scroll> {
  return page.evaluate(
    ({ selector, duration }) =>
      new Promise<Scroll>((resolve) => {
        const el = document.querySelector<HTMLElement>(selector)!;
        el.scrollTop = 0;
        const distance = el.scrollHeight - el.clientHeight;
        const stamps: number[] = [];
        const step = (t: number) => {
          stamps.push(t);
          const elapsed = t - stamps[0];
          el.scrollTop = Math.min(distance, (distance * elapsed) / duration);
          if (elapsed < duration) requestAnimationFrame(step);
          else {
            const frames = stamps.slice(1).map((s, i) => s - stamps[i]);
            resolve({ frames: frames.sort((a, b) => a - b), reached: el.scrollTop / distance });
          }
        };
        // Two frames first, so the scroll starts on a frame boundary.
        requestAnimationFrame(() => requestAnimationFrame(step));
      }),
    { selector, duration: SCROLL_MS },
  );
}

/** The same scroll on a bare page: a plain tall div of the table's height, in the same browser. */
async function bareScroll(browser: Browser, height: number): Promise<Scroll> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  try {
    await page.setContent(
      `<div id="box" style="height:520px;overflow:auto"><div style="height:${height}px;background:linear-gradient(#fff,#eee)"></div></div>`,
    );
    await withNameHelper(page);
    return await scroll(page, '#box');
  } finally {
    await page.close();
  }
}

/**
 * BENCH_TABLE_PROFILE=1: one size switch and one scroll under Chromium's tracing, then where the
 * renderer's main thread spent its time (trace events by name, and JavaScript self time by function);
 * the trace stays in .tmp/profiles/ (open it in Chrome's Performance panel).
 */
async function profileRun(browser: Browser, base: string, token: string): Promise<void> {
  const dir = path.resolve('.tmp/profiles');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `table-${Date.now()}.json`);
  let profiler: import('playwright-core').CDPSession | undefined;
  const { page, figures } = await firstPaint(browser, base, token, async (p) => {
    await browser.startTracing(p, { path: file, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc'] });
    profiler = await p.context().newCDPSession(p);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.send('Profiler.start');
  });
  if (process.env.BENCH_TABLE_CSS) await page.addStyleTag({ content: process.env.BENCH_TABLE_CSS });
  if (process.env.BENCH_TABLE_EVAL) console.error('eval:', await page.evaluate(process.env.BENCH_TABLE_EVAL));
  // What the page changes in the DOM while it scrolls (rows coming and going; anything else is waste).
  await page.evaluate(() => {
    const w = window as unknown as { mutations: Record<string, number> };
    w.mutations = {};
    new MutationObserver((list) => {
      for (const m of list) {
        const key =
          m.type === 'attributes'
            ? `attribute ${m.attributeName} on ${(m.target as Element).tagName}.${(m.target as Element).className}`
            : `children of ${(m.target as Element).tagName}`;
        w.mutations[key] = (w.mutations[key] ?? 0) + 1;
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const s = await scroll(page, '.rt-scroll');
  console.error('DOM mutations while scrolling:', await page.evaluate(() => JSON.stringify((window as unknown as { mutations: unknown }).mutations)));
  const { profile } = (await profiler!.send('Profiler.stop')) as {
    profile: {
      nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
      samples: number[];
      timeDeltas: number[];
    };
  };
  await browser.stopTracing();
  console.error(
    `table: first paint ${Math.round(figures.paintMs)} ms; scroll: ${s.frames.length} frames, median ${round(median(s.frames))} ms, longest ${round(s.frames.at(-1)!)} ms`,
  );
  const trace = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    traceEvents: { name: string; ph: string; dur?: number; pid: number; tid: number; args?: { name?: string } }[];
  };
  const main = trace.traceEvents.find(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && trace.traceEvents.some((x) => x.pid === e.pid && x.name === 'FunctionCall'),
  );
  const totals = new Map<string, number>();
  for (const e of trace.traceEvents)
    if (main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur) totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
  console.error('renderer main thread, trace events by name (inclusive ms, nested events counted in each):');
  for (const [name, ms] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.error(`  ${ms.toFixed(0).padStart(7)}  ${name}`);
  const layouts = trace.traceEvents.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.name === 'Layout' && e.ph === 'X') as unknown as {
    args?: { beginData?: { dirtyObjects?: number; totalObjects?: number } };
  }[];
  console.error(
    `layouts (dirty/total objects): ${layouts
      .slice(-20)
      .map((e) => `${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects}`)
      .join(' ')}`,
  );
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  for (const n of profile.nodes) {
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (self.get(n.id) ?? 0));
  }
  console.error('JavaScript self time by function (ms):');
  for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.error(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
  console.error(`trace: ${path.relative(process.cwd(), file)}`);
  await page.context().close();
}

export async function tableSuite(): Promise<BenchResult[]> {
  await ensureWebBuilt(console.error);
  await buildServer({ entryPoints: { 'runtime-server': 'tests/bench/runtime-server.ts' }, outdir: SERVER_DIR });
  const schemas = schemasDir();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-table-'));
  const env = { DATA_DIR: dataDir, RUNTIME_BENCH_SCHEMAS: schemas, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn' };
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    await seed(env, schemas, dataDir);
    server = await startServerProcess(env, path.join(SERVER_DIR, 'runtime-server.js'));
    const base = `http://127.0.0.1:${server.port}`;
    const token = await benchLogin(base, ADMIN_PASSWORD);
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
    });

    if (process.env.BENCH_TABLE_PROFILE) {
      await profileRun(browser, base, token);
      return [];
    }
    const answer = await fetch(`${base}/api/m/${MODULE}/list?page=0&size=${ROWS}&sort=joinDate,desc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    const ids = ((await answer.json()) as { content: { id: number }[] }).content.map((r) => String(r.id));

    const paints: FirstPaint[] = [];
    const scrolls: Scroll[] = [];
    const bare: Scroll[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { page, figures } = await firstPaint(browser, base, token);
      paints.push(figures);
      const height = await page.locator('.rt-scroll').evaluate((el) => el.scrollHeight);
      const s = await scroll(page, '.rt-scroll');
      if (s.reached < 0.99) throw new Error(`the scroll stopped at ${Math.round(s.reached * 100)}% of the table`);
      // The last record of the page is drawn at the bottom once the last scroll event is handled: the rows followed the scroll.
      await page.waitForTimeout(200);
      // The drawn row with the highest place (rows are drawn in the order of the elements they re-use).
      const last = await page.evaluate(() =>
        [...document.querySelectorAll('.rt-table tr.rt-row')]
          .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
          .at(-1)
          ?.getAttribute('data-row-key'),
      );
      if (last !== ids.at(-1))
        throw new Error(`the bottom of the table shows record ${last} (row ${ids.indexOf(last ?? '') + 1} of the page), the page ends with ${ids.at(-1)}`);
      console.error(`table: run ${i + 1}: first paint ${Math.round(figures.paintMs)} ms, longest scroll frame ${round(s.frames.at(-1)!)} ms`);
      scrolls.push(s);
      await page.context().close();
      bare.push(await bareScroll(browser, height));
    }

    const paintMs = paints.map((p) => p.paintMs).sort((a, b) => a - b);
    const frames = scrolls.flatMap((s) => s.frames).sort((a, b) => a - b);
    const bareFrames = bare.flatMap((s) => s.frames).sort((a, b) => a - b);
    const worstPerRun = scrolls.map((s) => round(s.frames.at(-1)!));
    const over = (list: number[]) => list.filter((f) => f > 32).length;
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
    const what = `${MODULE} list page, ${ROWS.toLocaleString('en')} rows × 30 columns (page size ${ROWS.toLocaleString('en')}, headless Chromium, production build)`;
    return [
      {
        suite: SUITE,
        name: `${what}: first paint of the rows after the answer arrives (median of ${RUNS})`,
        value: Math.round(median(paintMs)),
        unit: 'ms',
        budget: 300,
        note: `worst ${Math.round(paintMs.at(-1)!)} ms; from the click on "${ROWS} 条/页": median ${Math.round(median(paints.map((p) => p.fromClickMs)))} ms; answer ${Math.round(paints[0].bytes / 1024)} KB; ${paints[0].cells} cells drawn; load average ${load}`,
      },
      {
        suite: SUITE,
        name: `${what}: longest frame of a ${SCROLL_MS / 1000} s scroll top to bottom (worst of ${RUNS})`,
        value: round(frames.at(-1)!),
        unit: 'ms',
        budget: 32,
        baseline: `a bare scrolling div: longest frame ${round(bareFrames.at(-1)!)} ms, ${over(bareFrames)} of ${bareFrames.length} frames over 32 ms`,
        note: `worst per run ${worstPerRun.join(', ')} ms; ${over(frames)} of ${frames.length} frames over 32 ms; median ${round(median(frames))} ms, p99 ${round(percentile(frames, 99))} ms; load average ${load}`,
      },
      {
        suite: SUITE,
        name: `${what}: frames per second while scrolling`,
        value: round((1000 * frames.length) / frames.reduce((s, f) => s + f, 0)),
        unit: 'frames/s',
        baseline: `a bare scrolling div: ${round((1000 * bareFrames.length) / bareFrames.reduce((s, f) => s + f, 0))} frames/s`,
      },
    ];
  } finally {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(schemas, { recursive: true, force: true });
  }
}

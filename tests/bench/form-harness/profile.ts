/**
 * Where a key press in the 150-field form goes: `node --import tsx tests/bench/form-harness/profile.ts [dir]`
 * builds the harness unminified (or serves an existing build in `dir`), types into the same field as the benchmark
 * with a Chromium performance trace and a JS CPU profile running, and prints the main thread's time per key
 * press by trace event and the JS functions that cost most. Not a benchmark: tracing itself costs time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../../support/prerequisites.js';
import { buildHarness, serveHarness } from '../suites/form.js';

const KEYS = 60;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { type?: string } };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

const dir = process.argv[2] ?? (await buildHarness(false));
const server = await serveHarness(dir);
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  // FIELDS=n: a form of n fields instead of 150 (how the cost grows with the form).
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/${process.env.FIELDS ? `?n=${process.env.FIELDS}` : ''}`);
  const field = page.locator('#root_f12');
  await field.waitFor();
  console.log(`${await page.evaluate(() => document.querySelectorAll('*').length)} elements in the page`);
  // BENCH_FORM_CSS: a style added to the form (experiments); BARE=1: the benchmark's baseline instead.
  if (process.env.BENCH_FORM_CSS) await page.addStyleTag({ content: process.env.BENCH_FORM_CSS });
  if (process.env.BARE) await page.setContent('<input id="root_f12" style="width:300px">');
  await field.click();
  // Warm up (first renders, JIT) before recording.
  for (let i = 0; i < 10; i++) await page.keyboard.press('KeyA');
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Tracing.start', {
    categories: `devtools.timeline,disabled-by-default-devtools.timeline,blink,v8.execute${process.env.TRACE_INVALIDATIONS ? ',disabled-by-default-devtools.timeline.invalidationTracking,disabled-by-default-devtools.timeline.stack' : ''}`,
    transferMode: 'ReportEvents',
  });
  await cdp.send('Profiler.start');
  for (let i = 0; i < KEYS; i++) await page.keyboard.press(i % 10 === 9 ? 'Backspace' : 'KeyA');
  await page.waitForTimeout(200);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  await cdp.send('Tracing.end');
  await done;

  // The renderer's main thread: the one that ran the key events.
  const keyEvent = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  if (!keyEvent) throw new Error('no keydown in the trace');
  const main = events.filter((e) => e.pid === keyEvent.pid && e.tid === keyEvent.tid && e.ph === 'X' && e.dur !== undefined);
  const byName = new Map<string, number>();
  for (const e of main) {
    const key = e.name === 'EventDispatch' ? `EventDispatch ${e.args?.data?.type}` : e.name;
    byName.set(key, (byName.get(key) ?? 0) + e.dur! / 1000);
  }
  console.log(`main thread, ms per key press (inclusive; events nest), ${KEYS} keys:`);
  for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${(ms / KEYS).toFixed(2).padStart(7)}  ${name}`);

  // JS self time by function.
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const n = nodes.get(profile.samples[i])!;
    const { functionName, url, lineNumber, columnNumber } = n.callFrame;
    const key = `${functionName || '(anon)'} ${path.basename(url)}:${lineNumber}:${columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  console.log('JS self time, ms per key press:');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${(ms / KEYS).toFixed(2).padStart(7)}  ${name}`);
  if (process.env.TRACE_OUT) fs.writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));
} finally {
  await browser.close();
  server.close();
}

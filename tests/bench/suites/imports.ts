/**
 * Issue 12 item 2, as reported: a workbook of 750,000 identical rows (written with exceljs' streaming
 * writer, ~18 MB, under the 20 MB upload limit) sent to `POST /api/m/member/import` of the real server
 * process (embedded database). Before the fix the server stopped answering within ~10 s and died of a heap
 * out-of-memory after ~60 s. Now it is refused (row limit) while /api/health keeps answering; figures: the
 * time to the refusal, the slowest health answer meanwhile (budget 1 s) and the server's peak RSS (budget
 * 400 MB). The same file goes to the user import too. Run alone with `npm run bench imports`.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { streamedWorkbook } from '../../support/xlsx-files.js';
import { benchLogin, rssOf, startServerProcess, type BenchResult } from '../lib.js';

const SUITE = 'imports';
const ROWS = 750_000;
const ADMIN_PASSWORD = 'Bench#2026a';
/** Columns of the member template and one member, repeated (eight columns make the report's ~18 MB). */
const TITLES = ['姓名', '性别', '身份证号', '所在党支部', '人员类别', '党员类型', '党籍状态', '入党日期（预备）'];
const ROW = ['张三', '男', '110101199001011234', '第一党支部', '教职工', '正式党员', '正常', '2020-01-01'];

const round = (n: number) => Math.round(n * 10) / 10;


/**
 * Another client, in a process of its own (so the upload's work in this one does not delay it): asks
 * /api/health every 100 ms until told to stop, then prints how many calls, how many failed, the slowest.
 */
const HEALTH_CLIENT = `
let slowest = 0, failures = 0, asked = 0, stop = false;
process.on('message', () => (stop = true));
(async () => {
  while (!stop) {
    const t0 = performance.now();
    const ok = await fetch(process.argv[1] + '/api/health', { signal: AbortSignal.timeout(10000) }).then((r) => r.ok, () => false);
    slowest = Math.max(slowest, performance.now() - t0);
    if (!ok) failures++;
    asked++;
    await new Promise((r) => setTimeout(r, 100));
  }
  process.send({ slowest, failures, asked }, () => process.exit(0));
})();
`;

/** Sends the file to an import route while another client asks /api/health every 100 ms. */
async function sendWhileHealthAnswers(base: string, pid: number, token: string, route: string, file: Buffer) {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets the peak (VmHWM) to the current RSS
  const rssBefore = rssOf(pid).now;
  const client = fork('-e', [HEALTH_CLIENT, base], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const report = new Promise<{ slowest: number; failures: number; asked: number }>((resolve) => client.once('message', resolve as never));
  await new Promise((r) => setTimeout(r, 500));
  const form = new FormData();
  form.append('mode', 'partial');
  form.append('file', new Blob([new Uint8Array(file)]), 'members.xlsx');
  const t0 = performance.now();
  const res = await fetch(`${base}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { message?: string };
  const ms = performance.now() - t0;
  // A few more health answers after the refusal.
  await new Promise((r) => setTimeout(r, 500));
  client.send('stop');
  const { slowest, failures, asked } = await report;
  return { status: res.status, message: body.message ?? '', ms, slowest, failures, asked, rssBefore, peak: rssOf(pid).peak };
}

export async function importsSuite(): Promise<BenchResult[]> {
  const t0 = performance.now();
  const file = await streamedWorkbook(ROWS, TITLES, ROW);
  console.error(`imports: ${ROWS.toLocaleString('en')} rows written in ${round((performance.now() - t0) / 1000)} s, ${(file.length / 1024 / 1024).toFixed(1)} MB`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-imports-'));
  const results: BenchResult[] = [];
  try {
    const server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn' });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const pid = server.child.pid!;
      const rssAtStart = rssOf(pid).now;
      const token = await benchLogin(base, ADMIN_PASSWORD);
      for (const [label, route] of [
        ['member import', '/api/m/member/import'],
        ['user import', '/api/users/import'],
      ]) {
        const r = await sendWhileHealthAnswers(base, pid, token, route, file);
        if (r.status !== 400) throw new Error(`${label}: expected a refusal, got ${r.status} ${r.message}`);
        const what = `${label} of ${ROWS.toLocaleString('en')} identical rows (${(file.length / 1024 / 1024).toFixed(1)} MB)`;
        results.push(
          { suite: SUITE, name: `${what}: time to the refusal`, value: round(r.ms / 1000), unit: 's', note: `${r.status} “${r.message}”` },
          { suite: SUITE, name: `${what}: slowest /api/health answer meanwhile`, value: Math.round(r.slowest), unit: 'ms', budget: 1000, note: `${r.asked} health calls, ${r.failures} failed` },
          { suite: SUITE, name: `${what}: peak RSS of the server`, value: Math.round(r.peak), unit: 'MB', budget: 400, note: `RSS after start ${Math.round(rssAtStart)} MB, before the upload ${Math.round(r.rssBefore)} MB` },
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

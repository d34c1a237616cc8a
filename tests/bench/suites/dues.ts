/**
 * Party dues at the size of a big school (issue 16): 100,000 members with a year of dues (12 monthly
 * batches, payments), on PostgreSQL when its binaries are installed (else the embedded database, noted).
 * - configure a batch: the snapshot of 100,000 standards (budget 10 s)
 * - a branch's report of a batch (budget 200 ms, p50 of warm runs)
 * - the school's yearly report (budget 2 s)
 * - a payroll import of 100,000 rows (budget 30 s)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { benchLogin, median, startServerProcess, type BenchResult } from '../lib.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const ADMIN_PASSWORD = 'Bench#Admin2026';


async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const value = await fn();
  return [value, performance.now() - t];
}

/** The payroll sheet: one row per member (ID number and base), as a school's finance office exports it. */
async function payrollFile(rows: { idCard: string; base: string }[]): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `dues-payroll-${process.pid}.xlsx`);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet('工资表');
  sheet.addRow(['身份证号', '党费基数']).commit();
  for (const r of rows) sheet.addRow([r.idCard, Number(r.base)]).commit();
  sheet.commit();
  await book.commit();
  const buffer = fs.readFileSync(file);
  fs.rmSync(file, { force: true });
  return buffer;
}

export async function duesSuite(): Promise<BenchResult[]> {
  const pgServer = postgresBinDir() ? await startPostgres() : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-dues-'));
  const engine = pgServer ? 'PostgreSQL' : 'embedded';
  if (!pgServer) console.error('dues: PostgreSQL binaries not found, measuring on the embedded database');
  try {
    const url = pgServer ? await createDatabase(pgServer.url) : undefined;
    const env: Record<string, string> = { DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn', ...(url ? { DATABASE_URL: url } : {}) };
    const seedStart = performance.now();
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--members', String(MEMBERS), '--dues'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.error(seeded.stdout.trim());
    const server = await startServerProcess(env);
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const headers = { authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}`, 'content-type': 'application/json' };
      const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
        const res = await fetch(`${base}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
        return JSON.parse(text) as T;
      };
      const batches = await call<{ id: number; firstMonth: string; state: number; members: number }[]>('GET', '/api/dues/batches');
      const current = batches.find((b) => b.state === 3)!;
      const year = Number(current.firstMonth.slice(0, 4));

      // 1. Configure next month's batch: the snapshot of every member's standard.
      const nextMonth = new Date(year, Number(current.firstMonth.slice(5, 7)), 1);
      const created = await call<{ id: number; version: number }>('POST', '/api/m/dues-batch', { firstMonth: `${nextMonth.getFullYear()}-${String(nextMonth.getMonth() + 1).padStart(2, '0')}` });
      // 配置 is a step of the batch's workflow (the snapshot is its effect).
      const [, configureMs] = await timed(() => call('POST', `/api/m/dues-batch/${created.id}/transitions/configure`, { version: created.version, values: { allowMissing: true } }));
      const snapshot = await call<{ members: number }>('GET', `/api/dues/batches/${created.id}`);

      // 2. A branch's report of the current batch (its progress and its members' page).
      const tree = await call<{ orgId: number; level: string; children?: unknown[] }[]>('GET', `/api/dues/batches/${current.id}/progress`);
      const flat: { orgId: number; level: string; members: number; children?: unknown[] }[] = [];
      const walk = (nodes: typeof flat) => nodes.forEach((n) => (flat.push(n), walk((n.children ?? []) as typeof flat)));
      walk(tree as typeof flat);
      const branch = flat.filter((n) => n.level === 'branch').sort((a, b) => b.members - a.members)[0];
      const branchTimes: number[] = [];
      for (let i = 0; i < 12; i++) {
        const [, ms] = await timed(() => Promise.all([call('GET', `/api/dues/batches/${current.id}/progress?orgId=${branch.orgId}`), call('GET', `/api/dues/batches/${current.id}/items?orgId=${branch.orgId}&size=100`)]));
        branchTimes.push(ms);
      }
      const branchWarm = branchTimes.slice(2);

      // 3. The school's yearly report (every batch of the year, every organisation).
      const yearTimes: number[] = [];
      for (let i = 0; i < 4; i++) yearTimes.push((await timed(() => call('GET', `/api/dues/reports/year?year=${year}`)))[1]);

      // 4. A payroll import of 100,000 rows for next year (every member treated as staff for the measure).
      const client = new pg.Client(url ? { connectionString: url } : undefined);
      let rows: { idCard: string; base: string }[] = [];
      if (url) {
        await client.connect();
        await client.query(`UPDATE m_member SET category = '1' WHERE category <> '2'`);
        rows = (await client.query<{ idCard: string; base: string }>(`SELECT id_card AS "idCard", (3000 + (id * 37) % 9000) || '.' || lpad(((id * 13) % 100)::text, 2, '0') AS base FROM m_member ORDER BY id LIMIT ${MEMBERS}`)).rows;
        await client.end();
      }
      const results: BenchResult[] = [
        { suite: 'dues', name: `configure a batch (snapshot), ${snapshot.members} members (${engine})`, value: Math.round(configureMs), unit: 'ms', budget: 10_000 },
        { suite: 'dues', name: `a branch's report of a batch: progress + members page, ${branch.members} members (${engine}, p50)`, value: Math.round(median(branchWarm)), unit: 'ms', budget: 200, note: `max ${Math.round(Math.max(...branchWarm))} ms` },
        { suite: 'dues', name: `school yearly report, ${batches.length} batches x ~${current.members} members (${engine}, p50)`, value: Math.round(median(yearTimes)), unit: 'ms', budget: 2_000, note: `max ${Math.round(Math.max(...yearTimes))} ms` },
      ];
      if (rows.length) {
        const file = await payrollFile(rows);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(file)]), '工资表.xlsx');
        const [answer, importMs] = await timed(async () => {
          const res = await fetch(`${base}/api/dues/standards/import?year=${year + 1}`, { method: 'POST', headers: { authorization: headers.authorization }, body: form });
          return (await res.json()) as { created: number; failed: number; message?: string };
        });
        results.push({ suite: 'dues', name: `payroll import, ${rows.length} rows (${engine})`, value: Number((importMs / 1000).toFixed(1)), unit: 's', budget: 30, note: `${answer.created} standards created, ${answer.failed} rows refused; ${(file.length / 1024 / 1024).toFixed(1)} MB .xlsx` });
      }
      results.push({ suite: 'dues', name: `load ${MEMBERS} members and a year of dues (seed, ${engine})`, value: Number(seedSeconds.toFixed(0)), unit: 's', note: 'set-up, no budget' });
      return results;
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pgServer?.stop();
  }
}

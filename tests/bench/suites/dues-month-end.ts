/**
 * The dues month-end (issue 44.4): 30,000 members pay the month online through the signing test provider
 * on two app servers on one PostgreSQL behind one port; the gateway sends its signed notices at 50/s (10 %
 * twice, out of order, 3 % for orders the branch was paid on site meanwhile) while branches record on-site
 * payments; one server is killed with SIGKILL once half of the notices are answered (tests/support/
 * dues-month-end.ts checks every order, item and receipt). Budgets: notice handling p99 ≤ 100 ms, zero double
 * payments or lost receipts, the batch's figures = its items. BENCH_DUES_PAYERS shrinks it (the rate kept);
 * the university is generated twice that size (about half of a university's members owe dues in a month).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../../support/cluster.js';
import { duesMonthEnd } from '../../support/dues-month-end.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import type { BenchResult } from '../lib.js';

const SUITE = 'dues-month-end';

export async function duesMonthEndSuite(): Promise<BenchResult[]> {
  const payers = Number(process.env.BENCH_DUES_PAYERS ?? 30_000);
  const rate = Number(process.env.BENCH_DUES_NOTICES_PER_S ?? 50);
  const pg = await startPostgres();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-dues-'));
  try {
    const url = await createDatabase(pg.url);
    const r = await duesMonthEnd(url, dataDir, { members: payers * 2, maxMembers: payers, noticesPerSecond: rate, payers: 20 }, (line) => console.error(`  ${line}`));
    const notices = [...r.notices].sort((a, b) => a - b);
    const load = `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
    const scenario = `${r.members} members with dues, ${r.orders} online orders, ${notices.length} notices at ${rate}/s (${r.repeated} repeated, out of order, ${r.paidOnSiteMeanwhile} for orders paid on site meanwhile), ${r.onSite} paid on site; one of two servers SIGKILLed at ${Math.round(r.killedAtMs / 1000)} s`;
    return [
      { suite: SUITE, name: `${r.members} members paying online, signed notices at ${rate}/s on two app servers (PostgreSQL), one killed half way: notice p99`, value: Number(percentile(notices, 99).toFixed(1)), unit: 'ms', budget: 100, note: `${scenario}; p50 ${percentile(notices, 50).toFixed(1)} ms, ${r.noticeRetries} retried by the gateway; ${load}` },
      { suite: SUITE, name: 'months paid twice, receipts lost or twice, batch figures unequal to the items', value: r.problems.length, unit: 'errors', budget: 0, note: r.problems.slice(0, 3).join('; ') || `proxy: ${r.proxy.forwarded} forwarded, ${r.proxy.cutOff} cut off by the kill (502, retried by the gateway), ${r.proxy.refused} refused (sent to the other server)` },
    ];
  } finally {
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

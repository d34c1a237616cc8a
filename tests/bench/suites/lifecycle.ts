/**
 * 党员增减变化 over 100,000 members and a year of events (issue 41 §5), on PostgreSQL: the statistics suite's
 * university plus, this year, 2,000 members admitted, 3,000 leaving the party (member-quit approved), 2,000
 * formal transfers out completed and 1,000 停止党籍 approved, their members' status set as the approvals would.
 * - the built-in report member-change for the year ≤ 2 s (p50)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { benchLogin, median, startServerProcess, type BenchResult } from '../lib.js';
import { generate } from './statistics.js';

const ADMIN_PASSWORD = 'Bench#Admin2026';

async function events(client: pg.Client, year: number): Promise<void> {
  const day = (n: string) => `date '${year}-01-01' + (${n} % 330)`;
  await client.query('BEGIN');
  await client.query(`UPDATE m_member SET join_date = ${day('id')} WHERE id % 50 = 1`);
  await client.query(`INSERT INTO m_member_quit (school, member_id, name, org_id, kind, reason, meeting_date, approve_date, leave_date, state)
    SELECT school, id, name, org_id, CASE WHEN id % 3 = 0 THEN '4' ELSE '2' END, '基准', ${day('id')}, ${day('id')}, ${day('id')}, 1 FROM m_member WHERE id % 33 = 2`);
  await client.query(`INSERT INTO m_transfer_out (school, member_id, name, org_id, kind, to_org_name, leave_date, state)
    SELECT school, id, name, org_id, '正式组织关系', '外单位党委', ${day('id')}, 3 FROM m_member WHERE id % 50 = 3`);
  await client.query(`INSERT INTO m_member_suspend (school, member_id, name, org_id, kind, reason, meeting_date, approve_date, state)
    SELECT school, id, name, org_id, '停止党籍', '失联', ${day('id')}, ${day('id')}, 1 FROM m_member WHERE id % 100 = 4`);
  await client.query(`UPDATE m_member m SET party_status = CASE WHEN q.kind = '4' THEN '5' ELSE '4' END FROM m_member_quit q WHERE q.member_id = m.id`);
  await client.query(`UPDATE m_member m SET party_status = '6' FROM m_transfer_out t WHERE t.member_id = m.id`);
  await client.query(`UPDATE m_member m SET party_status = '3' FROM m_member_suspend s WHERE s.member_id = m.id`);
  await client.query('COMMIT');
  for (const t of ['m_member', 'm_member_quit', 'm_transfer_out', 'm_member_suspend']) await client.query(`ANALYZE ${t}`);
}

export async function lifecycleSuite(): Promise<BenchResult[]> {
  if (!postgresBinDir()) throw new Error('lifecycle: the bench needs PostgreSQL binaries');
  const pgServer = await startPostgres();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-lifecycle-'));
  const year = new Date().getFullYear();
  try {
    const url = await createDatabase(pgServer.url);
    const env: Record<string, string> = { DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn', DATABASE_URL: url };
    await (await startServerProcess(env)).stop();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await generate(client);
    await events(client, year);
    const members = Number((await client.query('SELECT count(*)::int AS n FROM m_member')).rows[0].n);
    await client.end();
    const server = await startServerProcess(env);
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const headers = { authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}`, 'content-type': 'application/json' };
      const runs: number[] = [];
      let check = '';
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const res = await fetch(`${base}/api/reports/member-change/run`, { method: 'POST', headers, body: JSON.stringify({ year }) });
        if (!res.ok) throw new Error(`member-change: ${res.status} ${await res.text()}`);
        runs.push(performance.now() - t);
        const totals = ((await res.json()) as { totals: Record<string, number> }).totals;
        check = `start ${totals['|start']} + in ${totals['|in']} − out ${totals['|out']} = end ${totals['|end']} (差额 ${totals['|diff']})`;
      }
      return [{ suite: 'lifecycle', name: `report member-change over ${members} members and a year of events (p50)`, value: Math.round(median(runs)), unit: 'ms', budget: 2000, note: `PostgreSQL; ${check}` }];
    } finally {
      await server.stop();
    }
  } finally {
    await pgServer.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

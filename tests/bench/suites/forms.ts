/**
 * Fill-in forms at the size of a big school (issue 29): 5,000 branches.
 * - publishing a form to every branch (share type 3; budget 2 s)
 * - exporting 5,000 submissions with 20 rows of a table each (budget 10 s)
 * The submissions are generated with SQL on PostgreSQL (the server stopped), as the meetings suite does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_SCHOOL } from '../../../src/shared/schools.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { benchLogin, startServerProcess, type BenchResult } from '../lib.js';

const BRANCHES = Number(process.env.BENCH_BRANCHES ?? 5000);
const ROWS = 20;
const ADMIN_PASSWORD = 'Bench#Admin2026';
const SCHEMA = {
  properties: {
    leader: { type: 'string', title: '填报人' },
    members: { type: 'integer', title: '党员人数', minimum: 0 },
    activities: { type: 'array', title: '活动明细', items: { type: 'object', additionalProperties: false, properties: { topic: { type: 'string', title: '主题' }, day: { type: 'string', title: '日期', format: 'date' }, people: { type: 'integer', title: '人数' } } } },
  },
};

async function branches(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const school = process.env.SCHOOL ?? DEFAULT_SCHOOL;
    const root = await client.query(`INSERT INTO m_org (school, name, type, code) VALUES ($1, '中共基准大学委员会', '1', 'B-ROOT') RETURNING id`, [school]);
    await client.query(`INSERT INTO m_org (school, name, type, parent_id, code) SELECT $1, '第' || b || '党支部', '3', $2, 'B-' || b FROM generate_series(1, $3) b`, [school, root.rows[0].id, BRANCHES]);
  } finally {
    await client.end();
  }
}

/** Every branch submits 20 rows (records written by SQL, the fillings moved to COLLECT_END). */
async function submissions(url: string, module: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = `m_${module.replace(/-/g, '_')}`;
    const rows = `(SELECT jsonb_agg(jsonb_build_object('topic', '主题党日第' || r || '次', 'day', '2026-0' || (1 + r % 9) || '-1' || (r % 9), 'people', 10 + r)) FROM generate_series(1, ${ROWS}) r)`;
    await client.query('BEGIN');
    await client.query(`INSERT INTO ${table} (org_id, leader, members, activities) SELECT f.org_id, '书记' || f.org_id, 20, ${rows} FROM form_fills f JOIN forms ON forms.id = f.form_id WHERE forms.module = $1`, [module]);
    await client.query(`UPDATE form_fills f SET state = 2, record_id = t.id, schema_version = 1, join_type = 1 FROM ${table} t, forms WHERE forms.id = f.form_id AND forms.module = $1 AND t.org_id = f.org_id`, [module]);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

export async function formsSuite(): Promise<BenchResult[]> {
  if (!postgresBinDir()) {
    console.error('forms: PostgreSQL binaries not found, skipped');
    return [];
  }
  const pgServer = await startPostgres();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-forms-'));
  try {
    const url = await createDatabase(pgServer.url);
    const env: Record<string, string> = { DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn', DATABASE_URL: url };
    await (await startServerProcess(env)).stop();
    await branches(url);
    let server = await startServerProcess(env);
    let base = `http://127.0.0.1:${server.port}`;
    let headers = { authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/forms`, { method: 'POST', headers, body: JSON.stringify({ title: '基准表单', schema: SCHEMA }) });
    const { id } = (await created.json()) as { id: string };
    let t = performance.now();
    const published = await fetch(`${base}/api/forms/${id}/publish`, { method: 'POST', headers, body: JSON.stringify({ shareType: 3, deadline: '2026-12-31' }) });
    const publishMs = performance.now() - t;
    const { organisations } = (await published.json()) as { organisations: number };
    await server.stop();
    await submissions(url, id);
    server = await startServerProcess(env);
    base = `http://127.0.0.1:${server.port}`;
    headers = { authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}`, 'content-type': 'application/json' };
    try {
      t = performance.now();
      const res = await fetch(`${base}/api/forms/${id}/export`, { headers });
      const bytes = (await res.arrayBuffer()).byteLength;
      const exportMs = performance.now() - t;
      if (!res.ok) throw new Error(`export: ${res.status}`);
      return [
        { suite: 'forms', name: `publish a form to ${organisations} branches`, value: Math.round(publishMs), unit: 'ms', budget: 2000, note: 'PostgreSQL' },
        { suite: 'forms', name: `export ${organisations} submissions × ${ROWS} rows`, value: Math.round(exportMs), unit: 'ms', budget: 10000, note: `PostgreSQL; ${(bytes / 1024 / 1024).toFixed(1)} MB` },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await pgServer.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

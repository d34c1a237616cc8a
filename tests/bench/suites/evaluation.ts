/**
 * Members' daily management at the size of a big school (issue 27): 5,000 branches of 20 members under 50
 * committees, two meetings a month in each branch attended by its members (120,000 meetings), a manual
 * points record per member, generated with SQL on PostgreSQL.
 * - a branch's points ranking (meetings attended, study, dues and manual items; budget 200 ms, p50 of warm runs)
 * - the talk coverage of a committee's 100 branches
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_SCHOOL } from '../../../src/shared/schools.js';
import { createDatabase, startPostgres } from '../../support/postgres.js';
import { postgresBinDir } from '../../support/prerequisites.js';
import { benchLogin, median, startServerProcess, type BenchResult } from '../lib.js';

const BRANCHES = Number(process.env.BENCH_BRANCHES ?? 5000);
const COMMITTEES = 50;
const PER_BRANCH = 20;
const ADMIN_PASSWORD = 'Bench#Admin2026';
const YEAR = 2025;

async function generate(url: string): Promise<{ members: number; meetings: number; branchId: number; committeeId: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const school = process.env.SCHOOL ?? DEFAULT_SCHOOL;
    await client.query('BEGIN');
    const root = (await client.query(`INSERT INTO m_org (school, name, type, code) VALUES ($1, '中共基准大学委员会', '1', 'B-ROOT') RETURNING id`, [school])).rows[0].id;
    await client.query(`INSERT INTO m_org (school, name, type, parent_id, code) SELECT $1, '第' || c || '学院党委', '1', $2, 'B-C' || c FROM generate_series(1, $3) c`, [school, root, COMMITTEES]);
    await client.query(
      `INSERT INTO m_org (school, name, type, parent_id, code) SELECT $1, p.name || '第' || b || '党支部', '3', p.id, p.code || '-' || b
       FROM m_org p CROSS JOIN generate_series(1, $2) b WHERE p.parent_id = $3`,
      [school, Math.ceil(BRANCHES / COMMITTEES), root],
    );
    await client.query(
      `INSERT INTO m_member (school, name, gender, id_card, category, member_type, party_status, join_date, org_id)
       SELECT $1, '党员' || o.id || '-' || k, '1', lpad((o.id * 100 + k)::text, 18, '0'), '1', '1', '1', make_date(2010, 1, 1), o.id
       FROM m_org o CROSS JOIN generate_series(1, $2) k WHERE o.type = '3'`,
      [school, PER_BRANCH],
    );
    await client.query(
      `INSERT INTO m_meeting (school, org_id, type, topic, date, invalid, state, attendee_ids, absent_ids)
       SELECT $1, o.id, CASE WHEN d % 2 = 0 THEN '支委会' ELSE '主题党日' END, '会议', make_date(${YEAR}, 1 + d / 2, 1 + (d % 2) * 14), false, -1,
              (SELECT jsonb_agg(m.id) FROM m_member m WHERE m.org_id = o.id AND (m.id + d) % 5 <> 0), '[]'::jsonb
       FROM m_org o CROSS JOIN generate_series(0, 23) d WHERE o.type = '3'`,
      [school],
    );
    const items = await client.query(
      `INSERT INTO m_member_points_item (school, code, name, source, score, year_cap, enabled)
       VALUES ($1, 'meeting', '参加组织生活', 'meeting', 2, 40, true), ($1, 'study', '党校学习', 'study', 0.5, 20, true),
              ($1, 'dues', '按时交纳党费', 'dues', 1, 12, true), ($1, 'volunteer', '志愿服务', 'manual', 5, 30, true) RETURNING id, code`,
      [school],
    );
    const volunteer = items.rows.find((r) => r.code === 'volunteer').id;
    await client.query(
      `INSERT INTO m_member_points (school, member_id, org_id, item_id, date, score, reason, state)
       SELECT $1, m.id, m.org_id, $2, make_date(${YEAR}, 1 + m.id % 12, 10), 5, '志愿服务', CASE WHEN m.id % 3 = 0 THEN 0 ELSE 1 END FROM m_member m`,
      [school, volunteer],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE');
    const branch = await client.query(`SELECT max(id) AS id, max(parent_id) AS committee FROM m_org WHERE type = '3'`);
    return {
      members: Number((await client.query('SELECT count(*) AS n FROM m_member')).rows[0].n),
      meetings: Number((await client.query('SELECT count(*) AS n FROM m_meeting')).rows[0].n),
      branchId: Number(branch.rows[0].id),
      committeeId: Number(branch.rows[0].committee),
    };
  } finally {
    await client.end();
  }
}

export async function evaluationSuite(): Promise<BenchResult[]> {
  const pgServer = postgresBinDir() ? await startPostgres() : undefined;
  if (!pgServer) throw new Error('evaluation: the generator needs PostgreSQL');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-evaluation-'));
  try {
    const url = await createDatabase(pgServer.url);
    const env: Record<string, string> = { DATA_DIR: dataDir, DEMO_DATA: 'false', CAPTCHA: 'off', ADMIN_PASSWORD, LOG_LEVEL: 'warn', DATABASE_URL: url };
    await (await startServerProcess(env)).stop();
    const { members, meetings, branchId, committeeId } = await generate(url);
    const server = await startServerProcess(env);
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const headers = { authorization: `Bearer ${await benchLogin(base, ADMIN_PASSWORD)}` };
      const timed = async (p: string) => {
        const t = performance.now();
        const res = await fetch(`${base}${p}`, { headers });
        if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
        const body = (await res.json()) as { content?: { total: number }[]; branches?: unknown[] };
        return { ms: performance.now() - t, body };
      };
      const runs = async (p: string) => {
        const first = await timed(p);
        const warm: number[] = [];
        for (let i = 0; i < 7; i++) warm.push((await timed(p)).ms);
        return { first, p50: median(warm) };
      };
      const ranking = await runs(`/api/evaluation/points/ranking?year=${YEAR}&orgId=${branchId}`);
      const coverage = await runs(`/api/evaluation/talks/coverage?year=${YEAR}&orgId=${committeeId}`);
      const note = `PostgreSQL; ${members} members, ${meetings} meetings; top ${ranking.first.body.content?.[0]?.total ?? 0} points`;
      return [
        { suite: 'evaluation', name: `a branch's points ranking of ${PER_BRANCH} members (p50 warm)`, value: Math.round(ranking.p50), unit: 'ms', budget: 200, note },
        { suite: 'evaluation', name: 'points ranking, first call', value: Math.round(ranking.first.ms), unit: 'ms', note },
        { suite: 'evaluation', name: `talk coverage of a committee's ${Math.ceil(BRANCHES / COMMITTEES)} branches (p50 warm)`, value: Math.round(coverage.p50), unit: 'ms', note: 'PostgreSQL' },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await pgServer.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The transfer statistics of a year (转接统计): transfers in, out and within the school and floating
 * members, started and completed in the year and still under way, by month and by reason.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import type { RuntimeModule } from '../../runtime/module.js';
import type { TransferStats } from '../../../shared/transfer/stats.js';
import { finalStates } from './facts.js';

interface Kind {
  key: TransferStats['kinds'][number]['key'];
  title: string;
  module: string;
  /** Columns of the organisations the record belongs to (any in scope counts). */
  orgColumns: string[];
  started: string;
  completed: string;
  where?: RawBuilder<boolean>;
}

const KINDS: Kind[] = [
  { key: 'in', title: '校外转入', module: 'transfer-in', orgColumns: ['to_org_id'], started: 'register_date', completed: 'arrive_date' },
  { key: 'out', title: '转出校外', module: 'transfer-out', orgColumns: ['org_id'], started: 'apply_date', completed: 'leave_date' },
  { key: 'internal', title: '校内转接', module: 'transfer-internal', orgColumns: ['from_org_id', 'to_org_id'], started: 'apply_date', completed: 'complete_date' },
  { key: 'floating-out', title: '外出流动', module: 'floating', orgColumns: ['org_id'], started: 'leave_date', completed: 'return_date', where: sql<boolean>`type = 'out'` },
  { key: 'floating-in', title: '流入', module: 'floating', orgColumns: ['org_id'], started: 'leave_date', completed: 'return_date', where: sql<boolean>`type = 'in'` },
];

const inYear = (column: string, year: number) => sql<boolean>`${sql.ref(column)} >= ${`${year}-01-01`}::date AND ${sql.ref(column)} <= ${`${year}-12-31`}::date`;

export async function transferStats(db: Kysely<DB>, modules: (id: string) => RuntimeModule | undefined, orgIds: number[] | 'all', year: number): Promise<TransferStats> {
  const stats: TransferStats = { year, kinds: [], byMonth: [], outReasons: [], outKinds: [] };
  const months = new Map<string, Record<string, number>>();
  for (let m = 1; m <= 12; m++) months.set(`${year}-${String(m).padStart(2, '0')}`, {});
  for (const k of KINDS) {
    const m = modules(k.module);
    if (!m) continue;
    const scope = orgIds === 'all' ? sql<boolean>`true` : orgIds.length ? sql<boolean>`(${sql.join(k.orgColumns.map((c) => sql`${sql.ref(c)} = ANY(${orgIds}::int[])`), sql` OR `)})` : sql<boolean>`false`;
    const where = k.where ? sql<boolean>`${scope} AND ${k.where}` : scope;
    const finals = finalStates(m);
    const row = (
      await sql<{ started: number; completed: number; underway: number }>`
        SELECT count(*) FILTER (WHERE ${inYear(k.started, year)})::int AS started,
               count(*) FILTER (WHERE ${inYear(k.completed, year)})::int AS completed,
               count(*) FILTER (WHERE coalesce(state, 0) <> ALL(${finals}::int[]))::int AS underway
        FROM ${sql.table(m.table)} WHERE ${where}`.execute(db)
    ).rows[0];
    stats.kinds.push({ key: k.key, title: k.title, ...row });
    const perMonth = await sql<{ month: string; n: number }>`
      SELECT to_char(${sql.ref(k.completed)}, 'YYYY-MM') AS month, count(*)::int AS n FROM ${sql.table(m.table)}
      WHERE ${where} AND ${inYear(k.completed, year)} GROUP BY 1`.execute(db);
    for (const r of perMonth.rows) months.get(r.month)![k.key] = r.n;
    if (k.key === 'out') {
      const group = async (column: string) =>
        (await sql<{ label: string | null; count: number }>`
          SELECT ${sql.ref(column)} AS label, count(*)::int AS count FROM ${sql.table(m.table)}
          WHERE ${where} AND ${inYear(k.started, year)} GROUP BY 1 ORDER BY 2 DESC`.execute(db)).rows.map((r) => ({ label: r.label ?? '未填写', count: r.count }));
      stats.outReasons = await group('reason');
      stats.outKinds = await group('kind');
    }
  }
  stats.byMonth = [...months].map(([month, counts]) => ({ month, counts }));
  return stats;
}

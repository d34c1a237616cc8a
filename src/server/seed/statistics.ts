/**
 * Demo data of the statistics area (issue 30): the data sources as configured records, saved queries
 * (the administrator's own and shared ones, a branch secretary's, one over the year-end snapshot),
 * reports designed by the organisation department, and two snapshots: the roster at the
 * end of last year and this month's. The demo has no history to copy the year-end roster from: it is
 * rebuilt from the members' dates (membersAsOf) and its note says what it is, so comparing it with this
 * month's shows the year's new members and those made full since.
 */
import { sql } from 'kysely';
import { DEFAULT_SOURCES } from '../domain/statistics/sources.js';
import { newSnapshot, takeSnapshot } from '../domain/statistics/snapshots.js';
import type { QueryRequest, ReportSpec } from '../../shared/statistics.js';
import type { SeedContext } from './index.js';

const SOURCE_USES: Record<string, string> = { members: '党员统计报表、大数据展示', organisations: '党组织统计、大数据展示', development: '年度发展党员情况、大数据展示', study: '大数据展示（党校学时）', dues: '党费收缴统计报表' };

function yearsAgo(years: number): string {
  const d = new Date();
  return `${d.getFullYear() - years}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Reports designed in 统计报表 (shared by the organisation department), as the designer saves them. */
export const DESIGNED_REPORTS: ReportSpec[] = [
  {
    title: '各二级党委女党员学历分布', description: '各二级党组织女党员按学历统计（设计的报表示例）', source: 'members', hideEmpty: true, chart: 'bar',
    rows: { kind: 'org', field: 'orgId', title: '二级党组织', depth: 1 },
    columns: { kind: 'dict', field: 'education' },
    measures: [{ key: 'women', title: '女党员', agg: 'count', where: { and: [{ field: 'gender', op: 'eq', value: '2' }] } }],
  },
  {
    title: '各党支部党员与预备党员（含小计）', description: '各党支部的党员人数及其中的预备党员，按二级党组织小计', source: 'members', hideEmpty: true,
    rows: { kind: 'org', field: 'orgId', title: '党支部', depth: 2, subtotals: true },
    measures: [
      { key: 'members', title: '党员', agg: 'count' },
      { key: 'probation', title: '其中预备党员', agg: 'count', where: { and: [{ field: 'memberType', op: 'eq', value: '2' }] } },
    ],
  },
];

/**
 * The members of a past day as they were then, as far as their dates tell: those admitted by then, and
 * who was made full after it still a probationary member (预备党员, no date made full). What the dates do
 * not tell (a branch changed or membership ended since) is as today; the snapshot's note says so.
 */
function membersAsOf(day: string) {
  return sql`SELECT (jsonb_populate_record(null::m_member, to_jsonb(m) || CASE WHEN m.full_date > ${day}::date
      THEN jsonb_build_object('member_type', '2', 'full_date', NULL) ELSE '{}'::jsonb END)).*
    FROM m_member m WHERE m.join_date <= ${day}::date`;
}

export async function seedStatistics({ database, app, log }: SeedContext): Promise<void> {
  const { db } = database;
  const year = new Date().getFullYear();
  await sql`INSERT INTO m_stat_datasource (code, title, module, fields, permissions, enabled, used_by)
    SELECT * FROM unnest(${DEFAULT_SOURCES.map((s) => s.code)}::text[], ${DEFAULT_SOURCES.map((s) => s.title)}::text[], ${DEFAULT_SOURCES.map((s) => s.module)}::text[],
      ${DEFAULT_SOURCES.map((s) => s.fields.join(','))}::text[], ${DEFAULT_SOURCES.map((s) => s.permissions.join(','))}::text[], ${DEFAULT_SOURCES.map(() => true)}::boolean[],
      ${DEFAULT_SOURCES.map((s) => SOURCE_USES[s.code] ?? '')}::text[])
    ON CONFLICT DO NOTHING`.execute(db);

  const users = await db.selectFrom('users').select(['id', 'username']).where('username', 'in', ['admin', 'zbsj', 'dwzzb']).execute();
  const idOf = (name: string) => users.find((u) => u.username === name)?.id ?? null;
  const queries: { owner: string; title: string; shared: boolean; definition: QueryRequest }[] = [
    {
      owner: 'admin', title: '35岁以下具有研究生学历的女党员', shared: true,
      definition: { module: 'member', where: { and: [{ field: 'gender', op: 'eq', value: '2' }, { field: 'birthDate', op: 'gt', value: yearsAgo(35) }, { field: 'education', op: 'in', value: ['11', '14'] }] }, columns: ['name', 'gender', 'age', 'education', 'orgId', 'orgId.parentId', 'joinDate'], sort: 'joinDate,desc' },
    },
    {
      owner: 'admin', title: `${year}年入党的党员`, shared: true,
      definition: { module: 'member', where: { and: [{ field: 'joinDate', op: 'between', value: [`${year}-01-01`, `${year}-12-31`] }] }, columns: ['name', 'gender', 'category', 'joinDate', 'orgId'], sort: 'joinDate,desc' },
    },
    {
      owner: 'dwzzb', title: '教职工党员或党龄30年以上的党员', shared: false,
      definition: { module: 'member', where: { or: [{ field: 'category', op: 'eq', value: '1' }, { field: 'fullDate', op: 'lte', value: yearsAgo(30) }] }, columns: ['name', 'category', 'fullDate', 'partyAge', 'orgId'] },
    },
    {
      owner: 'zbsj', title: '本支部预备党员', shared: false,
      definition: { module: 'member', where: { and: [{ field: 'memberType', op: 'eq', value: '2' }] }, columns: ['name', 'joinDate', 'probationStatus', 'phone'], sort: 'joinDate,asc' },
    },
  ];
  for (const q of queries) {
    await sql`INSERT INTO stat_saved_query (title, module, definition, shared, owner_id) VALUES (${q.title}, ${q.definition.module}, ${JSON.stringify(q.definition)}::jsonb, ${q.shared}, ${idOf(q.owner)})`.execute(db);
  }

  for (const r of DESIGNED_REPORTS) {
    await sql`INSERT INTO stat_report (title, source, definition, shared, owner_id) VALUES (${r.title}, ${r.source}, ${JSON.stringify(r)}::jsonb, true, ${idOf('dwzzb')})`.execute(db);
  }

  if (!app) return;
  const admin = { id: idOf('admin'), name: '系统管理员' };
  const yearEnd = `${year - 1}-12-31`;
  const note = `演示数据：按入党、转正日期还原的${yearEnd}党员名册（当日已入党的党员；此后转正的仍为预备党员）；所在党组织、党籍状态等为快照生成时的情况`;
  const first = await newSnapshot(db, `${year - 1}年末党员名册`, ['member', 'org'], admin, new Date(`${yearEnd}T23:59:59`), note);
  await takeSnapshot(app.runtime, first, undefined, { member: membersAsOf(yearEnd) });
  const month = `${year}年${new Date().getMonth() + 1}月`;
  const second = await newSnapshot(db, `${month}党员名册`, ['member', 'org'], admin);
  const taken = await takeSnapshot(app.runtime, second);
  // A saved query over the year-end roster (综合查询 with a snapshot as its source).
  const overYearEnd: QueryRequest = { module: 'member', snapshot: first, where: { and: [{ field: 'memberType', op: 'eq', value: '2' }] }, columns: ['name', 'gender', 'joinDate', 'orgId'], sort: 'joinDate,asc' };
  await sql`INSERT INTO stat_saved_query (title, module, definition, shared, owner_id)
    VALUES (${`${year - 1}年末名册中的预备党员`}, 'member', ${JSON.stringify(overYearEnd)}::jsonb, true, ${idOf('admin')})`.execute(db);
  log.info({ savedQueries: queries.length + 1, designedReports: DESIGNED_REPORTS.length, snapshots: 2, members: taken.counts.member, stored: taken.stored }, 'demo statistics seeded');
}

/**
 * Demo party dues, deterministic: a standard for every member for the years of the batches (bases by
 * professional title and age, as a university's payroll would give), and a batch for each of the last
 * `months` months. Every batch but the current one is paid (most on time, some late, a few unpaid with
 * a recorded deferral, a handful of members unpaid for months: 自行脱党 candidates), reported by every
 * branch and committee, and closed; the current month is started and partly paid. Set-based SQL, so the
 * first start stays fast and the same code loads the benchmark's 100,000 members.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { addMonths, categoryOfMember, NATIONAL_BANDS, needsBase, type DuesCategory } from '../../shared/dues/rules.js';
import { BATCH_MODULE, batchTitle, keepClosedFigures, snapshotBatch } from '../domain/dues/batches.js';
import { formatCents } from '../../shared/dues/money.js';
import { BatchState } from '../../shared/constants.js';
import { DuesLevels, ReportLevel } from '../domain/dues/levels.js';
import { standardValues, STANDARD_SOURCE } from '../domain/dues/standard-values.js';
import { duesDb, type DuesActor, type DuesDb } from '../domain/dues/tables.js';
import { OrgTreeService } from '../domain/org/org-tree.js';
import { Random } from './university/random.js';

export interface DuesSeedOptions {
  /** The month of the started batch ("YYYY-MM"); the earlier ones are closed. */
  currentMonth: string;
  /** The day of the current month the demo pretends it is (payments of the current batch stop there). */
  today: number;
  months?: number;
}

export interface DuesSeedCounts {
  standards: number;
  batches: number;
  payments: number;
}

const SYSTEM: DuesActor = { id: null, name: '系统管理员' };
const CHUNK = 2000;

/** Monthly pay after tax by professional title level (DJ_JBXX_ZYJSZC: 1xx 正高 … 4xx 员级), in yuan. */
function baseOf(rng: Random, title: string | null, category: DuesCategory): number {
  if (category === 'retired') return rng.int(3200, 7800);
  const level = title ? Number(title[0]) : 4;
  const [lo, hi] = [[9000, 16500], [7000, 11500], [4800, 8200], [2800, 5200]][Math.min(3, Math.max(0, level - 1))] ?? [3000, 6000];
  return rng.int(lo, hi);
}

/** A standard per member for each year; bases drift about 5% a year. Plain SQL: data loading, no trail. */
async function seedStandards(database: Database, school: string, years: number[], seed: number): Promise<number> {
  const db = duesDb(database.db);
  const members = await db.selectFrom('m_member').select(['id', 'name', 'org_id', 'category']).select(sql<string | null>`title`.as('title')).where('org_id', 'is not', null).orderBy('id').execute();
  const rows = [];
  for (const m of members) {
    const rng = new Random(seed ^ Math.imul(m.id, 2654435761));
    const category = categoryOfMember(m.category);
    const latest = needsBase(category) ? baseOf(rng, m.title, category) * 100 + rng.int(0, 99) : null;
    for (const [i, year] of [...years].sort().reverse().entries()) {
      const base = latest === null ? null : Math.round((latest * 100) / (100 + 5 * i));
      const source = needsBase(category) ? STANDARD_SOURCE.IMPORT : STANDARD_SOURCE.RULES;
      const v = standardValues({ id: m.id, name: m.name, orgId: m.org_id! }, category, base, NATIONAL_BANDS, source);
      rows.push({ school, member_id: v.memberId, member_name: v.memberName, org_id: v.orgId, year, category: v.category, base: v.base, rate: v.rate, amount: v.amount, rule: v.rule, source: v.source, remark: null, created_by: null, updated_by: null });
    }
  }
  for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('m_dues_standard').values(rows.slice(i, i + CHUNK)).execute();
  return rows.length;
}

/** A time on day `day` (0-based) of a month, between 08:00 and 17:00 by the item's hash `c.h`. */
const dayOf = (month: string, day: RawBuilder<unknown>) =>
  sql`(${month} || '-01')::date + (${day})::int * interval '1 day' + interval '8 hours' + ((c.h * 37) % 540) * interval '1 minute'`;

/**
 * Payments of one batch for the chosen items (set-based): one payment and one line per item, the item
 * marked paid. `when` is the payment's time; `pick` the condition on the item `i` and its hash `h`.
 */
async function payBatch(database: Database, school: string, batchId: number, pick: RawBuilder<unknown>, when: RawBuilder<unknown>): Promise<number> {
  // Payment ids are drawn first, so the payment, its line and the item are joined by them (no search).
  const result = await sql<{ n: number }>`
    WITH paying AS MATERIALIZED (
      SELECT c.*, ${when} AS ts, nextval('dues_payment_id_seq') AS pid
      FROM (SELECT i.id, i.member_id, i.org_id, i.batch_id, i.due_cents, ((i.member_id::bigint * 2654435761 + i.batch_id * 40503) % 1000)::int AS h
            FROM dues_item i WHERE i.batch_id = ${batchId} AND i.payment_id IS NULL) c
      WHERE ${pick}
    ), pay AS (
      INSERT INTO dues_payment (id, school, receipt_no, kind, member_id, org_id, method, amount_cents, large, payer, collector, created_at)
      SELECT p.pid, ${school}, 'DF' || to_char(p.ts, 'YYYYMM') || lpad(nextval('dues_receipt_seq')::text, 7, '0'), 1, p.member_id, p.org_id,
             CASE WHEN p.h % 10 < 7 THEN 'cash' WHEN p.h % 10 < 9 THEN 'transfer' ELSE 'online' END,
             p.due_cents, p.due_cents >= 100000, m.name,
             CASE WHEN p.h % 10 = 9 THEN '在线支付（演示用模拟支付）' ELSE coalesce(o.secretary, '党支部') END, p.ts
      FROM paying p JOIN m_member m ON m.id = p.member_id LEFT JOIN m_org o ON o.id = p.org_id
    ), lines AS (
      INSERT INTO dues_payment_line (payment_id, item_id, batch_id, org_id, amount_cents, due_cents)
      SELECT p.pid, p.id, p.batch_id, p.org_id, p.due_cents, p.due_cents FROM paying p
    )
    UPDATE dues_item i SET payment_id = p.pid, paid_cents = p.due_cents, paid_at = p.ts
    FROM paying p WHERE i.id = p.id
    RETURNING 1 AS n`.execute(database.db);
  return result.rows.length;
}

/** Deferrals for the unpaid items of a batch: kind and reason by the item's hash. */
async function deferBatch(database: Database, batchId: number): Promise<void> {
  await sql`
    INSERT INTO dues_deferral (item_id, batch_id, org_id, kind, reason, created_by_name, created_at)
    SELECT i.id, i.batch_id, i.org_id, k.kind, k.reason, coalesce(o.secretary, '党支部'), b.started_at + interval '24 days'
    FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id LEFT JOIN m_org o ON o.id = i.org_id
    CROSS JOIN LATERAL (SELECT ((i.member_id::bigint * 2654435761 + i.batch_id * 40503) % 1000)::int AS h) x
    CROSS JOIN LATERAL (SELECT CASE WHEN i.member_id % 97 = 13 THEN 'no-reason' WHEN x.h < 972 THEN 'hardship' WHEN x.h < 985 THEN 'approved' ELSE 'no-reason' END AS kind) y
    CROSS JOIN LATERAL (SELECT y.kind,
      CASE y.kind WHEN 'hardship' THEN '家庭生活困难，经支部同意缓交' WHEN 'approved' THEN '因病住院，经支部同意缓交'
                  ELSE CASE WHEN i.member_id % 97 = 13 THEN '多次催缴未交，本人未说明理由' ELSE '已催缴，暂未交纳' END END AS reason) k
    WHERE i.batch_id = ${batchId} AND i.payment_id IS NULL`.execute(database.db);
}

/** Every branch and committee reports (figures from the items), in one statement per batch. */
async function reportAll(database: Database, levels: DuesLevels, batchId: number): Promise<void> {
  const db = duesDb(database.db);
  const orgs = (await db.selectFrom('dues_item').select('org_id').distinct().where('batch_id', '=', batchId).execute()).map((r) => r.org_id);
  const itemOrg: number[] = [];
  const reportOrg: number[] = [];
  const level: number[] = [];
  for (const org of orgs) {
    const committee = await levels.committeeOf(org);
    if ((await levels.levelOf(org)) === ReportLevel.BRANCH) {
      itemOrg.push(org);
      reportOrg.push(org);
      level.push(ReportLevel.BRANCH);
    }
    itemOrg.push(org);
    reportOrg.push(committee);
    level.push(ReportLevel.COMMITTEE);
  }
  await sql`
    INSERT INTO dues_report (batch_id, org_id, level, members, paid_members, deferred, due_cents, paid_cents, comment, reported_by_name, reported_at)
    SELECT ${batchId}, u.report_org, min(u.level), count(*), count(i.payment_id), count(d.item_id) FILTER (WHERE i.payment_id IS NULL),
           sum(i.due_cents), sum(i.paid_cents), '', coalesce(min(o.secretary), ''), max(b.started_at) + interval '1 month' + interval '2 days' + min(u.level) * interval '2 days'
    FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
    JOIN unnest(${itemOrg}::int[], ${reportOrg}::int[], ${level}::int[]) AS u(item_org, report_org, level) ON u.item_org = i.org_id
    LEFT JOIN dues_deferral d ON d.item_id = i.id LEFT JOIN m_org o ON o.id = u.report_org
    WHERE i.batch_id = ${batchId} GROUP BY u.report_org`.execute(database.db);
}

/** Entries of a batch's log (workflow_log, as the engine writes its steps) at the batch's start plus `after`. */
async function logSteps(db: DuesDb, batchId: number, entries: { transition: string; title: string; from: number | null; to: number; comment: string }[], after: string): Promise<void> {
  const values = entries.map((e) => sql`(${e.transition}, ${e.title}, ${e.from}::int, ${e.to}::int, ${e.comment})`);
  await sql`INSERT INTO workflow_log (module, record_id, transition, transition_title, from_state, to_state, result, level, actor_name, comment, at)
    SELECT ${BATCH_MODULE}, b.id, v.t, v.title, v.f, v.s, 'pass', 'orgdept', ${SYSTEM.name}, v.c, b.started_at + ${after}::interval
    FROM dues_batch b CROSS JOIN (VALUES ${sql.join(values)}) AS v(t, title, f, s, c) WHERE b.id = ${batchId}`.execute(db);
}

/** A batch of one month as the engine leaves it after 新建, 配置 and 开始收缴 on the month's first morning (set-based). */
async function startedBatch(db: DuesDb, school: string, month: string): Promise<number> {
  const title = batchTitle(month, 1);
  const { id } = await db.insertInto('dues_batch').values({ school, first_month: month, months: 1, title, state: BatchState.STARTED }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('dues_batch_month').values({ batch_id: id, school, month }).execute();
  const totals = await snapshotBatch(db, id, { first_month: month, months: 1 });
  await sql`UPDATE dues_batch SET members = ${totals.members}, due_cents = ${totals.due}, version = 3, created_at = ${`${month}-01`}::date + interval '8 hours',
    configured_at = ${`${month}-01`}::date + interval '9 hours', started_at = ${`${month}-01`}::date + interval '10 hours', updated_at = ${`${month}-01`}::date + interval '10 hours'
    WHERE id = ${id}`.execute(db);
  await logSteps(db, id, [
    { transition: 'create', title: '新建批次', from: null, to: BatchState.NOT_CONFIGURED, comment: title },
    { transition: 'configure', title: '配置', from: BatchState.NOT_CONFIGURED, to: BatchState.CONFIGURED, comment: `${totals.members}名党员，应交${formatCents(totals.due)}元` },
    { transition: 'start', title: '开始收缴', from: BatchState.CONFIGURED, to: BatchState.STARTED, comment: '' },
  ], '0');
  return id;
}

/** 关闭 as the engine does it (the figures kept), on the 20th of the next month. */
async function closeBatch(db: DuesDb, id: number, month: string): Promise<void> {
  const totals = await keepClosedFigures(db, id);
  const closedAt = sql`${`${addMonths(month, 1)}-20`}::date + interval '16 hours'`;
  await sql`UPDATE dues_batch SET state = ${BatchState.CLOSED}, version = version + 1, paid_members = ${totals.paidMembers}, paid_cents = ${totals.paid}, closed_at = ${closedAt}, updated_at = ${closedAt} WHERE id = ${id}`.execute(db);
  await logSteps(db, id, [{ transition: 'close', title: '关闭', from: BatchState.STARTED, to: BatchState.CLOSED, comment: `实交${formatCents(totals.paid)}元` }], '1 month 19 days');
}

/** Loads the demo dues into a database that holds the university (organisations and members). */
export async function seedDues(database: Database, school: string, options: DuesSeedOptions, seed = 20261122): Promise<DuesSeedCounts> {
  const months = options.months ?? 12;
  const first = addMonths(options.currentMonth, -(months - 1));
  // Standards for every year of the batches, and for next month's (the next batch to configure).
  const years = [...new Set(Array.from({ length: months + 1 }, (_x, i) => Number(addMonths(first, i).slice(0, 4))))];
  const standards = await seedStandards(database, school, years, seed);
  const levels = new DuesLevels(new OrgTreeService(database));
  const core = { db: duesDb(database.db) };
  let payments = 0;
  for (let k = 0; k < months; k++) {
    const month = addMonths(first, k);
    const current = month === options.currentMonth;
    const id = await startedBatch(core.db, school, month);
    if (current) {
      // The current month: about two thirds paid so far, from the 1st up to today.
      payments += await payBatch(database, school, id, sql`c.h < 650 AND c.member_id % 97 <> 13`, dayOf(month, sql`c.h % ${Math.max(1, options.today)}`));
      continue;
    }
    // Members unpaid for months on end (1 in 97): their last eight months.
    const notChronic = k >= months - 8 ? sql`c.member_id % 97 <> 13` : sql`true`;
    payments += await payBatch(database, school, id, sql`c.h < 880 AND ${notChronic}`, dayOf(month, sql`4 + c.h % 24`));
    payments += await payBatch(database, school, id, sql`c.h >= 880 AND c.h < 960 AND ${notChronic}`, dayOf(addMonths(month, 1), sql`c.h % 9`));
    await deferBatch(database, id);
    await reportAll(database, levels, id);
    await closeBatch(core.db, id, month);
  }
  return { standards, batches: months, payments };
}

/**
 * Dues reports: a batch per organisation (the dashboard's tree), a year per month and per
 * organisation, the arrears list and the 自行脱党 candidates, each also as .xlsx. Every figure is read
 * from the batch items, whose paid amounts follow the payment entries in the same transaction (a test
 * checks that the entries sum to the reports at every level).
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { BatchStateLabel } from '../../../shared/constants.js';
import { formatCents } from '../../../shared/dues/money.js';
import { monthLabel, monthsOf } from '../../../shared/dues/rules.js';
import { coveredOrgs, scopeSql, type Caller, type Dues } from './context.js';
import { rollUp, topOf, type Figures } from './progress.js';
import { SETTLED, lapseCandidates } from './status.js';
import { yearFigures } from './year-figures.js';
import type { ArrearsRow, ProgressNode, YearReport } from '../../../shared/dues/api.js';
import { onRosterSql } from '../member/members.js';

const rate = (paid: number, all: number) => (all ? Math.round((paid / all) * 10_000) / 10_000 : 0);

/** A year of one school: every batch of the year (configured or later) per month, and per organisation. */
export async function yearReport(dues: Dues, caller: Caller, year: number, orgId?: number): Promise<YearReport> {
  const covered = await coveredOrgs(dues, caller, orgId);
  const batches = await dues.db
    .selectFrom('dues_batch')
    .select(['id', 'title', 'first_month', 'months', 'state'])
    .where('school', '=', dues.school)
    .where('first_month', 'like', `${year}-%`)
    .where('state', '>=', 2)
    .orderBy('first_month')
    .execute();
  // Per batch and organisation (year-figures.ts); months and organisations add up from these rows.
  const groups = batches.length
    ? (await sql<{ batchId: number; orgId: number; members: number; paidMembers: number; due: number; paid: number }>`
        SELECT f.batch_id AS "batchId", f.org_id AS "orgId", f.members, f.paid_members AS "paidMembers", f.due_cents AS due, f.paid_cents AS paid
        FROM ${yearFigures(dues.school, year)} f WHERE ${scopeSql(covered, 'f.org_id')}`.execute(dues.db)).rows
    : [];
  const byBatch = new Map<number, Figures>();
  const own = new Map<number, Figures>();
  for (const g of groups) {
    for (const [map, key] of [[byBatch, g.batchId], [own, g.orgId]] as const) {
      const f = map.get(key) ?? { members: 0, paidMembers: 0, deferred: 0, due: 0, paid: 0 };
      f.members += g.members;
      f.paidMembers += g.paidMembers;
      f.due += g.due;
      f.paid += g.paid;
      map.set(key, f);
    }
  }
  const months = batches.map((b) => {
    const f = byBatch.get(b.id) ?? { members: 0, paidMembers: 0, due: 0, paid: 0 };
    return { batchId: b.id, title: b.title, months: monthsOf(b.first_month, b.months), state: b.state, stateLabel: BatchStateLabel[b.state as 1], members: f.members, paidMembers: f.paidMembers, due: formatCents(f.due), paid: formatCents(f.paid), rate: rate(f.paidMembers, f.members) };
  });
  const sum = [...byBatch.values()].reduce((s, r) => ({ items: s.items + r.members, paidItems: s.paidItems + r.paidMembers, due: s.due + r.due, paid: s.paid + r.paid }), { items: 0, paidItems: 0, due: 0, paid: 0 });
  const orgs = await rollUp(dues, own, orgId !== undefined ? [orgId] : await topOf(dues, covered));
  return { year, months, totals: { items: sum.items, paidItems: sum.paidItems, due: formatCents(sum.due), paid: formatCents(sum.paid), rate: rate(sum.paidItems, sum.items) }, orgs };
}

/**
 * 欠缴名单: members (status 正常, by their branch now) with due months neither paid nor paid back:
 * months of closed batches only (`closed`, the default), or of started ones too.
 */
export async function arrears(dues: Dues, caller: Caller, options: { orgId?: number; closedOnly?: boolean; page: number; size: number }): Promise<{ content: ArrearsRow[]; totalElements: number }> {
  const covered = await coveredOrgs(dues, caller, options.orgId);
  const states = options.closedOnly === false ? [3, 4] : [4];
  const joins = sql`dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = ANY(${states}::int[]) AND b.school = ${dues.school}
    JOIN m_member m ON m.id = i.member_id AND ${onRosterSql('m')}`;
  const where = sql`NOT ${SETTLED('i')} AND ${scopeSql(covered, 'm.org_id')}`;
  const total = (await sql<{ n: number }>`SELECT count(DISTINCT i.member_id)::int AS n FROM ${joins} WHERE ${where}`.execute(dues.db)).rows[0].n;
  const rows = await sql<{ memberId: number; name: string; orgId: number; orgName: string | null; batches: string[]; owed: number; deferred: number }>`
    SELECT i.member_id AS "memberId", m.name, m.org_id AS "orgId", o.name AS "orgName",
           array_agg(b.first_month || ':' || b.months ORDER BY b.first_month) AS batches, sum(i.due_cents)::bigint AS owed,
           count(d.item_id)::int AS deferred
    FROM ${joins} LEFT JOIN m_org o ON o.id = m.org_id LEFT JOIN dues_deferral d ON d.item_id = i.id
    WHERE ${where}
    GROUP BY i.member_id, m.name, m.name__py, m.org_id, o.name
    ORDER BY o.name, m.name__py, m.name, i.member_id LIMIT ${options.size} OFFSET ${options.page * options.size}`.execute(dues.db);
  return {
    totalElements: total,
    content: rows.rows.map((r) => ({
      memberId: r.memberId,
      name: r.name,
      orgId: r.orgId,
      orgName: r.orgName ?? '',
      months: r.batches.flatMap((b) => monthsOf(b.split(':')[0], Number(b.split(':')[1]))),
      owed: formatCents(r.owed),
      deferred: r.deferred,
    })),
  };
}

export { lapseCandidates };

// ---------------------------------------------------------------- spreadsheets

function sheetOf(book: ExcelJS.Workbook, name: string, title: string, header: string[]) {
  const sheet = book.addWorksheet(name);
  sheet.addRow([title]).font = { bold: true, size: 14 };
  sheet.addRow(header).font = { bold: true };
  sheet.columns = header.map((h) => ({ width: Math.max(12, h.length * 2 + 6) }));
  return sheet;
}

const percent = (r: number) => `${(r * 100).toFixed(2)}%`;

function addTree(sheet: ExcelJS.Worksheet, nodes: ProgressNode[], depth = 0): void {
  for (const n of nodes) {
    sheet.addRow([`${'　'.repeat(depth)}${n.name}`, n.members, n.paidMembers, n.unpaidMembers, n.deferred, Number(n.due), Number(n.paid), percent(n.rate), n.report ? `已上报（${n.report.reportedBy}）` : n.report === null ? '未上报' : '']);
    if (n.children) addTree(sheet, n.children, depth + 1);
  }
}

const TREE_HEADER = ['党组织', '应缴人数', '已缴人数', '未缴人数', '缓交人数', '应交金额（元）', '实交金额（元）', '缴纳率', '上报情况'];

export function progressWorkbook(title: string, nodes: ProgressNode[]): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  addTree(sheetOf(book, '收缴情况', `${title}收缴情况`, TREE_HEADER), nodes);
  return book;
}

export function yearWorkbook(report: YearReport): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const months = sheetOf(book, '按月', `${report.year}年党费收缴情况（按月）`, ['批次', '状态', '应缴人次', '已缴人次', '应交金额（元）', '实交金额（元）', '缴纳率']);
  for (const m of report.months) months.addRow([m.title, m.stateLabel, m.members, m.paidMembers, Number(m.due), Number(m.paid), percent(m.rate)]);
  months.addRow(['合计', '', report.totals.items, report.totals.paidItems, Number(report.totals.due), Number(report.totals.paid), percent(report.totals.rate)]).font = { bold: true };
  addTree(sheetOf(book, '按党组织', `${report.year}年党费收缴情况（按党组织）`, TREE_HEADER.slice(0, 8).map((h) => h.replace('人数', '人次'))), report.orgs);
  return book;
}

export function arrearsWorkbook(rows: ArrearsRow[]): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = sheetOf(book, '欠缴名单', '党费欠缴名单', ['姓名', '所在党支部', '欠缴月份', '欠缴金额（元）', '已登记缓交（月）']);
  for (const r of rows) sheet.addRow([r.name, r.orgName, r.months.map(monthLabel).join('、'), Number(r.owed), r.deferred]);
  return book;
}

export function lapseWorkbook(rows: Awaited<ReturnType<typeof lapseCandidates>>): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = sheetOf(book, '连续六个月未交', '连续六个月未交纳党费的党员（自行脱党处理候选，须支部核实）', ['姓名', '所在党支部', '未交月份', '党费交至', '欠缴金额（元）']);
  for (const r of rows) sheet.addRow([r.name, r.orgName, r.months.map(monthLabel).join('、'), r.paidUpTo ? monthLabel(r.paidUpTo) : '—', Number(r.owed)]);
  return book;
}

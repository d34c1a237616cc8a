/** What members owe: a batch's items (the dashboard), and the open months of members (on-site payment). */
import { sql, type RawBuilder } from 'kysely';
import { BatchState } from '../../../shared/constants.js';
import { formatCents } from '../../../shared/dues/money.js';
import { addMonths, backPayAllowed, DuesCategoryLabel, isDuesCategory, monthsOf, rateText } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { likeContains } from '../../core/paging.js';
import { DeferralKindLabel, JUSTIFIED_DEFERRALS } from './batch-reports.js';
import { coveredOrgs, scopeSql, type Caller, type Dues } from './context.js';
import { SETTLED, duesStatusesOf } from './status.js';
import type { DeferralKind } from './tables.js';
import type { ItemStatus, ItemView, OnsiteMember, OpenMonth } from '../../../shared/dues/api.js';
import { ownValue } from '../../../shared/own.js';
import { onRosterSql } from '../member/members.js';

export const ItemStatusLabel: Record<ItemStatus, string> = { paid: '已缴', unpaid: '未缴', deferred: '缓交', settled: '已补缴' };

interface ItemRow {
  id: number;
  batchId: number;
  memberId: number;
  memberName: string;
  orgId: number;
  orgName: string | null;
  category: string;
  baseCents: number | null;
  basisPoints: number | null;
  standardCents: number;
  adjustCents: number;
  dueCents: number;
  paidCents: number;
  paymentId: number | null;
  paidAt: Date | null;
  receiptNo: string | null;
  deferralKind: DeferralKind | null;
  deferralReason: string | null;
  settled: boolean;
  waived: boolean;
}

function itemView(r: ItemRow): ItemView {
  const status: ItemStatus = r.paymentId !== null ? 'paid' : r.settled ? 'settled' : r.deferralKind ? 'deferred' : 'unpaid';
  return {
    id: r.id,
    batchId: r.batchId,
    memberId: r.memberId,
    memberName: r.memberName,
    orgId: r.orgId,
    orgName: r.orgName ?? '',
    category: r.category,
    categoryLabel: isDuesCategory(r.category) ? DuesCategoryLabel[r.category] : r.category,
    base: r.baseCents === null ? null : formatCents(r.baseCents),
    rate: r.basisPoints === null ? '定额' : rateText(r.basisPoints),
    standard: formatCents(r.standardCents),
    adjust: formatCents(r.adjustCents),
    due: formatCents(r.dueCents),
    paid: formatCents(r.paidCents),
    status,
    statusLabel: r.waived && r.paymentId === null ? '已免交' : ItemStatusLabel[status],
    paidAt: r.paidAt ? new Date(r.paidAt).toISOString() : null,
    paymentId: r.paymentId,
    receiptNo: r.receiptNo,
    deferral: r.deferralKind ? { kind: r.deferralKind, kindLabel: DeferralKindLabel[r.deferralKind], reason: r.deferralReason ?? '' } : null,
  };
}

const ITEM_SELECT = sql`i.id, i.batch_id AS "batchId", i.member_id AS "memberId", m.name AS "memberName", i.org_id AS "orgId", o.name AS "orgName", i.category,
  i.base_cents AS "baseCents", i.basis_points AS "basisPoints", i.standard_cents AS "standardCents", i.adjust_cents AS "adjustCents", i.due_cents AS "dueCents",
  i.paid_cents AS "paidCents", i.payment_id AS "paymentId", i.paid_at AS "paidAt", p.receipt_no AS "receiptNo", d.kind AS "deferralKind", d.reason AS "deferralReason",
  ${SETTLED('i')} AS settled, EXISTS (SELECT 1 FROM dues_waiver w WHERE w.item_id = i.id) AS waived`;
const ITEM_FROM = sql`dues_item i JOIN m_member m ON m.id = i.member_id LEFT JOIN m_org o ON o.id = i.org_id
  LEFT JOIN dues_payment p ON p.id = i.payment_id LEFT JOIN dues_deferral d ON d.item_id = i.id`;

const STATUS_FILTER: Record<string, RawBuilder<boolean>> = {
  paid: sql`i.payment_id IS NOT NULL`,
  unpaid: sql`i.payment_id IS NULL`,
  deferred: sql`i.payment_id IS NULL AND d.item_id IS NOT NULL`,
  open: sql`i.payment_id IS NULL AND d.item_id IS NULL`,
};

/** A batch's members: `status` paid | unpaid | deferred | open (unpaid without a deferral), by branch and name. */
export async function listItems(dues: Dues, caller: Caller, batchId: number, q: { orgId?: number; status?: string; name?: string; page: number; size: number }) {
  const covered = await coveredOrgs(dues, caller, q.orgId);
  const statusFilter = q.status ? ownValue(STATUS_FILTER, q.status) : undefined;
  if (q.status && !statusFilter) throw new HttpError(400, '缴费状态只能是 paid、unpaid、deferred 或 open');
  const where = sql`i.batch_id = ${batchId} AND ${scopeSql(covered, 'i.org_id')} AND ${statusFilter ?? sql`true`}
    AND ${q.name ? sql`m.name ILIKE ${likeContains(q.name)}` : sql`true`}`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${ITEM_FROM} WHERE ${where}`.execute(dues.db)).rows[0].n;
  const rows = await sql<ItemRow>`SELECT ${ITEM_SELECT} FROM ${ITEM_FROM} WHERE ${where} ORDER BY o.name, m.name__py, m.name, i.id LIMIT ${q.size} OFFSET ${q.page * q.size}`.execute(dues.db);
  return { content: rows.rows.map(itemView), totalElements: total };
}

/**
 * A member's items in batches that have started, newest first (the member's page). `canPay`: a started
 * month unpaid, or a closed month the member may pay back with one (`backPay`: within six months, or
 * deferred for a proper reason at any time), measured from the member's latest unpaid started month.
 */
export async function memberItems(dues: Dues, memberId: number) {
  const rows = await sql<ItemRow & { title: string; firstMonth: string; months: number; state: number }>`
    SELECT ${ITEM_SELECT}, b.title, b.first_month AS "firstMonth", b.months, b.state
    FROM ${ITEM_FROM} JOIN dues_batch b ON b.id = i.batch_id AND b.state >= ${BatchState.STARTED} AND b.school = ${dues.school}
    WHERE i.member_id = ${memberId} ORDER BY b.first_month DESC`.execute(dues.db);
  const target = rows.rows.find((r) => r.state === BatchState.STARTED && r.paymentId === null);
  return rows.rows.map((r) => {
    const backPay = !!target && r.state === BatchState.CLOSED && r.paymentId === null && !r.settled && backPayAllowed(addMonths(r.firstMonth, r.months - 1), target.firstMonth, r.deferralKind !== null && JUSTIFIED_DEFERRALS.includes(r.deferralKind));
    return { ...itemView(r), title: r.title, months: monthsOf(r.firstMonth, r.months), state: r.state, canPay: (r.state === BatchState.STARTED && r.paymentId === null) || backPay, backPay };
  });
}

/**
 * 现场缴费: the members of an organisation (status 正常, by branch and name) with what they may pay now.
 * Back payment is measured from the latest started batch.
 */
export async function onsiteMembers(dues: Dues, caller: Caller, q: { orgId?: number; name?: string; page: number; size: number }) {
  const covered = await coveredOrgs(dues, caller, q.orgId);
  const where = sql`${onRosterSql('m')} AND ${scopeSql(covered, 'm.org_id')} AND ${q.name ? sql`m.name ILIKE ${likeContains(q.name)}` : sql`true`}`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member m WHERE ${where}`.execute(dues.db)).rows[0].n;
  const members = (await sql<{ id: number; name: string; orgId: number; orgName: string | null }>`
    SELECT m.id, m.name, m.org_id AS "orgId", o.name AS "orgName" FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id
    WHERE ${where} ORDER BY o.name, m.name__py, m.name, m.id LIMIT ${q.size} OFFSET ${q.page * q.size}`.execute(dues.db)).rows;
  const latest = await dues.db.selectFrom('dues_batch').select('first_month').where('school', '=', dues.school).where('state', '=', BatchState.STARTED).orderBy('first_month', 'desc').executeTakeFirst();
  const ids = members.map((m) => m.id);
  const items = ids.length
    ? (await sql<{ id: number; memberId: number; batchId: number; title: string; firstMonth: string; months: number; state: number; due: number; deferred: boolean; justified: boolean }>`
        SELECT i.id, i.member_id AS "memberId", i.batch_id AS "batchId", b.title, b.first_month AS "firstMonth", b.months, b.state, i.due_cents AS due,
               EXISTS (SELECT 1 FROM dues_deferral d WHERE d.item_id = i.id) AS deferred,
               EXISTS (SELECT 1 FROM dues_deferral d WHERE d.item_id = i.id AND d.kind = ANY(${JUSTIFIED_DEFERRALS}::text[])) AS justified
        FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state IN (3, 4) AND b.school = ${dues.school}
        WHERE i.member_id = ANY(${ids}::int[]) AND NOT ${SETTLED('i')} ORDER BY b.first_month`.execute(dues.db)).rows
    : [];
  const standing = await duesStatusesOf(dues.db, ids);
  const backPayable = (i: { firstMonth: string; months: number; justified: boolean }) => !!latest && backPayAllowed(addMonths(i.firstMonth, i.months - 1), latest.first_month, i.justified);
  const content: OnsiteMember[] = members.map((m) => {
    const mine = items.filter((i) => i.memberId === m.id);
    const view = (i: (typeof items)[number]): OpenMonth => ({ itemId: i.id, batchId: i.batchId, title: i.title, months: monthsOf(i.firstMonth, i.months), due: formatCents(i.due), deferred: i.deferred });
    return {
      memberId: m.id,
      name: m.name,
      orgId: m.orgId,
      orgName: m.orgName ?? '',
      open: mine.filter((i) => i.state === BatchState.STARTED).map(view),
      backPay: mine.filter((i) => i.state === BatchState.CLOSED && backPayable(i)).map(view),
      overdue: latest ? mine.filter((i) => i.state === BatchState.CLOSED && !backPayable(i)).map(view) : [],
      paidUpTo: standing.get(m.id)?.paidUpTo ?? null,
    };
  });
  return { content, totalElements: total };
}


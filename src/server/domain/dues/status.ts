/**
 * A member's dues standing, for the other areas (the transfer letter states "党费交至某年某月", and a
 * member with unpaid dues is flagged before a transfer) and for the 自行脱党 list.
 *
 * - A month is due once its batch has started (state 3) or closed (4).
 * - A month is paid when its item is covered by a payment, or when it was paid back (补缴) through an
 *   adjustment of a later batch that is paid, or exempted (免交) with the committee's approval.
 * - 自行脱党 candidates (《中国共产党章程》第九条: 没有正当理由, 连续六个月不交纳党费): members whose six
 *   most recent months of closed batches are consecutive calendar months, all unpaid, none with a
 *   deferral for a proper reason (approved, hardship). A month is missed only once its batch has closed.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { formatCents } from '../../../shared/dues/money.js';
import { addMonths, LAPSE_MONTHS, monthsOf } from '../../../shared/dues/rules.js';
import type { DB } from '../../db/types.js';
import { JUSTIFIED_DEFERRALS } from './batch-reports.js';
import type { DuesStatus, LapseCandidate } from '../../../shared/dues/api.js';
import { onRosterSql } from '../member/members.js';

export type { DuesStatus, LapseCandidate };

/** Paid, paid back through a later batch's adjustment that is paid, or exempted (免交, waivers.ts). */
export const SETTLED = (item: string) =>
  sql<boolean>`(${sql.ref(`${item}.payment_id`)} IS NOT NULL OR EXISTS (SELECT 1 FROM dues_adjustment a JOIN dues_item t ON t.id = a.item_id
    WHERE a.source_item_id = ${sql.ref(`${item}.id`)} AND t.payment_id IS NOT NULL) OR EXISTS (SELECT 1 FROM dues_waiver w WHERE w.item_id = ${sql.ref(`${item}.id`)}))`;

/** The dues standing of several members (one query). Members with nothing due answer an empty standing. */
export async function duesStatusesOf(db: Kysely<DB>, memberIds: number[]): Promise<Map<number, DuesStatus>> {
  const out = new Map<number, DuesStatus>(memberIds.map((id) => [id, { memberId: id, paidUpTo: null, unpaidMonths: [], owed: '0.00', hasUnpaid: false }]));
  if (!memberIds.length) return out;
  const rows = await sql<{ memberId: number; firstMonth: string; months: number; due: number; settled: boolean }>`
    SELECT i.member_id AS "memberId", b.first_month AS "firstMonth", b.months, i.due_cents AS due, ${SETTLED('i')} AS settled
    FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state IN (3, 4)
    WHERE i.member_id = ANY(${memberIds}::int[]) ORDER BY i.member_id, b.first_month`.execute(db);
  const owed = new Map<number, number>();
  const broken = new Set<number>();
  for (const r of rows.rows) {
    const status = out.get(r.memberId)!;
    const months = monthsOf(r.firstMonth, r.months);
    if (r.settled) {
      if (!broken.has(r.memberId)) status.paidUpTo = months[months.length - 1];
    } else {
      broken.add(r.memberId);
      status.unpaidMonths.push(...months);
      owed.set(r.memberId, (owed.get(r.memberId) ?? 0) + r.due);
    }
  }
  for (const status of out.values()) {
    status.hasUnpaid = status.unpaidMonths.length > 0;
    status.owed = formatCents(owed.get(status.memberId) ?? 0);
  }
  return out;
}

/** One member's dues standing: "is anything unpaid" and "paid up to which month". */
export async function duesStatusOf(db: Kysely<DB>, memberId: number): Promise<DuesStatus> {
  return (await duesStatusesOf(db, [memberId])).get(memberId)!;
}

/**
 * 自行脱党 candidates among members (status 正常) of these organisations ('all': everyone), by branch
 * and name. A list for the branch to act on (talk, record), never an automatic change.
 */
export async function lapseCandidates(db: Kysely<DB>, orgIds: number[] | 'all'): Promise<LapseCandidate[]> {
  const scope: RawBuilder<boolean> = orgIds === 'all' ? sql<boolean>`true` : sql<boolean>`m.org_id = ANY(${orgIds}::int[])`;
  const rows = await sql<{ memberId: number; name: string; orgId: number; orgName: string; first: string; last: string }>`
    WITH months AS (
      SELECT i.member_id, bm.month, ${SETTLED('i')} AS settled,
             coalesce(d.kind = ANY(${JUSTIFIED_DEFERRALS}::text[]), false) AS justified,
             row_number() OVER (PARTITION BY i.member_id ORDER BY bm.month DESC) AS rn
      FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state = 4
      JOIN dues_batch_month bm ON bm.batch_id = b.id
      LEFT JOIN dues_deferral d ON d.item_id = i.id
      JOIN m_member m ON m.id = i.member_id AND ${onRosterSql('m')} AND ${scope}
    )
    SELECT mo.member_id AS "memberId", m.name, m.org_id AS "orgId", o.name AS "orgName", min(mo.month) AS first, max(mo.month) AS last
    FROM months mo JOIN m_member m ON m.id = mo.member_id LEFT JOIN m_org o ON o.id = m.org_id
    WHERE mo.rn <= ${LAPSE_MONTHS}
    GROUP BY mo.member_id, m.name, m.org_id, o.name
    HAVING count(*) = ${LAPSE_MONTHS} AND bool_and(NOT mo.settled AND NOT mo.justified)
      AND (substr(max(mo.month), 1, 4)::int * 12 + substr(max(mo.month), 6, 2)::int) - (substr(min(mo.month), 1, 4)::int * 12 + substr(min(mo.month), 6, 2)::int) = ${LAPSE_MONTHS - 1}
    ORDER BY o.name, m.name`.execute(db);
  const standing = await duesStatusesOf(db, rows.rows.map((r) => r.memberId));
  return rows.rows.map((r) => ({
    memberId: r.memberId,
    name: r.name,
    orgId: r.orgId,
    orgName: r.orgName ?? '',
    months: Array.from({ length: LAPSE_MONTHS }, (_x, i) => addMonths(r.first, i)),
    owed: standing.get(r.memberId)?.owed ?? '0.00',
    paidUpTo: standing.get(r.memberId)?.paidUpTo ?? null,
  }));
}

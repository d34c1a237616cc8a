/**
 * A year's dues figures per batch and organisation: the one definition that 党费统计 (reports.ts
 * `yearReport`) and the statistics area's 党费收缴 source (domain/statistics/sources.ts) both read, so the
 * two always show the same figures. The batches are the school's whose first month is in the year and
 * that are configured or later; a closed batch counts from its figures kept at closing (dues_batch_org,
 * batches.ts), the others from their items. A row counts items (member-months), not distinct members.
 */
import { sql, type RawBuilder } from 'kysely';
import { BatchState } from '../../../shared/constants.js';

/** The columns of a row of `yearFigures`. */
export interface YearFiguresRow {
  batch_id: number;
  /** The batch's first month, `YYYY-MM`. */
  first_month: string;
  org_id: number;
  members: number;
  paid_members: number;
  due_cents: number;
  paid_cents: number;
}

/** The year's figures as a relation (a parenthesised SELECT; alias it where it is used). */
export function yearFigures(school: string, year: number): RawBuilder<YearFiguresRow> {
  const months = `${year}-%`;
  return sql<YearFiguresRow>`(
    SELECT f.batch_id, b.first_month, f.org_id, f.members::int AS members, f.paid_members::int AS paid_members,
           f.due_cents::bigint AS due_cents, f.paid_cents::bigint AS paid_cents
    FROM dues_batch_org f JOIN dues_batch b ON b.id = f.batch_id
    WHERE b.school = ${school} AND b.first_month LIKE ${months} AND b.state = ${BatchState.CLOSED}
    UNION ALL
    SELECT i.batch_id, b.first_month, i.org_id, count(*)::int, count(i.payment_id)::int,
           coalesce(sum(i.due_cents), 0)::bigint, coalesce(sum(i.paid_cents), 0)::bigint
    FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id
    WHERE b.school = ${school} AND b.first_month LIKE ${months} AND b.state >= ${BatchState.CONFIGURED} AND b.state <> ${BatchState.CLOSED}
    GROUP BY i.batch_id, b.first_month, i.org_id)`;
}

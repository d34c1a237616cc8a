/**
 * What the lifecycle rules read of a member besides the record: the last organisation life attended
 * (meeting attendance), the dues standing (the transfers area's seam to the dues area) and the last
 * contact (the lost-contact rules). Reads through the caller's transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { duesStanding } from '../transfer/dues-source.js';

export { memberFacts, type MemberFacts } from '../transfer/facts.js';

/** The latest meeting of organisation life the member is recorded as attending, on or before `day`. */
export async function lastMeetingOf(db: Kysely<DB>, memberId: number, day: string): Promise<string | null> {
  const row = await sql<{ d: string | null }>`
    SELECT max(date)::text AS d FROM m_meeting WHERE attendee_ids @> ${JSON.stringify([memberId])}::jsonb AND date <= ${day}::date`.execute(db);
  return row.rows[0]?.d ?? null;
}

export interface LapseEvidence {
  lastMeetingDate: string | null;
  duesPaidTo: string | null;
  unpaidMonths: number;
  /** The unpaid months themselves, oldest first. */
  months: string[];
}

/** The evidence of 自行脱党 the product holds: attendance and dues (党章第九条). */
export async function lapseEvidence(db: Kysely<DB>, memberId: number, day: string): Promise<LapseEvidence> {
  const lastMeetingDate = await lastMeetingOf(db, memberId, day);
  const standing = await duesStanding(db, memberId);
  return { lastMeetingDate, duesPaidTo: standing?.paidUpTo ?? null, unpaidMonths: standing?.unpaidMonths.length ?? 0, months: standing?.unpaidMonths ?? [] };
}

/** The longest run of consecutive months in a sorted list of 'YYYY-MM' months. */
export function longestRun(months: readonly string[]): number {
  let best = 0;
  let run = 0;
  let prev: number | null = null;
  for (const m of months) {
    const n = Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
    run = prev !== null && n === prev + 1 ? run + 1 : 1;
    best = Math.max(best, run);
    prev = n;
  }
  return best;
}

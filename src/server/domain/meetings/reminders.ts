/**
 * The reminder of the next meeting due (x-reminders `period-due` of the `meeting` module): the latest
 * valid meeting of a type in a branch counts to the end of the next period its frequency asks one for
 * (支委会 in May: 30 June), so the branch secretaries are told a week before that period ends without
 * its meeting, and it stays on while overdue. A later meeting of the type takes the reminder over (the
 * earlier one's ends at the next recomputation: every write of it, and daily).
 */
import { sql } from 'kysely';
import { nextPeriod, periodEnd, periodOf } from '../../../shared/meetings/rules.js';
import { registerReminderDate } from '../../runtime/reminders/model.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { frequencyRules, type FrequencyRule } from './frequencies.js';

let rulesOf: () => FrequencyRule[] = () => [];

/** Reads the school's frequencies from the merged module (set when the area starts). */
export function useFrequenciesOf(m: RuntimeModule): void {
  rulesOf = () => frequencyRules(m);
}

const ORDER = { month: 0, quarter: 1, year: 2 } as const;

registerReminderDate('meetings.nextDue', async (record, db) => {
  const { id, orgId, type, date, invalid } = record as { id?: number; orgId?: number; type?: string; date?: string; invalid?: boolean };
  if (invalid === true || !orgId || !type || !date) return null;
  // The most frequent branch rule of the type (党课: quarterly, not the secretary's yearly lesson).
  const rule = rulesOf()
    .filter((r) => r.type === type && r.orgs === 'branch' && !r.secretaryLecture && r.min > 0)
    .sort((a, b) => ORDER[a.per] - ORDER[b.per])[0];
  if (!rule) return null;
  const later = await sql<{ one: number }>`
    SELECT 1 AS one FROM m_meeting WHERE org_id = ${orgId} AND type = ${type} AND invalid IS NOT TRUE
      AND (date > ${date}::date OR (date = ${date}::date AND id > ${id ?? 0})) LIMIT 1`.execute(db);
  if (later.rows.length) return null;
  return periodEnd(nextPeriod(periodOf(date, rule.per)));
});

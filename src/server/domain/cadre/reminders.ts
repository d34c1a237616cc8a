/**
 * The dates of the cadre reminders that the x-reminders vocabulary cannot say (docs/cadres.md): the age
 * expiry (the day of the statutory retirement age, by birth month, gender, rank and title) and the term's end
 * (the post's start + its term, default the rule parameter cadre.termYears). The other four read fields:
 * probationEnd, a secondment's endDate, a trip's endDate + cadre-abroad.returnDays (abroad.ts).
 */
import { registerReminderDate } from '../../runtime/reminders/model.js';
import { isServing, retirementDateOf, termEndOf } from './rules.js';
import { termYears } from './settings.js';

// Every serving cadre (在任 and 试用期), at the statutory age (the 2025 decision's table, src/shared/cadre/retirement.ts).
registerReminderDate('cadre.retirementAge', async (record) => (isServing(record.tenureStatus) ? retirementDateOf(record) : null));

const termByHandle = new WeakMap<object, Promise<number>>();
registerReminderDate('cadre.termEnd', async (record, db) => {
  let years = termByHandle.get(db);
  if (!years) termByHandle.set(db, (years = termYears()));
  return termEndOf(record.startDate, record.termYears, await years);
});

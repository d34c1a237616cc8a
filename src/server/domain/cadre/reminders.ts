/**
 * The dates of the cadre reminders that the x-reminders vocabulary cannot say (docs/cadres.md): the age
 * expiry (the birthday at the retirement age, by rank and gender, school settings) and the term's end
 * (the post's start + its term, default the rule parameter cadre.termYears). The other four read fields:
 * probationEnd, a secondment's endDate, a certificate's tripEndDate + cadre-certificate.returnDays.
 */
import { registerReminderDate } from '../../runtime/reminders/model.js';
import { retirementDateOf, termEndOf } from './rules.js';
import { retireAges, termYears } from './settings.js';

registerReminderDate('cadre.retirementAge', async (record, db) => retirementDateOf(record.birthDate, record.gender, record.rank, await retireAges(db)));

const termByHandle = new WeakMap<object, Promise<number>>();
registerReminderDate('cadre.termEnd', async (record, db) => {
  let years = termByHandle.get(db);
  if (!years) termByHandle.set(db, (years = termYears()));
  return termEndOf(record.startDate, record.termYears, await years);
});

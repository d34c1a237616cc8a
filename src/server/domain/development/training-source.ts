/**
 * The seam through which the party school (issue 18) adds the class hours a person completed there to
 * the training an applicant needs before admission (《细则》第四章: 不少于三天或二十四个学时).
 *
 * The training guard counts the hours the branch recorded on the application (`trainingHours`) plus
 * what the registered source answers for the applicant's ID number. Until a source is registered the
 * party school contributes nothing. The party school registers itself once, at start:
 *
 *   registerTrainingHoursSource({
 *     name: 'party-school',
 *     hoursOf: (idCard, db) => completedClassHours(db, idCard),   // hours of finished classes, by ID number
 *   });
 *
 * `db` is the transaction of the step being taken: read through it (on the embedded database a query
 * outside the open transaction would wait for it).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface TrainingHoursSource {
  /** Shown in the guard's warning when its hours made the difference. */
  name: string;
  /** Completed class hours of the person with this ID number (0 when none). */
  hoursOf(idCard: string, db: Kysely<DB>): Promise<number>;
}

let source: TrainingHoursSource | undefined;

export function registerTrainingHoursSource(s: TrainingHoursSource | undefined): void {
  source = s;
}

/** The hours the registered source gives for a person (0 without a source or an ID number). */
export async function sourcedTrainingHours(idCard: unknown, db: Kysely<DB>): Promise<{ hours: number; source?: string }> {
  if (!source || typeof idCard !== 'string' || !idCard) return { hours: 0 };
  const hours = await source.hoursOf(idCard, db);
  return { hours: Number.isFinite(hours) && hours > 0 ? hours : 0, source: source.name };
}

/**
 * The seam through which the party school adds the training a person completed there (class hours and
 * attendance days) to what an applicant needs before admission (《细则》第四章: 不少于三天或二十四个学时).
 *
 * The training guard counts the days and hours the branch recorded on the application (`trainingDays`,
 * `trainingHours`) plus what the registered source answers for the applicant's ID number. Until a source
 * is registered the party school contributes nothing. The composition root (src/server/seams.ts)
 * registers the party school once, at start.
 *
 * `db` is the transaction of the step being taken: read through it (on the embedded database a query
 * outside the open transaction would wait for it).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface CompletedTrainingFacts {
  hours: number;
  days: number;
}

export interface TrainingSource {
  /** Shown in the guard's warning when its training made the difference. */
  name: string;
  /** Completed class hours and attendance days of the person with this ID number (0 when none). */
  trainingOf(idCard: string, db: Kysely<DB>): Promise<CompletedTrainingFacts>;
}

let source: TrainingSource | undefined;

export function registerTrainingSource(s: TrainingSource): void {
  source = s;
}

const positive = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

/** The hours and days the registered source gives for a person (0 without a source or an ID number). */
export async function sourcedTraining(idCard: unknown, db: Kysely<DB>): Promise<CompletedTrainingFacts & { source?: string }> {
  if (!source || typeof idCard !== 'string' || !idCard) return { hours: 0, days: 0 };
  const t = await source.trainingOf(idCard, db);
  return { hours: positive(t.hours), days: positive(t.days), source: source.name };
}

/**
 * The cadre area's school settings (系统配置, table sys_config; defaults seeded by migration 0210 and used
 * when a value is missing or not a whole number). docs/cadres.md lists them.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { DEFAULT_RETIRE_AGES, type RetireAges } from './rules.js';

export const CADRE_SETTINGS = {
  /** The longest gap (whole months) allowed between full-time entries of the work record. */
  resumeGapMonths: 'cadreResumeGapMonths',
  /** A post's term in years when the post does not say (a setting per post type would override it). */
  termYears: 'cadreTermYears',
  retireAgeMale: 'cadreRetireAge.male',
  retireAgeFemale: 'cadreRetireAge.female',
  retireAgeFemaleSenior: 'cadreRetireAge.femaleSenior',
  /** Days after a trip's end within which a lent passport must be returned (7 or 10); x-reminders reads it. */
  certificateReturnDays: 'cadreCertificateReturnDays',
  /** Role codes (comma separated) whose uKey users pass the uKey check before a cadre page opens. */
  ukeyRoles: 'cadreUkeyRoles',
} as const;

export async function readSetting(db: Kysely<DB>, key: string): Promise<string | undefined> {
  return (await db.selectFrom('sys_config').select('config_value').where('config_key', '=', key).executeTakeFirst())?.config_value ?? undefined;
}

export async function intSetting(db: Kysely<DB>, key: string, fallback: number): Promise<number> {
  const raw = await readSetting(db, key);
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** Read once per transaction handle: a reminder refresh asks for every cadre. */
const agesByHandle = new WeakMap<object, Promise<RetireAges>>();

export function retireAges(db: Kysely<DB>): Promise<RetireAges> {
  let hit = agesByHandle.get(db);
  if (!hit) agesByHandle.set(db, (hit = readRetireAges(db)));
  return hit;
}

async function readRetireAges(db: Kysely<DB>): Promise<RetireAges> {
  return {
    male: await intSetting(db, CADRE_SETTINGS.retireAgeMale, DEFAULT_RETIRE_AGES.male),
    female: await intSetting(db, CADRE_SETTINGS.retireAgeFemale, DEFAULT_RETIRE_AGES.female),
    femaleSenior: await intSetting(db, CADRE_SETTINGS.retireAgeFemaleSenior, DEFAULT_RETIRE_AGES.femaleSenior),
  };
}

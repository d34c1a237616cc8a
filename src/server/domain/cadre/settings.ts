/**
 * The cadre area's settings. The rules (term years, résumé gap, the 优秀 share, the passport and trip
 * periods) are rule parameters since issue 42 (x-params of cadre, cadre-assessment, cadre-passport and the
 * x-workflow.params of cadre-abroad; 系统管理 → 规则参数; migration 0420 moved the sys_config values there). What stays in
 * 系统配置 (sys_config) is a system setting: which roles pass the uKey check. docs/cadres.md lists them.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { numberParamOn } from '../../runtime/params/registry.js';

export const CADRE_SETTINGS = {
  /** Role codes (comma separated) whose uKey users pass the uKey check before a cadre page opens. */
  ukeyRoles: 'cadreUkeyRoles',
} as const;

/** The cadre rule parameters (registry keys). */
export const CADRE_PARAMS = {
  /** The longest gap (whole months) allowed between full-time entries of the work record. */
  resumeGapMonths: 'cadre.resumeGapMonths',
  /** A post's term in years when the post does not say. */
  termYears: 'cadre.termYears',
} as const;

export async function readSetting(db: Kysely<DB>, key: string): Promise<string | undefined> {
  return (await db.selectFrom('sys_config').select('config_value').where('config_key', '=', key).executeTakeFirst())?.config_value ?? undefined;
}

/** The résumé gap in force today (0: none allowed). */
export const resumeGapMonths = () => numberParamOn(CADRE_PARAMS.resumeGapMonths, 0);

/** The default term in force today. */
export const termYears = () => numberParamOn(CADRE_PARAMS.termYears, 5);

import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { formulaProblem, formulaText, NATIONAL_BASE_FORMULA, type BaseFormula } from '../../../shared/dues/formula.js';
import { bandsProblem, NATIONAL_BANDS, ruleTable, DUES_RULE_SOURCE, type Band } from '../../../shared/dues/rules.js';
import { duesDb, type DuesActor } from './tables.js';
import type { Bands, DuesSettings } from '../../../shared/dues/api.js';

export type { Bands };

/**
 * Reads a school's settings; what an administrator stored is checked again on read, so a bad row (edited
 * in the database) falls back to the national rule instead of breaking every standard.
 */
export async function duesSettings(db: Kysely<DB>, school: string): Promise<DuesSettings> {
  const row = await duesDb(db).selectFrom('dues_settings').selectAll().where('school', '=', school).executeTakeFirst();
  const formula = row?.base_formula && !formulaProblem(row.base_formula) ? (row.base_formula as BaseFormula) : undefined;
  const bands = row?.bands && validBands(row.bands) ? (row.bands as Bands) : undefined;
  const baseFormula = formula ?? NATIONAL_BASE_FORMULA;
  const applied = bands ?? NATIONAL_BANDS;
  return {
    baseFormula,
    ownFormula: !!formula,
    formulaText: formulaText(baseFormula),
    bands: applied,
    ownBands: !!bands,
    rules: ruleTable(applied),
    source: DUES_RULE_SOURCE,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

function validBands(value: unknown): boolean {
  const b = value as Bands;
  return !!b && Array.isArray(b['in-service']) && Array.isArray(b.retired) && !bandsProblem(b['in-service']) && !bandsProblem(b.retired);
}

/**
 * Saves a school's base formula and bands; null for either goes back to the national rule. Bands are a
 * school's to change only where its provincial rules say so: the page shows them, never silently.
 */
export async function saveDuesSettings(db: Kysely<DB>, school: string, body: unknown, actor: DuesActor): Promise<void> {
  const input = (body ?? {}) as { baseFormula?: unknown; bands?: unknown };
  const formula = input.baseFormula ?? null;
  const bands = input.bands ?? null;
  if (formula !== null) {
    const problem = formulaProblem(formula);
    if (problem) throw new HttpError(400, problem, { errors: [{ field: 'baseFormula', message: problem }] });
  }
  if (bands !== null) {
    const b = bands as Bands;
    const problem = !b || !Array.isArray(b['in-service']) || !Array.isArray(b.retired) ? '档次设置的格式不正确' : (bandsProblem(b['in-service']) ?? bandsProblem(b.retired));
    if (problem) throw new HttpError(400, problem, { errors: [{ field: 'bands', message: problem }] });
  }
  const clean = formula === null ? null : { name: (formula as BaseFormula).name.trim(), terms: (formula as BaseFormula).terms.map((t) => ({ column: t.column.trim(), factor: t.factor.trim() })) };
  const values = { base_formula: clean === null ? null : JSON.stringify(clean), bands: bands === null ? null : JSON.stringify(bands), updated_by: actor.id, updated_at: new Date() };
  await duesDb(db)
    .insertInto('dues_settings')
    .values({ school, ...values })
    .onConflict((oc) => oc.column('school').doUpdateSet(values))
    .execute();
}

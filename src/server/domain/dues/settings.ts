import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import { parseYuan } from '../../../shared/dues/money.js';
import { formulaProblem, formulaText, NATIONAL_BASE_FORMULA, type BaseFormula } from '../../../shared/dues/formula.js';
import { bandsProblem, NATIONAL_BANDS, ruleTable, DUES_RULE_SOURCE } from '../../../shared/dues/rules.js';
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

/** The largest single online payment unless the school sets its own (yuan 2,000.00). */
export const DEFAULT_ONLINE_MAX_CENTS = 200_000;

export interface OnlineSettings {
  /** The chosen payment provider's id; null: online payment is off (the default). */
  provider: string | null;
  maxCents: number;
}

export async function onlineSettings(db: Kysely<DB>, school: string): Promise<OnlineSettings> {
  const row = await duesDb(db).selectFrom('dues_settings').select(['online_provider', 'online_max_cents']).where('school', '=', school).executeTakeFirst();
  return { provider: row?.online_provider ?? null, maxCents: row?.online_max_cents ?? DEFAULT_ONLINE_MAX_CENTS };
}

/**
 * Online payment on or off: `provider` one of the registered providers' ids (`known`) or null (off);
 * `maxAmount` the largest single online payment (yuan), null for the default. Only what is sent changes.
 */
export async function saveOnlineSettings(db: Kysely<DB>, school: string, body: unknown, known: string[], actor: DuesActor): Promise<void> {
  const input = (body ?? {}) as { provider?: unknown; maxAmount?: unknown };
  const set: { online_provider?: string | null; online_max_cents?: number | null } = {};
  if ('provider' in input) {
    if (input.provider !== null && !(typeof input.provider === 'string' && known.includes(input.provider))) {
      throw new HttpError(400, '支付渠道不存在', { errors: [{ field: 'provider', message: `支付渠道只能是${known.join('、')}或不开通（null）` }] });
    }
    set.online_provider = input.provider as string | null;
  }
  if ('maxAmount' in input) {
    const cents = input.maxAmount === null ? null : typeof input.maxAmount === 'string' || typeof input.maxAmount === 'number' ? parseYuan(String(input.maxAmount)) : undefined;
    if (cents === undefined || cents === 0) throw new HttpError(400, '单笔在线缴纳上限须为大于0的金额（元，最多两位小数）', { errors: [{ field: 'maxAmount', message: '单笔在线缴纳上限须为大于0的金额' }] });
    set.online_max_cents = cents;
  }
  const values = { ...set, updated_by: actor.id, updated_at: new Date() };
  await duesDb(db)
    .insertInto('dues_settings')
    .values({ school, ...values })
    .onConflict((oc) => oc.column('school').doUpdateSet(values))
    .execute();
}

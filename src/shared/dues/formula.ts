/**
 * The base formula of a school: how the monthly dues base is worked out from the payroll columns.
 * The national rule takes the fixed monthly pay after tax (中组发〔2008〕3号 第二条: 工资收入（税后）,
 * i.e. the fixed parts of the pay minus personal income tax and the personal shares of social insurance
 * and the housing fund). Some universities take a share of the gross pay instead (since 2019): a school
 * setting, shown to users with the formula written out, never a silent change.
 */
import { mulDivRound, parseFactor } from './money.js';

export interface FormulaTerm {
  /** The payroll column (its title in the spreadsheet). */
  column: string;
  /** A decimal factor as text: "1", "-1", "0.6". */
  factor: string;
}

export interface BaseFormula {
  /** Short name shown with the formula, e.g. 税后固定工资. */
  name: string;
  terms: FormulaTerm[];
}

/** The national default: fixed monthly pay after tax. */
export const NATIONAL_BASE_FORMULA: BaseFormula = {
  name: '税后固定工资（全国标准）',
  terms: [
    { column: '岗位工资', factor: '1' },
    { column: '薪级工资', factor: '1' },
    { column: '津贴补贴', factor: '1' },
    { column: '个人所得税', factor: '-1' },
    { column: '养老保险', factor: '-1' },
    { column: '职业年金', factor: '-1' },
    { column: '医疗保险', factor: '-1' },
    { column: '失业保险', factor: '-1' },
    { column: '住房公积金', factor: '-1' },
  ],
};

/** Example of a school's own formula: a share of the gross pay. */
export const GROSS_SHARE_EXAMPLE: BaseFormula = { name: '应发工资的60%', terms: [{ column: '应发工资', factor: '0.6' }] };

/** The spreadsheet column that gives the base directly, whatever the formula. */
export const BASE_COLUMN = '党费基数';

/** The formula as people read it: "党费基数 = 岗位工资 + 薪级工资 − 个人所得税" or "党费基数 = 应发工资 × 60%". */
export function formulaText(formula: BaseFormula): string {
  const parts = formula.terms.map((t, i) => {
    const f = parseFactor(t.factor)!;
    const negative = f.numerator < 0;
    const abs = Math.abs(f.numerator) / f.denominator;
    const scaled = abs === 1 ? t.column : abs < 1 ? `${t.column} × ${Number((abs * 100).toFixed(4))}%` : `${t.column} × ${abs}`;
    if (i === 0) return negative ? `−${scaled}` : scaled;
    return `${negative ? '−' : '+'} ${scaled}`;
  });
  return `${BASE_COLUMN} = ${parts.join(' ')}`;
}

/** What is wrong with a formula, in Chinese; undefined when it is usable. */
export function formulaProblem(formula: unknown): string | undefined {
  const f = formula as BaseFormula;
  if (!f || typeof f !== 'object' || typeof f.name !== 'string' || !f.name.trim()) return '公式须有名称';
  if (!Array.isArray(f.terms) || !f.terms.length) return '公式至少需要一项工资项目';
  const seen = new Set<string>();
  for (const t of f.terms) {
    if (!t || typeof t.column !== 'string' || !t.column.trim()) return '工资项目名称不能为空';
    if (t.column.trim() === BASE_COLUMN) return `“${BASE_COLUMN}”是直接给出基数的列，不能作为公式中的项目`;
    if (seen.has(t.column.trim())) return `工资项目“${t.column}”重复`;
    seen.add(t.column.trim());
    if (typeof t.factor !== 'string' || !parseFactor(t.factor) || parseFactor(t.factor)!.numerator === 0) return `工资项目“${t.column}”的系数不正确（如 1、-1、0.6）`;
  }
  return undefined;
}

/**
 * The base in cents from the payroll values (cents by column title): Σ value × factor, exact, rounded
 * half up at the cent. Missing columns count as 0; a negative result is refused.
 */
export function applyFormula(formula: BaseFormula, values: ReadonlyMap<string, number>): { baseCents: number } | { error: string } {
  const factors = formula.terms.map((t) => ({ column: t.column, ...parseFactor(t.factor)! }));
  const denominator = Math.max(...factors.map((f) => f.denominator));
  let numerator = 0n;
  for (const f of factors) numerator += BigInt(values.get(f.column) ?? 0) * BigInt(f.numerator * (denominator / f.denominator));
  if (numerator < 0n) return { error: '按公式算出的党费基数为负数，请核对工资数据' };
  return { baseCents: mulDivRound(numerator, 1, denominator) };
}

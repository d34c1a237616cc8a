import { describe, expect, it } from 'vitest';
import { applyFormula, formulaProblem, formulaText, GROSS_SHARE_EXAMPLE, NATIONAL_BASE_FORMULA } from '../../src/shared/dues/formula.js';
import { capitalYuan, displayYuan, formatCents, mulDivRound, parseFactor, parseYuan } from '../../src/shared/dues/money.js';
import {
  addMonths, bandsProblem, calculateDues, categoryOfMember, isLargePayment, monthsBetween, monthsOf, ruleTable, type DuesCategory,
} from '../../src/shared/dues/rules.js';

const due = (category: DuesCategory, base: string | null) => {
  const s = calculateDues(category, base === null ? null : parseYuan(base)!);
  return { due: formatCents(s.dueCents), rate: s.rate };
};

describe('dues standard (中组发〔2008〕3号)', () => {
  // Whole base by band, never marginal: 3000.01 pays 1% of all of it.
  it.each([
    ['0.00', '0.00', '0.5%'],
    ['3000.00', '15.00', '0.5%'],
    ['3000.01', '30.00', '1%'],
    ['5000.00', '50.00', '1%'],
    ['5000.01', '75.00', '1.5%'],
    ['10000.00', '150.00', '1.5%'],
    ['10000.01', '200.00', '2%'],
    ['25000.00', '500.00', '2%'],
  ])('in-service base %s pays %s (%s)', (base, expected, rate) => {
    expect(due('in-service', base)).toEqual({ due: expected, rate });
  });

  it.each([
    ['4999.99', '25.00', '0.5%'],
    ['5000.00', '25.00', '0.5%'],
    ['5000.01', '50.00', '1%'],
    ['8000.00', '80.00', '1%'],
  ])('retired base %s pays %s (%s)', (base, expected, rate) => {
    expect(due('retired', base)).toEqual({ due: expected, rate });
  });

  it('students and members without income pay 0.20 a month whatever the base', () => {
    expect(due('student', null)).toEqual({ due: '0.20', rate: '定额' });
    expect(due('unemployed', '9999.00')).toEqual({ due: '0.20', rate: '定额' });
    expect(calculateDues('student', null).rule).toBe('学生党员每月交纳党费0.2元');
  });

  it('rounds half up at the cent', () => {
    // 1% of 3333.50 = 33.335 → 33.34; 1% of 3333.49 = 33.3349 → 33.33
    expect(due('in-service', '3333.50').due).toBe('33.34');
    expect(due('in-service', '3333.49').due).toBe('33.33');
    // 0.5% of 2999.99 = 14.99995 → 15.00; 0.5% of 2999.89 = 14.99945 → 15.00; 0.5% of 2998.99 = 14.99495 → 14.99
    expect(due('in-service', '2999.99').due).toBe('15.00');
    expect(due('in-service', '2998.99').due).toBe('14.99');
    // 1.5% of 6666.70 = 100.0005 → 100.00; 1.5% of 6666.97 = 100.00455 → 100.00; 1.5% of 6667.00 = 100.005 → 100.01
    expect(due('in-service', '6666.70').due).toBe('100.00');
    expect(due('in-service', '6667.00').due).toBe('100.01');
    expect(mulDivRound(-5, 1, 10)).toBe(-1);
  });

  it('names the rule applied in the regulation\'s words', () => {
    expect(calculateDues('in-service', 500_000).rule).toBe('在职党员每月工资收入（税后）3000元以上至5000元（含5000元），按1%交纳');
    expect(calculateDues('in-service', 1_000_001).rule).toBe('在职党员每月工资收入（税后）10000元以上，按2%交纳');
    expect(calculateDues('retired', 100).rule).toBe('离退休党员离退休费总额5000元以下（含5000元），按0.5%交纳');
    expect(ruleTable().map((r) => r.rules.length)).toEqual([4, 2, 1, 1]);
  });

  it('refuses a missing or negative base for the categories that need one', () => {
    expect(() => calculateDues('in-service', null)).toThrow('在职党员须填写党费计算基数');
    expect(() => calculateDues('retired', -1)).toThrow('不能为负数');
  });

  it('flags a single payment of 1000 yuan or more (it goes to the Centre in full)', () => {
    expect(isLargePayment(parseYuan('999.99')!)).toBe(false);
    expect(isLargePayment(parseYuan('1000.00')!)).toBe(true);
  });

  it('maps a member\'s 人员类别 to a dues category; probationary members are not a category of their own', () => {
    expect(['1', '2', '3', '4', '5', '9', null].map(categoryOfMember)).toEqual(['in-service', 'retired', 'student', 'student', 'student', 'in-service', 'in-service']);
  });

  it('checks a school\'s own bands', () => {
    expect(bandsProblem([{ upToCents: 300_000, basisPoints: 50 }, { upToCents: null, basisPoints: 100 }])).toBeUndefined();
    expect(bandsProblem([{ upToCents: 300_000, basisPoints: 50 }, { upToCents: 200_000, basisPoints: 100 }, { upToCents: null, basisPoints: 1 }])).toMatch('上限须大于上一档');
    expect(bandsProblem([{ upToCents: 300_000, basisPoints: 50 }])).toMatch('最后一档不能设上限');
    expect(calculateDues('in-service', 400_000, { 'in-service': [{ upToCents: 500_000, basisPoints: 80 }, { upToCents: null, basisPoints: 120 }], retired: [{ upToCents: null, basisPoints: 50 }] }).dueCents).toBe(3200);
  });
});

describe('money in whole cents', () => {
  it('reads yuan text exactly and refuses anything else', () => {
    expect(parseYuan('3000')).toBe(300_000);
    expect(parseYuan('3000.5')).toBe(300_050);
    expect(parseYuan(' 0.01 ')).toBe(1);
    expect(parseYuan('1.005')).toBeUndefined();
    expect(parseYuan('1.005', { round: true })).toBe(101);
    expect(parseYuan('1.004', { round: true })).toBe(100);
    expect(parseYuan('-3')).toBeUndefined();
    expect(parseYuan('-3', { negative: true })).toBe(-300);
    expect(parseYuan('abc')).toBeUndefined();
    expect(parseYuan('1e3')).toBeUndefined();
    expect(parseYuan('10000000.01')).toBeUndefined();
  });

  it('reads spreadsheet numbers by their decimal text, not their binary value', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in binary: its text rounds to 0.30.
    expect(parseYuan(0.1 + 0.2, { round: true })).toBe(30);
    expect(parseYuan(3000.01)).toBe(300_001);
    expect(parseYuan(1.155, { round: true })).toBe(116);
  });

  it('writes two decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(20)).toBe('0.20');
    expect(formatCents(-2050)).toBe('-20.50');
    expect(displayYuan(123_456_789)).toBe('¥1,234,567.89');
    expect(parseFactor('0.6')).toEqual({ numerator: 6, denominator: 10 });
    expect(parseFactor('-1')).toEqual({ numerator: -1, denominator: 1 });
  });
});

describe('base formula', () => {
  it('writes the formula out for users', () => {
    expect(formulaText(GROSS_SHARE_EXAMPLE)).toBe('党费基数 = 应发工资 × 60%');
    expect(formulaText(NATIONAL_BASE_FORMULA)).toMatch(/^党费基数 = 岗位工资 \+ 薪级工资 \+ 津贴补贴 − 个人所得税 − 养老保险/);
  });

  it('computes exactly and rounds half up at the cent', () => {
    const values = new Map([['应发工资', parseYuan('8333.34')!]]);
    // 8333.34 × 0.6 = 5000.004 → 5000.00
    expect(applyFormula(GROSS_SHARE_EXAMPLE, values)).toEqual({ baseCents: 500_000 });
    expect(applyFormula({ name: 'x', terms: [{ column: 'a', factor: '0.125' }] }, new Map([['a', 4]]))).toEqual({ baseCents: 1 });
    const national = new Map([['岗位工资', 300_000], ['薪级工资', 250_000], ['津贴补贴', 150_050], ['个人所得税', 12_345], ['住房公积金', 60_000]]);
    expect(applyFormula(NATIONAL_BASE_FORMULA, national)).toEqual({ baseCents: 627_705 });
    expect(applyFormula(NATIONAL_BASE_FORMULA, new Map([['个人所得税', 1]]))).toEqual({ error: '按公式算出的党费基数为负数，请核对工资数据' });
  });

  it('checks a formula before it is saved', () => {
    expect(formulaProblem(NATIONAL_BASE_FORMULA)).toBeUndefined();
    expect(formulaProblem({ name: 'x', terms: [] })).toBe('公式至少需要一项工资项目');
    expect(formulaProblem({ name: 'x', terms: [{ column: 'a', factor: 'x' }] })).toMatch('系数不正确');
    expect(formulaProblem({ name: 'x', terms: [{ column: '党费基数', factor: '1' }] })).toMatch('不能作为公式中的项目');
  });
});

describe('months', () => {
  it('counts across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 13)).toBe('2027-01');
    expect(monthsBetween('2025-12', '2026-06')).toBe(6);
    expect(monthsOf('2026-10', 3)).toEqual(['2026-10', '2026-11', '2026-12']);
  });
});

describe('amounts in Chinese capitals (receipts)', () => {
  it.each([
    [0, '零元整'],
    [20, '贰角整'],
    [5, '伍分'],
    [123_450, '壹仟贰佰叁拾肆元伍角整'],
    [100_000, '壹仟元整'],
    [1_000_005, '壹万元零伍分'],
    [10_050_000, '壹拾万零伍佰元整'],
    [1_500, '壹拾伍元整'],
    [-2_050, '负贰拾元伍角整'],
  ])('%i cents → %s', (cents, text) => {
    expect(capitalYuan(cents)).toBe(text);
  });
});

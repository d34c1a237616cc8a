import { formatCents, parseYuan } from '../../../shared/dues/money.js';
import { calculateDues, type DuesCategory } from '../../../shared/dues/rules.js';
import type { Bands } from './settings.js';

/** How a standard was last set (field `source` of dues-standard). */
export const STANDARD_SOURCE = { IMPORT: '工资表导入', RULES: '按规定生成', MANUAL: '手工录入' } as const;

export interface StandardMember {
  id: number;
  name: string;
  orgId: number;
}

/** The stored fields of a standard (record field names): what the hook and the bulk writers store alike. */
export interface StandardFields {
  memberId: number;
  memberName: string;
  orgId: number;
  category: DuesCategory;
  base: string | null;
  rate: string;
  amount: string;
  rule: string;
  source: string;
}

/** A member's standard from the category and base (cents; ignored for the flat categories). */
export function standardValues(member: StandardMember, category: DuesCategory, baseCents: number | null, bands: Bands, source: string): StandardFields {
  const s = calculateDues(category, baseCents, bands);
  return {
    memberId: member.id,
    memberName: member.name,
    orgId: member.orgId,
    category,
    base: s.baseCents === null ? null : formatCents(s.baseCents),
    rate: s.rate,
    amount: formatCents(s.dueCents),
    rule: s.rule,
    source,
  };
}

/** Two stored bases name the same amount ("6500" and "6500.00"). */
export function sameBase(a: unknown, b: unknown): boolean {
  const ca = a === null || a === undefined || a === '' ? null : (parseYuan(String(a)) ?? String(a));
  const cb = b === null || b === undefined || b === '' ? null : (parseYuan(String(b)) ?? String(b));
  return ca === cb;
}

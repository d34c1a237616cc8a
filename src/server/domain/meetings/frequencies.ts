/**
 * The frequencies organisation life must keep, as the school declares them: `x-workflow.params.frequencies`
 * of the `meeting` module (schemas/modules/meeting.json; a school override replaces the list). Code never
 * names a meeting type's frequency: it reads these rules.
 */
import type { PeriodKind } from '../../../shared/meetings/rules.js';
import type { RuntimeModule } from '../../runtime/module.js';

export interface FrequencyRule {
  /** A stable key of the rule (answers and docs). */
  rule: string;
  /** The meeting type it counts (DJ_HY_LX). */
  type: string;
  per: PeriodKind;
  /** Meetings required per period. */
  min: number;
  /** Which organisations keep it: branches (党支部, 联合/临时党支部) or leadership teams (党委: 二级党委 and above). */
  orgs: 'branch' | 'committee';
  /** Only branches that have party groups (they recorded a 党小组会 by the year's end). */
  onlyWithGroups?: boolean;
  /** Only meetings marked 书记讲党课 count. */
  secretaryLecture?: boolean;
  /** The regulation it comes from, in its words. */
  basis: string;
}

const PERIODS: PeriodKind[] = ['month', 'quarter', 'year'];

/** The declared rules of the merged schema; malformed entries are refused at start by `checkFrequencies`. */
export function frequencyRules(m: RuntimeModule): FrequencyRule[] {
  const list = m.workflow?.params.frequencies;
  return Array.isArray(list) ? (list as FrequencyRule[]) : [];
}

/** Problems of the declared rules (a school override with a typo stops the start rather than counting wrong). */
export function checkFrequencies(rules: unknown): string[] {
  if (!Array.isArray(rules)) return ['x-workflow.params.frequencies must be a list'];
  return rules.flatMap((r: Partial<FrequencyRule>, i) => {
    const at = `x-workflow.params.frequencies[${i}]`;
    const out: string[] = [];
    if (typeof r.rule !== 'string' || !r.rule) out.push(`${at}.rule is missing`);
    if (typeof r.type !== 'string' || !r.type) out.push(`${at}.type is missing`);
    if (!PERIODS.includes(r.per as PeriodKind)) out.push(`${at}.per must be month, quarter or year`);
    if (typeof r.min !== 'number' || !Number.isInteger(r.min) || r.min < 0) out.push(`${at}.min must be a whole number`);
    if (r.orgs !== 'branch' && r.orgs !== 'committee') out.push(`${at}.orgs must be branch or committee`);
    return out;
  });
}

/** DJ_DZZ_LB: 党委 1 keeps a leadership team's rules; 党支部 3, 联合党支部 4, 临时党支部 5 a branch's. */
export const BRANCH_TYPES = ['3', '4', '5'];
export const COMMITTEE_TYPES = ['1'];

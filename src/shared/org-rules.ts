import { addMonths } from './calendar.js';

/**
 * Party organisation rules (《中国共产党支部工作条例（试行）》, 《中国共产党章程》) as pure functions:
 * shown as warnings on an organisation and in the check list.
 */
export interface OrgFacts {
  /** DJ_DZZ_LB: 1 党委, 2 党总支, 3 党支部, 4 联合党支部, 5 临时党支部. */
  type: string | null;
  /** Members in the organisation's own branch (for branches) or subtree (for committees). */
  memberCount: number;
  fullMemberCount: number;
  committee: string | null;
  termEnd: string | null;
}

export interface OrgWarning {
  code: 'too-few-full-members' | 'needs-committee' | 'suggest-general-branch' | 'suggest-committee' | 'term-due' | 'term-overdue';
  message: string;
}

const BRANCH_TYPES = new Set(['3', '4']);

export function orgWarnings(org: OrgFacts, today: string): OrgWarning[] {
  const warnings: OrgWarning[] = [];
  if (BRANCH_TYPES.has(org.type ?? '')) {
    if (org.fullMemberCount < 3) {
      warnings.push({ code: 'too-few-full-members', message: `正式党员仅${org.fullMemberCount}名，党支部至少应有3名正式党员` });
    }
    if (org.fullMemberCount >= 7 && !org.committee?.trim()) {
      warnings.push({ code: 'needs-committee', message: `正式党员${org.fullMemberCount}名（7名以上），应设立支部委员会` });
    }
    if (org.memberCount >= 100) {
      warnings.push({ code: 'suggest-committee', message: `党员${org.memberCount}名（100名以上），可考虑成立党的基层委员会` });
    } else if (org.memberCount >= 50) {
      warnings.push({ code: 'suggest-general-branch', message: `党员${org.memberCount}名（50名以上），可考虑成立党总支` });
    }
  }
  if (org.termEnd && org.termEnd < today) {
    warnings.push({ code: 'term-overdue', message: `本届任期已于${org.termEnd}届满，应及时换届选举` });
  } else if (org.termEnd && org.termEnd <= addMonths(today, 6)) {
    // 《中国共产党基层组织选举工作条例》: preparations start six months before the term ends (docs/elections.md).
    warnings.push({ code: 'term-due', message: `本届任期将于${org.termEnd}届满，应做好换届准备，约届满前四个月向上级党组织请示` });
  }
  return warnings;
}

/**
 * "The members of an organisation" (issue 13 item 5), one definition for the organisation tree's counts,
 * the roster, the member analysis and the member lookups: the member records whose organisation lies in
 * its subtree and whose party status (党籍状态, dictionary DJ_DY_DJZTXX) is 正常. Members who lost contact,
 * whose membership is suspended, who left the party or died keep their records (党员信息 lists them all)
 * but are not counted or listed as an organisation's members. Where people choose members (roster,
 * analysis) the status is a visible filter with this default; `all` shows every record.
 */

/** The member field holding the party status. */
export const MEMBER_STATUS_FIELD = 'partyStatus';
/** 正常: the status of an organisation's members by default. */
export const ACTIVE_MEMBER_STATUS = '1';
/** 党员类型 (memberType, dictionary DJ_DYJBXX_RYLX) of a 预备党员. */
export const PROBATION_MEMBER_TYPE = '2';
/** The filter value that lifts the status filter (every member record). */
export const ANY_MEMBER_STATUS = 'all';

/** The status a request asks for: a status code; null for every status; absent or empty: the default. */
export function memberStatusOf(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return ACTIVE_MEMBER_STATUS;
  return raw === ANY_MEMBER_STATUS ? null : String(raw);
}

/** The member-list filter (`POST /api/m/member/list` body) of the members of an organisation's subtree. */
export function membersFilter(orgId: number | undefined, status: string | null = ACTIVE_MEMBER_STATUS): Record<string, unknown> {
  return { ...(orgId ? { orgId } : {}), ...(status ? { [MEMBER_STATUS_FIELD]: status } : {}) };
}

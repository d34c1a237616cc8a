/**
 * The rules of cadres' private travel abroad (因私出国（境）, docs/cadres.md) as pure functions: the hooks and
 * guards of `cadre-passport` and `cadre-abroad` (abroad.ts) call them, the API tests hold them at their
 * boundaries. The numbers (custody days, expiry months, return days) are rule parameters of the schemas.
 */
import { addMonths, isDate } from '../../../shared/calendar.js';

/** 校级 (副厅级 and above, GB_JBXX_XZJB 01-04): approved by 校党委; the other cadres by 党委组织部 (干部管理权限, 校内规定). */
export const SCHOOL_LEVEL_RANKS: ReadonlySet<string> = new Set(['01', '02', '03', '04']);
export const APPROVER = { committee: '校党委', orgDept: '党委组织部' } as const;
export const RULE_APPROVER = '校级干部（副厅级以上）因私出国（境）由校党委审批，其他干部由党委组织部审批（干部管理权限）';
export const RULE_EXPIRY = '行程须在所用证件有效期内（返回日期不得晚于证件有效期）';
export const RULE_LEND = '证件须经批准的出国（境）申请方可领取，且处于集中保管状态';

/** Which body approves a cadre's trip, by the cadre's rank. */
export function approverOf(rank: unknown): (typeof APPROVER)[keyof typeof APPROVER] {
  return typeof rank === 'string' && SCHOOL_LEVEL_RANKS.has(rank) ? APPROVER.committee : APPROVER.orgDept;
}

/** The trip's dates against each other and against the permit's expiry: the refusal, naming the dates, or nothing. */
export function tripProblem(start: unknown, end: unknown, expires: unknown): { field: string; message: string } | undefined {
  if (!isDate(start) || !isDate(end)) return undefined;
  if (end < start) return { field: 'endDate', message: `返回日期（${end}）早于出发日期（${start}）` };
  if (isDate(expires) && end > expires) return { field: 'endDate', message: `行程返回日期（${end}）晚于证件有效期（${expires}），不能使用该证件出行。${RULE_EXPIRY}` };
  if (isDate(expires) && start > expires) return { field: 'startDate', message: `出发日期（${start}）晚于证件有效期（${expires}）。${RULE_EXPIRY}` };
  return undefined;
}

/** The day the custody period counts from: the later of the issue and the appointment (a cadre appointed later hands in then). */
export function custodyFromOf(issued: unknown, appointedOn: unknown): string | null {
  const dates = [issued, appointedOn].filter(isDate).sort();
  return dates.length ? dates[dates.length - 1] : null;
}

/** The first day of the expiry reminder: `months` before the permit expires (a missing month day becomes the month's last). */
export function expiryNoticeOf(expires: unknown, months: number): string | null {
  return isDate(expires) ? addMonths(expires, -months) : null;
}

/**
 * 支部党员 on the mobile terminal (issue 31): the branch's members with their dues standing (paid up to, what is
 * owed), and 提醒缴费 for those behind — a reminder through the message service.
 *
 * 《关于中国共产党党费收缴、使用和管理的规定》（中组发〔2008〕3号）第十条: 对不按规定交纳党费的党员，其所在党组织
 * 应及时对其进行批评教育，限期改正. The branch reminds; it never changes what is due.
 */
import { sql } from 'kysely';
import { localToday } from '../../../shared/module-schema/computed.js';
import { HttpError } from '../../errors.js';
import { coveredOrgs, scopeSql, type Caller, type Dues } from './context.js';
import { SETTLED, duesStatusesOf } from './status.js';
import type { DuesStatus } from './status.js';
import { onRosterSql } from '../member/members.js';

export interface BranchMemberStanding extends DuesStatus {
  name: string;
  orgId: number;
  orgName: string;
  /** Whether the member has an account a reminder can reach. */
  reachable: boolean;
}

/** Members (status 正常) of the caller's organisations, those behind first when `behind`, by branch and name. */
export async function branchStanding(dues: Dues, caller: Caller, q: { orgId?: number; behind?: boolean; page: number; size: number }): Promise<{ content: BranchMemberStanding[]; totalElements: number; behind: number }> {
  const covered = await coveredOrgs(dues, caller, q.orgId);
  const unsettled = sql<boolean>`EXISTS (SELECT 1 FROM dues_item i JOIN dues_batch b ON b.id = i.batch_id AND b.state IN (3, 4) AND b.school = ${dues.school}
    WHERE i.member_id = m.id AND NOT ${SETTLED('i')})`;
  const inOrgs = sql<boolean>`${onRosterSql('m')} AND ${scopeSql(covered, 'm.org_id')}`;
  const counts = (await sql<{ total: number; behind: number }>`
    SELECT count(*)::int AS total, count(*) FILTER (WHERE ${unsettled})::int AS behind FROM m_member m WHERE ${inOrgs}`.execute(dues.db)).rows[0];
  // Members by the pinyin of their names (name__py, the runtime's sort key), as every list of members (issue 43.14).
  const rows = (await sql<{ id: number; name: string; orgId: number; orgName: string | null; reachable: boolean }>`
    SELECT m.id, m.name, m.org_id AS "orgId", o.name AS "orgName", EXISTS (SELECT 1 FROM users u WHERE u.member_id = m.id AND u.enabled) AS reachable
    FROM m_member m LEFT JOIN m_org o ON o.id = m.org_id
    WHERE ${inOrgs} AND ${q.behind ? unsettled : sql<boolean>`true`}
    ORDER BY o.name, m.name__py, m.name, m.id LIMIT ${q.size} OFFSET ${q.page * q.size}`.execute(dues.db)).rows;
  const standing = await duesStatusesOf(dues.db, rows.map((r) => r.id));
  return {
    totalElements: q.behind ? counts.behind : counts.total,
    behind: counts.behind,
    content: rows.map((r) => ({ ...standing.get(r.id)!, name: r.name, orgId: r.orgId, orgName: r.orgName ?? '', reachable: r.reachable })),
  };
}

const monthText = (m: string) => `${m.slice(0, 4)}年${Number(m.slice(5, 7))}月`;

/** The reminder's words: which months, how much. */
export function reminderText(status: Pick<DuesStatus, 'unpaidMonths' | 'owed'>): string {
  const months = status.unpaidMonths;
  const shown = months.length > 6 ? `${months.slice(0, 6).map(monthText).join('、')}等${months.length}个月` : months.map(monthText).join('、');
  return `您有${shown}的党费尚未交纳，合计${status.owed}元。请按月交纳党费（可在手机端“我的党费”在线缴纳），如有困难请向支部说明。`;
}

export interface RemindAnswer {
  sent: number;
  skipped: { memberId: number; name: string; reason: string }[];
}

/**
 * 提醒缴费: a reminder to each chosen member who is behind and has an account. Members outside the caller's
 * organisations refuse the whole request (nothing is sent); members not behind, without an account or already
 * reminded today (once a day each) are skipped with the reason.
 */
export async function remindBehind(dues: Dues, caller: Caller, body: unknown): Promise<RemindAnswer> {
  const raw = (body as { memberIds?: unknown } | null)?.memberIds;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 1000 || !raw.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) {
    throw new HttpError(400, '请选择要提醒的党员（最多1000人）', { errors: [{ field: 'memberIds', message: '请选择要提醒的党员' }] });
  }
  const ids = [...new Set(raw as number[])];
  const members = await dues.db.selectFrom('m_member').select(['id', 'name', 'org_id', 'party_status']).where('id', 'in', ids).execute();
  const outside = ids.filter((id) => {
    const m = members.find((x) => x.id === id);
    return !m || m.org_id === null || (caller.scope !== 'all' && !caller.scope.includes(m.org_id));
  });
  if (outside.length) throw new HttpError(404, '所选党员不存在或不在您的管理范围内');
  // users.member_id (migration 0060) is outside the typed tables: plain SQL.
  const accounts = (await sql<{ id: number; member_id: number }>`SELECT id, member_id FROM users WHERE member_id = ANY(${ids}::int[]) AND enabled`.execute(dues.db)).rows;
  const standing = await duesStatusesOf(dues.db, ids);
  const skipped: RemindAnswer['skipped'] = [];
  const due: { member: (typeof members)[number]; users: number[] }[] = [];
  for (const m of members) {
    const status = standing.get(m.id)!;
    const users = accounts.filter((a) => a.member_id === m.id).map((a) => a.id);
    if (!status.hasUnpaid) skipped.push({ memberId: m.id, name: m.name, reason: '没有欠缴的党费' });
    else if (!users.length) skipped.push({ memberId: m.id, name: m.name, reason: '没有登录账号，请当面提醒' });
    else due.push({ member: m, users });
  }
  // Once a day per member (issue 38.14): the day is claimed in one statement, so two calls at once send one.
  const claimed = new Set(
    due.length
      ? (await sql<{ member_id: number }>`
          INSERT INTO dues_reminded (member_id, reminded_on, reminded_by)
          SELECT unnest(${due.map((d) => d.member.id)}::int[]), ${localToday()}::date, ${caller.user.id}
          ON CONFLICT (member_id) DO UPDATE SET reminded_on = EXCLUDED.reminded_on, reminded_by = EXCLUDED.reminded_by
          WHERE dues_reminded.reminded_on < EXCLUDED.reminded_on
          RETURNING member_id`.execute(dues.db)).rows.map((r) => r.member_id)
      : [],
  );
  let sent = 0;
  for (const { member: m, users } of due) {
    if (!claimed.has(m.id)) {
      skipped.push({ memberId: m.id, name: m.name, reason: '今天已提醒过（每人每天最多提醒一次）' });
      continue;
    }
    await dues.services.messages.sendMessage({ toUserIds: users, type: 'remind', title: '党费缴纳提醒', content: reminderText(standing.get(m.id)!), link: '/web/m/dues', senderId: caller.user.id });
    sent++;
  }
  return { sent, skipped };
}

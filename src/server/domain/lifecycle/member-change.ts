/**
 * 党员增减变化 (the yearly change table, issue 41 §5): 年初数 + 增加 − 减少 = 年末数 per member and year,
 * from the records' own dates — 发展 (the member's admission), 转入 (a transfer in received), 恢复党籍, and
 * 死亡, 出党 (member-quit approved), 转出 (a formal transfer out completed), 停止党籍 (member-suspend, or
 * abroad). A member is on the roll on a day when the first of their events after that day is a decrease
 * (they were there to leave), or, with none after it, when they are on the roster now (onRosterSql).
 * So a past year's table is the same when run again as long as the records stand; a member whose
 * status changed without an event shows as 差额 (the row that does not add up).
 *
 * One row per member concerned (on the roll at either end of the year or with an event in it): the
 * statistics area's relation source `member-change` sums them by organisation (the member's branch now).
 */
import { sql, type RawBuilder } from 'kysely';
import { onRosterSql } from '../member/members.js';

/** The events of every member: day, direction and reason; parenthesised for use as a relation. */
export function memberEvents(school: string): RawBuilder<unknown> {
  return sql`(
    SELECT m.id AS member_id, m.join_date AS day, 'in' AS dir, 'develop' AS reason FROM m_member m
      WHERE m.school = ${school} AND m.join_date IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM m_transfer_in t WHERE t.member_id = m.id AND t.state = 2)
    UNION ALL SELECT member_id, arrive_date, 'in', 'transfer' FROM m_transfer_in WHERE school = ${school} AND state = 2 AND member_id IS NOT NULL AND arrive_date IS NOT NULL
    UNION ALL SELECT member_id, approve_date, CASE WHEN kind = '恢复党籍' THEN 'in' ELSE 'out' END, CASE WHEN kind = '恢复党籍' THEN 'restore' ELSE 'stop' END
      FROM m_member_suspend WHERE school = ${school} AND state = 1 AND approve_date IS NOT NULL
    UNION ALL SELECT member_id, leave_date, 'out', 'stop' FROM m_member_abroad WHERE school = ${school} AND state IN (1, 2) AND decision = '停止党籍'
    UNION ALL SELECT member_id, return_date, 'in', 'restore' FROM m_member_abroad WHERE school = ${school} AND state = 2 AND decision = '停止党籍' AND return_date IS NOT NULL
    UNION ALL SELECT member_id, leave_date, 'out', CASE WHEN kind = '4' THEN 'death' ELSE 'quit' END FROM m_member_quit WHERE school = ${school} AND state = 1 AND leave_date IS NOT NULL
    UNION ALL SELECT member_id, leave_date, 'out', 'transfer' FROM m_transfer_out WHERE school = ${school} AND state = 3 AND kind = '正式组织关系' AND leave_date IS NOT NULL AND member_id IS NOT NULL
  )`;
}

/** The measures of a row: the columns the relation source offers, with their titles (the national table's words). */
export const CHANGE_COLUMNS = [
  ['start', 'start_n', '年初数'],
  ['in', 'in_n', '增加'],
  ['inDevelop', 'in_develop', '增加：发展'],
  ['inTransfer', 'in_transfer', '增加：转入'],
  ['inRestore', 'in_restore', '增加：恢复党籍'],
  ['out', 'out_n', '减少'],
  ['outDeath', 'out_death', '减少：死亡'],
  ['outQuit', 'out_quit', '减少：出党'],
  ['outTransfer', 'out_transfer', '减少：转出'],
  ['outStop', 'out_stop', '减少：停止党籍'],
  ['end', 'end_n', '年末数'],
  ['diff', 'diff', '差额（应为0）'],
] as const;

/** The rows of a year: one per member concerned, with 0/1 (or counts of events) per column. */
export function memberChangeRows(school: string, year: number): RawBuilder<unknown> {
  const before = `${year - 1}-12-31`;
  const last = `${year}-12-31`;
  const first = `${year}-01-01`;
  const onAt = (alias: string) => sql`CASE WHEN ${sql.ref(`${alias}.dir`)} IS NOT NULL THEN ${sql.ref(`${alias}.dir`)} = 'out' ELSE ${onRosterSql('m')} END`;
  return sql`(
    WITH ev AS ${memberEvents(school)},
    y AS (
      SELECT member_id,
        count(*) FILTER (WHERE dir = 'in')::int AS in_n,
        count(*) FILTER (WHERE reason = 'develop')::int AS in_develop,
        count(*) FILTER (WHERE dir = 'in' AND reason = 'transfer')::int AS in_transfer,
        count(*) FILTER (WHERE reason = 'restore')::int AS in_restore,
        count(*) FILTER (WHERE dir = 'out')::int AS out_n,
        count(*) FILTER (WHERE reason = 'death')::int AS out_death,
        count(*) FILTER (WHERE reason = 'quit')::int AS out_quit,
        count(*) FILTER (WHERE dir = 'out' AND reason = 'transfer')::int AS out_transfer,
        count(*) FILTER (WHERE reason = 'stop')::int AS out_stop
      FROM ev WHERE day BETWEEN ${first}::date AND ${last}::date GROUP BY member_id
    ),
    a0 AS (SELECT DISTINCT ON (member_id) member_id, dir FROM ev WHERE day > ${before}::date ORDER BY member_id, day, dir DESC),
    a1 AS (SELECT DISTINCT ON (member_id) member_id, dir FROM ev WHERE day > ${last}::date ORDER BY member_id, day, dir DESC),
    r AS (
      SELECT m.id AS member_id, m.org_id, (${onAt('a0')})::int AS start_n, (${onAt('a1')})::int AS end_n,
        coalesce(y.in_n, 0) AS in_n, coalesce(y.in_develop, 0) AS in_develop, coalesce(y.in_transfer, 0) AS in_transfer, coalesce(y.in_restore, 0) AS in_restore,
        coalesce(y.out_n, 0) AS out_n, coalesce(y.out_death, 0) AS out_death, coalesce(y.out_quit, 0) AS out_quit, coalesce(y.out_transfer, 0) AS out_transfer, coalesce(y.out_stop, 0) AS out_stop
      FROM m_member m LEFT JOIN a0 ON a0.member_id = m.id LEFT JOIN a1 ON a1.member_id = m.id LEFT JOIN y ON y.member_id = m.id
      WHERE m.school = ${school}
    )
    SELECT r.*, (r.start_n + r.in_n - r.out_n - r.end_n) AS diff FROM r WHERE r.start_n + r.end_n + r.in_n + r.out_n > 0
  )`;
}

/**
 * 毕业生批量转出 (issue 41 §3), the check: which graduating student members a batch holds (graduation dates,
 * classes, a pasted list), and for each whether the relation can leave now — on the roster, dues paid up to
 * the month of leaving, no process under way, destination known — with what to do when not (Chinese).
 * Set-based: a handful of statements for the whole batch, whatever its size.
 */
import { sql, type Kysely } from 'kysely';
import { chineseMonth, isDate } from '../../../shared/calendar.js';
import { ownValue } from '../../../shared/own.js';
import type { DB } from '../../db/types.js';
import type { Actor } from '../../runtime/hooks.js';
import type { RuntimeModule } from '../../runtime/module.js';
import type { RecordService } from '../../runtime/records.js';
import { finalStates } from '../../runtime/workflow/states.js';
import { duesStandings } from '../transfer/dues-source.js';

export interface Graduate {
  memberId: number;
  name: string;
  studentNo: string | null;
  orgId: number | null;
  graduationDate: string | null;
  partyStatus: string | null;
  toOrgName?: string | null;
  destination?: string | null;
}

export interface RosterLine {
  key: string;
  toOrgName: string | null;
  destination: string | null;
}

/** The pasted list: a line a member, `学号或姓名[,转入党组织[,转往单位]]` (comma, tab, 、 or ；). */
export function parseRoster(text: unknown): RosterLine[] {
  if (typeof text !== 'string') return [];
  return text
    .split(/\r?\n/)
    .map((line) => line.split(/[,，\t;；]/).map((p) => p.trim()))
    .filter((parts) => parts[0])
    .map(([key, to, dest]) => ({ key, toOrgName: to || null, destination: dest || null }));
}

/**
 * The batch's graduates: members in the batch's organisation (its subtree) that the actor reads (the
 * member module's scope), with their student record (学号 = the member's 学号/工号); those the dates or
 * classes select, and those the list names. Lines naming nobody (or two namesakes) come back unmatched.
 */
export async function selectGraduates(
  trx: Kysely<DB>,
  members: RecordService,
  batch: Record<string, unknown>,
  actor: Actor,
): Promise<{ graduates: Graduate[]; unmatched: string[]; lines: RosterLine[] }> {
  const ids = await members.matchingIds({ filter: { orgId: batch.orgId } }, actor, trx);
  const rows = ids.length
    ? (
        await sql<Graduate & { classId: number | null }>`
          SELECT m.id AS "memberId", m.name, m.person_no AS "studentNo", m.org_id AS "orgId", m.party_status AS "partyStatus",
                 s.graduation_date::text AS "graduationDate", s.class_id AS "classId"
          FROM m_member m LEFT JOIN m_student s ON s.student_no = m.person_no AND s.school = m.school
          WHERE m.id = ANY(${ids}::int[])`.execute(trx)
      ).rows
    : [];
  const from = isDate(batch.graduationFrom) ? batch.graduationFrom : null;
  const to = isDate(batch.graduationTo) ? batch.graduationTo : null;
  const classes = Array.isArray(batch.classIds) && batch.classIds.length ? new Set(batch.classIds as number[]) : null;
  const chosen = new Map<number, Graduate>();
  if (from || to || classes) {
    for (const r of rows) {
      if (!r.graduationDate && (from || to)) continue;
      if (from && r.graduationDate! < from) continue;
      if (to && r.graduationDate! > to) continue;
      if (classes && !classes.has(r.classId as number)) continue;
      chosen.set(r.memberId, r);
    }
  }
  const byNo = new Map(rows.filter((r) => r.studentNo).map((r) => [r.studentNo!, r]));
  const byName = new Map<string, Graduate[]>();
  for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const unmatched: string[] = [];
  const lines = parseRoster(batch.roster);
  for (const line of lines) {
    const hit = byNo.get(line.key) ?? (byName.get(line.key)?.length === 1 ? byName.get(line.key)![0] : undefined);
    if (!hit) {
      unmatched.push(byName.get(line.key)?.length ? `${line.key}（重名，请填写学号）` : line.key);
      continue;
    }
    chosen.set(hit.memberId, { ...hit, toOrgName: line.toOrgName ?? hit.toOrgName, destination: line.destination ?? hit.destination });
  }
  return { graduates: [...chosen.values()].map((g) => {
    const { classId: _c, ...rest } = g as Graduate & { classId?: unknown };
    return rest;
  }), unmatched, lines };
}

const STATUS_TITLES: Record<string, string> = { '2': '失联', '3': '停止党籍', '4': '出党', '5': '死亡', '6': '转出' };

/**
 * The processes under way per member: records of every workflow module about a member (a `memberId`
 * referring to member) not in a final state — transfers, development, 出国（境）, 暂留, 出党 … — except a
 * discipline in force that has no step left (only 留党察看 waits for its 期满处理).
 */
export async function openProcesses(trx: Kysely<DB>, modules: RuntimeModule[], memberIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!memberIds.length) return out;
  for (const m of modules) {
    const f = m.field('memberId');
    if (!m.workflow || f?.ref !== 'member' || !f.column || m.id.startsWith('graduate-batch')) continue;
    const state = m.workflow.stateField.column!;
    const finals = finalStates(m);
    const kind = m.id === 'member-discipline' ? sql`AND NOT (${sql.ref(state)} = 1 AND kind <> '4')` : sql``;
    const rows = await sql<{ memberId: number; state: number }>`
      SELECT ${sql.ref(f.column)} AS "memberId", ${sql.ref(state)} AS state FROM ${sql.table(m.table)}
      WHERE ${sql.ref(f.column)} = ANY(${memberIds}::int[]) AND NOT (${sql.ref(state)} = ANY(${finals}::int[])) ${kind}`.execute(trx);
    for (const r of rows.rows) {
      const title = m.workflow.schema.states[String(r.state)]?.title ?? String(r.state);
      out.set(r.memberId, [...(out.get(r.memberId) ?? []), `有未办结的${m.title}（${title}），请先办结或撤销`]);
    }
  }
  return out;
}

/**
 * What stands in the way of each graduate's transfer, in words that say what to do (an empty list: none).
 * 《关于中国共产党党费收缴、使用和管理的规定》: a member transferring the relation pays dues up to date — here up
 * to the month of leaving (the letter states 党费交至); 《中国共产党党员组织关系转接工作办法》: one transfer at a
 * time, to a known receiving organisation.
 */
export async function graduateProblems(trx: Kysely<DB>, modules: RuntimeModule[], graduates: Graduate[], leaveDate: string): Promise<Map<number, string[]>> {
  const ids = graduates.map((g) => g.memberId);
  const [standings, open] = [await duesStandings(trx, ids), await openProcesses(trx, modules, ids)];
  const leaveMonth = leaveDate.slice(0, 7);
  const out = new Map<number, string[]>();
  for (const g of graduates) {
    const problems: string[] = [];
    if (g.partyStatus !== '1') problems.push(`党籍状态为“${ownValue(STATUS_TITLES, g.partyStatus) ?? '未知'}”，不在党员名册中，不能转出`);
    const owed = (standings.get(g.memberId)?.unpaidMonths ?? []).filter((m) => m <= leaveMonth);
    if (owed.length) problems.push(`欠缴党费${owed.length}个月（${owed.slice(0, 6).join('、')}${owed.length > 6 ? '等' : ''}），请先补交党费至离校当月（${chineseMonth(leaveMonth)}）`);
    problems.push(...(open.get(g.memberId) ?? []));
    if (!g.toOrgName?.trim()) problems.push('去向不明：请在名单中填写转入党组织（学号,转入党组织,转往单位），或办理毕业生组织关系暂留');
    out.set(g.memberId, problems);
  }
  return out;
}

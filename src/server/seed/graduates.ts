/**
 * Demo data of 毕业生批量转出 (issue 41 §3, docs/member-lifecycle.md): the next graduation (30 June of this
 * year, or of the next once this year's has passed, so it holds on any day) is set on student members of
 * the demo college, and a draft batch of that college selects them by their graduation dates with the
 * destinations of most of them pasted in, ready for 检查 and 批量转出 on the page. `count` scales it (DEMO_GRADUATES).
 */
import { sql } from 'kysely';
import { localToday } from '../../shared/module-schema/computed.js';
import { SYSTEM_ACTOR } from '../runtime/index.js';
import type { SeedContext } from './index.js';

/** Where graduates go (转入党组织, 转往单位), as a college's list pasted from a spreadsheet holds them. */
const DESTINATIONS: [string, string][] = [
  ['中共长沙市岳麓区委组织部', '岳麓区人才服务中心（档案托管）'],
  ['中共湖南省委教育工委', '湖南师范大学（攻读硕士学位）'],
  ['中国建筑第五工程局有限公司委员会', '中建五局第三建设有限公司'],
  ['中共深圳市南山区委组织部', '南山区人才服务中心'],
  ['中共湖南省直属机关工作委员会', '湖南省人力资源和社会保障厅'],
];

/**
 * The batch's list: a destination for each graduate but the last two, so 检查 shows both a ready graduate
 * and the 去向不明 a college must still settle (dues owed and open processes come from the demo's records).
 */
function rosterOf(studentNos: string[]): string {
  return studentNos.map((no, i) => (i >= studentNos.length - 2 ? no : [no, ...DESTINATIONS[i % DESTINATIONS.length]].join(','))).join('\n');
}

/** The next 30 June from today (today included). */
export function nextGraduation(today: string): string {
  const year = Number(today.slice(0, 4));
  return today <= `${year}-06-30` ? `${year}-06-30` : `${year + 1}-06-30`;
}

export async function seedGraduates({ database, app }: SeedContext, count = Number(process.env.DEMO_GRADUATES ?? 12)): Promise<Record<string, number>> {
  if (!app) return {};
  const db = database.db;
  // The college of the demo's 二级党委组织员 (ejdw): its committee runs the batch.
  const college = (await sql<{ orgId: number | null }>`SELECT org_id AS "orgId" FROM users WHERE username = 'ejdw'`.execute(db)).rows[0]?.orgId;
  if (!college) return {};
  const subtree = await app.runtime.ctx.orgTree.subtreeIds([college]);
  const linked = (await sql<{ id: number }>`SELECT member_id AS id FROM users WHERE member_id IS NOT NULL`.execute(db)).rows.map((r) => r.id);
  const graduation = nextGraduation(localToday());
  const { rows } = await sql<{ studentId: number; studentNo: string }>`
    SELECT s.id AS "studentId", s.student_no AS "studentNo" FROM m_member m JOIN m_student s ON s.student_no = m.person_no AND s.school = m.school
    WHERE m.org_id = ANY(${subtree}::int[]) AND m.party_status = '1' AND NOT (m.id = ANY(${linked}::int[]))
    ORDER BY m.id LIMIT ${count}`.execute(db);
  if (!rows.length) return {};
  await sql`UPDATE m_student SET graduation_date = ${graduation}::date WHERE id = ANY(${rows.map((r) => r.studentId)}::int[])`.execute(db);
  await app.runtime.records('graduate-batch').create(
    {
      title: `${graduation.slice(0, 4)}届毕业生党员组织关系转出`,
      orgId: college,
      leaveDate: graduation,
      graduationFrom: graduation,
      graduationTo: graduation,
      validDays: 90,
      roster: rosterOf(rows.map((r) => r.studentNo)),
      remark: '毕业离校前检查党费交纳、在办事项和去向，再批量开具介绍信',
    },
    SYSTEM_ACTOR,
  );
  return { graduates: rows.length, batches: 1 };
}

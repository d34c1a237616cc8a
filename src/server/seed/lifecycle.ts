/**
 * Demo data of 党籍管理 (issue 41, docs/member-lifecycle.md): discipline records (a 留党察看 ending within the
 * month, reminded), members who left (除名, 退党, 死亡), a 停止党籍 and its 恢复, members abroad and graduates
 * kept, in every state, around the demo branch and sampled across the university. Dates are relative to today
 * (any day of the year). A decided process leaves the member's 党籍状态 as its approval would, so the year's
 * change table adds up. `count` scales it (a generator for larger sizes: DEMO_LIFECYCLE).
 */
import { sql, type Kysely } from 'kysely';
import { addDays, addMonths } from '../../shared/calendar.js';
import { latestEnd, probationEndOf } from '../../shared/lifecycle/rules.js';
import { localToday } from '../../shared/module-schema/computed.js';
import type { SeedContext } from './index.js';

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;

export async function seedLifecycle({ database, config }: SeedContext, count = Number(process.env.DEMO_LIFECYCLE ?? 40)): Promise<Record<string, number>> {
  const db = database.db as unknown as AnyDb;
  const school = config.school;
  const today = localToday();
  const focus = (await sql<{ orgId: number | null }>`SELECT org_id AS "orgId" FROM users WHERE username = 'zbsj'`.execute(database.db)).rows[0]?.orgId ?? 0;
  const linked = (await sql<{ id: number }>`SELECT member_id AS id FROM users WHERE member_id IS NOT NULL`.execute(database.db)).rows.map((r) => r.id);
  const members = (await sql<{ id: number; name: string; orgId: number; category: string }>`
    SELECT id, name, org_id AS "orgId", category FROM m_member
    WHERE party_status = '1' AND org_id IS NOT NULL AND NOT (id = ANY(${linked}::int[]))
    ORDER BY (org_id = ${focus}) DESC, id LIMIT ${count * 3}`.execute(database.db)).rows;
  if (members.length < 10) return {};
  const base = { school, created_by: null, updated_by: null };
  let next = 0;
  const take = () => members[next++ % members.length];
  const counts: Record<string, number> = { discipline: 0, quit: 0, suspend: 0, abroad: 0, stay: 0 };
  const status = async (id: number, s: string) => sql`UPDATE m_member SET party_status = ${s}, version = version + 1 WHERE id = ${id}`.execute(database.db);
  const insert = async (table: string, row: Row) => {
    await db.insertInto(table).values({ ...base, ...row }).execute();
  };
  const n = Math.max(1, Math.floor(count / 8));
  for (let i = 0; i < n; i++) {
    // 党纪处分: a 留党察看 whose period ends within the month (reminded), a warning, one awaiting approval.
    const m1 = take();
    const decidedOn = addDays(addMonths(today, -12), 10 + i);
    await insert('m_member_discipline', { member_id: m1.id, name: m1.name, org_id: m1.orgId, kind: '4', probation_years: 1, decided_on: decidedOn, probation_end: probationEndOf(decidedOn, 1), deciding_org: '校党委', doc_no: `党纪〔${today.slice(0, 4)}〕${i + 1}号`, reason: '违反组织纪律', approve_date: decidedOn, state: 1 });
    const m2 = take();
    await insert('m_member_discipline', { member_id: m2.id, name: m2.name, org_id: m2.orgId, kind: '1', decided_on: addMonths(today, -2), deciding_org: '党支部', reason: '无故缺席组织生活', state: i % 2 ? 0 : 1, approve_date: i % 2 ? null : addMonths(today, -2) });
    counts.discipline += 2;
    // 出党: a 除名 awaiting the committee, a 退党 decided, a death recorded.
    const q1 = take();
    await insert('m_member_quit', { member_id: q1.id, name: q1.name, org_id: q1.orgId, kind: '2', reason: '连续六个月不参加组织生活、不交纳党费', meeting_date: addDays(today, -3), evidence: '最后参加组织生活在六个月以前；欠缴党费', state: 0 });
    const q2 = take();
    const left = addMonths(today, -1);
    await insert('m_member_quit', { member_id: q2.id, name: q2.name, org_id: q2.orgId, kind: i % 2 ? '4' : '1', reason: i % 2 ? '因病去世' : '本人申请退党', death_date: i % 2 ? left : null, meeting_date: left, approve_date: left, leave_date: left, state: 1 });
    await status(q2.id, i % 2 ? '5' : '4');
    counts.quit += 2;
    // 停止党籍 approved; 出国（境） kept and stopped; 暂留 under way.
    const s1 = take();
    await insert('m_member_suspend', { member_id: s1.id, name: s1.name, org_id: s1.orgId, kind: '停止党籍', reason: '失去联系六个月以上', meeting_date: addMonths(today, -2), approve_date: addMonths(today, -2), state: 1 });
    await status(s1.id, '3');
    counts.suspend += 1;
    const a1 = take();
    await insert('m_member_abroad', { member_id: a1.id, name: a1.name, org_id: a1.orgId, purpose: '留学', destination: '英国', leave_date: addMonths(today, -10), expected_return_date: addMonths(today, 14), decision: '保留党籍', kept_until: addDays(today, 20 + i), state: 1 });
    const a2 = take();
    await insert('m_member_abroad', { member_id: a2.id, name: a2.name, org_id: a2.orgId, purpose: '工作', destination: '新加坡', leave_date: addMonths(today, -1), expected_return_date: addMonths(today, 30), decision: '停止党籍', state: 0 });
    counts.abroad += 2;
    const g = take();
    await insert('m_member_stay', { member_id: g.id, name: g.name, org_id: g.orgId, graduation_date: addMonths(today, -23), reason: '未落实工作单位', stay_until: latestEnd(addMonths(today, -23), 2), state: 1 });
    counts.stay += 1;
  }
  return counts;
}

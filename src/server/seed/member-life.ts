/**
 * Demo data of members' daily management and evaluation (docs/organisation-life.md): points items, talks,
 * manual points, assistance cases, rewards and punishments, duty reports, an assessment plan with scores, an
 * appraisal round, and a few weak branches in rectification. Bulk inserts only (the suite seeds the demo
 * once per run): a few hundred rows around the demo branch and its committee, the rest of the university
 * sampled.
 */
import { sql, type Kysely } from 'kysely';
import type { SeedContext } from './index.js';

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;
const CHUNK = 500;

async function insert(db: AnyDb, table: string, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) ids.push(...(await db.insertInto(table).values(rows.slice(i, i + CHUNK)).returning('id').execute()).map((r) => Number(r.id)));
  return ids;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (year: number, dayOfYear: number) => {
  const d = new Date(Date.UTC(year, 0, 1 + dayOfYear));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

export const POINTS_ITEMS = [
  { code: 'meeting', name: '参加组织生活', source: 'meeting', score: 2, year_cap: 40, remark: '每参加一次三会一课、主题党日等组织生活计2分' },
  { code: 'study', name: '党校学习', source: 'study', score: 0.5, year_cap: 20, remark: '党校完成学时每学时计0.5分' },
  { code: 'dues', name: '按时交纳党费', source: 'dues', score: 1, year_cap: 12, remark: '每按时交纳一个月党费计1分' },
  { code: 'volunteer', name: '志愿服务', source: 'manual', score: 5, year_cap: 30, remark: '参加志愿服务，经审核每次计5分' },
  { code: 'honor', name: '评优表彰', source: 'manual', score: 10, year_cap: 20, remark: '获得表彰，经审核计分' },
  { code: 'deduct', name: '违反纪律扣分', source: 'manual', score: -5, year_cap: null, remark: '无故缺席组织生活等，经审核扣分' },
];

export async function seedMemberLife({ database, config, log }: SeedContext): Promise<void> {
  const db = database.db as unknown as AnyDb;
  const school = config.school;
  const year = new Date().getFullYear();
  const today = new Date().toISOString().slice(0, 10);
  const base = { school, created_by: null, updated_by: null };
  const focus = (await sql<{ orgId: number | null }>`SELECT org_id AS "orgId" FROM users WHERE username = 'zbsj'`.execute(database.db)).rows[0]?.orgId ?? null;
  const branches = (await sql<{ id: number; parentId: number }>`
    SELECT id, parent_id AS "parentId" FROM m_org WHERE type = '3' AND parent_id IS NOT NULL ORDER BY (id = ${focus ?? 0}) DESC, id LIMIT 40`.execute(database.db)).rows;
  if (!branches.length) return;
  const members = (await sql<{ id: number; name: string; orgId: number }>`
    SELECT id, name, org_id AS "orgId" FROM m_member WHERE org_id = ANY(${branches.map((b) => b.id)}::int[]) AND party_status = '1' ORDER BY org_id, id`.execute(database.db)).rows;
  const byBranch = new Map<number, typeof members>();
  for (const m of members) byBranch.set(m.orgId, [...(byBranch.get(m.orgId) ?? []), m]);

  // Each seeded branch's committee are its first three members (书记 the first), so talks can be checked against it.
  for (const [orgId, list] of byBranch) {
    const committee = list.slice(0, 3);
    if (committee.length) await sql`UPDATE m_org SET secretary = ${committee[0].name}, committee = ${committee.map((m) => m.name).join('、')} WHERE id = ${orgId}`.execute(database.db);
  }

  const itemIds = await insert(db, 'm_member_points_item', POINTS_ITEMS.map((i) => ({ ...base, ...i, enabled: true })));
  const manualItems = POINTS_ITEMS.map((i, k) => ({ ...i, id: itemIds[k] })).filter((i) => i.source === 'manual');

  const talks: Row[] = [];
  const points: Row[] = [];
  const rewards: Row[] = [];
  const assists: Row[] = [];
  const reports: Row[] = [];
  let n = 0;
  for (const [orgId, list] of byBranch) {
    const [secretary, ...rest] = list;
    const committee = list.slice(0, 3);
    // Most members talked to this year; every fifth left out (the coverage view names them).
    list.forEach((m, i) => {
      if (m.id === secretary.id) return;
      const isCommittee = committee.some((c) => c.id === m.id);
      if (!isCommittee && i % 5 === 4) return;
      const talker = isCommittee ? secretary : committee[1 + (i % 2)] ?? secretary;
      talks.push({ ...base, talker_id: talker.id, member_id: m.id, org_id: orgId, date: dayOf(year, (i * 7) % 300), way: i % 3 ? '面谈' : '电话', topic: isCommittee ? '支委履职谈心谈话' : ['思想动态', '学习工作情况', '困难诉求'][i % 3], content: '交流思想、工作和生活情况，听取意见建议。', follow_up: i % 4 === 0 ? '协助解决实际困难' : null, follow_up_done: i % 8 !== 0 });
    });
    rest.slice(0, 6).forEach((m, i) => {
      const item = manualItems[i % manualItems.length];
      points.push({ ...base, member_id: m.id, org_id: orgId, item_id: item.id, date: dayOf(year, 20 + i * 30), score: item.score, reason: `${item.name}（演示）`, state: i % 3 === 2 ? 0 : 1 });
    });
    if (n % 3 === 0 && rest[0]) rewards.push({ ...base, member_id: rest[0].id, org_id: orgId, kind: '奖', level: String(3 + (n % 3)), name: '优秀共产党员', date: `${year - 1}-07-01`, doc_no: `党字〔${year - 1}〕${10 + n}号`, reason: '在教学科研和党建工作中表现突出，发挥先锋模范作用。' });
    if (n % 13 === 5 && rest[1]) rewards.push({ ...base, member_id: rest[1].id, org_id: orgId, kind: '惩', level: '5', name: '批评教育', date: `${year}-03-15`, doc_no: `党纪〔${year}〕${n}号`, reason: '无正当理由连续三个月未参加党的组织生活，予以批评教育。' });
    if (n % 4 === 0 && rest[2]) {
      const state = [2, 1, 0, -1][(n / 4) % 4];
      assists.push({ ...base, member_id: rest[2].id, org_id: orgId, kind: ['因病', '生活困难', '老党员慰问', '子女就学'][(n / 4) % 4], apply_date: dayOf(year, 40 + n), situation: '家庭成员患病，医疗支出较大，生活困难。', amount: '2000.00', branch_opinion: state >= 0 ? '情况属实，同意上报。' : null, approved_amount: state >= 1 ? '1500.00' : null, approve_date: state >= 1 ? dayOf(year, 50 + n) : null, paid_date: state === 2 ? dayOf(year, 60 + n) : null, state });
    }
    if (n < 10) reports.push({ ...base, org_id: orgId, year: year - 1, reporter_name: secretary.name, reporter_role: '党支部书记', title: `${year - 1}年度党支部书记抓党建工作述职报告`, content: '一、履行党建工作职责情况；二、存在的问题；三、下一步工作打算。', submit_date: `${year}-01-10`, review_opinion: n % 2 ? '报告客观，问题查找准确。' : null, rating: n % 2 ? '好' : null, publish_date: n % 4 === 1 ? `${year}-01-20` : null, state: n % 4 === 1 ? 2 : n % 2 ? 1 : 0 });
    n++;
  }
  await insert(db, 'm_member_talk', talks);
  await insert(db, 'm_member_points', points);
  await insert(db, 'm_member_reward', rewards);
  await insert(db, 'm_member_assist', assists);
  await insert(db, 'm_duty_report', reports);

  // The year's assessment of the branches of the demo committee, scored by it; the last one is a weak candidate.
  const committeeId = branches[0].parentId;
  const scored = branches.filter((b) => b.parentId === committeeId);
  const [planId] = await insert(db, 'm_assess_plan', [{ ...base, year, title: `${year}年度党支部工作考核`, org_id: committeeId, start_date: `${year}-01-01`, end_date: `${year}-12-31`, description: '按组织建设、组织生活、党员教育管理、作用发挥四项指标考核。', published: false }]);
  const indicators = [['组织建设', 30], ['组织生活', 30], ['党员教育管理', 20], ['作用发挥', 20]] as const;
  const indicatorIds = await insert(db, 'm_assess_plan_indicator', indicators.map(([name, weight], i) => ({ ...base, plan_id: planId, name, weight, max_score: 100, sort: i + 1, criteria: `${name}按评分细则打分` })));
  await insert(db, 'm_assess_score', scored.flatMap((b, k) => indicatorIds.map((id, i) => ({ ...base, plan_id: planId, org_id: b.id, indicator_id: id, score: Math.max(40, 95 - k * 7 - i * 2), note: null }))));

  // 软弱涣散: the committee's last-placed branch in rectification, and one branch whose secretary left five months ago.
  const weak = scored.length > 1 ? scored[scored.length - 1] : branches[branches.length - 1];
  const [weakId] = await insert(db, 'm_org_weak', [{ ...base, org_id: weak.id, year, reasons: JSON.stringify(['年度考核末位', '三会一课不达标']), reason_note: '年度考核排名末位，组织生活不经常。', decision_date: dayOf(year, 60), decision_doc: `党组〔${year}〕3号`, analysis: '支部书记履职不到位，组织生活流于形式。', plan: '调整充实支委，建立组织生活台账，结对帮扶。', plan_date: dayOf(year, 70), state: 2 }]);
  await insert(db, 'm_org_weak_measure', [
    { ...base, weak_id: weakId, content: '调整充实支部委员会', owner: '组织员', due_date: dayOf(year, 120), done_date: dayOf(year, 110), result: '已完成' },
    { ...base, weak_id: weakId, content: '建立三会一课台账并按月报送', owner: '支部书记', due_date: dayOf(year, 300), done_date: null, result: null },
  ]);
  const vacant = branches.find((b) => b.id !== focus && b.id !== weak.id && !byBranch.has(b.id)) ?? branches[branches.length - 2];
  if (vacant && vacant.id !== weak.id) {
    await sql`UPDATE m_org SET secretary = NULL WHERE id = ${vacant.id}`.execute(database.db);
    await sql`INSERT INTO change_records (module, record_id, type, origin, changes, username, at)
      VALUES ('org', ${vacant.id}, 2, 3, ${JSON.stringify([{ field: 'secretary', title: '书记', before: '原书记', after: null }])}::jsonb, 'admin', now() - interval '5 months')`.execute(database.db);
    await insert(db, 'm_org_weak', [{ ...base, org_id: vacant.id, year, reasons: JSON.stringify(['书记空缺']), reason_note: '书记调离后职位空缺超过三个月。', state: -1 }]);
  }

  // 民主评议: last year's round of the demo branch done (grades in the members' records), this year's counted and waiting for grades.
  const demo = byBranch.get(branches[0].id) ?? [];
  const rounds = await insert(db, 'm_appraisal', [
    { ...base, org_id: branches[0].id, year: year - 1, title: `${year - 1}年度民主评议党员`, meeting_date: `${year - 1}-12-20`, ballots_issued: demo.length, ballots_returned: demo.length, ballots_void: 0, grade_date: `${year - 1}-12-25`, approve_date: `${year - 1}-12-30`, state: 3 },
  ]);
  const cap = Math.floor(demo.length * 0.3);
  await insert(db, 'm_appraisal_result', demo.map((m, i) => {
    const excellent = i < cap;
    const v = demo.length;
    return { ...base, appraisal_id: rounds[0], member_id: m.id, self_grade: excellent ? '1' : '2', self_assessment: '认真学习党的理论，按时参加组织生活，履行党员义务。', votes_excellent: excellent ? Math.ceil(v * 0.7) : Math.floor(v * 0.2), votes_qualified: excellent ? Math.floor(v * 0.3) : Math.ceil(v * 0.8), votes_basic: 0, votes_unqualified: 0, grade: excellent ? '1' : '2' };
  }));
  // This year's round of a second branch under way: started, members' self-assessment open.
  const second = branches[1] && byBranch.get(branches[1].id);
  if (second?.length) {
    const [open] = await insert(db, 'm_appraisal', [{ ...base, org_id: branches[1].id, year, title: `${year}年度民主评议党员`, meeting_date: null, state: 0 }]);
    await insert(db, 'm_appraisal_result', second.map((m, i) => ({ ...base, appraisal_id: open, member_id: m.id, self_grade: i % 2 ? '2' : null, self_assessment: i % 2 ? '按时参加组织生活，认真完成工作任务。' : null })));
  }
  log.info({ talks: talks.length, points: points.length, rewards: rewards.length, assists: assists.length, reports: reports.length, weakBranches: 2, date: today }, 'demo member life seeded');
}

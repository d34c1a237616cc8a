// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the rules of members' daily management read and write the database (caps, coverage, levels)
/**
 * Issue 27 (members' daily management and evaluation) through the real HTTP layer on the demo: 民主评议 run
 * to its results within the 优秀 cap (exactly the cap passes, one more is refused), 谈心谈话 coverage with the
 * year's last day counted and the next year's first not, 党员帮扶 approved by the level above only, 党员积分
 * from approved manual items and never typed for a computed item, 软弱涣散 candidates by the rules, and
 * rewards in the member's record.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excellentCap, weightedTotal } from '../../src/shared/evaluation/rules.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe(`members' daily management on ${TEST_DB}`, () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let branch: number;
  const year = new Date().getFullYear();
  const call = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(tok[who]), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const step = async (who: string, module: string, id: number, name: string, values: Record<string, unknown> = {}, comment?: string) => {
    const rec = (await call('admin', 'GET', `/api/m/${module}/${id}`)).body;
    return call(who, 'POST', `/api/m/${module}/${id}/transitions/${name}`, { version: rec.version, values, ...(comment && { comment }) });
  };

  beforeAll(async () => {
    t = await createDemoTestApp();
    tok.admin = await login(t.app);
    for (const u of ['zbsj', 'ejdw', 'dy']) tok[u] = await login(t.app, u, DEMO_USER_PASSWORD);
    branch = (await t.database.db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
  }, 300_000);
  afterAll(() => t?.app.close());

  it('[S1.F14c] an appraisal round runs to its results: roster, votes, 优秀 within the cap (the cap passes, one more is refused), approval by the level above', async () => {
    const created = await call('zbsj', 'POST', '/api/m/appraisal', { orgId: branch, year, title: `${year}年度民主评议党员`, meetingDate: `${year}-01-15` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    expect((await step('zbsj', 'appraisal', id, 'start')).status).toBe(200);
    const results = (await call('zbsj', 'POST', '/api/m/appraisal-result/list?size=1000', { appraisalId: id })).body.content as { id: number; version: number; memberId: number }[];
    const members = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_member WHERE org_id = ${branch} AND party_status = '1'`.execute(t.database.db)).rows[0].n;
    expect(results.length).toBe(members);
    // Votes above the valid ballots are refused when counting.
    const first = results[0];
    const over = await call('zbsj', 'PUT', '/api/m/appraisal-result', { id: first.id, version: first.version, votesExcellent: members, votesQualified: 1 });
    expect(over.status).toBe(200); // not counted yet: no ballot totals to check against
    const refused = await step('zbsj', 'appraisal', id, 'count', { ballotsIssued: members, ballotsReturned: members, ballotsVoid: 0 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('多于有效票');
    expect((await step('zbsj', 'appraisal', id, 'count', { ballotsIssued: members, ballotsReturned: members + 1, ballotsVoid: 0 })).body.message).toContain('不能多于发出选票');
    const fixed = (await call('zbsj', 'GET', `/api/m/appraisal-result/${first.id}`)).body;
    await call('zbsj', 'PUT', '/api/m/appraisal-result', { id: first.id, version: fixed.version, votesExcellent: members - 1, votesQualified: 1 });
    expect((await step('zbsj', 'appraisal', id, 'count', { ballotsIssued: members, ballotsReturned: members, ballotsVoid: 0 })).status).toBe(200);
    // Grades: one more than the cap is refused, exactly the cap passes.
    const cap = excellentCap(members, 30);
    let now = (await call('zbsj', 'POST', '/api/m/appraisal-result/list?size=1000', { appraisalId: id })).body.content as { id: number; version: number; grade: string | null }[];
    // [43.12] The grid of 评议结果 saves its rows together: a row over the valid ballots refuses the batch,
    // named by its row, and no row of it is written.
    const badBatch = await call('zbsj', 'PUT', '/api/m/appraisal-result/batch', { rows: [
      { id: now[0].id, version: now[0].version, grade: '1' },
      { id: now[1].id, version: now[1].version, votesExcellent: members + 1 },
    ] });
    expect(badBatch.status).toBe(400);
    expect(badBatch.body).toMatchObject({ row: 1, id: now[1].id });
    expect(badBatch.body.message).toMatch(/^第2行：.*多于有效票/);
    expect((await call('zbsj', 'GET', `/api/m/appraisal-result/${now[0].id}`)).body).toMatchObject({ version: now[0].version, grade: null });
    // Only who may edit the round saves its grid (the member dy may not).
    expect((await call('dy', 'PUT', '/api/m/appraisal-result/batch', { rows: [{ id: now[0].id, version: now[0].version, grade: '1' }] })).status).toBe(403);
    const graded = await call('zbsj', 'PUT', '/api/m/appraisal-result/batch', { rows: now.map((r, i) => ({ id: r.id, version: r.version, grade: i <= cap ? '1' : '2' })) });
    expect(graded.status, JSON.stringify(graded.body)).toBe(200);
    expect(graded.body.content).toHaveLength(now.length);
    // A stale version (the row read before this save) is a conflict, not an overwrite.
    expect((await call('zbsj', 'PUT', '/api/m/appraisal-result/batch', { rows: [{ id: now[0].id, version: now[0].version, grade: '2' }] })).status).toBe(409);
    now = graded.body.content;
    const tooMany = await step('zbsj', 'appraisal', id, 'grade', { gradeDate: `${year}-01-20` });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain(`最多${cap}名`);
    const last = (await call('zbsj', 'GET', `/api/m/appraisal-result/${now[cap].id}`)).body;
    expect((await call('zbsj', 'PUT', '/api/m/appraisal-result', { id: last.id, version: last.version, grade: '2' })).status).toBe(200);
    expect((await step('zbsj', 'appraisal', id, 'grade', { gradeDate: `${year}-01-20` })).status).toBe(200);
    // The branch does not approve its own round; the committee above does.
    expect((await step('zbsj', 'appraisal', id, 'approve', { approveDate: `${year}-01-25` })).status).toBe(403);
    const approved = await step('ejdw', 'appraisal', id, 'approve', { approveDate: `${year}-01-25` });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.stateLabel).toBe('已审核');
    // The results stay in the member's record, and cannot be changed any more.
    const record = (await call('zbsj', 'GET', `/api/evaluation/member/${first.memberId}`)).body;
    expect(record.appraisals.map((a: { year: number }) => a.year)).toContain(year);
    const locked = (await call('zbsj', 'GET', `/api/m/appraisal-result/${first.id}`)).body;
    expect((await call('zbsj', 'PUT', '/api/m/appraisal-result', { id: first.id, version: locked.version, grade: '3' })).body.message).toContain('已审核');
  });

  it('[S1.F14d] talk coverage per branch: the members nobody talked to; a talk on the year\'s last day counts, one on the next year\'s first does not', async () => {
    const coverage = async () => (await call('zbsj', 'GET', `/api/evaluation/talks/coverage?year=${year}`)).body.branches.find((b: { orgId: number }) => b.orgId === branch);
    const before = await coverage();
    expect(before.uncovered.length).toBeGreaterThan(0);
    const target = before.uncovered[0];
    const org = (await sql<{ secretary: string }>`SELECT secretary FROM m_org WHERE id = ${branch}`.execute(t.database.db)).rows[0];
    const secretary = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${branch} AND name = ${org.secretary} LIMIT 1`.execute(t.database.db)).rows[0].id;
    const next = await call('zbsj', 'POST', '/api/m/member-talk', { talkerId: secretary, memberId: target.id, date: `${year + 1}-01-01`, topic: '新年谈心' });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect((await coverage()).uncovered.map((m: { id: number }) => m.id)).toContain(target.id);
    expect((await call('zbsj', 'POST', '/api/m/member-talk', { talkerId: secretary, memberId: target.id, date: `${year}-12-31`, topic: '年终谈心' })).status).toBe(201);
    const after = await coverage();
    expect(after.uncovered.map((m: { id: number }) => m.id)).not.toContain(target.id);
    expect(after.covered).toBe(before.covered + 1);
    expect((await call('zbsj', 'POST', '/api/m/member-talk', { talkerId: secretary, memberId: secretary, date: `${year}-03-01`, topic: '自己' })).body.message).toBe('谈话对象不能是谈话人本人');
  });

  it('[S1.F14e] assistance: the branch submits, the level above approves no more than applied for, the yearly total per branch', async () => {
    const member = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${branch} AND party_status = '1' ORDER BY id DESC LIMIT 1`.execute(t.database.db)).rows[0].id;
    const created = await call('zbsj', 'POST', '/api/m/member-assist', { memberId: member, kind: '因病', applyDate: `${year}-02-01`, situation: '住院治疗', amount: '3000.00' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    expect((await step('zbsj', 'member-assist', id, 'submit', { branchOpinion: '情况属实' })).status).toBe(200);
    expect((await step('zbsj', 'member-assist', id, 'approve', { approvedAmount: '3000.00', approveDate: `${year}-02-10` })).status).toBe(403);
    const over = await step('ejdw', 'member-assist', id, 'approve', { approvedAmount: '3000.01', approveDate: `${year}-02-10` });
    expect(over.status).toBe(400);
    expect(over.body.message).toContain('不能超过申请金额');
    const before = (await call('zbsj', 'GET', `/api/evaluation/assist/totals?year=${year}`)).body.content.find((r: { orgId: number }) => r.orgId === branch);
    expect((await step('ejdw', 'member-assist', id, 'approve', { approvedAmount: '3000.00', approveDate: `${year}-02-10` })).status).toBe(200);
    const after = (await call('zbsj', 'GET', `/api/evaluation/assist/totals?year=${year}`)).body.content.find((r: { orgId: number }) => r.orgId === branch);
    expect(Number(after.approved) - Number(before?.approved ?? 0)).toBeCloseTo(3000);
  });

  it('[S1.F14f] points: computed items are never typed; a manual item counts once approved by the level above; ranking and own history', async () => {
    const items = (await call('admin', 'POST', '/api/m/member-points-item/list?size=100', {})).body.content as { id: number; code: string }[];
    const meeting = items.find((i) => i.code === 'meeting')!;
    const volunteer = items.find((i) => i.code === 'volunteer')!;
    const dyMember = (await sql<{ id: number }>`SELECT member_id AS id FROM users WHERE username = 'dy'`.execute(t.database.db)).rows[0]?.id;
    const member = dyMember ?? (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${branch} ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0].id;
    const typed = await call('zbsj', 'POST', '/api/m/member-points', { memberId: member, itemId: meeting.id, date: `${year}-03-01`, score: 2, reason: '参会' });
    expect(typed.status).toBe(400);
    expect(typed.body.message).toContain('自动计算');
    const rank = async () => (await call('zbsj', 'GET', `/api/evaluation/points/ranking?orgId=${branch}&year=${year}`)).body.content.find((r: { memberId: number }) => r.memberId === member);
    const before = await rank();
    const created = await call('zbsj', 'POST', '/api/m/member-points', { memberId: member, itemId: volunteer.id, date: `${year}-03-01`, score: 5, reason: '社区志愿服务' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await step('zbsj', 'member-points', created.body.id, 'submit')).status).toBe(200);
    expect((await rank()).manual).toBe(before.manual);
    expect((await step('ejdw', 'member-points', created.body.id, 'approve')).status).toBe(200);
    const after = await rank();
    expect(after.total).toBeGreaterThanOrEqual(before.total); // the item's yearly cap may hold it
    expect(after.rank).toBeGreaterThanOrEqual(1);
    const history = await call(dyMember ? 'dy' : 'zbsj', 'GET', `/api/evaluation/points/history?memberId=${member}&year=${year}`);
    expect(history.status).toBe(200);
    expect(history.body.manual.some((m: { reason: string }) => m.reason === '社区志愿服务')).toBe(true);
  });

  it('[S1.F14b] an assessment plan\'s results: each scored branch\'s Σ score / full marks × weight, ranked highest first', async () => {
    const plans = (await call('ejdw', 'POST', '/api/m/assess-plan/list', {})).body.content as { id: number; title: string }[];
    const plan = plans.find((p) => p.title === `${year}年度党支部工作考核`)!;
    expect(plan).toBeTruthy();
    const res = await call('ejdw', 'GET', `/api/evaluation/assess/${plan.id}/results`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const content = res.body.content as { orgId: number; total: number; rank: number; indicators: number }[];
    expect(content.length).toBeGreaterThan(1);
    const scores = (await sql<{ orgId: number; score: number; maxScore: number; weight: number }>`
      SELECT s.org_id AS "orgId", s.score::float8 AS score, i.max_score::float8 AS "maxScore", i.weight::float8 AS weight
      FROM m_assess_score s JOIN m_assess_plan_indicator i ON i.id = s.indicator_id WHERE s.plan_id = ${plan.id}`.execute(t.database.db)).rows;
    for (const r of content) expect(r.total).toBe(weightedTotal(scores.filter((x) => x.orgId === r.orgId)));
    expect(content.map((r) => r.total)).toEqual([...content.map((r) => r.total)].sort((a, b) => b - a));
    expect(content[0].rank).toBe(1);
    content.forEach((r, i) => i > 0 && expect(r.rank).toBe(r.total === content[i - 1].total ? content[i - 1].rank : i + 1));
    expect((await call('ejdw', 'GET', '/api/evaluation/assess/abc/results')).status).toBe(400);
    expect((await call('dy', 'GET', `/api/evaluation/assess/${plan.id}/results`)).status).toBe(403);
  });

  it('[S1.F11c] weak-organisation candidates by the rules: a secretary post vacant over three months, last place in the year\'s assessment', async () => {
    const res = await call('admin', 'GET', `/api/evaluation/weak/candidates?year=${year}`);
    expect(res.status).toBe(200);
    const reasons = res.body.content.flatMap((c: { reasons: { reason: string }[] }) => c.reasons.map((r) => r.reason));
    expect(reasons).toContain('书记空缺');
    expect(reasons).toContain('年度考核末位');
    expect(res.body.rules).toMatchObject({ secretaryVacantMonths: 3 });
  });

  it('[S1.F14a] rewards and punishments: the member\'s branch follows the member, and they appear in the member\'s record', async () => {
    const member = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${branch} ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0].id;
    const created = await call('zbsj', 'POST', '/api/m/member-reward', { memberId: member, kind: '奖', level: '4', name: '优秀党务工作者', date: `${year}-06-30`, docNo: `党字〔${year}〕8号`, reason: '党建工作成绩突出' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.orgId).toBe(branch);
    const record = (await call('zbsj', 'GET', `/api/evaluation/member/${member}`)).body;
    expect(record.rewards.map((r: { docNo: string }) => r.docNo)).toContain(`党字〔${year}〕8号`);
    expect((await call('dy', 'POST', '/api/m/member-reward', { memberId: member, kind: '奖', level: '4', date: `${year}-06-30`, reason: 'x' })).status).toBe(403);
  });

  it('[S1.F14a] the member\'s and the cadre\'s detail relate the rewards (x-related): the served schema names each module\'s list permission, and the lists filter by the member', async () => {
    const served = (await call('zbsj', 'GET', '/api/m/member/schema')).body.schema;
    expect(served['x-related']).toEqual([
      { module: 'member-reward', foreignKey: 'memberId', title: '奖惩信息', permission: 'member-reward:list' },
      { module: 'appraisal-result', foreignKey: 'memberId', title: '民主评议', permission: 'service-appraisal:list' },
      { module: 'member-talk', foreignKey: 'memberId', title: '谈心谈话', permission: 'member-talk:list' },
      { module: 'member-assist', foreignKey: 'memberId', title: '党员帮扶', permission: 'member-assist:list' },
    ]);
    const cadre = (await call('admin', 'GET', '/api/m/cadre/schema')).body.schema;
    expect(cadre['x-related']).toContainEqual({ module: 'member-reward', foreignKey: 'memberId', key: 'memberId', title: '奖惩信息', permission: 'member-reward:list' });
    // The tab's list: one member's rewards, and the approved appraisal rounds of the demo branch with their names.
    const member = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${branch} AND party_status = '1' ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0].id;
    await call('zbsj', 'POST', '/api/m/member-reward', { memberId: member, kind: '惩', level: '4', name: '诫勉谈话', date: `${year}-03-01`, docNo: `党纪〔${year}〕2号`, reason: '迟交党费' });
    const rewards = (await call('zbsj', 'POST', '/api/m/member-reward/list', { memberId: member })).body.content as { memberId: number; docNo: string }[];
    expect(rewards.map((r) => r.docNo)).toContain(`党纪〔${year}〕2号`);
    expect(new Set(rewards.map((r) => r.memberId))).toEqual(new Set([member]));
    const grades = await call('zbsj', 'POST', '/api/m/appraisal-result/list', { memberId: member });
    expect(grades.status, JSON.stringify(grades.body)).toBe(200);
    expect(grades.body.content.length).toBeGreaterThan(0);
    expect(grades.body.content.every((r: { memberId: number; appraisalIdName: string }) => r.memberId === member && r.appraisalIdName)).toBe(true);
    expect((await call('dy', 'POST', '/api/m/member-reward/list', { memberId: member })).status).toBe(403);
  });

  describe('[42] rule parameters: the registry, its contract and the value in force on a past date', () => {
    /** A round of `y` for the branch, counted, with `excellent(members)` members graded 优秀 (the rest 合格). */
    const roundWith = async (y: number, excellent: (members: number) => number) => {
      const created = await call('zbsj', 'POST', '/api/m/appraisal', { orgId: branch, year: y, title: `${y}年度民主评议党员（规则参数）`, meetingDate: `${y}-01-15` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as number;
      expect((await step('zbsj', 'appraisal', id, 'start')).status).toBe(200);
      const rows = (await call('zbsj', 'POST', '/api/m/appraisal-result/list?size=1000', { appraisalId: id })).body.content as { id: number; version: number }[];
      expect((await step('zbsj', 'appraisal', id, 'count', { ballotsIssued: rows.length, ballotsReturned: rows.length, ballotsVoid: 0 })).status).toBe(200);
      const graded = (await call('zbsj', 'POST', '/api/m/appraisal-result/list?size=1000', { appraisalId: id })).body.content as { id: number; version: number }[];
      const top = excellent(graded.length);
      for (const [i, r] of graded.entries()) expect((await call('zbsj', 'PUT', '/api/m/appraisal-result', { id: r.id, version: r.version, grade: i < top ? '1' : '2' })).status).toBe(200);
      return { id, members: rows.length };
    };
    const history = async (key: string) => (await call('admin', 'GET', `/api/rule-params/${key}/history`)).body as { newValue: unknown; oldValue: unknown; reason: string; effectiveFrom: string }[];

    it('[42.3] 优秀 30 % → 25 %: last year\'s round keeps the 30 % it was decided under, the next round above 25 % is refused naming the parameter', async () => {
      // Last year's round of the demo branch (src/server/seed/member-life.ts), graded on its day under the default 30 %.
      const rounds = (await call('zbsj', 'POST', '/api/m/appraisal/list', { orgId: branch, year: year - 1 })).body.content as { id: number }[];
      expect(rounds).toHaveLength(1);
      const last = rounds[0];
      expect((await call('zbsj', 'GET', `/api/evaluation/appraisal/${last.id}/cap`)).body).toMatchObject({ date: `${year - 1}-12-25`, excellentCapPercent: 30, source: 'default' });
      const changed = await call('admin', 'PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 25, reason: '党委会议决定优秀比例调整为25%' });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ value: 25, default: 30, source: 'admin' });
      const [change] = await history('appraisal.excellentCapPercent');
      expect(change).toMatchObject({ oldValue: 30, newValue: 25, reason: '党委会议决定优秀比例调整为25%' });
      expect((await call('zbsj', 'GET', `/api/evaluation/appraisal/${last.id}/cap`)).body).toMatchObject({ excellentCapPercent: 30, source: 'default' });
      // A round decided now: one 优秀 above 25 % is refused, the message names the value and where it is set.
      const next = await roundWith(year + 1, (members) => excellentCap(members, 25) + 1);
      const refused = await step('zbsj', 'appraisal', next.id, 'grade', { gradeDate: `${year + 1}-01-20` });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain(`参评${next.members}名的25%`);
      expect(refused.body.message).toContain('（规则参数：评议管理·优秀等次比例上限）');
      // Within the cap the step passes and its record keeps the cap it was judged under (the trail's 结果).
      const first = ((await call('zbsj', 'POST', '/api/m/appraisal-result/list?size=1000', { appraisalId: next.id })).body.content as { id: number; version: number; grade: string }[]).find((r) => r.grade === '1')!;
      expect((await call('zbsj', 'PUT', '/api/m/appraisal-result', { id: first.id, version: first.version, grade: '2' })).status).toBe(200);
      const graded = await step('zbsj', 'appraisal', next.id, 'grade', { gradeDate: `${year + 1}-01-20` });
      expect(graded.status, JSON.stringify(graded.body)).toBe(200);
      expect(graded.body.notes).toEqual([`优秀${excellentCap(next.members, 25)}名，不超过参评${next.members}名的25%（最多${excellentCap(next.members, 25)}名，按${year + 1}-01-20有效的比例）（规则参数：评议管理·优秀等次比例上限）`]);
      // A change from a later day: in force from then, the history lists it first, today's value stays.
      const tomorrow = new Date(Date.now() + 86_400_000 * 2).toISOString().slice(0, 10);
      expect((await call('admin', 'PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 28, reason: '下学期起调整', effectiveFrom: tomorrow })).status).toBe(200);
      const [newest, older] = await history('appraisal.excellentCapPercent');
      expect([newest.newValue, newest.effectiveFrom, older.newValue]).toEqual([28, tomorrow, 25]);
      const one = (await call('admin', 'GET', `/api/rule-params/appraisal.excellentCapPercent?date=${tomorrow}`)).body;
      expect([one.value, one.valueOn, one.pending.value]).toEqual([25, 28, 28]);
    });
  });
});

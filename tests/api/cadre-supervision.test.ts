// engines: pglite — the supervision records of the cadre area on the module runtime, through the HTTP layer
/**
 * Issue 39 §5, the supervision records a 组织部 keeps per cadre (docs/cadres.md): 干部请假 (`cadre-leave`),
 * 干部兼职 (`cadre-parttime`), 个人有关事项报告 (`cadre-report`) and 考察对象 (`cadre-inspect`). One app without
 * the demo, a unit and a few cadres of its own, a 组织部 role holding the pages and steps and a role holding the
 * pages only. Each rule at its boundary, each refusal 400 in Chinese with nothing saved. The demo's records
 * are read in cadre-demo.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { reportDueDate } from '../../src/server/domain/cadre/supervision.js';
import { login, userWithRole } from '../support/auth.js';
import { PASS, clientOf, type Client } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const TODAY = localToday();
const D = '2026-03-02';
const MODULES = ['cadre-leave', 'cadre-parttime', 'cadre-report', 'cadre-inspect'] as const;
const BUTTONS = ['list', 'add', 'edit', 'delete', 'export', 'import'];
const STEPS = ['cadre-leave:submit', 'cadre-leave:approve', 'cadre-leave:approve-committee', 'cadre-leave:return', 'cadre-leave:reject',
  'cadre-parttime:submit', 'cadre-parttime:approve', 'cadre-parttime:return', 'cadre-parttime:reject', 'cadre-parttime:finish'];

describe(`[39.5] 干部监督记录 on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  let orgdept: Client;
  let viewer: Client;
  let unitId: number;
  const cadres: { id: number; name: string }[] = [];
  const count = async (table: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(t.database.db)).rows[0].n;
  const get = async (module: string, id: number) => (await orgdept('GET', `/api/m/${module}/${id}`)).body as Record<string, unknown> & { version: number; state: number };
  const created = async (module: string, body: Record<string, unknown>) => {
    const res = await orgdept('POST', `/api/m/${module}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, unknown> & { id: number };
  };
  const step = async (who: Client, module: string, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') =>
    who('POST', `/api/m/${module}/${id}/transitions/${transition}`, { version: (await get(module, id)).version, comment, values });
  const ok = async (module: string, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') => {
    const res = await step(orgdept, module, id, transition, values, comment);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Record<string, unknown>;
  };
  /** A 400 with this Chinese message part, and the table's count unchanged. */
  const refused = async (table: string, write: () => Promise<{ status: number; body: { message?: string } }>, part: string) => {
    const before = await count(table);
    const res = await write();
    expect([res.status, res.body.message]).toEqual([400, expect.stringContaining(part)]);
    expect(await count(table)).toBe(before);
    return res.body.message!;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const token = await login(t.app);
    admin = clientOf(t.app, token);
    unitId = (await admin('POST', '/api/m/unit', { name: '监督测试学院', type: '1', code: 'SUP01' })).body.id;
    for (const [i, rank] of ['05', '06', '06', '07'].entries()) {
      const name = `监督测试${i + 1}`;
      const c = await admin('POST', '/api/m/cadre', { name, gender: i % 2 ? '2' : '1', birthDate: '1975-04-0' + (i + 1), unitId, category: '3', rank, tenureStatus: '1' });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      cadres.push({ id: c.body.id, name });
    }
    const permissions = [...MODULES.flatMap((m) => BUTTONS.map((b) => `${m}:${b}`)), ...STEPS, 'cadre-info:list', 'appointment:list', 'msg-remind:list'];
    await userWithRole(t.app, token, { username: 'suporgdept', permissions, dataScope: 'all', password: PASS });
    await userWithRole(t.app, token, { username: 'supviewer', permissions: [...MODULES.map((m) => `${m}:list`), 'cadre-info:list'], dataScope: 'all', password: PASS });
    orgdept = clientOf(t.app, await login(t.app, 'suporgdept', PASS));
    viewer = clientOf(t.app, await login(t.app, 'supviewer', PASS));
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
  });

  it('[39.5] 干部请假: named and placed after the cadre, days counted from the dates; an end on the start day passes, the day before is refused naming both dates', async () => {
    const [c] = cadres;
    const one = await created('cadre-leave', { cadreId: c.id, kind: '事假', startDate: D, endDate: D, reason: '处理家庭事务', destination: '上海' });
    expect(one).toMatchObject({ name: c.name, unitId, days: 1, approver: '党委组织部', state: -1, stateLabel: '待提交' });
    await refused('m_cadre_leave', () => orgdept('POST', '/api/m/cadre-leave', { cadreId: c.id, kind: '事假', startDate: D, endDate: addDays(D, -1), reason: '处理家庭事务' }),
      `结束日期（${addDays(D, -1)}）不能早于开始日期（${D}）`);
    // The state shows in the list, with its label.
    const list = (await orgdept('POST', '/api/m/cadre-leave/list', { cadreId: c.id })).body.content as Record<string, unknown>[];
    expect(list).toEqual([expect.objectContaining({ id: one.id, state: -1, stateLabel: '待提交', days: 1 })]);
  });

  it('[39.5] 干部请假: 党委组织部 approves up to committeeDays (5) days, 6 days go to 校党委 — the wrong approval refused naming the rule parameter; a return makes it editable again', async () => {
    const [, c] = cadres;
    const five = await created('cadre-leave', { cadreId: c.id, kind: '年休假', startDate: D, endDate: addDays(D, 4), reason: '休年休假' });
    expect(five).toMatchObject({ days: 5, approver: '党委组织部' });
    await ok('cadre-leave', five.id, 'submit');
    const wrong = await step(orgdept, 'cadre-leave', five.id, 'approveCommittee');
    expect([wrong.status, wrong.body.message]).toEqual([400, `${c.name}请假5天，未超过5天，由党委组织部审批（规则参数：干部请假·须校党委审批的请假天数）`]);
    expect(await ok('cadre-leave', five.id, 'approve')).toMatchObject({ state: 1, stateLabel: '已批准', approveDate: TODAY, approver: '党委组织部' });

    const six = await created('cadre-leave', { cadreId: c.id, kind: '探亲假', startDate: D, endDate: addDays(D, 5), reason: '探望父母', destination: '成都' });
    expect(six).toMatchObject({ days: 6, approver: '校党委' });
    await ok('cadre-leave', six.id, 'submit');
    const refusedStep = await step(orgdept, 'cadre-leave', six.id, 'approve');
    expect([refusedStep.status, refusedStep.body.message]).toEqual([400, `${c.name}请假6天，超过5天，应由校党委审批（规则参数：干部请假·须校党委审批的请假天数）`]);
    expect((await get('cadre-leave', six.id)).state).toBe(0);
    // In flight the generic PUT is refused; returned, it is a draft again and may be corrected.
    expect((await orgdept('PUT', '/api/m/cadre-leave', { id: six.id, version: (await get('cadre-leave', six.id)).version, destination: '重庆' })).status).toBe(409);
    await ok('cadre-leave', six.id, 'return', {}, '请补充工作交接安排');
    expect((await get('cadre-leave', six.id)).state).toBe(-1);
    const corrected = await orgdept('PUT', '/api/m/cadre-leave', { id: six.id, version: (await get('cadre-leave', six.id)).version, destination: '重庆' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    await ok('cadre-leave', six.id, 'submit');
    expect(await ok('cadre-leave', six.id, 'approveCommittee')).toMatchObject({ state: 1, approver: '校党委' });
  });

  it('[39.5] 干部兼职: 3 current approved posts in 社会团体 pass, the 4th is refused naming the rule parameter; other kinds are not counted; a post ended the day before frees a place', async () => {
    const [c] = cadres;
    const social = (n: number, extra: Record<string, unknown> = {}) => ({ cadreId: c.id, organisation: `测试学会${n}`, post: '理事', category: '社会团体', startDate: '2025-01-01', ...extra });
    const approvedIds: number[] = [];
    for (const n of [1, 2, 3]) {
      const p = await created('cadre-parttime', social(n));
      expect(p).toMatchObject({ name: c.name, unitId, state: -1, paid: false });
      await ok('cadre-parttime', p.id, 'submit');
      expect(await ok('cadre-parttime', p.id, 'approve')).toMatchObject({ state: 1, approveDate: TODAY });
      approvedIds.push(p.id);
    }
    const fourth = await created('cadre-parttime', social(4, { startDate: D }));
    const message = `${c.name}经批准、尚未结束的社会团体兼职已有3个，社会团体兼职不得超过3个。`;
    const first = await step(orgdept, 'cadre-parttime', fourth.id, 'submit');
    expect([first.status, first.body.message]).toEqual([400, expect.stringContaining(message)]);
    expect(first.body.message).toContain('（规则参数：干部兼职·社会团体兼职数量上限）');
    expect((await get('cadre-parttime', fourth.id)).state).toBe(-1);
    // An academic organisation is not a 社会团体: it passes.
    const academic = await created('cadre-parttime', { cadreId: c.id, organisation: '全国高校思政研究会', post: '常务理事', category: '学术组织', startDate: D });
    expect((await ok('cadre-parttime', academic.id, 'submit')).state).toBe(0);
    // 结束兼职: an end before the start refused; ended on the 4th's start day it still counts, the day before it does not.
    expect((await step(orgdept, 'cadre-parttime', approvedIds[0], 'finish', { endDate: '2024-12-31' })).body.message).toBe('兼职结束日期（2024-12-31）不能早于兼职开始日期（2025-01-01）');
    await ok('cadre-parttime', approvedIds[0], 'finish', { endDate: D });
    expect((await step(orgdept, 'cadre-parttime', fourth.id, 'submit')).status).toBe(400);
    await ok('cadre-parttime', approvedIds[0], 'finish', { endDate: addDays(D, -1) });
    expect((await ok('cadre-parttime', fourth.id, 'submit')).state).toBe(0);
    expect((await ok('cadre-parttime', fourth.id, 'approve')).state).toBe(1);
  });

  it('[39.5] 干部兼职: 报酬 only of a paid post (asked then, dropped otherwise); an end before the start refused naming both dates', async () => {
    const [, c] = cadres;
    const base = { cadreId: c.id, organisation: '学校资产经营有限公司', post: '董事', category: '企业', startDate: D };
    await refused('m_cadre_parttime', () => orgdept('POST', '/api/m/cadre-parttime', { ...base, paid: true }), '取酬的兼职请填写报酬');
    expect(await created('cadre-parttime', { ...base, paid: true, remuneration: '3000.00' })).toMatchObject({ paid: true, remuneration: '3000.00' });
    const unpaid = await created('cadre-parttime', { ...base, paid: false, remuneration: '3000.00' });
    expect(unpaid.remuneration ?? null).toBeNull();
    await refused('m_cadre_parttime', () => orgdept('POST', '/api/m/cadre-parttime', { ...base, endDate: addDays(D, -1) }), `兼职结束日期（${addDays(D, -1)}）不能早于兼职开始日期（${D}）`);
  });

  it('[39.5] 个人有关事项报告: one per cadre and year (refused naming the year), 处理意见 required when the check found it 不一致, 未抽查 means 未核查', async () => {
    const [c] = cadres;
    const report = await created('cadre-report', { cadreId: c.id, year: 2025, reportDate: '2025-01-20' });
    expect(report).toMatchObject({ name: c.name, unitId, checkMethod: '未抽查', checkResult: '未核查' });
    await refused('m_cadre_report', () => orgdept('POST', '/api/m/cadre-report', { cadreId: c.id, year: 2025, reportDate: '2025-01-25' }), `${c.name}2025年度的个人有关事项报告已存在`);
    await created('cadre-report', { cadreId: c.id, year: 2024, reportDate: '2024-01-20' });
    await refused('m_cadre_report', () => orgdept('POST', '/api/m/cadre-report', { cadreId: cadres[1].id, year: 2025, reportDate: '2025-01-22', checkMethod: '随机抽查', checkResult: '不一致（漏报）' }),
      '核查结果为“不一致（漏报）”时请填写处理意见');
    await refused('m_cadre_report', () => orgdept('POST', '/api/m/cadre-report', { cadreId: cadres[1].id, year: 2025, reportDate: '2025-01-22', checkMethod: '未抽查', checkResult: '一致' }),
      '核查方式为“未抽查”时，核查结果应为“未核查”');
    expect(await created('cadre-report', { cadreId: cadres[1].id, year: 2025, reportDate: '2025-01-22', checkMethod: '随机抽查', checkResult: '不一致（瞒报）', handling: '诫勉' }))
      .toMatchObject({ checkResult: '不一致（瞒报）', handling: '诫勉' });
    // Changing the year onto another report of the cadre is refused as well.
    const twin = await orgdept('PUT', '/api/m/cadre-report', { id: report.id, version: (await get('cadre-report', report.id)).version, year: 2024 });
    expect([twin.status, twin.body.message]).toEqual([400, `${c.name}2024年度的个人有关事项报告已存在`]);
  });

  it('[39.5] 个人有关事项报告: serving cadres of 县处级副职 and above without the year\'s report are reminded from 30 days before the due day — on 1 January, 29 February, 31 December alike; the due day is a rule parameter', async () => {
    const reminders = async () => new Map((await sql<{ expected_key: number; state: number; due_date: string; record_name: string; record_id: number }>`
      SELECT expected_key, state, due_date::text AS due_date, record_name, record_id FROM reminders WHERE module = 'cadre-report' AND state <> 3`.execute(t.database.db)).rows.map((r) => [r.expected_key, r]));
    const refresh = (today: string) => t.app.runtime.reminders.refresh({ modules: ['cadre-report'], today });
    const [a, b, c, kegu] = cadres;
    // a reported for 2028; b, c did not; the 正科级 cadre is not a reporting cadre.
    await created('cadre-report', { cadreId: a.id, year: 2028, reportDate: TODAY });
    await refresh('2028-01-01');
    let now = await reminders();
    expect(now.get(b.id)).toMatchObject({ state: 2, due_date: '2028-01-31', record_name: b.name, record_id: 2028 });
    expect(now.get(c.id)).toMatchObject({ state: 2, due_date: '2028-01-31' });
    expect(now.has(a.id)).toBe(false);
    expect(now.has(kegu.id)).toBe(false);
    // The 组织部 receives it and lists it under the module.
    const listed = (await orgdept('GET', '/api/reminders?module=cadre-report&state=2')).body.content as { recordName: string; dueDate: string }[];
    expect(listed.map((r) => r.recordName).sort()).toEqual([b.name, c.name].sort());
    // Overdue all year: 29 February and 31 December of 2028 still remind b.
    for (const day of ['2028-02-29', '2028-12-31']) {
      await refresh(day);
      expect((await reminders()).get(b.id)).toMatchObject({ state: 2, due_date: '2028-01-31' });
    }
    // A new year: the 2029 report is expected of a as well, and b's report ends b's reminder at once.
    await refresh('2029-01-01');
    expect((await reminders()).get(a.id)).toMatchObject({ state: 2, due_date: '2029-01-31', record_id: 2029 });
    // The due day set to 3月31日: announced from 1 March; on 29 February not yet.
    const changed = await admin('PUT', '/api/rule-params/cadre-report.dueMonth', { value: 3, reason: '学校调整集中报告截止日期' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await refresh('2028-02-29');
    expect((await reminders()).get(b.id)).toMatchObject({ state: 1, due_date: '2028-03-31' });
    await refresh('2028-03-01');
    expect((await reminders()).get(b.id)).toMatchObject({ state: 2, due_date: '2028-03-31' });
    await created('cadre-report', { cadreId: b.id, year: 2028, reportDate: TODAY });
    await refresh('2028-03-01');
    now = await reminders();
    expect(now.has(b.id)).toBe(false);
    expect(now.get(c.id)).toMatchObject({ state: 2 });
    // A day the month lacks is its last: 2月30日 is 29 February in a leap year, 28 February otherwise.
    expect([reportDueDate(2028, 2, 30), reportDueDate(2027, 2, 30), reportDueDate(2028, 12, 31), reportDueDate(2028, 1, 1)]).toEqual(['2028-02-29', '2027-02-28', '2028-12-31', '2028-01-01']);
  });

  it('[39.5] 考察对象: only from an appointment past 民主推荐 (已动议 refused naming its state); the cadre and unit from it; once per cadre and appointment; 考察时间 not before the 民主推荐', async () => {
    const c = cadres[2];
    const appointment = await admin('POST', '/api/m/appointment', { cadreId: c.id, unitId, post: '11', rank: '06', kind: '平级转任' });
    expect(appointment.status, JSON.stringify(appointment.body)).toBe(201);
    const id = appointment.body.id as number;
    const takeStep = async (transition: string, values: Record<string, unknown>) => {
      const version = (await admin('GET', `/api/m/appointment/${id}`)).body.version;
      const res = await admin('POST', `/api/m/appointment/${id}/transitions/${transition}`, { version, values });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const recommendDate = '2026-02-10';
    await takeStep('propose', { proposeDate: '2026-02-01', proposeReason: '工作需要，平级交流' });
    const body = { appointmentId: id, team: '党委组织部考察组（3人）', inspectDate: recommendDate, conclusion: '称职' };
    await refused('m_cadre_inspect', () => orgdept('POST', '/api/m/cadre-inspect', body), `${c.name}的选拔任用尚未经过民主推荐（当前状态：已动议），不能确定为考察对象`);
    await takeStep('recommend', { recommendDate, recommendMethod: '会议推荐和谈话调研推荐', recommendParticipants: 40, recommendVotes: 31 });
    await refused('m_cadre_inspect', () => orgdept('POST', '/api/m/cadre-inspect', { ...body, inspectDate: addDays(recommendDate, -1) }),
      `考察时间（${addDays(recommendDate, -1)}）不能早于民主推荐日期（${recommendDate}）`);
    const inspect = await created('cadre-inspect', body);
    expect(inspect).toMatchObject({ cadreId: c.id, name: c.name, unitId, post: '11', conclusion: '称职', appointmentIdName: c.name });
    await refused('m_cadre_inspect', () => orgdept('POST', '/api/m/cadre-inspect', { ...body, inspectDate: addDays(recommendDate, 3) }), `${c.name}已是该选拔任用的考察对象`);
  });

  it('[39.5] a role holding the pages only is refused every write (403); a role without the pages cannot list them (403)', async () => {
    const [c] = cadres;
    const bodies: Record<(typeof MODULES)[number], Record<string, unknown>> = {
      'cadre-leave': { cadreId: c.id, kind: '病假', startDate: D, endDate: D, reason: '就医' },
      'cadre-parttime': { cadreId: c.id, organisation: '测试协会', post: '理事', category: '其他', startDate: D },
      'cadre-report': { cadreId: c.id, year: 2023, reportDate: '2023-01-10' },
      'cadre-inspect': { appointmentId: 1, team: '考察组', inspectDate: D },
    };
    for (const m of MODULES) {
      expect((await viewer('POST', `/api/m/${m}/list`, {})).status, m).toBe(200);
      expect((await viewer('POST', `/api/m/${m}`, bodies[m])).status, m).toBe(403);
    }
    const leave = (await orgdept('POST', '/api/m/cadre-leave/list', {})).body.content.find((r: { state: number }) => r.state === -1) as { id: number };
    expect((await step(viewer, 'cadre-leave', leave.id, 'submit')).status).toBe(403);
    const token = await login(t.app);
    await userWithRole(t.app, token, { username: 'supnone', permissions: ['cadre-info:list'], dataScope: 'all', password: PASS });
    const none = clientOf(t.app, await login(t.app, 'supnone', PASS));
    for (const m of MODULES) expect((await none('POST', `/api/m/${m}/list`, {})).status, m).toBe(403);
  });
});

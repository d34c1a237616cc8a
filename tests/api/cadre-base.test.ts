// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the résumé guard and the staffing counts read and write inside the write's transaction, and the reminders table is recomputed there
/**
 * The cadre base (干部信息管理, docs/cadres.md): the nine kinds of records of one cadre and its show types,
 * the change records (module code 1), the résumé continuity guard and the staffing warning at their
 * boundaries, the leadership team's counts and structure, the lookups gbjbxx / ldbzxx in the caller's unit
 * scope, and the six reminders through `GET /api/reminders?module=cadre&type=N` with their due dates and
 * the day their announcement starts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { login, userWithRole } from '../support/auth.js';
import { clientOf, type Client } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const TODAY = localToday();
const PASS = 'Cadre@2026pass';

interface Reminder {
  module: string;
  recordId: number;
  type: string;
  code: number | null;
  dueDate: string;
  state: number;
  link: string | null;
  recordName: string;
}

describe(`cadre base on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  let unitA: number;
  let unitB: number;
  let n = 0;

  const created = async (who: Client, url: string, body: Record<string, unknown>) => {
    const res = await who('POST', url, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, unknown> & { id: number; version: number };
  };
  const newCadre = (extra: Record<string, unknown> = {}) =>
    created(admin, '/api/m/cadre', { name: `干部${++n}`, gender: '1', birthDate: '1975-03-10', unitId: unitA, category: '2', rank: '05', ...extra });
  const setting = (key: string, value: string) => sql`UPDATE sys_config SET config_value = ${value} WHERE config_key = ${key}`.execute(t.database.db);
  /** A rule parameter set by an administrator (系统管理 → 规则参数, issue 42), in force from today. */
  const param = async (key: string, value: number) => {
    const res = await admin('PUT', `/api/rule-params/${key}`, { value, reason: `干部测试：${value}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const reminders = async (query: string, who = admin) => ((await who('GET', `/api/reminders?${query}&size=200`)).body as { content: Reminder[] }).content;
  /** The reminder of one record of a module as of `today` (recomputed for that day). */
  const reminderOn = async (module: string, type: string, recordId: number, today: string) => {
    await t.app.runtime.reminders.refresh({ modules: [module], types: [type], today });
    return (await sql<{ due_date: string; state: number }>`SELECT due_date::text, state FROM reminders WHERE module = ${module} AND type = ${type} AND record_id = ${recordId}`.execute(t.database.db)).rows[0];
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = clientOf(t.app, await login(t.app));
    unitA = (await created(admin, '/api/m/unit', { name: '干部测试学院', type: '1', code: 'CADRE-A' })).id;
    unitB = (await created(admin, '/api/m/unit', { name: '干部测试处', type: '2', code: 'CADRE-B' })).id;
  });
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
  });

  it('[S1.F3a] a cadre holds the nine kinds of records; the show types give the full file or the short views; changes are recorded under module 1', async () => {
    const c = await newCadre();
    const id = c.id;
    await created(admin, '/api/m/cadre-archive', { cadreId: id, fileNo: 'DA-001', keptAt: '党委组织部', reviewDate: '2024-05-01', result: '审核无误' });
    await created(admin, '/api/m/cadre-post', { cadreId: id, kind: '职务', unitId: unitA, post: '10', rank: '05', startDate: '2022-01-01', appointDocNo: '校党任〔2022〕1号' });
    await created(admin, '/api/m/cadre-education', { cadreId: id, kind: '全日制教育', institution: '湖南大学', major: '计算机科学', education: '21', degree: '4', startDate: '1993-09-01', endDate: '1997-07-01' });
    await created(admin, '/api/m/cadre-family', { cadreId: id, relation: '1', name: '王某', workplace: '某中学教师' });
    await created(admin, '/api/m/cadre-training', { cadreId: id, name: '中青年干部培训班', organizer: '省委党校', startDate: '2021-03-01', endDate: '2021-04-30', hours: 120 });
    await created(admin, '/api/m/cadre-basic-assessment', { cadreId: id, kind: '奖励', date: '2020-09-10', content: '优秀教师' });
    await created(admin, '/api/m/cadre-assessment', { cadreId: id, year: 2024, result: '优秀', unitId: unitA });
    await created(admin, '/api/m/cadre-resume', { cadreId: id, startDate: '1997-07-01', endDate: '2021-12-31', text: '湖南大学教师' });
    await created(admin, '/api/m/cadre-resume', { cadreId: id, startDate: '2022-01-01', text: '干部测试学院院长' });

    const full = (await admin('GET', `/api/cadre/${id}/profile`)).body;
    expect(full.showType).toBe('full');
    for (const m of ['cadre-archive', 'cadre-post', 'cadre-education', 'cadre-family', 'cadre-training', 'cadre-basic-assessment', 'cadre-assessment', 'cadre-resume']) expect(full.sections[m], m).toHaveLength(m === 'cadre-resume' ? 2 : 1);
    const resume = (await admin('GET', `/api/cadre/${id}/profile?showType=resume`)).body;
    expect(Object.keys(resume.sections)).toEqual(['cadre-resume']);
    expect(Object.keys((await admin('GET', `/api/cadre/${id}/profile?showType=basic`)).body.sections)).toEqual([]);
    expect((await admin('GET', `/api/cadre/${id}/profile?showType=posts`)).body.sections['cadre-post'][0].appointDocNo).toBe('校党任〔2022〕1号');
    expect((await admin('GET', `/api/cadre/${id}/profile?showType=nope`)).status).toBe(400);

    const upd = await admin('PUT', '/api/m/cadre', { id, version: c.version, phone: '13800001111' });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const trail = (await admin('GET', `/api/m/cadre/${id}/trail`)).body;
    expect(trail.content[0]).toMatchObject({ moduleCode: 1, type: 2 });
    // The unit register's changes are the managing department's (module 50).
    expect((await admin('GET', `/api/m/unit/${unitA}/trail`)).body.content[0].moduleCode).toBe(50);
  });

  it('[S1.F3a] the work record stays continuous: the next full-time entry starts in the month after the last ended at the latest, never before it ended', async () => {
    const { id } = await newCadre();
    await created(admin, '/api/m/cadre-resume', { cadreId: id, startDate: '2000-07-01', endDate: '2010-06-30', text: '教师' });
    // The month after: continuous. Two months after: a gap of one month, refused (setting 0).
    const gap = await admin('POST', '/api/m/cadre-resume', { cadreId: id, startDate: '2010-08-01', endDate: '2015-12-31', text: '副教授' });
    expect(gap.status).toBe(400);
    expect(gap.body.message).toContain('断档1个月');
    expect(gap.body.message).toContain('干部人事档案工作条例');
    // The month before the previous one ended: overlapping, refused; the month it ended: allowed.
    const overlap = await admin('POST', '/api/m/cadre-resume', { cadreId: id, startDate: '2010-05-15', endDate: '2015-12-31', text: '副教授' });
    expect(overlap.status).toBe(400);
    expect(overlap.body.message).toContain('重叠');
    const second = await created(admin, '/api/m/cadre-resume', { cadreId: id, startDate: '2010-06-30', endDate: '2015-12-31', text: '副教授' });
    await created(admin, '/api/m/cadre-resume', { cadreId: id, startDate: '2016-01-01', text: '教授' });
    // A part-time entry may overlap.
    await created(admin, '/api/m/cadre-resume', { cadreId: id, startDate: '2012-01-01', endDate: '2013-01-01', text: '兼任系主任', fullTime: false });
    // Removing the middle would open a gap.
    const del = await admin('DELETE', '/api/m/cadre-resume', { ids: [second.id] });
    expect(del.status).toBe(400);
    expect(del.body.message).toContain('删除后简历不连续');
    // A school allowing two months: a two-month gap passes, three do not.
    await param('cadre.resumeGapMonths', 2);
    try {
      const other = await newCadre();
      await created(admin, '/api/m/cadre-resume', { cadreId: other.id, startDate: '2000-01-01', endDate: '2000-12-31', text: '甲' });
      expect((await admin('POST', '/api/m/cadre-resume', { cadreId: other.id, startDate: '2001-04-01', endDate: '2001-12-31', text: '乙' })).status).toBe(400);
      await created(admin, '/api/m/cadre-resume', { cadreId: other.id, startDate: '2001-03-01', endDate: '2001-12-31', text: '乙' });
    } finally {
      await param('cadre.resumeGapMonths', 0);
    }
  });

  it('[S1.F14h] staffing: up to the approved number a post is taken, one beyond needs a reason; occupied, vacant and over follow the posts', async () => {
    const unit = (await created(admin, '/api/m/unit', { name: '编制测试学院', type: '1', code: 'CADRE-S' })).id;
    const row = await created(admin, '/api/m/staffing', { unitId: unit, rank: '06', approved: 2 });
    expect(row).toMatchObject({ occupied: 0, vacant: 2, excess: 0, status: '空缺' });
    const post = async (extra: Record<string, unknown> = {}) => admin('POST', '/api/m/cadre-post', { cadreId: (await newCadre({ unitId: unit })).id, kind: '职务', unitId: unit, post: '11', rank: '06', startDate: '2024-01-01', ...extra });
    expect((await post()).status).toBe(201);
    const second = await post();
    expect(second.status).toBe(201); // the second of two: 满编
    expect((await admin('GET', `/api/m/staffing/${row.id}`)).body).toMatchObject({ occupied: 2, vacant: 0, excess: 0, status: '满编' });
    const third = await post();
    expect(third.status).toBe(400);
    expect(third.body.errors[0].field).toBe('overReason');
    expect(third.body.message).toContain('核定职数2名，已配备2名');
    // A part-time post does not count; with a reason the third is appointed and the row shows 超编.
    expect((await post({ fullTime: false })).status).toBe(201);
    expect((await post({ overReason: '学科建设急需，经党委常委会研究同意' })).status).toBe(201);
    expect((await admin('GET', `/api/m/staffing/${row.id}`)).body).toMatchObject({ occupied: 3, vacant: 0, excess: 1, status: '超编' });
    // Ending a post frees its place.
    const p = (await admin('GET', `/api/m/cadre-post/${second.body.id}`)).body;
    expect((await admin('PUT', '/api/m/cadre-post', { id: p.id, version: p.version, endDate: addDays(TODAY, -1), removeDocNo: '校党任〔2026〕9号' })).status).toBe(200);
    expect((await admin('GET', `/api/m/staffing/${row.id}`)).body).toMatchObject({ occupied: 2, status: '满编' });

    // The unit's team: its plan is the approved posts, its members the current full-time posts.
    const team = await created(admin, '/api/m/leader-team', { unitId: unit, name: '编制测试学院领导班子', teamType: '2', termStart: '2024-01-01', termYears: 5 });
    expect(team).toMatchObject({ termEnd: '2029-01-01', planSize: 2, memberCount: 2 });
    const detail = (await admin('GET', `/api/cadre/teams/${team.id}`)).body;
    expect(detail.members).toHaveLength(2);
    expect(detail.plan).toEqual([expect.objectContaining({ rank: '06', approved: 2, actual: 2 })]);
    expect(detail.structure.gender).toEqual([{ label: '男', count: 2 }]);
  });

  it('[S7.F3b][S7.F3h][S1.F3c] gbjbxx and ldbzxx answer real cadres and teams, paged, in the caller\'s unit scope', async () => {
    await newCadre({ unitId: unitB, name: '范围外干部' });
    await created(admin, '/api/m/leader-team', { unitId: unitA, name: '干部测试学院领导班子', teamType: '2' });
    const all = (await admin('GET', '/api/common/gbjbxx?page=0&size=2')).body;
    expect(all.content).toHaveLength(2);
    expect(all.totalElements).toBeGreaterThan(2);
    const role = await admin('POST', '/api/roles', { name: '干部科A', code: 'r_cadre_a', permissions: ['cadre-info:list', 'cadre-leadership:list', 'msg-remind:list'], dataScope: 'own', unitScope: 'custom', scopeUnitIds: [unitA] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const user = await admin('POST', '/api/users', { username: 'cadre_a', nickName: '干部科A', roles: [role.body.id] });
    expect(user.status).toBe(201);
    const { hashPassword } = await import('../../src/server/core/passwords.js');
    await t.database.db.updateTable('users').set({ password_hash: await hashPassword(PASS), password_weak: false }).where('id', '=', user.body.id).execute();
    const scoped = clientOf(t.app, await login(t.app, 'cadre_a', PASS));
    const mine = (await scoped('GET', '/api/common/gbjbxx?size=1000')).body;
    expect(mine.totalElements).toBeGreaterThan(0);
    expect(mine.content.every((c: { unitId: number }) => c.unitId === unitA)).toBe(true);
    const teams = (await scoped('GET', '/api/common/ldbzxx?size=100')).body;
    expect(teams.content.map((x: { name: string }) => x.name)).toEqual(['干部测试学院领导班子']);
    expect(Array.isArray(teams.content[0].members)).toBe(true);
    // The scoped user's reminders keep to unit A (the cadres' and, through the cadre, their posts').
    await t.app.runtime.reminders.refresh({ today: TODAY });
    const seen = await reminders('module=cadre', scoped);
    const everything = await reminders('module=cadre');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(everything.length);
    for (const r of seen) {
      const table = r.module.replaceAll('-', '_');
      const unit = r.module === 'cadre'
        ? (await sql<{ u: number }>`SELECT unit_id AS u FROM m_cadre WHERE id = ${r.recordId}`.execute(t.database.db)).rows[0].u
        : (await sql<{ u: number }>`SELECT c.unit_id AS u FROM ${sql.table(`m_${table}`)} x JOIN m_cadre c ON c.id = x.cadre_id WHERE x.id = ${r.recordId}`.execute(t.database.db)).rows[0].u;
      expect(unit).toBe(unitA);
    }
  });

  it('[S1.F3a] the cadre pages ask the uKey of the roles the setting names, for accounts signing with one; a change to the cadre base pushes gb_base_refresh', async () => {
    const role = await admin('POST', '/api/roles', { name: '干部科B', code: 'r_cadre_b', permissions: ['cadre-info:list'], dataScope: 'all' });
    const user = await admin('POST', '/api/users', { username: 'cadre_b', nickName: '干部科B', roles: [role.body.id] });
    const { hashPassword } = await import('../../src/server/core/passwords.js');
    await t.database.db.updateTable('users').set({ password_hash: await hashPassword(PASS), password_weak: false, use_ukey: true }).where('id', '=', user.body.id).execute();
    const keyed = clientOf(t.app, await login(t.app, 'cadre_b', PASS));
    expect((await keyed('GET', '/api/cadre/ukey')).body).toEqual({ required: false, verified: false });
    await setting('cadreUkeyRoles', 'r_other, r_cadre_b');
    try {
      // Until the key is proved to the server (issue 38.9, tests/api/security-findings.test.ts).
      expect((await keyed('GET', '/api/cadre/ukey')).body).toEqual({ required: true, verified: false });
      // An account without one of the roles is not asked.
      expect((await admin('GET', '/api/cadre/ukey')).body).toEqual({ required: false, verified: false });
    } finally {
      await setting('cadreUkeyRoles', '');
    }

    const pushed: { userIds: number[]; event: Record<string, unknown> }[] = [];
    const messages = t.app.services.messages;
    const original = messages.push.bind(messages);
    messages.push = (userIds, event) => {
      pushed.push({ userIds, event });
      original(userIds, event);
    };
    try {
      const c = await newCadre();
      await expect.poll(() => pushed.find((p) => p.event.type === 'gb_base_refresh' && (p.event.ids as number[]).includes(c.id))).toBeTruthy();
      const frame = pushed.find((p) => p.event.type === 'gb_base_refresh')!;
      expect(frame.event).toMatchObject({ module: 'cadre', action: 'created' });
      expect(frame.userIds).toContain(user.body.id);
    } finally {
      messages.push = original;
    }
  });

  it('[S1.F3a] reminder 1 (term) is due at the post\'s start + its term, announced 180 days ahead: not the day before, from the day of', async () => {
    // Someone who receives it: the announcements go to holders of cadre-info:edit (superusers never receive).
    const role = await admin('POST', '/api/roles', { name: '干部科T', code: 'r_cadre_t', permissions: ['cadre-info:list', 'cadre-info:edit', 'msg-remind:list'], dataScope: 'all' });
    expect((await admin('POST', '/api/users', { username: 'cadre_t', nickName: '干部科T', roles: [role.body.id] })).status).toBe(201);
    const { id: cadreId, name: cadreName } = await newCadre();
    const start = addMonths(addDays(TODAY, 100), -12 * 4); // the term ends in 100 days
    const post = await created(admin, '/api/m/cadre-post', { cadreId, kind: '职务', unitId: unitB, post: '17', rank: '05', startDate: start, termYears: 4 });
    const due = addMonths(start, 48);
    const list = await reminders('module=cadre&type=1');
    // [43.11] the reminder names the person whose post it is, and its announcement the person and the unit.
    expect(list.find((r) => r.recordId === post.id)).toMatchObject({ module: 'cadre-post', type: 'term-expiry', code: 1, dueDate: due, state: 2, recordName: expect.stringMatching(new RegExp(`^${cadreName}`)) });
    const sent = (await sql<{ title: string; content: string }>`SELECT o.title, o.content FROM reminder_outbox o JOIN reminders r ON r.id = o.reminder_id WHERE r.module = 'cadre-post' AND r.record_id = ${post.id}`.execute(t.database.db)).rows;
    const unitName = (await admin('GET', `/api/m/unit/${unitB}`)).body.name as string;
    expect(sent).toHaveLength(1);
    expect(sent[0].title).toBe(`干部任期到期：${cadreName}`);
    expect(sent[0].content).toMatch(new RegExp(`^${unitName}${cadreName}担任的${post.postLabel}职务任期于`));
    expect(await reminderOn('cadre-post', 'term-expiry', post.id, addDays(due, -181))).toEqual({ due_date: due, state: 1 });
    expect(await reminderOn('cadre-post', 'term-expiry', post.id, addDays(due, -180))).toEqual({ due_date: due, state: 2 });
    // Removed from the post: the reminder ends.
    const p = (await admin('GET', `/api/m/cadre-post/${post.id}`)).body;
    await admin('PUT', '/api/m/cadre-post', { id: p.id, version: p.version, endDate: TODAY });
    expect((await reminders('module=cadre&type=1')).find((r) => r.recordId === post.id)?.state).toBe(3);
  });

  it('[S1.F3a][39.2] reminder 2 (age) is due at the statutory age of the 2025 decision, for every serving cadre (在任 and 试用期); retireDate is computed on every write', async () => {
    const man = await newCadre({ gender: '1', birthDate: '1966-08-31', rank: '07' }); // +5 months: 2027-01-31
    const woman = await newCadre({ gender: '2', birthDate: '1971-02-28', rank: '07', tenureStatus: '2' }); // 55 + 4 months, on probation
    const chu = await newCadre({ gender: '2', birthDate: '1971-02-28', rank: '06', retireDate: '2020-01-01' }); // 处级: 60 (组通字〔2015〕14号)
    const early = await newCadre({ gender: '2', birthDate: '1971-02-28', rank: '06', retireEarly: true });
    const gone = await newCadre({ gender: '1', birthDate: '1966-08-31', rank: '07', tenureStatus: '3' }); // 免职: none
    expect(man.retireDate).toBe('2027-01-31');
    expect(chu.retireDate).toBe('2031-02-28'); // the client's value is ignored
    expect(early.retireDate).toBe('2026-06-28');
    const list = await reminders('module=cadre&type=2');
    expect(list.find((r) => r.recordId === man.id)).toMatchObject({ type: 'age-expiry', dueDate: '2027-01-31' });
    expect(list.find((r) => r.recordId === woman.id)).toMatchObject({ dueDate: '2026-06-28' });
    expect(list.find((r) => r.recordId === gone.id)).toBeUndefined();
    expect(await reminderOn('cadre', 'age-expiry', man.id, '2026-08-03')).toEqual({ due_date: '2027-01-31', state: 1 });
    expect(await reminderOn('cadre', 'age-expiry', man.id, '2026-08-04')).toEqual({ due_date: '2027-01-31', state: 2 });
    // A change of rank recomputes it: 副处 → 正科 makes her a woman of the 55 line again.
    const cur = (await admin('GET', `/api/m/cadre/${chu.id}`)).body;
    expect((await admin('PUT', '/api/m/cadre', { id: chu.id, version: cur.version, rank: '07' })).body.retireDate).toBe('2026-06-28');
    await t.app.runtime.reminders.refresh({ modules: ['cadre'], today: TODAY });
  });

  it('[S1.F3a] reminder 3 (probation) is due on probationEnd, announced 30 days ahead, and ends with the confirmation', async () => {
    const { id: cadreId } = await newCadre();
    const end = addDays(TODAY, 20);
    const post = await created(admin, '/api/m/cadre-post', { cadreId, kind: '职务', unitId: unitB, post: '18', rank: '06', startDate: addMonths(end, -12), probationEnd: end });
    // A post has no page of its own: its reminder opens the cadre (x-page of the parent).
    expect((await reminders('module=cadre&type=3')).find((r) => r.recordId === post.id)).toMatchObject({ type: 'probation-expiry', dueDate: end, state: 2, link: `/cadre/info?id=${cadreId}` });
    expect(await reminderOn('cadre-post', 'probation-expiry', post.id, addDays(end, -31))).toEqual({ due_date: end, state: 1 });
    expect(await reminderOn('cadre-post', 'probation-expiry', post.id, addDays(end, -30))).toEqual({ due_date: end, state: 2 });
    const p = (await admin('GET', `/api/m/cadre-post/${post.id}`)).body;
    await admin('PUT', '/api/m/cadre-post', { id: p.id, version: p.version, confirmDate: TODAY });
    expect((await reminders('module=cadre&type=3')).find((r) => r.recordId === post.id)?.state).toBe(3);
  });

  it('[S1.F3a] reminder 4 (secondment) is due on its end date and ends the day after it', async () => {
    const { id: cadreId } = await newCadre();
    const end = addDays(TODAY, 10);
    const s = await created(admin, '/api/m/cadre-secondment', { cadreId, place: '某县人民政府', post: '副县长', startDate: addMonths(end, -24), endDate: end });
    expect((await reminders('module=cadre&type=4')).find((r) => r.recordId === s.id)).toMatchObject({ module: 'cadre-secondment', dueDate: end, state: 2 });
    expect(await reminderOn('cadre-secondment', 'secondment-expiry', s.id, addDays(end, -31))).toEqual({ due_date: end, state: 1 });
    expect(await reminderOn('cadre-secondment', 'secondment-expiry', s.id, end)).toEqual({ due_date: end, state: 2 });
    expect(await reminderOn('cadre-secondment', 'secondment-expiry', s.id, addDays(end, 1))).toEqual({ due_date: end, state: 3 });
  });

  it('[issue 40.3] a leadership team\'s 届满 is reminded 180 days ahead (not the day before), naming the unit and the team', async () => {
    // Someone who receives it: holders of cadre-leadership:edit (superusers never receive).
    const role = await admin('POST', '/api/roles', { name: '班子管理T', code: 'r_team_t', permissions: ['cadre-leadership:list', 'cadre-leadership:edit', 'msg-remind:list'], dataScope: 'all' });
    expect((await admin('POST', '/api/users', { username: 'team_t', nickName: '班子管理T', roles: [role.body.id] })).status).toBe(201);
    const termStart = addMonths(addDays(TODAY, 100), -60);
    const team = await created(admin, '/api/m/leader-team', { unitId: unitB, name: '干部测试处领导班子', teamType: '9', termStart, termYears: 5 });
    // Five years from the start (addMonths, as the hook computes it: a 29 February start ends on the 28th).
    const due = addMonths(termStart, 60);
    expect(team.termEnd).toBe(due);
    expect(await reminderOn('leader-team', 'team-term-due', team.id, addDays(due, -181))).toEqual({ due_date: due, state: 1 });
    expect(await reminderOn('leader-team', 'team-term-due', team.id, addDays(due, -180))).toEqual({ due_date: due, state: 2 });
    const sent = (await sql<{ title: string; content: string }>`SELECT o.title, o.content FROM reminder_outbox o JOIN reminders r ON r.id = o.reminder_id WHERE r.module = 'leader-team' AND r.record_id = ${team.id}`.execute(t.database.db)).rows;
    expect(sent[0]?.title).toBe('领导班子任期届满：干部测试处领导班子');
    expect(sent[0]?.content).toContain('干部测试处干部测试处领导班子本届任期于');
  });

  it('[S1.F3a] reminder 5 (retirement) is due on retireDate (the statutory day) and ends once the cadre has retired', async () => {
    // A woman at 处级 retires at 60 exactly: born 60 years before the day in 15 days.
    const retireDate = addDays(TODAY, 15);
    const c = await newCadre({ gender: '2', rank: '05', birthDate: addMonths(retireDate, -720) });
    expect(c.retireDate).toBe(addMonths(addMonths(retireDate, -720), 720));
    const due = c.retireDate as string;
    expect((await reminders('module=cadre&type=5')).find((r) => r.recordId === c.id)).toMatchObject({ type: 'retirement', dueDate: due, state: 2, link: `/cadre/info?id=${c.id}` });
    expect(await reminderOn('cadre', 'retirement', c.id, addDays(due, -31))).toEqual({ due_date: due, state: 1 });
    expect(await reminderOn('cadre', 'retirement', c.id, addDays(due, -30))).toEqual({ due_date: due, state: 2 });
    const cur = (await admin('GET', `/api/m/cadre/${c.id}`)).body;
    await admin('PUT', '/api/m/cadre', { id: c.id, version: cur.version, tenureStatus: '6' });
    expect((await reminders('module=cadre&type=5')).find((r) => r.recordId === c.id)?.state).toBe(3);
  });

  describe('因私出国（境）: passports and trips (issue 39.3)', () => {
    const ABROAD = '/api/m/cadre-abroad';
    const get = async (url: string) => (await admin('GET', url)).body as Record<string, unknown> & { id: number; version: number };
    const step = async (id: number, transition: string, values: Record<string, unknown> = {}, comment = '') =>
      admin('POST', `${ABROAD}/${id}/transitions/${transition}`, { version: (await get(`${ABROAD}/${id}`)).version, comment, values });
    const took = async (id: number, transition: string, values: Record<string, unknown> = {}) => {
      const res = await step(id, transition, values);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as Record<string, unknown>;
    };
    let seq = 0;
    const passport = (cadreId: number, extra: Record<string, unknown> = {}) =>
      created(admin, '/api/m/cadre-passport', { cadreId, kind: '1', number: `E9${String(++seq).padStart(7, '0')}`, issued: addMonths(TODAY, -24), expires: addMonths(TODAY, 60), custodyDate: addMonths(TODAY, -23), ...extra });
    const trip = (cadreId: number, passportId: number, extra: Record<string, unknown> = {}) =>
      admin('POST', ABROAD, { cadreId, passportId, destination: '日本', startDate: TODAY, endDate: addDays(TODAY, 10), purpose: '旅游', ...extra });

    it('[39.3a] a passport is handed in within custodyDays of the later of issue and appointment (reminded on the due day, not the day before); its expiry is reminded expiryMonths ahead (the day before not, the day of)', async () => {
      const postDate = addDays(TODAY, -3);
      const { id: cadreId } = await newCadre({ postDate });
      const p = await passport(cadreId, { issued: addDays(TODAY, -40), expires: addMonths(TODAY, 8), custodyDate: undefined });
      expect(p).toMatchObject({ name: `干部${n}`, unitId: unitA, kindLabel: '护照', appointedOn: postDate, custodyFrom: postDate, state: null });
      const due = addDays(postDate, 10);
      expect(await reminderOn('cadre-passport', 'custody', p.id, addDays(due, -1))).toEqual({ due_date: due, state: 1 });
      expect(await reminderOn('cadre-passport', 'custody', p.id, due)).toEqual({ due_date: due, state: 2 });
      const notice = addMonths(addMonths(TODAY, 8), -6);
      expect(await reminderOn('cadre-passport', 'expiry', p.id, addDays(notice, -1))).toEqual({ due_date: notice, state: 1 });
      expect(await reminderOn('cadre-passport', 'expiry', p.id, notice)).toEqual({ due_date: notice, state: 2 });
      const handed = await admin('PUT', '/api/m/cadre-passport', { id: p.id, version: p.version, custodyDate: TODAY });
      expect(handed.body).toMatchObject({ state: '集中保管' });
      expect(await reminderOn('cadre-passport', 'custody', p.id, due)).toMatchObject({ state: 3 });
      const bad = await admin('PUT', '/api/m/cadre-passport', { id: p.id, version: handed.body.version, expires: addDays(TODAY, -40) });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('须晚于签发日期');
    });

    it('[39.3b] a trip ending on the permit\'s expiry passes, a day later is refused naming the dates; 领取 only once approved, by the body the rank names; lent → 已领取, returned → 集中保管', async () => {
      const { id: cadreId } = await newCadre({ rank: '05' });
      const expires = addMonths(TODAY, 3);
      const p = await passport(cadreId, { expires });
      const late = await trip(cadreId, p.id, { endDate: addDays(expires, 1) });
      expect(late.status).toBe(400);
      expect(late.body.message).toContain(addDays(expires, 1));
      expect(late.body.message).toContain(expires);
      expect(await t.database.db.selectFrom('m_cadre_abroad' as never).select('id' as never).where('cadre_id' as never, '=', cadreId as never).execute()).toHaveLength(0);
      const ok = await trip(cadreId, p.id, { endDate: expires });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body).toMatchObject({ approver: '党委组织部', rank: '05', state: -1 });
      const id = ok.body.id as number;
      await took(id, 'submit');
      const early = await step(id, 'lend', { lendDate: TODAY });
      expect(early.status).toBe(400);
      expect(early.body.message).toContain('不能办理');
      const wrongBody = await step(id, 'approveCommittee');
      expect(wrongBody.status).toBe(400);
      expect(wrongBody.body.message).toContain('应由党委组织部审批');
      await took(id, 'approve');
      const lent = await took(id, 'lend', { lendDate: TODAY });
      expect(lent).toMatchObject({ state: 2, lendDate: TODAY, dueDate: addDays(expires, 7) });
      expect(await get(`/api/m/cadre-passport/${p.id}`)).toMatchObject({ state: '已领取' });
      // The same permit on a second approved trip cannot be lent while it is out.
      const second = await trip(cadreId, p.id);
      await took(second.body.id as number, 'submit');
      await took(second.body.id as number, 'approve');
      const twice = await step(second.body.id as number, 'lend', { lendDate: TODAY });
      expect(twice.status).toBe(400);
      expect(twice.body.message).toContain('当前状态为“已领取”');
      await took(id, 'giveBack', { returnDate: TODAY });
      expect(await get(`/api/m/cadre-passport/${p.id}`)).toMatchObject({ state: '集中保管' });
      // 校级 (副厅级 and above): 校党委, not 组织部.
      const { id: senior } = await newCadre({ rank: '04' });
      const sp = await passport(senior);
      const st = await trip(senior, sp.id);
      expect(st.body).toMatchObject({ approver: '校党委' });
      await took(st.body.id as number, 'submit');
      expect((await step(st.body.id as number, 'approve')).status).toBe(400);
      await took(st.body.id as number, 'approveCommittee');
    });

    it('[39.3c] reminder 6: the return is due returnDays after the trip, reminded on the due day not the day before, escalated to the 组织部 on the same reminder at +escalateDays not a day earlier', async () => {
      const boss = await userWithRole(t.app, await login(t.app), { username: 'abroad_boss', permissions: ['cadre-abroad:list', 'cadre-abroad:escalation', 'msg-remind:list'] });
      const { id: cadreId } = await newCadre();
      const p = await passport(cadreId);
      const end = addDays(TODAY, -20);
      const res = await trip(cadreId, p.id, { startDate: addDays(TODAY, -30), endDate: end });
      const id = res.body.id as number;
      await took(id, 'submit');
      await took(id, 'approve');
      await took(id, 'lend', { lendDate: addDays(TODAY, -31) });
      const due = addDays(end, 7);
      const listed = (await reminders('module=cadre-abroad&type=6')).find((r) => r.recordId === id);
      expect(listed).toMatchObject({ type: 'passport-return', code: 6, dueDate: due, state: 2, escalated: true });
      expect(await reminderOn('cadre-abroad', 'passport-return', id, addDays(due, -1))).toEqual({ due_date: due, state: 1 });
      expect(await reminderOn('cadre-abroad', 'passport-return', id, due)).toEqual({ due_date: due, state: 2 });
      const row = async () =>
        (await sql<{ id: number; escalated_due: string | null; receivers: number[] }>`SELECT id, escalated_due::text, receivers FROM reminders WHERE module = 'cadre-abroad' AND record_id = ${id}`.execute(t.database.db)).rows[0];
      await reminderOn('cadre-abroad', 'passport-return', id, addDays(due, 6));
      const before = await row();
      expect(before).toMatchObject({ escalated_due: null });
      expect(before.receivers).not.toContain(boss);
      await reminderOn('cadre-abroad', 'passport-return', id, addDays(due, 7));
      const after = await row();
      expect(after).toMatchObject({ id: before.id, escalated_due: due });
      expect(after.receivers).toContain(boss);
      const sent = (await sql<{ title: string; user_ids: number[] }>`SELECT title, user_ids FROM reminder_outbox WHERE reminder_id = ${after.id} ORDER BY id`.execute(t.database.db)).rows;
      expect(sent.at(-1)).toMatchObject({ title: `【督办】证件逾期未归还：干部${n}`, user_ids: [boss] });
      await took(id, 'giveBack', { returnDate: TODAY });
      expect((await reminders('module=cadre-abroad&type=6')).find((r) => r.recordId === id)?.state).toBe(3);
    });
  });
});

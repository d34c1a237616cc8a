// engines: pglite — counts, texts and reminders built in code over plain SQL on the demo data
/**
 * Processes a new user stumbled over (issue 33): the development funnel's figures equal the lists they
 * open (33.11), an expired probation is flagged on the member and reminded of, and the introduction
 * letter neither prints expired probation dates as current nor labels without values (33.10).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { letterTexts, type LetterData } from '../../src/shared/transfer/letter.js';
import { login } from '../support/auth.js';
import { clientOf, idCardFor, type Client } from '../support/development.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

const TODAY = localToday();

interface Stage {
  value: string;
  title: string;
  count: number;
  states: number[];
  reached: number;
  reachedStates: number[];
}

describe(`process fixes of issue 33 on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = clientOf(t.app, await login(t.app));
  });
  afterAll(() => t.app.close());

  it('[issue 33.11] each funnel figure equals the total of the list it opens, and the funnel never widens', async () => {
    const org = (await sql<{ orgId: number }>`SELECT org_id AS "orgId" FROM users WHERE username = 'ejdw'`.execute(t.database.db)).rows[0].orgId;
    for (const orgId of [undefined, org]) {
      const funnel = await admin('GET', `/api/development/funnel${orgId ? `?orgId=${orgId}` : ''}`);
      expect(funnel.status).toBe(200);
      const stages = funnel.body.stages as Stage[];
      expect(stages.map((s) => s.title)).toEqual(['入党申请人', '入党积极分子', '发展对象', '预备党员', '正式党员']);
      const total = async (state: number[]) =>
        (await admin('POST', '/api/m/development/list?page=0&size=1', { state, ...(orgId && { orgId }) })).body.totalElements as number;
      for (const s of stages) {
        expect(await total(s.states), `${s.title} (${orgId ?? 'all'})`).toBe(s.count);
        expect(await total(s.reachedStates), `${s.title}及以后 (${orgId ?? 'all'})`).toBe(s.reached);
        // Ended applications (未通过, 已撤回) keep their stage but are counted in neither figure.
        expect(s.states.some((c) => c === -2 || c === -3)).toBe(false);
      }
      for (let i = 1; i < stages.length; i++) expect(stages[i].reached).toBeLessThanOrEqual(stages[i - 1].reached);
      expect(stages[0].reached + funnel.body.ended).toBe(funnel.body.total);
    }
  });

  it('[issue 33.11] 待我审批 lists what the caller can act on now: no drafts, no probation not yet over (those under 待到期)', async () => {
    for (const user of ['zbsj', 'ejdw']) {
      const c = clientOf(t.app, await login(t.app, user, DEMO_USER_PASSWORD));
      const list = async (waiting: unknown) => {
        const res = await c('POST', '/api/m/development/list?size=1000', { $waiting: waiting });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.content as { id: number; state: number; probationEnd: string | null }[];
      };
      const now = await list(true);
      expect(now.length, user).toBeGreaterThan(0);
      expect(now.filter((r) => r.state === -1), `${user}: drafts`).toEqual([]);
      // The committee's step on a probationary member is 转为正式党员, which waits on the probation's end.
      if (user === 'ejdw') expect(now.filter((r) => (r.state === 7 || r.state === 8) && r.probationEnd && r.probationEnd > TODAY), 'waiting on a date').toEqual([]);
      const later = await list('later');
      for (const r of later) {
        expect([7, 8]).toContain(r.state);
        expect(r.probationEnd! > TODAY).toBe(true);
      }
      // The committee approves full membership: in the demo some of its probations are not over yet.
      if (user === 'ejdw') {
        expect(later.length).toBeGreaterThan(0);
        const steps = (await c('GET', `/api/m/development/${later[0].id}/transitions`)).body as { id: string; blocked: string[] }[];
        expect(steps.find((s) => s.id === 'full')?.blocked.length ?? 1).toBeGreaterThan(0);
      }
      expect((await c('POST', '/api/m/development/list?size=1', { $waiting: 'soon' })).status).toBe(400);
    }
  });

  it('[issue 33.9] the demo has a receiving branch secretary (jszb) beside zbsj under ejdw\'s committee', async () => {
    const orgs = (await sql<{ username: string; orgId: number; parentId: number; type: string }>`
      SELECT u.username, u.org_id AS "orgId", o.parent_id AS "parentId", o.type FROM users u JOIN m_org o ON o.id = u.org_id WHERE u.username IN ('zbsj', 'jszb', 'ejdw')`.execute(t.database.db)).rows;
    const by = Object.fromEntries(orgs.map((o) => [o.username, o]));
    expect(by.jszb.type).toBe('3');
    expect(by.jszb.orgId).not.toBe(by.zbsj.orgId);
    expect(by.jszb.parentId).toBe(by.ejdw.orgId);
    expect(by.zbsj.parentId).toBe(by.ejdw.orgId);
    const jszb = clientOf(t.app, await login(t.app, 'jszb', DEMO_USER_PASSWORD));
    expect((await jszb('POST', '/api/m/transfer-internal/list?size=1', { $waiting: true })).status).toBe(200);
  });

  it('[issue 33.10] a probationary member a year after joining shows 预备期已满，待转正 and is reminded of to the branch', async () => {
    const branch = (await sql<{ orgId: number }>`SELECT org_id AS "orgId" FROM users WHERE username = 'zbsj'`.execute(t.database.db)).rows[0].orgId;
    const joined = addMonths(TODAY, -20);
    const base = { gender: '1', orgId: branch, memberType: '2', partyStatus: '1', category: '1' };
    const expired = await admin('POST', '/api/m/member', { ...base, name: `预备期满${Date.now() % 100000}`, idCard: idCardFor('2001-02-03', Date.now() % 997), joinDate: joined });
    expect(expired.status, JSON.stringify(expired.body)).toBe(201);
    const current = await admin('POST', '/api/m/member', { ...base, name: `预备期内${Date.now() % 100000}`, idCard: idCardFor('2001-02-04', Date.now() % 991), joinDate: addMonths(TODAY, -3) });
    expect(current.status, JSON.stringify(current.body)).toBe(201);
    expect((await admin('GET', `/api/m/member/${expired.body.id}`)).body.probationStatus).toBe('预备期已满，待转正');
    expect((await admin('GET', `/api/m/member/${current.body.id}`)).body.probationStatus).toBe('预备期内');
    const listed = (await admin('POST', '/api/m/member/list?size=5', { name: expired.body.name })).body.content as { probationStatus: string }[];
    expect(listed[0].probationStatus).toBe('预备期已满，待转正');

    // The reminder: on for the expired one (due the probation's end), none started for the current one.
    const zbsj = clientOf(t.app, await login(t.app, 'zbsj', DEMO_USER_PASSWORD));
    const mine = (await zbsj('GET', '/api/reminders?module=member&type=probation-expired&size=500')).body.content as { recordId: number; state: number; dueDate: string; title: string }[];
    const reminder = mine.find((r) => r.recordId === expired.body.id);
    expect(reminder, JSON.stringify(mine.slice(0, 3))).toMatchObject({ state: 2, dueDate: addMonths(joined, 12), title: '预备期已满未转正' });
    expect(mine.some((r) => r.recordId === current.body.id && r.state === 2)).toBe(false);
    // 转正: the reminder ends and the tag goes.
    const full = await admin('PUT', '/api/m/member', { id: expired.body.id, version: expired.body.version, memberType: '1', fullDate: TODAY });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.probationStatus ?? null).toBe(null);
    const after = (await zbsj('GET', '/api/reminders?module=member&type=probation-expired&size=500')).body.content as { recordId: number; state: number }[];
    expect(after.some((r) => r.recordId === expired.body.id && r.state === 2)).toBe(false);
  });

  it('[issue 33.10] the letter says an expired probation has ended and leaves out contact labels nobody filled in', () => {
    const base: LetterData = {
      transferId: 1, letterNo: '2026001', status: 'issued', kind: '党员组织关系', name: '周东一', gender: '男', age: 22, ethnicity: '汉族', memberType: '预备',
      idCard: '430102200401011234', fromOrgName: '某学院党委', branchName: '某支部', toOrgName: '某单位党委', destination: '', duesPaidTo: '2026-10',
      validDays: 30, issueDate: '2026-11-20', expiryDate: '2026-12-20', probation: { joinDate: '2025-03-20', probationEnd: '2026-03-20', expired: true },
      endDate: null, memberPhone: '13900000000', address: '', phone: '0731-22000000', fax: '', postcode: '',
    };
    const expired = letterTexts(base);
    expect(expired.letter.body[1]).toContain('已于2026年3月20日期满，尚未讨论转正');
    expect(expired.letter.body[1]).not.toContain('起至');
    expect(expired.letter.contact).toEqual(['党员联系电话或其他联系方式：13900000000', '联系电话：0731-22000000']);
    const running = letterTexts({ ...base, probation: { joinDate: '2026-03-20', probationEnd: '2027-03-20', expired: false }, address: '长沙市麓山南路1号', fax: '0731-1', postcode: '410083' });
    expect(running.letter.body[1]).toContain('预备期自2026年3月20日起至2027年3月20日止。');
    expect(running.letter.contact).toEqual(['党员联系电话或其他联系方式：13900000000', '党员原所在基层党委通讯地址：长沙市麓山南路1号', '联系电话：0731-22000000　　传真：0731-1　　邮编：410083']);
  });

  it('[issue 33.10] a demo letter prints its committee\'s address, telephone, fax and postcode', async () => {
    const letter = (await sql<{ id: number }>`SELECT transfer_id AS id FROM transfer_letters ORDER BY serial LIMIT 1`.execute(t.database.db)).rows[0];
    expect(letter).toBeTruthy();
    const data = await admin('GET', `/api/transfers/letters/${letter.id}`);
    expect(data.status, JSON.stringify(data.body)).toBe(200);
    expect(data.body.address).toMatch(/^湖南省长沙市岳麓区麓山南路\d+号/);
    expect(data.body.phone).toMatch(/^0731-/);
    expect(data.body.fax).toMatch(/^0731-/);
    expect(data.body.postcode).toBe('410083');
  });
});

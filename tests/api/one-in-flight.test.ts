// engines: both — concurrent writes racing one rule (locks and transactions differ by engine)
/**
 * Rules of the form "one at a time" hold when the requests race (issue 24 §3.5): one application in
 * progress per person (development), one transfer under way per member (校内转接 and 转出 together).
 * Twenty requests at once: one wins; the others get the rule's own 400 (they checked after the winner)
 * or a 409 (they met the winner's lock), never a 500 and never a second record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addYears } from '../../src/shared/development/rules.js';
import { TODAY, developmentWorld, idCardFor, type DevWorld } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { seedTransferWorld, transferActors, type TransferActors, type TransferWorld } from '../support/transfers.js';

const RACERS = 20;

describe(`one in flight on ${TEST_DB}`, () => {
  let t: TestApp;
  let dev: DevWorld;
  let w: TransferWorld;
  let a: TransferActors;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedTransferWorld(t.database, 200);
    a = await transferActors(t.app, w, 'race');
    dev = await developmentWorld(t.app);
  }, 180_000);
  afterAll(() => t?.app.close());

  it('[24§3.5] 20 applications of one person at once: one is created, the others are refused with the rule', async () => {
    const idCard = idCardFor(addYears(TODAY, -22), 555);
    const results = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => dev.branch('POST', '/api/m/development', { name: `并发申请人${i}`, idCard, category: '4', orgId: dev.ids.branch })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.body.message).toBe(r.status === 409 ? '该人员的另一份入党申请正在保存，请稍后再试' : '该人员已有正在办理的入党申请，不能重复申请');
      expect([400, 409]).toContain(r.status);
    }
    const rows = await t.database.db.selectFrom('m_development' as never).select('id' as never).where('id_card' as never, '=', idCard as never).execute();
    expect(rows).toHaveLength(1);
  });

  it('[24§3.5] 20 transfers of one member at once, internal and out: one is created, the others are refused with the rule', async () => {
    const member = w.membersOf(a.from)[0];
    const memberId = w.member(member);
    const results = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        i % 2
          ? a.sendBranch.post('/api/m/transfer-internal', { memberId, toOrgId: w.org(a.to.key), reason: '工作调动' })
          : a.sendBranch.post('/api/m/transfer-out', { memberId, toOrgName: '中共长沙市某某区委员会组织部', destination: '某某区人民政府', reason: '工作调动', kind: '正式组织关系', memberPhone: '13800138000' }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect([400, 409]).toContain(r.status);
      if (r.status === 409) expect(r.body.message).toBe('该党员的另一项组织关系事项正在办理，请稍后再试');
      else expect(r.body.message).toMatch(/^该党员已有正在办理的(校内组织关系转接|组织关系转出)，办结后才能再次申请$/);
    }
    const open = await Promise.all(['m_transfer_internal', 'm_transfer_out'].map((table) => t.database.db.selectFrom(table as never).select('id' as never).where('member_id' as never, '=', memberId as never).execute()));
    expect(open.flat()).toHaveLength(1);
  });
});

// engines: both — the workflow engine across processes and overrides
/**
 * The x-workflow engine beyond one process: a school override of a workflow (a step skipped, a setting
 * changed), the other side of a two-party process acting on its own organisation, and a start refused
 * with one line when a workflow points nowhere.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/development/rules.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { TRANSFER, schemasWith } from '../fixtures/workflow-schemas.js';
import { TODAY, developmentWorld, history, newApplicant, step, walkUntil, type DevWorld } from '../support/development.js';

describe(`workflow engine on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  let dir: string;
  beforeAll(async () => {
    dir = schemasWith({ 'test-transfer': TRANSFER }, {
      development: {
        'x-workflow': {
          params: { publicityWorkdays: 7 },
          // This school does not record the political review as a step of its own.
          transitions: { review: null, train: { from: [3] }, target: { todos: [{ step: 'targetFile' }, { step: 'train' }] } },
        },
      },
    });
    t = await createTestApp({}, undefined, { schemasDir: dir });
    w = await developmentWorld(t.app, ['test-transfer:list', 'test-transfer:view', 'test-transfer:add', 'test-transfer:approve-out', 'test-transfer:approve-in', 'test-transfer:return']);
  });
  afterAll(async () => {
    await t.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a school override of x-workflow skips a step and changes a setting the guards read', async () => {
    const schema = (await w.branch('GET', '/api/m/development/schema')).body.schema;
    expect(schema['x-workflow'].transitions.review).toBeUndefined();
    expect(schema['x-workflow'].transitions.train.from).toEqual([3]);
    expect(schema['x-workflow'].params.publicityWorkdays).toBe(7);
    const h = history();
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'review', h);
    const open = (await w.branch('GET', `/api/m/development/${id}/transitions`)).body.map((s: { id: string }) => s.id);
    expect(open).toContain('train');
    expect((await step(w.branch, id, 'review', { reviewDate: h.review, reviewResult: '合格' })).status).toBe(404);
    expect((await step(w.branch, id, 'train', { trainingEndDate: h.train, trainingDays: 3 })).status).toBe(200);
    let monday = addDays(h.train, 3);
    while (new Date(`${monday}T00:00:00Z`).getUTCDay() !== 1) monday = addDays(monday, 1);
    const five = await step(w.committee, id, 'preReview', { preReviewDate: addDays(monday, -1), publicityStart: monday, publicityEnd: addDays(monday, 4) });
    expect(five.status).toBe(400);
    expect(five.body.message).toContain('共5个工作日，不足7个工作日');
    expect((await step(w.committee, id, 'preReview', { preReviewDate: addDays(monday, -1), publicityStart: monday, publicityEnd: addDays(monday, 8) })).status).toBe(200);
  });

  it('"the other side": the organisation named by the record acts on the second step, the sending side cannot', async () => {
    const created = await w.branch('POST', '/api/m/test-transfer', { name: '转接人', orgId: w.ids.branch, toOrgId: w.ids.branch2 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ state: 0, stateLabel: '已申请' });
    const out = await w.committee('POST', `/api/m/test-transfer/${id}/transitions/approveOut`, { version: 1, values: { outDate: addDays(TODAY, -2) } });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    // Both sides see the record; it waits for the receiving branch, not for the sending one.
    const waiting = await w.otherBranch('POST', '/api/m/test-transfer/list', { $waiting: true });
    expect(waiting.body.content.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await w.branch('POST', '/api/m/test-transfer/list', { $waiting: true })).body.totalElements).toBe(0);
    expect((await w.branch('POST', '/api/m/test-transfer/list', {})).body.totalElements).toBe(1);
    const bySender = await w.branch('POST', `/api/m/test-transfer/${id}/transitions/approveIn`, { version: 2, values: { inDate: TODAY } });
    expect(bySender.status).toBe(403);
    expect(bySender.body.message).toBe('“转入方接收”须由对方党组织办理');
    const todos = await t.database.db.selectFrom('msg_todo').select(['user_id', 'ref_id']).where('module', '=', 'test-transfer').where('status', '=', 0).execute();
    expect(todos).toEqual([{ user_id: w.users.otherBranch, ref_id: `${id}:approveIn` }]);
    const received = await w.otherBranch('POST', `/api/m/test-transfer/${id}/transitions/approveIn`, { version: 2, values: { inDate: TODAY } });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    expect(received.body).toMatchObject({ state: 2, stateLabel: '已接收', inDate: TODAY });
    const log = (await w.branch('GET', `/api/m/test-transfer/${id}/approvals`)).body as { level: string; actingOrgId: number; actingOrgName: string }[];
    expect(log.map((e) => [e.level, e.actingOrgId])).toEqual([['committee', w.ids.college], ['other', w.ids.branch2]]);
    expect(log[1].actingOrgName).toBe('机电学院教工党支部');
  });

  it('a workflow naming a guard nobody registered stops the start with one line', async () => {
    const unguarded = structuredClone(TRANSFER) as typeof TRANSFER & { 'x-workflow': { transitions: { approveIn: { guards?: string[] } } } };
    unguarded['x-workflow'].transitions.approveIn.guards = ['transfer.nobody'];
    const missing = schemasWith({ 'test-transfer': unguarded }, {});
    const start = createTestApp({}, undefined, { schemasDir: missing });
    await expect(start).rejects.toThrow('x-workflow names guards or effects no service registered (test-transfer.approveIn: guard transfer.nobody)');
    await start.catch((e: Error) => expect(e.message).not.toContain('\n'));
    fs.rmSync(missing, { recursive: true, force: true });
  }, 180_000);
});

// engines: both — write events after the commit and the step transaction differ by engine
/**
 * The workflow engine's holes (issue 24 §3, issue 25's engine findings), each reproduced as the attack
 * or the failure it was: a record changed or deleted in flight, a step on one's own record, a step value
 * outside the actor's scope, write events before the commit, a committed step answered 404, approvers'
 * addresses for every reader, a record read from the API refused when sent back.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { TaskStatus } from '../../src/shared/constants.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgTreeOf } from '../../src/server/domain/org/index.js';
import { HttpError } from '../../src/server/errors.js';
import { registerEffect, type WriteEvent } from '../../src/server/runtime/index.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TRANSFER, schemasWith } from '../fixtures/workflow-schemas.js';
import { PASS, clientOf, developmentWorld, history, idCardFor, newApplicant, step, walkUntil, type DevWorld } from '../support/development.js';
import { addYears } from '../../src/shared/development/rules.js';
import { TODAY } from '../support/development.js';

/** A two-party process with the steps the holes need: one writing an organisation, effects that rename an organisation or move the record away. */
const HOLE = structuredClone(TRANSFER) as unknown as { 'x-id': string; title: string; properties: Record<string, unknown>; 'x-workflow': { transitions: Record<string, unknown> } };
HOLE['x-id'] = 'test-hole';
HOLE.properties.memberId = { type: 'integer', title: '党员', 'x-ref': 'member' };
HOLE.title = '测试流程';
HOLE['x-workflow'].transitions.redirect = { title: '改派转入党支部', from: [0], level: 'committee', fields: ['toOrgId'], required: ['toOrgId'] };
HOLE['x-workflow'].transitions.rename = {
  title: '更名', from: [0], level: 'committee', effects: ['testHole.renameOrg'],
  stepFields: { orgName: { type: 'string', title: '新名称', maxLength: 40 }, fail: { type: 'boolean', title: '失败' } }, required: ['orgName'],
};
HOLE['x-workflow'].transitions.handOver = { title: '移交', from: [0], to: 1, level: 'branch', effects: ['testHole.moveAway'] };

/** The organisation the effects rename, and where the record is moved. */
const target = { orgId: 0, awayOrgId: 0 };

registerEffect('testHole.renameOrg', async (ctx) => {
  const org = await ctx.records('org').readRow(target.orgId, ctx.trx);
  await ctx.records('org').update({ id: target.orgId, version: org!.version, name: ctx.values.orgName }, ctx.actor, { trx: ctx.trx });
  if (ctx.values.fail) throw new HttpError(400, '测试：办理失败');
});
registerEffect('testHole.moveAway', () => ({ orgId: target.awayOrgId }));

const PERMS = ['list', 'view', 'add', 'edit', 'delete', 'approve-out', 'approve-in', 'return', 'redirect', 'rename', 'hand-over'].map((p) => `test-hole:${p}`);

describe(`workflow engine holes on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  let dir: string;
  let adminToken: string;
  beforeAll(async () => {
    dir = schemasWith({ 'test-hole': HOLE }, {});
    t = await createTestApp({}, undefined, { schemasDir: dir });
    w = await developmentWorld(t.app, PERMS);
    adminToken = await login(t.app);
    target.orgId = w.ids.branch;
    target.awayOrgId = w.ids.college2;
  }, 180_000);
  afterAll(async () => {
    await t?.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const newHole = async () => {
    const created = await w.branch('POST', '/api/m/test-hole', { name: '转接人', orgId: w.ids.branch, toOrgId: w.ids.branch2 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: number; version: number };
  };

  it('[24 §3.2][25.2] a record past its first step changes and is deleted only through its steps: PUT and DELETE answer 409', async () => {
    const { id } = await newApplicant(w);
    // In its initial state the generic API edits it.
    const draft = (await w.branch('GET', `/api/m/development/${id}`)).body;
    expect((await w.branch('PUT', '/api/m/development', { id, version: draft.version, remark: '草稿可改' })).status).toBe(200);
    await walkUntil(w, id, 'talk', history());
    const current = (await w.admin('GET', `/api/m/development/${id}`)).body;
    expect(current.state).toBe(0);
    const moved = await w.committee('PUT', '/api/m/development', { id, version: current.version, orgId: w.ids.branch2 });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toMatch(/已提交（当前状态：已递交入党申请书），不能修改；只能通过办理步骤变更/);
    const swapped = await w.branch('PUT', '/api/m/development', { id, version: current.version, name: '换人', idCard: idCardFor(addYears(TODAY, -30), 777) });
    expect(swapped.status).toBe(409);
    const deleted = await w.committee('DELETE', '/api/m/development', [id]);
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toContain('不能删除');
    const after = (await w.admin('GET', `/api/m/development/${id}`)).body;
    expect([after.name, after.orgId, after.version]).toEqual([current.name, w.ids.branch, current.version]);
    // A restore from the trail goes through the same path.
    const trail = (await w.admin('GET', `/api/m/development/${id}/trail`)).body.content as { id: number; type: number }[];
    const change = trail.find((c) => c.type !== 0 && c.type !== 1) ?? trail[0];
    expect((await w.admin('POST', `/api/m/development/${id}/restore/${change.id}`, { version: after.version })).status).toBe(409);
  });

  it('[24 §3.2] an import does not change a record in flight either: its row is refused with the reason', async () => {
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'talk', history());
    const exported = await t.app.inject({ url: '/api/m/development/export', headers: bearer(adminToken) });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as never);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const row = [...Array(sheet.rowCount - 1).keys()].map((i) => sheet.getRow(i + 2)).find((r) => r.getCell(header.length).value === id)!;
    row.getCell(header.indexOf('姓名') + 1).value = '导入换人';
    const boundary = '----holes';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\npartial\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
      Buffer.from(await book.xlsx.writeBuffer()),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const started = await t.app.inject({ method: 'POST', url: '/api/m/development/import', headers: { ...bearer(adminToken), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(started.statusCode, started.body).toBe(202);
    let job: { status: number; errors: { message: string }[] } = { status: -1, errors: [] };
    for (let i = 0; i < 400 && job.status !== TaskStatus.SUCCESS && job.status !== TaskStatus.ERROR; i++) {
      job = (await t.app.inject({ url: `/api/m/development/import/${started.json().jobId}`, headers: bearer(adminToken) })).json();
      if (job.status !== TaskStatus.SUCCESS && job.status !== TaskStatus.ERROR) await new Promise((r) => setTimeout(r, 50));
    }
    expect(job.errors.map((e) => e.message).join()).toContain('只能通过办理步骤变更');
    expect((await w.admin('GET', `/api/m/development/${id}`)).body.name).not.toBe('导入换人');
  });

  it('[25.7] nobody acts at a level on their own record: the applicant\'s account, or the member the record is about', async () => {
    const own = await newApplicant(w, { userId: w.users.branch });
    // The applicant applies as themselves (level self) ...
    expect((await step(w.branch, own.id, 'apply', { applyDate: history().apply })).status).toBe(200);
    // ... but does not take the branch's steps on it.
    expect((await w.branch('GET', `/api/m/development/${own.id}/transitions`)).body.map((s: { id: string }) => s.id)).not.toContain('talk');
    const talk = await step(w.branch, own.id, 'talk', { talkDate: history().talk, talker: '张书记' });
    expect(talk.status).toBe(403);
    expect(talk.body.message).toBe('不能办理本人的发展党员（党组织派人谈话）：本人的申请须由他人审批');
    // Nor does the to-do of the branch's step reach them.
    const todos = await t.database.db.selectFrom('msg_todo').select('user_id').where('module', '=', 'development').where('ref_id', '=', `${own.id}:talk`).execute();
    expect(todos.map((x) => x.user_id)).not.toContain(w.users.branch);
    // A record about the member the account belongs to (users.member_id).
    const member = (await w.admin('GET', `/api/m/member/${w.full[0]}`)).body;
    await t.database.db.updateTable('users').set({ member_id: member.id } as never).where('id', '=', w.users.committee).execute();
    try {
      const about = await w.branch('POST', '/api/m/test-hole', { name: member.name, memberId: member.id, orgId: w.ids.branch, toOrgId: w.ids.branch2 });
      expect(about.status, JSON.stringify(about.body)).toBe(201);
      const out = await w.committee('POST', `/api/m/test-hole/${about.body.id}/transitions/approveOut`, { version: 1, values: { outDate: TODAY } });
      expect(out.status).toBe(403);
      expect(out.body.message).toBe('不能办理本人的测试流程（转出党委审批）：本人的申请须由他人审批');
    } finally {
      await t.database.db.updateTable('users').set({ member_id: null } as never).where('id', '=', w.users.committee).execute();
    }
  });

  it('[24 §3.1] an organisation a step writes lies in the actor\'s scope, whatever the module\'s guards say', async () => {
    const { id } = await newHole();
    const outside = await w.committee('POST', `/api/m/test-hole/${id}/transitions/redirect`, { version: 1, values: { toOrgId: w.ids.college2 } });
    expect(outside.status).toBe(403);
    expect(outside.body.message).toBe('所选转入党支部不在您的管理范围内，不能办理“改派转入党支部”');
    const inside = await w.committee('POST', `/api/m/test-hole/${id}/transitions/redirect`, { version: 1, values: { toOrgId: w.ids.branch } });
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
    expect(inside.body.toOrgId).toBe(w.ids.branch);
  });

  it('[24 §3.4] write events (and the organisation tree) follow the commit: a rolled-back step leaves no event and no stale tree', async () => {
    const { id } = await newHole();
    const tree = orgTreeOf(t.app.services)!;
    const before = (await tree.get(w.ids.branch))!.name;
    const events: WriteEvent[] = [];
    // A listener that reads at once, as a concurrent request would: it must read the committed tree.
    const onWrite = (e: WriteEvent) => {
      events.push(e);
      if (e.module === 'org') void tree.all();
    };
    t.app.runtime.events.on('write', onWrite);
    try {
      const failed = await w.committee('POST', `/api/m/test-hole/${id}/transitions/rename`, { version: 1, values: { orgName: '回滚的名称', fail: true } });
      expect(failed.status).toBe(400);
      expect(events.filter((e) => e.module === 'org')).toEqual([]);
      expect((await tree.get(w.ids.branch))!.name).toBe(before);
      const done = await w.committee('POST', `/api/m/test-hole/${id}/transitions/rename`, { version: 1, values: { orgName: '更名后的党支部' } });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(events.map((e) => e.module)).toEqual(['org', 'test-hole']);
      expect((await tree.get(w.ids.branch))!.name).toBe('更名后的党支部');
    } finally {
      t.app.runtime.events.off('write', onWrite);
    }
  });

  it('[24 §3.6] a step that committed answers its result when the record left the actor\'s sight', async () => {
    const { id } = await newHole();
    const res = await w.branch('POST', `/api/m/test-hole/${id}/transitions/handOver`, { version: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id, version: 2, state: 1, stateLabel: '转出党委已审批', visible: false, warnings: [], notes: [] });
    expect((await w.branch('GET', `/api/m/test-hole/${id}`)).status).toBe(404);
    expect((await w.admin('GET', `/api/m/test-hole/${id}`)).body).toMatchObject({ state: 1, orgId: w.ids.college2 });
  });

  it('[24 §3.7][25.5] approvers\' addresses go to auditors only (workflow:audit), not to every reader', async () => {
    const { id } = await newApplicant(w);
    await walkUntil(w, id, 'activist', history());
    const read = (await w.branch('GET', `/api/m/development/${id}/approvals`)).body as Record<string, unknown>[];
    expect(read.length).toBe(2);
    expect(read.every((e) => !('ip' in e))).toBe(true);
    const record = (await w.committee('GET', `/api/development/${id}/record`)).body as { approvals: Record<string, unknown>[] };
    expect(record.approvals.length).toBe(2);
    expect(record.approvals.every((e) => !('ip' in e))).toBe(true);
    await userWithRole(t.app, adminToken, { username: 'auditor', permissions: ['development-process:list', 'development:view', 'workflow:audit'], dataScope: 'all', password: PASS });
    const auditor = clientOf(t.app, await login(t.app, 'auditor', PASS));
    const audited = (await auditor('GET', `/api/m/development/${id}/approvals`)).body as { ip: string }[];
    expect(audited.map((e) => e.ip)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('[24 §3.9] a record as GET answered it is accepted back by PUT unchanged (labels, names, stateLabel ignored)', async () => {
    const { id } = await newApplicant(w);
    const dev = (await w.branch('GET', `/api/m/development/${id}`)).body;
    expect(dev.stateLabel).toBe('待提交');
    const back = await w.branch('PUT', '/api/m/development', dev);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const hole = await newHole();
    const answered = (await w.branch('GET', `/api/m/test-hole/${hole.id}`)).body;
    expect(answered).toMatchObject({ stateLabel: '已申请', toOrgIdName: '机电学院教工党支部' });
    const res = await t.app.inject({ method: 'PUT', url: '/api/m/test-hole', headers: bearer(adminToken), payload: { ...answered, warnings: [], visible: true } });
    expect(res.statusCode, res.body).toBe(200);
  });
});

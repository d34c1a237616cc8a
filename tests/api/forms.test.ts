// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): stored modules (table sync, versions) and the collection's state changes are writes to the database
/**
 * Issue 29: fill-in forms designed at run time. The schema check of a designed form (400 with the lines of
 * schemas:check), each collection transition (NO_START 0 → STASHED_END 1 → COLLECT_END 2 → IMPORT_END 3,
 * a return back to 1, the collector's xlsx as join type 2) and what is refused after the stop, a form changed
 * after publication (records keep their version), and the export with a sheet per table-of-rows field.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkModuleSchema } from '../../src/shared/module-schema/check.js';
import { formModuleSchema } from '../../src/server/domain/forms/schema.js';
import { login, userWithRole } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Forms#2026a';

/** A designed form: text, number with a range, date, and a table of rows. */
export const DESIGNED = {
  properties: {
    leader: { type: 'string', title: '负责人', maxLength: 20, description: '填写支部书记姓名' },
    members: { type: 'integer', title: '党员人数', minimum: 0, maximum: 500 },
    reportDate: { type: 'string', title: '填报日期', format: 'date' },
    activities: {
      type: 'array', title: '活动明细', maxItems: 50,
      items: { type: 'object', additionalProperties: false, required: ['topic'], properties: { topic: { type: 'string', title: '主题', maxLength: 50 }, people: { type: 'integer', title: '参加人数', minimum: 0 } } },
    },
  },
  required: ['leader', 'members'],
};

function multipart(file: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----forms' + Math.random().toString(16).slice(2);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="answer.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe(`fill-in forms on ${TEST_DB}`, () => {
  let t: TestApp;
  let call: Call;
  let admin: string;
  let fillerA: string;
  let fillerB: string;
  const org: Record<'root' | 'a' | 'b' | 'c', number> = { root: 0, a: 0, b: 0, c: 0 };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    call = caller(t.app, () => admin);
    const add = async (name: string, type: string, parentId?: number) => {
      const r = await call('POST', '/api/m/org', { name, type, ...(parentId && { parentId }) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as number;
    };
    org.root = await add('测试党委', '1');
    org.a = await add('第一党支部', '3', org.root);
    org.b = await add('第二党支部', '3', org.root);
    org.c = await add('第三党支部', '3', org.root);
    for (const [name, orgId] of [['filla', org.a], ['fillb', org.b]] as const) {
      await userWithRole(t.app, admin, { username: name, permissions: ['stat-fill-in:list', 'stat-fill-in:fill'], dataScope: 'own', orgId, password: PASS });
    }
    fillerA = await login(t.app, 'filla', PASS);
    fillerB = await login(t.app, 'fillb', PASS);
  }, 120_000);
  afterAll(() => t?.app.close());

  it('[S1.F11a] a designed schema that schemas:check refuses is refused with 400 and the same lines', async () => {
    const bad = { properties: { amount: { type: 'money', title: '金额' } }, required: ['missing'] };
    const r = await call('POST', '/api/forms', { title: '错误的表单', schema: bad });
    expect(r.status).toBe(400);
    const expected = checkModuleSchema(formModuleSchema(bad, 'form-x', '错误的表单'));
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual(expected);
    const unknownRequired = await call('POST', '/api/forms', { title: '错误的表单', schema: { properties: { a: { type: 'string', title: 'A' } }, required: ['missing'] } });
    expect(unknownRequired.status).toBe(400);
    expect(unknownRequired.body.errors.map((e: { message: string }) => e.message)).toContain('required names unknown field "missing"');
    const tableWithoutColumns = await call('POST', '/api/forms', { title: '错误的表单', schema: { properties: { rows: { type: 'array', title: '明细', items: { type: 'object' } } } } });
    expect(tableWithoutColumns.status).toBe(400);
    expect(tableWithoutColumns.body.errors[0].message).toContain('give items.properties');
    // Nothing was stored for the refused ones.
    expect(await t.database.db.selectFrom('forms').select('id').execute()).toHaveLength(0);
    // A file module cannot be taken over, nor an id outside form-.
    expect((await call('POST', '/api/forms', { title: '党员', schema: { ...DESIGNED, 'x-id': 'member' } })).status).toBe(400);
  });

  let formId = '';

  it('[S1.F11a] a created form is a module: its schema, list and records are served like any module at once', async () => {
    const created = await call('POST', '/api/forms', { title: '支部活动情况统计', schema: DESIGNED });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    formId = created.body.id;
    expect(formId).toMatch(/^form-/);
    expect(created.body.version).toBe(1);
    const schema = await call('GET', `/api/m/${formId}/schema`);
    expect(schema.status).toBe(200);
    expect(schema.body.schema['x-id']).toBe(formId);
    expect(Object.keys(schema.body.schema.properties)).toEqual(['orgId', 'leader', 'members', 'reportDate', 'activities']);
    expect((await call('POST', `/api/m/${formId}/list`, {})).body.totalElements).toBe(0);
    // Permissions per request: a filler may list, not add through the generic API; anonymous 401; unknown module 404.
    expect((await call('POST', `/api/m/${formId}/list`, {}, fillerA)).status).toBe(200);
    expect((await call('POST', `/api/m/${formId}`, { orgId: org.a, leader: '张三', members: 3 }, fillerA)).status).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/m/${formId}/schema` })).statusCode).toBe(401);
    expect((await call('GET', '/api/m/form-nope/schema')).status).toBe(404);
    // Before publication nothing can be filled, not even by the collector through the generic API.
    const early = await call('POST', `/api/m/${formId}`, { orgId: org.a, leader: '张三', members: 3 });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('该表单尚未发布，不能填报');
  });

  it('[S1.F11a] publishing validates its input and opens one NO_START filling per organisation', async () => {
    expect((await call('POST', `/api/forms/${formId}/publish`, { shareType: 4, deadline: '2026-12-31' })).status).toBe(400);
    expect((await call('POST', `/api/forms/${formId}/publish`, { shareType: 1, orgIds: [], deadline: '2026-12-31' })).status).toBe(400);
    expect((await call('POST', `/api/forms/${formId}/publish`, { shareType: 1, orgIds: [org.a], deadline: '2026-13-01' })).status).toBe(400);
    expect((await call('POST', `/api/forms/${formId}/publish`, { shareType: 1, orgIds: [org.a, org.b], deadline: '2026-12-31' }, fillerA)).status).toBe(403);
    const published = await call('POST', `/api/forms/${formId}/publish`, { shareType: 1, orgIds: [org.a, org.b], deadline: '2026-12-31' });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.organisations).toBe(2);
    expect((await call('POST', `/api/forms/${formId}/publish`, { shareType: 3, deadline: '2026-12-31' })).status).toBe(409);
    const progress = await call('GET', `/api/forms/${formId}/progress`);
    expect(progress.body.map((p: { orgId: number; state: number }) => [p.orgId, p.state])).toEqual([[org.a, 0], [org.b, 0]]);
    // A filler sees their own organisation only.
    expect((await call('GET', `/api/forms/${formId}/progress`, undefined, fillerA)).body.map((p: { orgId: number }) => p.orgId)).toEqual([org.a]);
    expect((await call('GET', '/api/forms', undefined, fillerA)).body.map((f: { id: string }) => f.id)).toEqual([formId]);
  });

  const stateOf = async (orgId: number) => (await call('GET', `/api/forms/${formId}/progress`)).body.find((p: { orgId: number }) => p.orgId === orgId).state;

  it('[S1.F11a] each transition: draft 1, submit 2 (validated), return 1 with a comment, submit again 2, accept 3', async () => {
    // A draft keeps what is typed even when required fields are missing; no record yet.
    const draft = await call('POST', `/api/forms/${formId}/fill`, { values: { leader: '李四' } }, fillerA);
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.state).toBe(1);
    expect(draft.body.values.leader).toBe('李四');
    expect(await stateOf(org.a)).toBe(1);
    // Another organisation's filling is out of reach.
    expect((await call('POST', `/api/forms/${formId}/fill`, { orgId: org.b, values: { leader: 'x' } }, fillerA)).status).toBe(404);
    // A submission is validated in full: required, ranges and the rows' own columns.
    const invalid = await call('POST', `/api/forms/${formId}/fill`, { submit: true, values: { leader: '李四', members: 900, activities: [{ people: 3 }] } }, fillerA);
    expect(invalid.status).toBe(400);
    expect(await stateOf(org.a)).toBe(1);
    const values = { leader: '李四', members: 12, reportDate: '2026-11-20', activities: [{ topic: '主题党日', people: 10 }, { topic: '三会一课', people: 12 }] };
    const submitted = await call('POST', `/api/forms/${formId}/fill`, { submit: true, values }, fillerA);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.state).toBe(2);
    expect(submitted.body.record.activities).toEqual(values.activities);
    // Submitted: the organisation cannot change it, neither can the generic API.
    expect((await call('POST', `/api/forms/${formId}/fill`, { values }, fillerA)).status).toBe(409);
    const record = submitted.body.record;
    expect((await call('PUT', `/api/m/${formId}`, { id: record.id, version: record.version, members: 13 })).status).toBe(409);
    // Return needs a comment; then the organisation sees it and may change and submit again.
    expect((await call('POST', `/api/forms/${formId}/return`, { orgId: org.a })).status).toBe(400);
    expect((await call('POST', `/api/forms/${formId}/return`, { orgId: org.a, comment: '人数有误' }, fillerA)).status).toBe(403);
    expect((await call('POST', `/api/forms/${formId}/return`, { orgId: org.a, comment: '人数有误' })).body.state).toBe(1);
    const returned = await call('GET', `/api/forms/${formId}/answer`, undefined, fillerA);
    expect(returned.body).toMatchObject({ state: 1, comment: '人数有误' });
    expect((await call('POST', `/api/forms/${formId}/accept`, { orgId: org.a })).status).toBe(409);
    const again = await call('POST', `/api/forms/${formId}/fill`, { submit: true, values: { ...values, members: 11 } }, fillerA);
    expect(again.body.state).toBe(2);
    expect(again.body.record.members).toBe(11);
    expect((await call('POST', `/api/forms/${formId}/accept`, { orgId: org.a })).body.state).toBe(3);
    expect((await call('POST', `/api/forms/${formId}/return`, { orgId: org.a, comment: '再看看' })).status).toBe(409);
    // Still one record per organisation.
    expect((await call('POST', `/api/m/${formId}/list`, {})).body.totalElements).toBe(1);
  });

  it('[S1.F11a] the collector reminds the late organisations (to-dos to who may fill there)', async () => {
    const r = await call('POST', `/api/forms/${formId}/remind`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ organisations: 1, users: 1 });
    const todos = (await t.database.db.selectFrom('msg_todo' as never).selectAll().where('module' as never, '=', formId as never).orderBy('id' as never).execute()) as { user_id: number; ref_id: string; status: number; title: string }[];
    const fillb = (await t.database.db.selectFrom('users').select('id').where('username', '=', 'fillb').executeTakeFirstOrThrow()).id;
    // The one open to-do is the reminder to the late organisation's filler; the return's to-do of the first
    // branch (issue 43.8) was done by its submission, and nothing reminds an organisation that submitted.
    expect(todos.filter((d) => d.status === 0)).toEqual([expect.objectContaining({ user_id: fillb, ref_id: String(org.b), title: expect.stringMatching(/^请填报：/) })]);
    expect(todos.filter((d) => d.status !== 0)).toEqual([expect.objectContaining({ ref_id: String(org.a), title: expect.stringMatching(/^修改后重新提交：/) })]);
  });

  it('[S1.F11a] a form changed after publication: records keep the version they were filled against', async () => {
    const changed = await call('PUT', `/api/forms/${formId}/schema`, { schema: { ...DESIGNED, properties: { ...DESIGNED.properties, remark: { type: 'string', title: '备注', maxLength: 200 } } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.version).toBe(2);
    expect(Object.keys((await call('GET', `/api/m/${formId}/schema`)).body.schema.properties)).toContain('remark');
    expect((await call('GET', `/api/forms/${formId}/versions/1`)).body.properties.remark).toBeUndefined();
    // The collector fills for the second branch from an xlsx: join type 2, against version 2.
    const book = new ExcelJS.Workbook();
    const main = book.addWorksheet('填报结果');
    main.addRow(['填报组织', '状态', '负责人', '党员人数', '填报日期', '备注']);
    main.addRow(['第二党支部', '', '王五', 8, '2026-11-21', '纸质表代录']);
    const rows = book.addWorksheet('活动明细');
    rows.addRow(['填报组织', '序号', '主题', '参加人数']);
    rows.addRow(['第二党支部', 1, '专题学习', 8]);
    const upload = multipart(Buffer.from(await book.xlsx.writeBuffer()));
    const imported = await t.app.inject({ method: 'POST', url: `/api/forms/${formId}/import?orgId=${org.b}`, headers: { authorization: `Bearer ${admin}`, ...upload.headers }, payload: upload.payload });
    expect(imported.statusCode, imported.body).toBe(200);
    const progress = (await call('GET', `/api/forms/${formId}/progress`)).body as { orgId: number; state: number; joinType: number; schemaVersion: number }[];
    expect(progress.map((p) => [p.orgId, p.state, p.joinType, p.schemaVersion])).toEqual([[org.a, 3, 1, 1], [org.b, 2, 2, 2]]);
    const answer = await call('GET', `/api/forms/${formId}/answer?orgId=${org.b}`);
    expect(answer.body.record).toMatchObject({ leader: '王五', members: 8, remark: '纸质表代录', activities: [{ topic: '专题学习', people: 8 }] });
  });

  it('[S1.F11a] exports every answer in one workbook with a sheet per table-of-rows field', async () => {
    const r = await t.app.inject({ method: 'GET', url: `/api/forms/${formId}/export`, headers: { authorization: `Bearer ${admin}` } });
    expect(r.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['填报结果', '活动明细']);
    const main = book.worksheets[0];
    expect(main.getRow(1).values).toEqual([undefined, '填报组织', '状态', '负责人', '党员人数', '填报日期', '活动明细', '备注'].filter((v) => v !== '活动明细'));
    expect(main.rowCount).toBe(3);
    expect(main.getRow(2).getCell(3).value).toBe('李四');
    expect(book.worksheets[1].rowCount).toBe(4); // header + two rows of the first branch + one of the second
    expect((await call('GET', `/api/forms/${formId}/export`, undefined, fillerA)).status).toBe(403);
  });

  it('[S1.F11a] after the stop (share state 2) nothing changes', async () => {
    expect((await call('POST', `/api/forms/${formId}/stop`, undefined, fillerA)).status).toBe(403);
    expect((await call('POST', `/api/forms/${formId}/stop`)).body.shareState).toBe(2);
    const before = (await call('GET', `/api/forms/${formId}/progress`)).body;
    const refused = [
      await call('POST', `/api/forms/${formId}/fill`, { values: { leader: 'x' } }, fillerB),
      await call('POST', `/api/forms/${formId}/accept`, { orgId: org.b }),
      await call('POST', `/api/forms/${formId}/return`, { orgId: org.b, comment: '晚了' }),
      await call('POST', `/api/forms/${formId}/remind`),
      await call('POST', `/api/forms/${formId}/stop`),
      await call('PUT', `/api/forms/${formId}/schema`, { schema: DESIGNED }),
      await call('DELETE', `/api/m/${formId}`, { ids: [1] }),
    ];
    for (const r of refused) expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(refused[0].body.message).toBe('该表单已停止填报，不能再修改');
    expect((await call('GET', `/api/forms/${formId}/progress`)).body).toEqual(before);
    expect((await call('GET', `/api/forms/${formId}`)).body.shareState).toBe(2);
  });

  it('[S1.F11a] every party branch (share type 3) and the file for schemas/modules/', async () => {
    const created = await call('POST', '/api/forms', { title: '按支部填报', schema: { properties: { note: { type: 'string', title: '说明' } } } });
    const published = await call('POST', `/api/forms/${created.body.id}/publish`, { shareType: 3, deadline: '2026-12-01' });
    expect(published.body.organisations).toBe(3);
    const file = await t.app.inject({ method: 'GET', url: `/api/forms/${created.body.id}/file`, headers: { authorization: `Bearer ${admin}` } });
    expect(file.headers['content-disposition']).toContain(`${created.body.id}.json`);
    expect(checkModuleSchema(JSON.parse(file.body), created.body.id)).toEqual([]);
  });
});

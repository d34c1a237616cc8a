// engines: pglite — dictionary lookups: no engine-specific SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Dicts#2026a';

/** The 18 dictionaries of spec section 3 (S3.D01–S3.D18) and a label each must contain. */
const SPEC_DICTS: [string, string, string][] = [
  ['S3.D01', 'DJ_COMM_XB', '男'],
  ['S3.D02', 'DJ_COMM_MZXX', '汉族'],
  ['S3.D03', 'DJ_COMM_ZZMM', '中共党员'],
  ['S3.D04', 'DJ_DY_RYLBXX', ''],
  ['S3.D05', 'DJ_DY_DJZTXX', ''],
  ['S3.D06', 'DJ_DYJBXX_RYLX', ''],
  ['S3.D07', 'DJ_DY_XLXX', ''],
  ['S3.D08', 'DJ_JBXX_ZYJSZC', ''],
  ['S3.D09', 'DJ_DY_GZGWXX', ''],
  ['S3.D10', 'GB_JBXX_XL', ''],
  ['S3.D11', 'GB_JBXX_XW', ''],
  ['S3.D12', 'GB_JBXX_GBLB', ''],
  ['S3.D13', 'GB_JBXX_XZJB', ''],
  ['S3.D14', 'GB_JBXX_RZZT', ''],
  ['S3.D15', 'GB_JBXX_ZWSX', ''],
  ['S3.D16', 'GB_JBXX_ZW', ''],
  ['S3.D17', 'GB_JBXX_BZLX', ''],
  ['S3.D18', 'GB_JBXX_ZYJSZC', ''],
];

interface Entry {
  id: number;
  value: string;
  label: string;
  dictSort: number;
  parent: string | null;
  disabled: boolean;
}

describe(`dictionary API on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let plain: string;
  let editor: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    await userWithRole(t.app, admin, { username: 'dictplain', permissions: ['member:list'], password: PASS });
    await userWithRole(t.app, admin, { username: 'dicteditor', permissions: ['dict:list', 'dict:add', 'dict:edit', 'dict:delete'], password: PASS });
    plain = await login(t.app, 'dictplain', PASS);
    editor = await login(t.app, 'dicteditor', PASS);
  });
  afterAll(() => t.app.close());

  const details = async (dictName: string, token = plain) => {
    const res = await t.app.inject({ url: `/api/dictDetail?dictName=${dictName}&page=0&size=9999`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { content: Entry[]; totalElements: number };
  };

  it('[S3.E11][S7.D1a] GET api/dictDetail?dictName=DJ_COMM_XB&page=0&size=9999 answers entries with value and label, in order', async () => {
    const body = await details('DJ_COMM_XB');
    expect(body.totalElements).toBe(4);
    expect(body.content.map((e) => [e.value, e.label])).toEqual([['1', '男'], ['2', '女'], ['0', '未知的性别'], ['9', '未说明的性别']]);
    expect(body.content[0]).toEqual({ id: expect.any(Number), value: '1', label: '男', dictSort: 1, parent: null, disabled: false });
    const page = await t.app.inject({ url: '/api/dictDetail?dictName=DJ_COMM_XB&page=1&size=2', headers: bearer(plain) });
    expect(page.json().content.map((e: Entry) => e.label)).toEqual(['未知的性别', '未说明的性别']);
    expect((await t.app.inject({ url: '/api/dictDetail?dictName=DJ_COMM_XB' })).statusCode).toBe(401);
  });

  it(`[${SPEC_DICTS.map((d) => d[0]).join('][')}] each of the 18 dictionaries answers entries of {value,label}`, async () => {
    for (const [id, code, label] of SPEC_DICTS) {
      const body = await details(code);
      expect(body.totalElements, `${id} ${code}`).toBeGreaterThan(1);
      for (const e of body.content) {
        expect(typeof e.value, `${id} ${code}`).toBe('string');
        expect(e.label.length, `${id} ${code}`).toBeGreaterThan(0);
      }
      if (label) expect(body.content.map((e) => e.label), id).toContain(label);
    }
    // S3.D18: the two professional-title dictionaries are separate dictionaries.
    const [party, cadre] = await Promise.all([details('DJ_JBXX_ZYJSZC'), details('GB_JBXX_ZYJSZC')]);
    expect(party.content[0].id).not.toBe(cadre.content[0].id);
    expect((await details('DJ_COMM_MZXX')).totalElements).toBeGreaterThanOrEqual(56);
  });

  it('an unknown or missing dictName is a 400 with a Chinese message', async () => {
    const res = await t.app.inject({ url: '/api/dictDetail?dictName=NO_SUCH&page=0&size=9999', headers: bearer(plain) });
    expect(res.json()).toMatchObject({ status: 400, message: '字典“NO_SUCH”不存在' });
    const missing = await t.app.inject({ url: '/api/dictDetail?page=0&size=9999', headers: bearer(plain) });
    expect(missing.json()).toMatchObject({ status: 400, message: '请指定字典名称' });
    expect((await t.app.inject({ url: '/api/dictDetail/cache?dictName=NO_SUCH', headers: bearer(plain) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/dictDetail/map?dictName=DJ_COMM_XB,NO_SUCH', headers: bearer(plain) })).json().message).toBe('字典“NO_SUCH”不存在');
  });

  it('[S7.D1b] GET api/dictDetail/cache?dictName=DJ_COMM_XB answers that dictionary\'s entries', async () => {
    const res = await t.app.inject({ url: '/api/dictDetail/cache?dictName=DJ_COMM_XB', headers: bearer(plain) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((e: Entry) => e.label)).toEqual(['男', '女', '未知的性别', '未说明的性别']);
  });

  it('[S7.D1c] GET api/dictDetail/map answers several dictionaries by name (comma-separated or repeated)', async () => {
    const res = await t.app.inject({ url: '/api/dictDetail/map?dictName=DJ_COMM_XB&page=0&size=9999', headers: bearer(plain) });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['DJ_COMM_XB']);
    expect(res.json().DJ_COMM_XB[0]).toMatchObject({ value: '1', label: '男' });
    const two = await t.app.inject({ url: '/api/dictDetail/map?dictName=DJ_COMM_XB,GB_JBXX_XW&page=0&size=9999', headers: bearer(plain) });
    expect(Object.keys(two.json()).sort()).toEqual(['DJ_COMM_XB', 'GB_JBXX_XW']);
    const repeated = await t.app.inject({ url: '/api/dictDetail/map?dictName=DJ_COMM_XB&dictName=DJ_COMM_ZZMM', headers: bearer(plain) });
    expect(Object.keys(repeated.json()).sort()).toEqual(['DJ_COMM_XB', 'DJ_COMM_ZZMM']);
  });

  it('[S7.D2a][S7.D2b][S7.D2c] POST creates an entry, PUT changes its label, DELETE api/dictDetail/{id} removes it (cache follows)', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/dictDetail', headers: bearer(editor), payload: { dictName: 'DJ_COMM_XB', value: '5', label: '测试性别', dictSort: 9 } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect((await details('DJ_COMM_XB')).content.at(-1)).toMatchObject({ id, value: '5', label: '测试性别', dictSort: 9 });
    expect((await t.app.services.dicts.labels('DJ_COMM_XB')).get('5')).toBe('测试性别');

    const edited = await t.app.inject({ method: 'PUT', url: '/api/dictDetail', headers: bearer(editor), payload: { id, label: '改后标签' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await details('DJ_COMM_XB')).content.find((e) => e.id === id)?.label).toBe('改后标签');
    const cached = await t.app.inject({ url: '/api/dictDetail/cache?dictName=DJ_COMM_XB', headers: bearer(plain) });
    expect(cached.json().find((e: Entry) => e.id === id).label).toBe('改后标签');

    const del = await t.app.inject({ method: 'DELETE', url: `/api/dictDetail/${id}`, headers: bearer(editor) });
    expect(del.statusCode, del.body).toBe(200);
    expect((await details('DJ_COMM_XB')).content.map((e) => e.id)).not.toContain(id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/dictDetail/${id}`, headers: bearer(editor) })).statusCode).toBe(404);
  });

  it('[S7.C2b] POST /api/dictDetail/{id} with X-HTTP-Method-Override: DELETE deletes the entry', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/dictDetail', headers: bearer(editor), payload: { dict: { name: 'DJ_COMM_XB' }, value: '6', label: '待删除' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const res = await t.app.inject({ method: 'POST', url: `/api/dictDetail/${id}`, headers: { ...bearer(editor), 'x-http-method-override': 'DELETE' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await details('DJ_COMM_XB')).content.map((e) => e.value)).not.toContain('6');
  });

  it('entry writes refuse duplicates and bad input with Chinese messages, and need dict permissions', async () => {
    const post = (payload: object, token = editor) => t.app.inject({ method: 'POST', url: '/api/dictDetail', headers: bearer(token), payload });
    const dup = await post({ dictName: 'DJ_COMM_XB', value: '1', label: '重复' });
    expect(dup.json()).toMatchObject({ status: 400, message: '字典值“1”已存在', errors: [{ field: 'value', message: '字典值“1”已存在' }] });
    const noLabel = await post({ dictName: 'DJ_COMM_XB', value: '7' });
    expect(noLabel.json().errors[0]).toMatchObject({ field: 'label', message: '字典标签不能为空' });
    const unknown = await post({ dictName: 'NO_SUCH', value: '7', label: 'x' });
    expect(unknown.json().message).toBe('字典“NO_SUCH”不存在');
    const badParent = await post({ dictName: 'DJ_COMM_XB', value: '7', label: 'x', parent: 'zz' });
    expect(badParent.json().message).toBe('上级字典项“zz”不存在');
    expect((await details('DJ_COMM_XB')).totalElements).toBe(4);

    const entries = (await details('DJ_COMM_XB')).content;
    const clash = await t.app.inject({ method: 'PUT', url: '/api/dictDetail', headers: bearer(editor), payload: { id: entries[0].id, value: entries[1].value } });
    expect(clash.json().message).toBe(`字典值“${entries[1].value}”已存在`);

    expect((await post({ dictName: 'DJ_COMM_XB', value: '8', label: 'x' }, plain)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/dictDetail', headers: bearer(plain), payload: { id: entries[0].id, label: 'x' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/dictDetail/${entries[0].id}`, headers: bearer(plain) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/dictDetail/${entries[0].id}` })).statusCode).toBe(401);
    expect((await details('DJ_COMM_XB')).content[0].label).toBe('男');
  });

  it('grouped entries: a child names its parent; renaming the parent value carries the children; a parent with children cannot be deleted', async () => {
    const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/dictDetail', headers: bearer(editor), payload });
    const parent = await post({ dictName: 'DJ_COMM_SF', value: 'P1', label: '父项' });
    const child = await post({ dictName: 'DJ_COMM_SF', value: 'C1', label: '子项', parent: 'P1' });
    expect(child.statusCode, child.body).toBe(201);
    await t.app.inject({ method: 'PUT', url: '/api/dictDetail', headers: bearer(editor), payload: { id: parent.json().id, value: 'P2' } });
    expect((await details('DJ_COMM_SF')).content.find((e) => e.value === 'C1')?.parent).toBe('P2');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/dictDetail/${parent.json().id}`, headers: bearer(editor) });
    expect(del.json()).toMatchObject({ status: 400, message: '请先删除下级字典项（如“子项”）' });
  });

  it('dictionary records: list (paged, blurry), create, rename, delete; shipped dictionaries cannot be deleted', async () => {
    const list = await t.app.inject({ url: '/api/dict?blurry=性别&size=50', headers: bearer(editor) });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.find((d: { code: string }) => d.code === 'DJ_COMM_XB')).toMatchObject({ name: '性别', entryCount: 4 });
    const all = await t.app.inject({ url: '/api/dict?size=100', headers: bearer(editor) });
    expect(all.json().totalElements).toBeGreaterThanOrEqual(18);
    expect((await t.app.inject({ url: '/api/dict', headers: bearer(plain) })).statusCode).toBe(403);

    const created = await t.app.inject({ method: 'POST', url: '/api/dict', headers: bearer(editor), payload: { code: 'TEST_DICT', name: '测试字典' } });
    expect(created.statusCode, created.body).toBe(201);
    const dup = await t.app.inject({ method: 'POST', url: '/api/dict', headers: bearer(editor), payload: { code: 'TEST_DICT', name: '重复' } });
    expect(dup.json().message).toBe('字典编码“TEST_DICT”已存在');
    const bad = await t.app.inject({ method: 'POST', url: '/api/dict', headers: bearer(editor), payload: { code: '1-bad', name: 'x' } });
    expect(bad.json().errors[0]).toMatchObject({ field: 'code', message: '字典编码的格式不正确' });
    expect((await details('TEST_DICT')).totalElements).toBe(0);
    await t.app.inject({ method: 'POST', url: '/api/dictDetail', headers: bearer(editor), payload: { dictName: 'TEST_DICT', value: 'a', label: '甲' } });
    expect((await details('TEST_DICT')).content.map((e) => e.label)).toEqual(['甲']);

    const renamed = await t.app.inject({ method: 'PUT', url: '/api/dict', headers: bearer(editor), payload: { id: created.json().id, name: '改名字典' } });
    expect(renamed.statusCode).toBe(200);
    const recode = await t.app.inject({ method: 'PUT', url: '/api/dict', headers: bearer(editor), payload: { id: created.json().id, code: 'OTHER' } });
    expect(recode.json().message).toBe('字典编码创建后不能修改');

    const xb = (await t.database.db.selectFrom('dicts').select('id').where('code', '=', 'DJ_COMM_XB').executeTakeFirstOrThrow()).id;
    const shipped = await t.app.inject({ method: 'DELETE', url: '/api/dict', headers: bearer(editor), payload: [xb] });
    expect(shipped.json()).toMatchObject({ status: 400, message: '系统字典不能删除：DJ_COMM_XB' });
    const del = await t.app.inject({ method: 'DELETE', url: '/api/dict', headers: bearer(editor), payload: [created.json().id] });
    expect(del.statusCode, del.body).toBe(200);
    expect((await t.app.inject({ url: '/api/dictDetail?dictName=TEST_DICT', headers: bearer(plain) })).statusCode).toBe(400);
  });
});

// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the payroll import and standards written in bulk
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinyinKey } from '../../src/server/runtime/pinyin.js';
import { bearer } from '../support/auth.js';
import { branchWith, caller, duesWorld, membersOf, scopedUser, type Call, type DuesWorld } from '../support/dues.js';
import { TEST_DB } from '../support/test-app.js';

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('工资表');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

function multipart(file: Buffer, name = '工资表.xlsx'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----dues' + Math.random().toString(16).slice(2);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe(`dues standards and the calculator on ${TEST_DB}`, () => {
  let w: DuesWorld;
  let call: Call;
  beforeAll(async () => {
    w = await duesWorld(200, 33);
    call = caller(w.t.app, () => w.admin);
  });
  afterAll(() => w.t.app.close());

  it('GET /api/dues/calculate answers the bands at every boundary, retirees, students and rounding, as the rules do', async () => {
    const cases: [string, string, string, string][] = [
      ['in-service', '3000.00', '15.00', '0.5%'],
      ['in-service', '3000.01', '30.00', '1%'],
      ['in-service', '5000.00', '50.00', '1%'],
      ['in-service', '5000.01', '75.00', '1.5%'],
      ['in-service', '10000.00', '150.00', '1.5%'],
      ['in-service', '10000.01', '200.00', '2%'],
      ['in-service', '3333.50', '33.34', '1%'],
      ['retired', '5000.00', '25.00', '0.5%'],
      ['retired', '5000.01', '50.00', '1%'],
      ['student', '', '0.20', '定额'],
      ['unemployed', '8000', '0.20', '定额'],
    ];
    for (const [category, base, due, rate] of cases) {
      const res = await call('GET', `/api/dues/calculate?category=${category}&base=${base}`);
      expect(res.status).toBe(200);
      expect(res.body, `${category} ${base}`).toMatchObject({ due, rate, source: '中组发〔2008〕3号' });
      expect(res.body.rule).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await call('GET', '/api/dues/calculate?category=in-service&base=5000')).body.rule).toBe('在职党员每月工资收入（税后）3000元以上至5000元（含5000元），按1%交纳');
    expect(await call('GET', '/api/dues/calculate?category=teacher&base=1')).toMatchObject({ status: 400, body: { message: '缴纳类别只能是 in-service、retired、student 或 unemployed' } });
    expect((await call('GET', '/api/dues/calculate?category=in-service&base=1.005')).status).toBe(400);
    expect((await call('GET', '/api/dues/calculate?category=retired')).status).toBe(400);
    expect((await w.t.app.inject({ url: '/api/dues/calculate?category=student' })).statusCode).toBe(401);
  });

  it('a standard written by hand: the hook sets branch, rate, amount and rule; changes go into the trail', async () => {
    const branch = await branchWith(w, 2);
    const [m] = await membersOf(w, branch);
    const created = await call('POST', '/api/m/dues-standard', { memberId: m.id, year: 2026, category: 'in-service', base: '5000.01', rate: '99%', amount: '0.01' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ memberName: m.name, orgId: branch, base: '5000.01', rate: '1.5%', amount: '75.00', source: '手工录入', categoryLabel: '在职党员' });
    expect((await call('POST', '/api/m/dues-standard', { memberId: m.id, year: 2026, category: 'in-service', base: '1' })).body.message).toBe('党员、年度“' + m.id + '、2026”已存在');
    expect((await call('POST', '/api/m/dues-standard', { memberId: m.id, year: 2025, category: 'retired' })).body).toMatchObject({ status: 400, message: '离退休党员须填写党费基数' });
    expect((await call('POST', '/api/m/dues-standard', { memberId: m.id, year: 2025, category: 'in-service', base: '12.345' })).body.message).toBe('请输入金额（元），最多两位小数');
    const student = await call('POST', '/api/m/dues-standard', { memberId: m.id, year: 2025, category: 'student', base: '9000' });
    expect(student.body).toMatchObject({ base: null, amount: '0.20', rate: '定额' });
    const updated = await call('PUT', '/api/m/dues-standard', { id: created.body.id, version: created.body.version, base: '10000.01' });
    expect(updated.body).toMatchObject({ amount: '200.00', rate: '2%' });
    const trail = await call('GET', `/api/m/dues-standard/${created.body.id}/trail`);
    expect(trail.body.content[0].changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'base', before: '5000.01', after: '10000.01' }),
      expect.objectContaining({ field: 'amount', before: '75.00', after: '200.00' }),
    ]));
    // A branch administrator may not write a standard for someone outside the branch: the runtime's one
    // write check on references (issue 38.5) refuses a member the writer may not read, naming the field.
    const other = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id <> ${branch} AND org_id IS NOT NULL LIMIT 1`.execute(w.t.database.db)).rows[0];
    const sec = await scopedUser(w, 'dues_std_sec', ['dues:list', 'dues:add', 'dues:edit', 'dues:confirm', 'dues:import'], branch);
    const standardsOf = async (memberId: number) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_dues_standard WHERE member_id = ${memberId}`.execute(w.t.database.db)).rows[0].n;
    const before = await standardsOf(other.id);
    const outside = await call('POST', '/api/m/dues-standard', { memberId: other.id, year: 2026, category: 'in-service', base: '4000' }, sec);
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('党员所选的记录不在您的数据范围内');
    expect(outside.body.errors).toEqual([expect.objectContaining({ field: 'memberId', message: '党员所选的记录不在您的数据范围内' })]);
    expect(await standardsOf(other.id)).toBe(before);
  });

  it('payroll import: the base from 党费基数 or from the school\'s formula; every bad row reported, the good ones written with a trail', async () => {
    const [branch] = [await branchWith(w, 4)];
    const staff = (await sql<{ id: number; name: string; idCard: string; personNo: string }>`SELECT id, name, id_card AS "idCard", person_no AS "personNo" FROM m_member
      WHERE org_id = ${branch} AND category = '1' AND party_status = '1' ORDER BY id`.execute(w.t.database.db)).rows;
    const studentRow = (await sql<{ idCard: string }>`SELECT id_card AS "idCard" FROM m_member WHERE category = '4' AND party_status = '1' LIMIT 1`.execute(w.t.database.db)).rows[0];
    const template = await w.t.app.inject({ url: '/api/dues/standards/payroll-template?year=2027', headers: bearer(w.admin) });
    expect(template.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as never);
    expect((book.worksheets[0].getRow(2).values as unknown[]).slice(1)).toEqual(['身份证号', '工号', '姓名', '岗位工资', '薪级工资', '津贴补贴', '个人所得税', '养老保险', '职业年金', '医疗保险', '失业保险', '住房公积金', '党费基数']);
    expect(String(book.worksheets[0].getCell('A1').value)).toContain('党费基数 = 岗位工资 + 薪级工资 + 津贴补贴 − 个人所得税');

    const file = await xlsx([
      ['说明'],
      ['身份证号', '工号', '姓名', '岗位工资', '薪级工资', '津贴补贴', '个人所得税', '住房公积金', '党费基数'],
      [staff[0].idCard, '', staff[0].name, '', '', '', '', '', 5000.01],
      ['', staff[1].personNo, staff[1].name, 3000, 2500, 1500.5, 123.45, 600, ''],
      [staff[0].idCard, '', '重复', '', '', '', '', '', 4000],
      ['110101199001011234', '', '查无此人', '', '', '', '', '', 4000],
      [studentRow.idCard, '', '学生', '', '', '', '', '', 4000],
      [staff[2].idCard, '', staff[2].name, '', '', '', '', '', 'abc'],
      [staff[3].idCard, '', staff[3].name, '', '', '', 99999, '', ''],
    ]);
    const upload = multipart(file);
    const res = await w.t.app.inject({ method: 'POST', url: '/api/dues/standards/import?year=2027', headers: { ...bearer(w.admin), ...upload.headers }, payload: upload.payload });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 7, created: 2, updated: 0, failed: 5 });
    expect(body.errors.map((e: { row: number }) => e.row)).toEqual([5, 6, 7, 8, 9]);
    expect(body.errors[0].message).toBe('与第3行是同一名党员');
    expect(body.errors[1].message).toBe('未找到身份证号为“110101199001011234”的党员');
    expect(body.errors[2].message).toMatch(/为学生党员，按定额交纳，无需导入工资$/);
    expect(body.errors[3]).toMatchObject({ column: '党费基数', message: '党费基数“abc”不是有效的金额' });
    expect(body.errors[4].message).toBe('按公式算出的党费基数为负数，请核对工资数据');
    const written = (await sql<{ memberId: number; base: string; amount: string; source: string }>`SELECT member_id AS "memberId", base, amount, source FROM m_dues_standard WHERE year = 2027 ORDER BY member_id`.execute(w.t.database.db)).rows;
    // The names carry their pinyin sort key at once (the list sorts by it), as the runtime's writes do.
    const keys = (await sql<{ name: string; key: string | null }>`SELECT member_name AS name, member_name__py AS key FROM m_dues_standard WHERE year = 2027`.execute(w.t.database.db)).rows;
    expect(keys.map((k) => k.key)).toEqual(keys.map((k) => pinyinKey(k.name)));
    expect(keys.every((k) => k.key)).toBe(true);
    // 3000 + 2500 + 1500.50 − 123.45 − 600 = 6277.05 → 1.5% = 94.15575 → 94.16
    expect(written).toEqual([
      { memberId: staff[0].id, base: '5000.01', amount: '75.00', source: '工资表导入' },
      { memberId: staff[1].id, base: '6277.05', amount: '94.16', source: '工资表导入' },
    ].sort((a, b) => a.memberId - b.memberId));
    // Importing the same file again changes nothing; a new base updates (origin SYSTEM_IMPORT_UPDATE).
    const again = await w.t.app.inject({ method: 'POST', url: '/api/dues/standards/import?year=2027', headers: { ...bearer(w.admin), ...upload.headers }, payload: upload.payload });
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const changed = multipart(await xlsx([['身份证号', '党费基数'], [staff[0].idCard, '10000.01']]));
    const third = await w.t.app.inject({ method: 'POST', url: '/api/dues/standards/import?year=2027', headers: { ...bearer(w.admin), ...changed.headers }, payload: changed.payload });
    expect(third.json()).toMatchObject({ updated: 1 });
    const id = (await sql<{ id: number }>`SELECT id FROM m_dues_standard WHERE year = 2027 AND member_id = ${staff[0].id}`.execute(w.t.database.db)).rows[0].id;
    const trail = (await call('GET', `/api/m/dues-standard/${id}/trail`)).body.content;
    expect(trail.map((c: { originLabel: string }) => c.originLabel)).toEqual(['系统导入更新', '系统导入']);
    expect(trail[1].changes.find((c: { field: string }) => c.field === 'memberId')).toMatchObject({ afterLabel: staff[0].name });
    const bad = multipart(await xlsx([['姓名'], ['张三']]));
    expect((await w.t.app.inject({ method: 'POST', url: '/api/dues/standards/import?year=2027', headers: { ...bearer(w.admin), ...bad.headers }, payload: bad.payload })).json().message).toBe('未找到“身份证号”或“工号”列，请使用导入模板填写');
  });

  it('a school\'s own base formula is a setting shown to users and used by the import; a bad one is refused', async () => {
    const before = await call('GET', '/api/dues/settings');
    expect(before.body).toMatchObject({ ownFormula: false, source: '中组发〔2008〕3号' });
    expect(before.body.formulaText).toMatch(/^党费基数 = 岗位工资/);
    expect((await call('PUT', '/api/dues/settings', { baseFormula: { name: 'x', terms: [{ column: '应发工资', factor: 'abc' }] } })).body.message).toBe('工资项目“应发工资”的系数不正确（如 1、-1、0.6）');
    const saved = await call('PUT', '/api/dues/settings', { baseFormula: { name: '应发工资的60%', terms: [{ column: '应发工资', factor: '0.6' }] } });
    expect(saved.body).toMatchObject({ ownFormula: true, formulaText: '党费基数 = 应发工资 × 60%' });
    const branch = await branchWith(w, 5);
    const m = (await sql<{ id: number; idCard: string }>`SELECT id, id_card AS "idCard" FROM m_member WHERE org_id = ${branch} AND category = '1' AND party_status = '1' ORDER BY id DESC LIMIT 1`.execute(w.t.database.db)).rows[0];
    const upload = multipart(await xlsx([['身份证号', '应发工资'], [m.idCard, 8333.34]]));
    const res = await w.t.app.inject({ method: 'POST', url: '/api/dues/standards/import?year=2028', headers: { ...bearer(w.admin), ...upload.headers }, payload: upload.payload });
    expect(res.json()).toMatchObject({ created: 1, formulaText: '党费基数 = 应发工资 × 60%' });
    // 8333.34 × 60% = 5000.004 → 5000.00 → 1% = 50.00 (one cent more would be the next band)
    expect((await sql<{ base: string; amount: string }>`SELECT base, amount FROM m_dues_standard WHERE year = 2028 AND member_id = ${m.id}`.execute(w.t.database.db)).rows[0]).toEqual({ base: '5000.00', amount: '50.00' });
    const dy = await scopedUser(w, 'dues_reader', ['dues-my:list'], branch);
    expect((await call('GET', '/api/dues/settings', undefined, dy)).body.formulaText).toBe('党费基数 = 应发工资 × 60%');
    expect((await call('PUT', '/api/dues/settings', { baseFormula: null }, dy)).status).toBe(403);
    expect((await call('PUT', '/api/dues/settings', { baseFormula: null })).body.ownFormula).toBe(false);
  });

  it('generation by the rules, then the branch secretary confirms the branch\'s list; a later change asks for confirmation again', async () => {
    const branch = await branchWith(w, 3, ['3', '4']);
    const sec = await scopedUser(w, 'dues_confirm_sec', ['dues:list', 'dues:add', 'dues:edit', 'dues:confirm'], branch);
    const gen = await call('POST', '/api/dues/standards/generate', { year: 2030 }, sec);
    expect(gen.status, JSON.stringify(gen.body)).toBe(200);
    const members = await membersOf(w, branch);
    const students = members.filter((m) => ['3', '4', '5'].includes(m.category));
    expect(gen.body.created).toBe(students.length);
    expect(gen.body.missingBase).toBe(members.length - students.length);
    const list = (await call('GET', `/api/dues/standards/branches?year=2030`, undefined, sec)).body;
    expect(list.map((b: { orgId: number }) => b.orgId)).toEqual([branch]);
    if (gen.body.missingBase) {
      expect((await call('POST', '/api/dues/standards/confirm', { orgId: branch, year: 2030 }, sec)).body.message).toMatch(/名党员没有2030年度的党费标准，请先导入或生成$/);
      for (const m of members.filter((x) => !students.includes(x))) await call('POST', '/api/m/dues-standard', { memberId: m.id, year: 2030, category: 'in-service', base: '4000' }, sec);
    }
    const confirmed = await call('POST', '/api/dues/standards/confirm', { orgId: branch, year: 2030 }, sec);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ orgId: branch, members: members.length, withStandard: members.length, stale: false, confirmed: { by: 'dues_confirm_sec', members: members.length } });
    const one = (await call('POST', '/api/m/dues-standard/list?size=1', { orgId: branch, year: 2030 }, sec)).body.content[0];
    expect((await call('PUT', '/api/m/dues-standard', { id: one.id, version: one.version, remark: '核对' }, sec)).status).toBe(200);
    expect((await call('GET', `/api/dues/standards/branches?year=2030`, undefined, sec)).body[0].stale).toBe(true);
  });
});

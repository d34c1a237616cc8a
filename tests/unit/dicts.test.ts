import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SPEC_DICT_CODES, checkDictsDir, loadDicts, type Dict } from '../../generators/lib/dicts.js';
import { SCHEMAS_DIR } from '../../generators/lib/schemas.js';

const dicts = new Map(loadDicts().map((d) => [d.code, d]));
const labels = (code: string) => dicts.get(code)!.entries.map((e) => e.label);
const byValue = (code: string) => Object.fromEntries(dicts.get(code)!.entries.map((e) => [e.value, e.label]));

/** A schemas dir in a temp folder holding the repository's dictionaries plus/over the given files. */
const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDicts(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dicts-'));
  tempDirs.push(dir);
  fs.cpSync(path.join(SCHEMAS_DIR, 'dicts'), path.join(dir, 'dicts'), { recursive: true });
  for (const [name, body] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, 'dicts', `${name}.json`), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return dir;
}

const sample = (): Dict => ({
  code: 'DJ_TEST',
  name: '测试',
  entries: [{ value: '1', label: '甲', sort: 1 }, { value: '2', label: '乙', sort: 2 }],
});

// Each spec dictionary with a label its meaning requires (a smoke test that the file holds that meaning).
const MEANINGS: [id: string, code: string, expected: string][] = [
  ['S3.D01', 'DJ_COMM_XB', '男'],
  ['S3.D02', 'DJ_COMM_MZXX', '汉族'],
  ['S3.D03', 'DJ_COMM_ZZMM', '中共党员'],
  ['S3.D04', 'DJ_DY_RYLBXX', '在职教职工'],
  ['S3.D05', 'DJ_DY_DJZTXX', '正常'],
  ['S3.D06', 'DJ_DYJBXX_RYLX', '预备党员'],
  ['S3.D07', 'DJ_DY_XLXX', '大学本科'],
  ['S3.D08', 'DJ_JBXX_ZYJSZC', '教授'],
  ['S3.D09', 'DJ_DY_GZGWXX', '专任教师'],
  ['S3.D10', 'GB_JBXX_XL', '大学本科毕业'],
  ['S3.D11', 'GB_JBXX_XW', '硕士'],
  ['S3.D12', 'GB_JBXX_GBLB', '校级领导干部'],
  ['S3.D13', 'GB_JBXX_XZJB', '正处级'],
  ['S3.D14', 'GB_JBXX_RZZT', '在任'],
  ['S3.D15', 'GB_JBXX_ZWSX', '正职'],
  ['S3.D16', 'GB_JBXX_ZW', '院长'],
  ['S3.D17', 'GB_JBXX_BZLX', '校级领导班子'],
  ['S3.D18', 'GB_JBXX_ZYJSZC', '副教授'],
];

describe('dictionaries of spec §3', () => {
  it('[S3.E11] every dictionary is a list of {value, label} entries, and the repository\'s files are all valid', () => {
    expect(checkDictsDir()).toEqual([]);
    expect(dicts.size).toBeGreaterThanOrEqual(18);
    for (const dict of dicts.values()) {
      expect(dict.entries.length, dict.code).toBeGreaterThan(0);
      for (const entry of dict.entries) {
        expect(typeof entry.value).toBe('string');
        expect(entry.label.trim().length).toBeGreaterThan(0);
      }
    }
  });

  it.each(MEANINGS)('[%s] dictionary %s exists with {value,label} entries for its meaning (e.g. %s)', (_id, code, expected) => {
    expect(SPEC_DICT_CODES).toContain(code);
    const dict = dicts.get(code);
    expect(dict, code).toBeDefined();
    expect(dict!.code).toBe(code);
    expect(dict!.name.length).toBeGreaterThan(0);
    expect(labels(code)).toContain(expected);
  });

  it('[S3.D01] gender uses the GB/T 2261.1 codes 0, 1 男, 2 女, 9', () => {
    expect(byValue('DJ_COMM_XB')).toEqual({ 0: '未知的性别', 1: '男', 2: '女', 9: '未说明的性别' });
  });

  it('[33.7] forms offer 男 and 女: the national codes 0 and 9 ship disabled (a school enables them in 字典管理)', () => {
    const entries = dicts.get('DJ_COMM_XB')!.entries;
    expect(entries.filter((e) => !e.disabled).map((e) => e.label)).toEqual(['男', '女']);
    expect(entries.filter((e) => e.disabled).map((e) => e.value)).toEqual(['0', '9']);
  });

  it('[S3.D02] ethnicity has all 56 ethnic groups with their GB/T 3304 two-digit codes, plus 97 and 98', () => {
    const mz = byValue('DJ_COMM_MZXX');
    const groups = Object.keys(mz).filter((v) => Number(v) >= 1 && Number(v) <= 56);
    expect(groups).toHaveLength(56);
    expect(groups.every((v) => /^\d{2}$/.test(v) && mz[v].endsWith('族'))).toBe(true);
    expect(new Set(groups.map((v) => mz[v])).size).toBe(56);
    expect([mz['01'], mz['02'], mz['05'], mz['08'], mz['15'], mz['56']]).toEqual(['汉族', '蒙古族', '维吾尔族', '壮族', '土家族', '基诺族']);
    expect([mz['97'], mz['98']]).toEqual(['其他', '外国血统中国籍人士']);
  });

  it('[S3.D03] political affiliation uses GB/T 4762 codes 01 中共党员 … 13 群众', () => {
    const zz = byValue('DJ_COMM_ZZMM');
    expect(Object.keys(zz)).toHaveLength(13);
    expect([zz['01'], zz['02'], zz['03'], zz['04'], zz['12'], zz['13']]).toEqual(['中共党员', '中共预备党员', '共青团员', '民革党员', '无党派人士', '群众']);
  });

  it('[S3.D10] [S3.D11] cadre education and degree use GB/T 4658 and GB/T 6864 codes', () => {
    const xl = byValue('GB_JBXX_XL');
    expect([xl['10'], xl['11'], xl['14'], xl['21'], xl['31'], xl['90']]).toEqual(['研究生教育', '博士研究生毕业', '硕士研究生毕业', '大学本科毕业', '大学专科毕业', '其他']);
    const xw = byValue('GB_JBXX_XW');
    expect([xw['2'], xw['3'], xw['4'], xw['208'], xw['312']]).toEqual(['博士', '硕士', '学士', '工学博士学位', '管理学硕士学位']);
    expect(dicts.get('GB_JBXX_XW')!.entries.find((e) => e.value === '401')!.parent).toBe('4');
  });

  it('[S3.D08] [S3.D18] the two professional-title dictionaries exist separately', () => {
    expect(dicts.get('DJ_JBXX_ZYJSZC')).not.toBe(dicts.get('GB_JBXX_ZYJSZC'));
    expect(fs.existsSync(path.join(SCHEMAS_DIR, 'dicts/DJ_JBXX_ZYJSZC.json'))).toBe(true);
    expect(fs.existsSync(path.join(SCHEMAS_DIR, 'dicts/GB_JBXX_ZYJSZC.json'))).toBe(true);
    expect(labels('GB_JBXX_ZYJSZC')).toEqual(expect.arrayContaining(['正高级', '副高级', '中级', '初级', '讲师', '研究员']));
  });

  it('the extra dictionaries later modules need exist', () => {
    expect(labels('DJ_DZZ_LB')).toEqual(['党委', '党总支', '党支部', '联合党支部', '临时党支部']);
    expect(byValue('DJ_COMM_SF')).toEqual({ 1: '是', 0: '否' });
    for (const code of ['DJ_DW_LB', 'DJ_XS_NJ', 'DJ_FZ_JD']) expect(dicts.has(code), code).toBe(true);
  });
});

describe('checkDictsDir', () => {
  it('finds a repeated value and a code that does not match the file name', () => {
    const broken = sample();
    broken.entries.push({ value: '1', label: '丙', sort: 3 });
    const dir = tempDicts({ DJ_TEST: broken, DJ_OTHER: sample() });
    expect(checkDictsDir(dir)).toEqual([
      'dicts/DJ_OTHER.json: code "DJ_TEST" does not match the file name "DJ_OTHER"',
      'dicts/DJ_TEST.json: entries[2] repeats value "1"',
    ]);
  });

  it('finds bad JSON, meta-schema violations, empty labels and unknown parents', () => {
    const blank = sample();
    blank.entries[1].label = '   ';
    const wrongShape = { ...sample(), code: 'DJ_SHAPE', entries: [{ value: 1, text: '甲', sort: 1 }] };
    const orphan = { ...sample(), code: 'DJ_ORPHAN' };
    orphan.entries[1] = { ...orphan.entries[1], parent: '9' };
    const dir = tempDicts({ DJ_BAD: '{ not json', DJ_TEST: blank, DJ_SHAPE: wrongShape, DJ_ORPHAN: orphan });
    const problems = checkDictsDir(dir);
    expect(problems.some((p) => p.startsWith('dicts/DJ_BAD.json: not valid JSON'))).toBe(true);
    expect(problems.some((p) => p.startsWith('dicts/DJ_TEST.json: /entries/1/label'))).toBe(true);
    expect(problems.some((p) => p.startsWith('dicts/DJ_SHAPE.json: /entries/0/value must be string'))).toBe(true);
    expect(problems.some((p) => p.startsWith('dicts/DJ_SHAPE.json: /entries/0 must have required property \'label\''))).toBe(true);
    expect(problems).toContain('dicts/DJ_ORPHAN.json: entries[1] names unknown parent "9"');
  });

  it('reports a missing spec dictionary (fields naming unknown dictionaries: schemas.test.ts)', () => {
    const dir = tempDicts({});
    fs.rmSync(path.join(dir, 'dicts/GB_JBXX_BZLX.json'));
    expect(checkDictsDir(dir)).toEqual(['dicts/GB_JBXX_BZLX.json: missing (spec §3 names this dictionary)']);
  });

  it('loadDicts returns every dictionary sorted by code', () => {
    const codes = loadDicts().map((d) => d.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining([...SPEC_DICT_CODES]));
  });
});

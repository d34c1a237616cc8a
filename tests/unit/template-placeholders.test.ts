/**
 * Placeholder substitution of 模板管理 (src/server/domain/templates): `{name}` and `{标题}` in Word runs (also when
 * Word split a placeholder over runs), loops over a table-of-rows field as repeated table rows, spreadsheet
 * cells and repeated row blocks, the vocabulary check that names unknown placeholders, and values as people
 * read them (labels, names, 年月日 dates, 是/否).
 */
import ExcelJS from 'exceljs';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { buildDocx } from '../../src/server/domain/templates/docx-build.js';
import { docxBlocks } from '../../src/server/domain/templates/docx-pdf.js';
import { docxTags, renderDocx, renderXlsx, xlsxTags } from '../../src/server/domain/templates/placeholders.js';
import { chineseDate, fieldText, recordData, unknownPlaceholders, vocabulary } from '../../src/server/domain/templates/values.js';
import { RuntimeModule } from '../../src/server/runtime/module.js';
import { createRecordAjv } from '../../src/shared/module-schema/formats.js';
import type { ModuleSchema } from '../../src/shared/module-schema/types.js';

const schema = {
  'x-id': 'sample', title: '样例', type: 'object', additionalProperties: false,
  properties: {
    name: { type: 'string', title: '姓名' },
    gender: { type: 'string', title: '性别', 'x-dict': 'GENDER' },
    joinDate: { type: 'string', title: '入党日期', format: 'date' },
    active: { type: 'boolean', title: '在岗' },
    orgId: { type: 'integer', title: '所在党组织', 'x-ref': 'org' },
    rows: { type: 'array', title: '成员', items: { type: 'object', properties: { who: { type: 'string', title: '姓名' }, post: { type: 'string', title: '职务' } } } },
  },
} as unknown as ModuleSchema;
const org = { 'x-id': 'org', title: '组织', type: 'object', additionalProperties: false, properties: { name: { type: 'string', title: '组织名称' } } } as unknown as ModuleSchema;
const sample = new RuntimeModule(schema, createRecordAjv());
const orgModule = new RuntimeModule(org, createRecordAjv());
const moduleOf = (id: string) => (id === 'org' ? orgModule : undefined);

const record = { name: '张三', gender: '1', genderLabel: '男', joinDate: '2020-07-01', active: true, orgId: 5, orgIdName: '第一党支部', rows: [{ who: '李四', post: '书记' }, { who: '王五', post: '委员' }] };
const data = recordData(sample, record, new Map([['orgId', { module: orgModule, record: { name: '第一党支部' } }]]), '2026-11-27');
const text = (bytes: Buffer) => docxBlocks(bytes).map((b) => (b.kind === 'p' ? b.text : b.rows.map((r) => r.join('|')).join('/'))).join('\n');

describe('template values', () => {
  it('reads dates as 年月日, dictionary values by label, references by name, booleans as 是/否', () => {
    expect(chineseDate('2026-11-27')).toBe('2026年11月27日');
    expect(chineseDate('2026-01-05T08:00:00.000Z')).toBe('2026年1月5日');
    expect(fieldText(sample.field('gender')!, record)).toBe('男');
    expect(fieldText(sample.field('orgId')!, record)).toBe('第一党支部');
    expect(fieldText(sample.field('active')!, record)).toBe('是');
    expect(fieldText(sample.field('joinDate')!, { joinDate: null })).toBe('');
    expect(data).toMatchObject({ 姓名: '张三', name: '张三', 性别: '男', 入党日期: '2020年7月1日', '所在党组织.组织名称': '第一党支部', 'orgId.name': '第一党支部', 今天: '2026年11月27日' });
    expect(data.成员).toEqual([{ who: '李四', 姓名: '李四', post: '书记', 职务: '书记' }, { who: '王五', 姓名: '王五', post: '委员', 职务: '委员' }]);
  });

  it('names every placeholder its module does not know, loops and reference paths included', () => {
    const v = vocabulary(sample, moduleOf);
    expect(unknownPlaceholders({ names: ['姓名', 'orgId.name', '今天'], loops: { 成员: ['姓名', '职务'] } }, v)).toEqual([]);
    expect(unknownPlaceholders({ names: ['姓名', '籍贯', 'orgId.书记'], loops: { 成员: ['年龄'], 不存在: ['x'] } }, v)).toEqual(['{籍贯}', '{orgId.书记}', '{年龄}', '{#不存在}']);
  });
});

describe('docx placeholders', () => {
  it('fills plain placeholders and repeats a table row for each row of a table field', () => {
    const template = buildDocx([{ text: '兹证明{姓名}同志于{入党日期}入党。', indent: true }, { table: [['姓名', '职务'], ['{#成员}{姓名}', '{职务}{/成员}']] }, { text: '{今天}', align: 'right' }]);
    expect(docxTags(template)).toEqual({ names: ['姓名', '入党日期', '今天'], loops: { 成员: ['姓名', '职务'] } });
    expect(text(renderDocx(template, data))).toBe('兹证明张三同志于2020年7月1日入党。\n姓名|职务/李四|书记/王五|委员\n2026年11月27日');
  });

  it('reads a placeholder Word split over several runs', () => {
    const template = buildDocx([{ text: 'X' }]);
    const zip = new PizZip(template);
    const xml = zip.file('word/document.xml')!.asText().replace('<w:r><w:rPr><w:rFonts w:eastAsia="宋体"/></w:rPr><w:t xml:space="preserve">X</w:t></w:r>', '<w:r><w:t>姓名：{</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>姓</w:t></w:r><w:r><w:t>名}</w:t></w:r>');
    zip.file('word/document.xml', xml);
    const split = zip.generate({ type: 'nodebuffer' });
    expect(docxTags(split).names).toEqual(['姓名']);
    expect(text(renderDocx(split, data))).toBe('姓名：张三');
  });

  it('refuses a file that is no Word document and an unclosed placeholder, in Chinese', () => {
    expect(() => docxTags(Buffer.from('plain text'))).toThrow('模板文件不是有效的 Word 文档（.docx）');
    expect(() => docxTags(buildDocx([{ text: '{姓名' }]))).toThrow('模板中的占位符格式不正确：姓名');
  });
});

describe('xlsx placeholders', () => {
  it('fills cells and repeats a row naming a table field’s columns', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('表');
    sheet.addRows([['{姓名}（{性别}）'], ['姓名', '职务'], ['{成员.姓名}', '{成员.职务}'], ['制表：{今天}']]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    expect(await xlsxTags(bytes, ['成员'])).toEqual({ names: ['姓名', '性别', '今天'], loops: { 成员: ['姓名', '职务'] } });
    const out = new ExcelJS.Workbook();
    await out.xlsx.load((await renderXlsx(bytes, data)) as unknown as ArrayBuffer);
    const values: unknown[] = [];
    out.worksheets[0].eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    expect(values).toEqual([['张三（男）'], ['姓名', '职务'], ['李四', '书记'], ['王五', '委员'], ['制表：2026年11月27日']]);
  });

  it('refuses a file that is no workbook', async () => {
    await expect(xlsxTags(Buffer.from('nope'))).rejects.toThrow('模板文件不是有效的 Excel 工作簿（.xlsx）');
  });
});

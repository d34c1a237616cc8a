/**
 * Demo templates of 模板管理 (docs/work.md "Templates"), written in code at seed time: a 党员身份证明 and a
 * spreadsheet 党员基本信息表 from `member`, a 组织关系介绍信 from `transfer-out` (reaching the member's record
 * through `{党员.身份证号}`), and a 党校结业证书 from `pschool-student`. Each is checked as an upload is
 * (its placeholders known to its module), so a schema change that breaks one fails the seed.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { fileStoreOf } from '../core/files/upload.js';
import { buildDocx } from '../domain/templates/docx-build.js';
import { checkTemplate, tagList } from '../domain/templates/index.js';
import type { TemplateKind } from '../domain/templates/placeholders.js';
import type { SeedContext } from './index.js';

const MIME: Record<TemplateKind, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function memberCertificate(): Buffer {
  return buildDocx([
    { text: '党员身份证明', align: 'center', size: 22, bold: true },
    { text: '' },
    { text: '兹证明{姓名}同志（性别：{性别}，民族：{民族}，身份证号：{身份证号}），系{所在党支部}党员，于{入党日期（预备）}加入中国共产党，{转正日期}转为正式党员，现党籍状态为{党籍状态}。', indent: true, size: 14 },
    { text: '特此证明。', indent: true, size: 14 },
    { text: '' },
    { text: '中共{所在党支部}', align: 'right', size: 14 },
    { text: '{今天}', align: 'right', size: 14 },
  ]);
}

function transferLetter(): Buffer {
  return buildDocx([
    { text: '中国共产党党员组织关系介绍信', align: 'center', size: 20, bold: true },
    { text: '编号：{介绍信编号}', align: 'right' },
    { text: '{转入党组织}：', size: 14 },
    { text: '兹介绍{姓名}同志（{党员类型}，身份证号码：{党员.身份证号}）的党员组织关系由{所在党支部}转去你处（{介绍信类别}），请接洽。该同志党费已交到{党费交至}。', indent: true, size: 14 },
    { table: [['姓名', '{姓名}', '转往单位', '{转往单位}'], ['入党日期', '{入党日期}', '转出原因', '{转出原因}'], ['开具日期', '{开具日期}', '有效期至', '{有效期至}']] },
    { text: '（有效期至{有效期至}）', align: 'right' },
    { text: '中共{所在党支部}（盖章）', align: 'right', size: 14 },
    { text: '{今天}', align: 'right', size: 14 },
  ]);
}

function pschoolCertificate(): Buffer {
  return buildDocx([
    { text: '结业证书', align: 'center', size: 28, bold: true },
    { text: '' },
    { text: '{姓名}同志参加{培训班}学习，完成规定学时{已修学时}学时，经考核合格，准予结业。', indent: true, size: 16 },
    { text: '特发此证。', indent: true, size: 16 },
    { text: '' },
    { text: '证书编号：{结业证书编号}' },
    { text: '{结业时间}', align: 'right', size: 14 },
  ]);
}

async function memberSheet(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('党员基本信息表');
  sheet.columns = [{ width: 16 }, { width: 24 }, { width: 16 }, { width: 24 }];
  sheet.mergeCells('A1:D1');
  sheet.getCell('A1').value = '党员基本信息表';
  sheet.getCell('A1').font = { size: 16, bold: true };
  sheet.getCell('A1').alignment = { horizontal: 'center' };
  sheet.addRows([
    ['姓名', '{姓名}', '性别', '{性别}'],
    ['民族', '{民族}', '出生日期', '{出生日期}'],
    ['学历', '{学历}', '人员类别', '{人员类别}'],
    ['入党日期', '{入党日期（预备）}', '转正日期', '{转正日期}'],
    ['所在党支部', '{所在党支部}', '所在单位', '{所在单位}'],
    ['手机号码', '{手机号码}', '身份证号', '{身份证号}'],
    ['制表日期', '{今天}', '', ''],
  ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const DEMO: { name: string; category: string; kind: TemplateKind; sourceModule: string; description: string; file: () => Buffer | Promise<Buffer> }[] = [
  { name: '党员身份证明', category: '证明', kind: 'docx', sourceModule: 'member', description: '为党员开具党员身份证明，可预览后下载 PDF 或 Word。', file: memberCertificate },
  { name: '组织关系介绍信', category: '介绍信', kind: 'docx', sourceModule: 'transfer-out', description: '组织关系转出时开具的介绍信（党员信息取自转出记录和党员档案）。', file: transferLetter },
  { name: '党员基本信息表', category: '登记表', kind: 'xlsx', sourceModule: 'member', description: '一名党员一张的 Excel 信息表，可批量生成后打包下载。', file: memberSheet },
  { name: '党校结业证书', category: '证书', kind: 'docx', sourceModule: 'pschool-student', description: '党校培训班学员的结业证书。', file: pschoolCertificate },
];

export async function seedTemplates(ctx: SeedContext): Promise<Record<string, number>> {
  const app: FastifyInstance | undefined = ctx.app;
  if (!app?.runtime.module('doc-template')) return {};
  const store = fileStoreOf(app);
  const rows: Record<string, unknown>[] = [];
  for (const t of DEMO) {
    const source = app.runtime.module(t.sourceModule);
    if (!source) continue;
    const bytes = await t.file();
    const tags = await checkTemplate(t.kind, bytes, source, (id) => app.runtime.module(id));
    const name = `${t.name}.${t.kind}`;
    const f = await store.save(Readable.from([bytes]), { originalName: name, mime: MIME[t.kind], moduleName: 'doc-template', ownerId: null, maxBytes: bytes.length + 1 });
    rows.push({
      school: ctx.config.school, created_by: null, updated_by: null, name: t.name, category: t.category, kind: t.kind, source_module: t.sourceModule,
      file: `/api/file/view?id=${f.access_key}&name=${encodeURIComponent(name)}`, placeholders: tagList(tags), description: t.description, enabled: true,
    });
  }
  if (rows.length) await app.runtime.ctx.anyDb.insertInto('m_doc_template').values(rows).execute();
  return { templates: rows.length };
}

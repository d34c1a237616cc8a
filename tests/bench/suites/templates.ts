/**
 * 模板管理 rendering (issue 29: template rendering in bulk runs as a job): the demo 党员身份证明 filled for 500
 * records (BULK_LIMIT, one bulk job's most) as Word documents, then laid out as one PDF (one font subset for
 * all), as the bulk job does — in memory, without the database (the job's reads are one record each).
 * The issue names no budget; the figures tell how long the longest job runs. Run alone: `npm run bench templates`.
 */
import { buildDocx } from '../../../src/server/domain/templates/docx-build.js';
import { docxToPdf } from '../../../src/server/domain/templates/docx-pdf.js';
import { BULK_LIMIT } from '../../../src/server/domain/templates/index.js';
import { renderDocx } from '../../../src/server/domain/templates/placeholders.js';
import type { BenchResult } from '../lib.js';

const SUITE = 'templates';
const SURNAMES = '王李张刘陈杨赵黄周吴';

export async function templatesSuite(): Promise<BenchResult[]> {
  const template = buildDocx([
    { text: '党员身份证明', align: 'center', size: 22, bold: true },
    { text: '兹证明{姓名}同志（性别：{性别}，身份证号：{身份证号}），系{所在党支部}党员，于{入党日期}加入中国共产党，现党籍状态为{党籍状态}。', indent: true, size: 14 },
    { table: [['姓名', '{姓名}', '性别', '{性别}'], ['所在党支部', '{所在党支部}', '入党日期', '{入党日期}']] },
    { text: '{今天}', align: 'right', size: 14 },
  ]);
  const data = (i: number) => ({
    姓名: `${SURNAMES[i % 10]}${SURNAMES[(i * 7) % 10]}${i}`, 性别: i % 2 ? '男' : '女', 身份证号: '110101********1234',
    所在党支部: `计算机学院第${(i % 40) + 1}党支部`, 入党日期: `20${10 + (i % 15)}年7月1日`, 党籍状态: '正常', 今天: '2026年11月27日',
  });
  let t0 = performance.now();
  const filled = Array.from({ length: BULK_LIMIT }, (_, i) => renderDocx(template, data(i)));
  const docxMs = performance.now() - t0;
  t0 = performance.now();
  const merged = await docxToPdf(filled, '党员身份证明（500份）');
  const pdfMs = performance.now() - t0;
  return [
    { suite: SUITE, name: `${BULK_LIMIT} 份 docx 填充（党员身份证明）`, value: Math.round(docxMs), unit: 'ms' },
    { suite: SUITE, name: `${BULK_LIMIT} 份填充后排版为一个 PDF`, value: Math.round(pdfMs), unit: 'ms', note: `${(merged.length / 1024 / 1024).toFixed(1)} MB` },
  ];
}

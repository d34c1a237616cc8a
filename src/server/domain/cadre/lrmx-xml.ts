/**
 * Reading the .lrmx file the 干部任免审批表 software (中组部, versions 3.x) writes: an XML document with one
 * `Person` element whose children are the form's fields (XingMing 姓名, XingBie 性别, ChuShengNianYue 出生年月
 * as 197805, MinZu, JiGuan, ChuShengDi, RuDangShiJian, CanJiaGongZuoShiJian, JianKangZhuangKuang,
 * ZhuanYeJiShuZhiWu, ShuXiZhuanYeYouHeZhuanChang, QuanRiZhiJiaoYu_XueLi / _XueWei / _XueLi_BiYeYuanXiaoXi,
 * ZaiZhiJiaoYu_*, XianRenZhiWu, NiRenZhiWu, NiMianZhiWu, JianLi 简历 (one line per entry), JiangChengQingKuang,
 * NianDuKaoHeJieGuo, RenMianLiYou, JiaTingChengYuan/Item (ChengWei, XingMing, ChuShengRiQi, ZhengZhiMianMao,
 * GongZuoDanWeiJiZhiWu), ShenFenZheng, ZhaoPian (a base64 JPEG), TianBiaoShiJian, TianBiaoRen). The document
 * is flat (one level, plus the family's items). It is read by a real, streaming XML parser (saxes: linear in
 * the input, no DTD entities expanded), capped in size, element count and depth, so a crafted file costs
 * little and a malformed one answers 400 (issue 38 item 10); `lrmxXml` writes the same fields back.
 */
import { SaxesParser } from 'saxes';
import { HttpError } from '../../errors.js';

export interface LrmxFamilyItem {
  ChengWei: string;
  XingMing: string;
  ChuShengRiQi: string;
  ZhengZhiMianMao: string;
  GongZuoDanWeiJiZhiWu: string;
}

export interface LrmxPerson {
  fields: Record<string, string>;
  family: LrmxFamilyItem[];
}

/** Limits of one file: a real form is some kilobytes plus its photo, some 40 elements plus the family's. */
export const LRMX_LIMITS = { bytes: 4 * 1024 * 1024, elements: 2000, depth: 6 } as const;
const FAMILY_KEYS = ['ChengWei', 'XingMing', 'ChuShengRiQi', 'ZhengZhiMianMao', 'GongZuoDanWeiJiZhiWu'] as const;

const invalid = (why: string) => new HttpError(400, `不是有效的任免审批表文件（.lrmx）：${why}`);

/** The file's text: UTF-8 unless the declaration names a GB encoding (older versions). */
export function lrmxText(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /encoding\s*=\s*["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  const encoding = declared && /^(gb2312|gbk|gb18030)$/.test(declared) ? 'gb18030' : 'utf-8';
  return new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
}

export function parseLrmx(text: string): LrmxPerson {
  if (Buffer.byteLength(text) > LRMX_LIMITS.bytes) throw invalid(`文件超过${LRMX_LIMITS.bytes / 1024 / 1024}MB`);
  const fields: Record<string, string> = {};
  const family: LrmxFamilyItem[] = [];
  const path: string[] = [];
  let item: Record<string, string> | null = null;
  let buffer = '';
  let elements = 0;
  let sawPerson = false;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (++elements > LRMX_LIMITS.elements) throw invalid(`元素超过${LRMX_LIMITS.elements}个`);
    if (path.length >= LRMX_LIMITS.depth) throw invalid(`嵌套超过${LRMX_LIMITS.depth}层`);
    path.push(tag.name);
    buffer = '';
    if (path.length === 1 && tag.name === 'Person') sawPerson = true;
    if (path.length === 3 && path[1] === 'JiaTingChengYuan' && tag.name === 'Item') item = {};
  });
  parser.on('text', (t) => (buffer += t));
  parser.on('cdata', (t) => (buffer += t));
  parser.on('closetag', () => {
    const depth = path.length;
    const name = path.pop() as string;
    if (path[0] !== 'Person') return;
    if (depth === 2 && name !== 'JiaTingChengYuan') fields[name] = name === 'JianLi' ? buffer.replace(/\r\n?/g, '\n') : buffer.trim();
    else if (depth === 4 && item && path[2] === 'Item') item[name] = buffer.trim();
    else if (depth === 3 && name === 'Item' && item) {
      const f = item;
      const member = Object.fromEntries(FAMILY_KEYS.map((k) => [k, f[k] ?? ''])) as unknown as LrmxFamilyItem;
      if (member.XingMing || member.ChengWei) family.push(member);
      item = null;
    }
    buffer = '';
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw invalid(`XML 格式错误（${(error as Error).message.replace(/\.$/, '')}）`);
  }
  if (!sawPerson) throw new HttpError(400, '不是有效的任免审批表文件（.lrmx）：没有找到 Person 节点');
  if (!fields.XingMing) throw new HttpError(400, '任免审批表文件中没有姓名（XingMing）');
  return { fields, family };
}

const escapeXml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');

/** The .lrmx document of a person: the fields in the order given, then the family's items (UTF-8). */
export function lrmxXml(person: LrmxPerson): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<Person>'];
  for (const [k, v] of Object.entries(person.fields)) lines.push(`  <${k}>${escapeXml(v)}</${k}>`);
  lines.push('  <JiaTingChengYuan>');
  for (const m of person.family) lines.push('    <Item>', ...FAMILY_KEYS.map((k) => `      <${k}>${escapeXml(m[k])}</${k}>`), '    </Item>');
  lines.push('  </JiaTingChengYuan>', '</Person>', '');
  return lines.join('\n');
}

/** 197805, 1978.05, 1978-05, 1978年5月, 19780506 → 1978-05 (year and month), or null. */
export function lrmxMonth(value: string | undefined): string | null {
  const m = /^(\d{4})\D{0,2}(\d{1,2})/.exec((value ?? '').trim());
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? `${m[1]}-${String(month).padStart(2, '0')}` : null;
}

/** The résumé's lines: `1996.09--2000.07  某某大学学习` (an open end: `2019.01--`); a line without dates continues the one before. */
export function resumeEntries(text: string | undefined): { start: string; end: string | null; text: string }[] {
  const entries: { start: string; end: string | null; text: string }[] = [];
  for (const raw of (text ?? '').split('\n')) {
    const line = raw.replace(/\u3000/g, ' ').trim();
    if (!line) continue;
    const m = /^(\d{4})[.．\-/年](\d{1,2})月?\s*(?:[-—–~至]+\s*(?:(\d{4})[.．\-/年](\d{1,2})月?)?)?\s*(.*)$/.exec(line);
    const start = m ? lrmxMonth(`${m[1]}.${m[2]}`) : null;
    if (m && start) entries.push({ start, end: m[3] ? lrmxMonth(`${m[3]}.${m[4]}`) : null, text: m[5].trim() });
    else if (entries.length) entries[entries.length - 1].text += line;
  }
  return entries;
}

/**
 * Reading the .lrmx file the 干部任免审批表 software (中组部, versions 3.x) writes: an XML document with one
 * `Person` element whose children are the form's fields (XingMing 姓名, XingBie 性别, ChuShengNianYue 出生年月
 * as 197805, MinZu, JiGuan, ChuShengDi, RuDangShiJian, CanJiaGongZuoShiJian, JianKangZhuangKuang,
 * ZhuanYeJiShuZhiWu, ShuXiZhuanYeYouHeZhuanChang, QuanRiZhiJiaoYu_XueLi / _XueWei / _XueLi_BiYeYuanXiaoXi,
 * ZaiZhiJiaoYu_*, XianRenZhiWu, NiRenZhiWu, NiMianZhiWu, JianLi 简历 (one line per entry), JiangChengQingKuang,
 * NianDuKaoHeJieGuo, RenMianLiYou, JiaTingChengYuan/Item (ChengWei, XingMing, ChuShengRiQi, ZhengZhiMianMao,
 * GongZuoDanWeiJiZhiWu), ShenFenZheng, ZhaoPian (a base64 JPEG), TianBiaoShiJian, TianBiaoRen). The document
 * is flat (one level, plus the family's items), so a small reader does; entities and CDATA are decoded.
 */
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

const ELEMENT = /<([A-Za-z_][\w.-]*)(?:\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1\s*>)/g;

function decode(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, c: string) => c.replace(/&/g, '&amp;').replace(/</g, '&lt;'))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function children(xml: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of xml.matchAll(ELEMENT)) out.push([m[1], m[2] ?? '']);
  return out;
}

/** The file's text: UTF-8 unless the declaration names a GB encoding (older versions). */
export function lrmxText(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /encoding\s*=\s*["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  const encoding = declared && /^(gb2312|gbk|gb18030)$/.test(declared) ? 'gb18030' : 'utf-8';
  return new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
}

export function parseLrmx(text: string): LrmxPerson {
  const body = text.replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const person = /<Person(?:\s[^>]*)?>([\s\S]*)<\/Person\s*>/.exec(body);
  if (!person) throw new HttpError(400, '不是有效的任免审批表文件（.lrmx）：没有找到 Person 节点');
  const fields: Record<string, string> = {};
  const family: LrmxFamilyItem[] = [];
  for (const [name, content] of children(person[1])) {
    if (name === 'JiaTingChengYuan') {
      for (const [item, itemContent] of children(content)) {
        if (item !== 'Item') continue;
        const f = Object.fromEntries(children(itemContent).map(([k, v]) => [k, decode(v).trim()]));
        const member = { ChengWei: f.ChengWei ?? '', XingMing: f.XingMing ?? '', ChuShengRiQi: f.ChuShengRiQi ?? '', ZhengZhiMianMao: f.ZhengZhiMianMao ?? '', GongZuoDanWeiJiZhiWu: f.GongZuoDanWeiJiZhiWu ?? '' };
        if (member.XingMing || member.ChengWei) family.push(member);
      }
    } else {
      fields[name] = name === 'JianLi' ? decode(content).replace(/\r\n?/g, '\n') : decode(content).trim();
    }
  }
  if (!fields.XingMing) throw new HttpError(400, '任免审批表文件中没有姓名（XingMing）');
  return { fields, family };
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

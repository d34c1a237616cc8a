/**
 * The .lrmx file of a cadre (the XML the national 干部任免审批表 software reads and writes) built from the
 * cadre base: the fields the import reads (lrmx.ts FIELD_MAP, labels for dictionary codes, months as
 * 197805), the résumé, family, the form's other boxes and the photo; many cadres as a zip. Records are read
 * through the record service (`get`: the caller's scope, id numbers masked unless the caller may edit the
 * cadre, full reads logged), never by a bare select; the form's other parts come from lrmxForm, which does
 * the same. And the zip an import brings: its .lrmx entries, capped in number and size (a zip bomb is
 * refused before it is inflated).
 */
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import JSZip from 'jszip';
import { fileRefToken } from '../../core/files/store.js';
import { fileStoreOf } from '../../core/files/upload.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../../runtime/hooks.js';
import { isMasked } from '../../runtime/sensitive.js';
import { lrmxForm } from './lrmx.js';
import { LRMX_FIELDS } from './lrmx-fields.js';
import { LRMX_LIMITS, lrmxXml, type LrmxPerson } from './lrmx-xml.js';

const month = (v: unknown) => (typeof v === 'string' && v.length >= 7 ? `${v.slice(0, 4)}${v.slice(5, 7)}` : '');
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The photo of the store as base64 (ZhaoPian), when it is one the store holds. */
async function photoBase64(app: FastifyInstance, photo: unknown): Promise<string> {
  const token = fileRefToken(typeof photo === 'string' ? photo : null);
  if (!token) return '';
  try {
    const store = fileStoreOf(app);
    return (await fs.promises.readFile(store.pathOf(await store.get(token)))).toString('base64');
  } catch {
    return '';
  }
}

/** One cadre's .lrmx document (404 out of the caller's scope, as the record API answers). */
export async function lrmxFileOf(app: FastifyInstance, cadreId: number, actor: Actor): Promise<{ name: string; xml: string }> {
  const c = await app.runtime.records('cadre').get(cadreId, actor);
  const form = await lrmxForm(app, cadreId, actor);
  const fields: Record<string, string> = {};
  for (const f of LRMX_FIELDS) {
    const v = c[f.field];
    if (f.field === 'idCard' && isMasked(v)) continue; // a masked number is no number: the file goes without it
    fields[f.tag] = f.dict ? str(c[`${f.field}Label`] ?? v) : f.kind === 'month' ? month(v) : str(v);
  }
  Object.assign(fields, {
    QuanRiZhiJiaoYu_XueLi: form.fullTimeEducation || fields.QuanRiZhiJiaoYu_XueLi,
    QuanRiZhiJiaoYu_XueWei: form.fullTimeDegree || fields.QuanRiZhiJiaoYu_XueWei,
    ZaiZhiJiaoYu_XueLi: form.partTimeEducation,
    ZaiZhiJiaoYu_XueWei: form.partTimeDegree,
    ZaiZhiJiaoYu_XueLi_BiYeYuanXiaoXi: form.partTimeSchool,
    XianRenZhiWu: fields.XianRenZhiWu || form.currentPost,
    NiRenZhiWu: form.proposedPost,
    NiMianZhiWu: form.proposedRemoval,
    JianLi: form.resume.join('\n'),
    JiangChengQingKuang: form.rewards,
    NianDuKaoHeJieGuo: form.assessments,
    RenMianLiYou: form.reason,
    ZhaoPian: await photoBase64(app, c.photo),
    TianBiaoShiJian: form.filledAt.replace('.', ''),
  });
  const person: LrmxPerson = {
    fields,
    family: form.family.map((m) => ({ ChengWei: m.relation, XingMing: m.name, ChuShengRiQi: m.birth.replace('.', ''), ZhengZhiMianMao: m.political, GongZuoDanWeiJiZhiWu: m.workplace })),
  };
  return { name: str(c.name), xml: lrmxXml(person) };
}

/** Most cadres one zip export names (a 组织部's batch, not the whole base at once). */
export const LRMX_ZIP_MAX = 500;

/** Many cadres' files in one zip, named `姓名.lrmx` (a number added when two share a name). */
export async function lrmxZipOf(app: FastifyInstance, ids: number[], actor: Actor): Promise<Buffer> {
  if (!ids.length) throw new HttpError(400, '请选择要导出的干部');
  if (ids.length > LRMX_ZIP_MAX) throw new HttpError(400, `一次最多导出${LRMX_ZIP_MAX}名干部的任免审批表`);
  const zip = new JSZip();
  const used = new Set<string>();
  for (const id of ids) {
    const f = await lrmxFileOf(app, id, actor);
    let name = `${f.name}.lrmx`;
    for (let n = 2; used.has(name); n++) name = `${f.name}(${n}).lrmx`;
    used.add(name);
    zip.file(name, f.xml);
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Most files one imported zip may hold. */
export const LRMX_ZIP_FILES = 500;

const isZip = (bytes: Buffer) => bytes.subarray(0, 4).toString('hex') === '504b0304';

/** The .lrmx entries of an uploaded zip (or the one file itself): name and bytes; other entries are ignored. */
export async function lrmxEntries(bytes: Buffer, filename: string): Promise<{ name: string; bytes: Buffer }[]> {
  if (!isZip(bytes)) return [{ name: filename, bytes }];
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new HttpError(400, '压缩包已损坏，无法读取');
  }
  const files = Object.values(zip.files).filter((f) => !f.dir && /\.lrmx$/i.test(f.name) && !f.name.startsWith('__MACOSX/'));
  if (!files.length) throw new HttpError(400, '压缩包中没有任免审批表文件（.lrmx）');
  if (files.length > LRMX_ZIP_FILES) throw new HttpError(400, `压缩包中的任免审批表文件超过${LRMX_ZIP_FILES}个`);
  const out: { name: string; bytes: Buffer }[] = [];
  for (const f of files) {
    // The central directory states each entry's size: refuse before inflating (a zip bomb).
    const size = (f as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0;
    if (size > LRMX_LIMITS.bytes) throw new HttpError(400, `文件“${f.name}”超过${LRMX_LIMITS.bytes / 1024 / 1024}MB`);
    const content = await f.async('nodebuffer');
    if (content.length > LRMX_LIMITS.bytes) throw new HttpError(400, `文件“${f.name}”超过${LRMX_LIMITS.bytes / 1024 / 1024}MB`);
    out.push({ name: f.name.split('/').pop() as string, bytes: content });
  }
  return out;
}
